"""docs/rules.md, Phase 3: buying resources (exact prices, storage with hybrids, sell-outs)."""

from __future__ import annotations

import powergrid as pg

from .positions import (
    COAL,
    GARBAGE,
    OIL,
    URANIUM,
    act,
    finish_phase,
    game,
    give_plants,
    refused,
    set_market_res,
    set_resources,
    to_phase,
)


def _phase3(plants: tuple[int, ...] = (4, 5), money: int = 200) -> pg.GameState:
    s = game(4, seed=0)
    for seat in range(4):
        give_plants(s, seat, 20 + seat)
    give_plants(s, 0, *plants)
    to_phase(s, pg.Phase.RESOURCES, order=(1, 2, 3, 0), round=2)
    s.money[0] = money
    assert s.current_player == 0
    return s


def _limits(s: pg.GameState) -> tuple[int, ...]:
    out = [0, 0, 0, 0]
    for a in s.legal_actions():
        if a.kind == "buy":
            out[a.resource] = max(out[a.resource], a.amount)
    return tuple(out)


def test_reverse_player_order() -> None:
    s = _phase3()
    seen = []
    while s.phase == pg.Phase.RESOURCES:
        seen.append(s.current_player)
        act(s, "done")
    assert seen == [0, 3, 2, 1]
    assert s.phase == pg.Phase.BUILD


def test_each_unit_costs_the_cheapest_filled_space() -> None:
    s = _phase3(plants=(4, 5, 11))
    act(s, "buy 4 coal")                       # 1 1 1 2
    assert s.money[0] == 200 - 5
    assert s.market_res[COAL] == 20 and s.resources_of(0)[COAL] == 4
    assert s.price(COAL) == 2
    act(s, "buy 3 oil")                        # 3 3 3
    assert s.money[0] == 200 - 5 - 9 and s.price(OIL) == 4
    act(s, "buy 2 uranium")                    # 14 16
    assert s.money[0] == 200 - 5 - 9 - 30
    assert s.price(URANIUM) is None            # sold out


def test_buy_cost_matches_the_track_for_every_amount() -> None:
    s = game(4)
    scn = s.scn
    coal_prices = [p for p in range(1, 9) for _ in range(3)]
    for in_market in range(25):
        for n in range(in_market + 1):
            start = 24 - in_market
            assert scn.buy_cost(COAL, in_market, n) == sum(coal_prices[start:start + n])
    assert scn.buy_cost(URANIUM, 5, 3) == 8 + 10 + 12   # spaces 8 10 12 14 16 filled


def test_storage_limits_with_hybrids_share_coal_and_oil() -> None:
    s = _phase3(plants=(4, 5, 9))              # coal 4, hybrid 4, oil 2
    assert _limits(s) == (8, 6, 0, 0)
    act(s, "buy 5 coal")
    assert _limits(s) == (3, 5, 0, 0)          # the hybrid holds one coal: 2 + 3 oil fit
    err = refused(s, "buy 6 oil")
    assert "store" in err.reason
    act(s, "buy 4 oil")
    assert _limits(s) == (1, 1, 0, 0)          # one hybrid space left, coal or oil
    act(s, "buy 1 oil")
    assert _limits(s) == (0, 0, 0, 0)
    assert s.legal_actions() == [pg.Action.done()]
    refused(s, "buy 1 coal")


def test_garbage_uranium_and_ecological_storage() -> None:
    s = _phase3(plants=(6, 11, 13))            # garbage 1, uranium 1, ecological
    assert _limits(s) == (0, 0, 2, 2)
    s2 = _phase3(plants=(13, 18, 22))
    assert s2.legal_actions() == [pg.Action.done()]


def test_resources_already_held_count_against_storage() -> None:
    s = _phase3(plants=(4, 5))
    set_resources(s, 0, coal=6, oil=1)
    assert _limits(s) == (1, 1, 0, 0)


def test_money_limits_the_purchase() -> None:
    s = _phase3(plants=(4, 5, 9), money=5)
    assert _limits(s) == (4, 1, 0, 0)          # coal 1+1+1+2 = 5; oil 3
    err = refused(s, "buy 5 coal")
    assert "costs" in err.reason


def test_a_sold_out_resource_cannot_be_bought() -> None:
    s = _phase3(plants=(4, 5))
    set_market_res(s, COAL, 2)
    assert _limits(s)[COAL] == 2
    act(s, "buy 2 coal")
    assert s.price(COAL) is None and s.market_res[COAL] == 0
    assert _limits(s)[COAL] == 0
    err = refused(s, "buy 1 coal")
    assert "only 0" in err.reason
    act(s, "done")                             # the next player finds it sold out too
    give_plants(s, 3, 8)
    assert _limits(s)[COAL] == 0


def test_no_plants_no_purchase() -> None:
    s = _phase3(plants=())
    assert s.legal_actions() == [pg.Action.done()]
    refused(s, "buy 1 garbage")
    refused(s, "build Essen")
    refused(s, "bid 3")


def test_garbage_exact_prices_from_the_start_market() -> None:
    s = _phase3(plants=(14, 19, 24))
    assert _limits(s)[GARBAGE] == 6            # only 6 in the market
    act(s, "buy 6 garbage")
    assert s.money[0] == 200 - (7 * 3 + 8 * 3)


def test_purchase_ends_into_building_then_bureaucracy() -> None:
    s = _phase3()
    finish_phase(s)
    assert s.phase == pg.Phase.BUILD and s.current_player == 0
    finish_phase(s)
    assert s.phase == pg.Phase.BUREAUCRACY and s.current_player == 1
