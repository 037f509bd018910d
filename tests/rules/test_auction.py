"""docs/rules.md, Phase 2: the auction, the plant limit, the no-sale removal, round-1 order."""

from __future__ import annotations

import pytest

import powergrid as pg

from .positions import (
    act,
    game,
    give_plants,
    play_round1,
    refused,
    set_deck,
    set_market,
    set_market_res,
    set_resources,
    stack_deck,
    to_phase,
)


def _round2(order: tuple[int, ...] = (3, 0, 1, 2)) -> pg.GameState:
    """Seed 0, 4 players: seating (2, 1, 0, 3); round 2 with an order unlike the seating."""
    s = game(4, seed=0)
    assert s.seating == (2, 1, 0, 3)
    for seat in range(4):
        give_plants(s, seat, 20 + seat)
    to_phase(s, pg.Phase.AUCTION, order=order, round=2)
    return s


def test_round1_opener_is_first_in_order_and_may_open_any_current_plant_at_any_amount() -> None:
    s = game(4, seed=0)
    assert s.current_player == s.order[0] == 2
    legal = s.legal_actions()
    expected = [pg.Action.open(p, b) for p in (3, 4, 5, 6) for b in range(p, 51)]
    assert legal == expected                      # no pass, no bid, no future plant
    err = refused(s, "pass")
    assert "round 1" in err.reason
    refused(s, "open 7 7")                        # future market
    refused(s, "open 5 4")                        # below the number
    refused(s, "open 5 51")                       # above the money
    refused(s, "bid 5")                           # no auction is running
    refused(s, "done")
    refused(s, "buy 1 coal")


def test_round1_everybody_buys_then_order_by_plants() -> None:
    s = game(4, seed=0)
    act(s, "open 3 3")
    for _ in range(3):
        act(s, "pass")
    assert s.plants[2] == (3,) and s.money[2] == 47
    assert s.market == [4, 5, 6, 7, 8, 9, 10, 13]       # 13 drawn from the top, sorted in
    assert s.current_player == 1
    play_round1(s)
    assert [s.plants[p] for p in range(4)] == [(5,), (4,), (3,), (6,)]
    assert s.order == (3, 0, 1, 2)                      # highest plant first
    assert s.phase == pg.Phase.RESOURCES and s.current_player == 2


def test_bidding_goes_in_seating_order_after_the_high_bidder() -> None:
    s = _round2()
    assert s.current_player == 3                  # first in player order opens
    act(s, "open 6 6")
    assert s.current_player == 2                  # seating after 3 wraps round to 2
    assert s.legal_actions() == [pg.Action.bid(b) for b in range(7, 51)] + [pg.Action.pass_()]
    act(s, "bid 7")
    assert s.current_player == 1                  # after the new high bidder 2
    act(s, "pass")                                # 1 leaves this auction
    assert s.current_player == 0
    act(s, "bid 8")
    assert s.current_player == 3
    act(s, "pass")
    assert s.current_player == 2                  # 1 is out of this auction
    refused(s, "bid 8")                           # not above the current bid
    refused(s, "open 3 3")
    act(s, "pass")
    assert s.plants[0] == (6, 20) and s.money[0] == 50 - 8
    assert s.money[1] == s.money[2] == s.money[3] == 50
    # someone other than the opener won, so the opener (3) chooses again
    assert s.current_player == 3 and s.auc_plant == 0
    act(s, "open 3 3")
    assert s.current_player == 2                  # 0 has bought: skipped from now on
    act(s, "pass")
    assert s.current_player == 1                  # 1 passed only the last auction
    act(s, "pass")
    assert s.plants[3] == (3, 23) and s.money[3] == 47


def test_a_bid_never_exceeds_the_bidders_money() -> None:
    s = _round2()
    s.money[2] = 12
    act(s, "open 6 10")
    assert s.current_player == 2
    assert s.legal_actions() == [pg.Action.bid(11), pg.Action.bid(12), pg.Action.pass_()]
    err = refused(s, "bid 13")
    assert "12" in err.reason
    s.money[2] = 10
    assert s.legal_actions() == [pg.Action.pass_()]


def test_an_opener_with_little_money_sees_only_affordable_plants() -> None:
    s = _round2()
    s.money[3] = 8
    set_market(s, 7, 8, 9, 10, 11, 12, 14, 15)
    legal = s.legal_actions()
    assert legal == [pg.Action.open(7, 7), pg.Action.open(7, 8), pg.Action.open(8, 8), pg.Action.pass_()]


def test_an_opener_who_passes_is_out_of_the_phase() -> None:
    s = _round2()
    act(s, "pass")                                # 3 passes as opener
    assert s.current_player == 0
    act(s, "open 4 4")
    assert s.current_player == 2                  # seating after 0 is 3, but 3 is out
    act(s, "pass")
    act(s, "pass")                                # 1
    assert s.plants[0] == (4, 20)
    assert s.current_player == 1
    act(s, "open 5 5")
    assert s.current_player == 2                  # seating after 1 is 0 (done), 3 (out), 2
    act(s, "pass")
    assert s.plants[1] == (5, 21)
    assert s.current_player == 2
    act(s, "open 6 6")                            # the last one: nobody can bid against 2
    assert s.plants[2] == (6, 22) and s.money[2] == 44
    assert s.plants[3] == (23,)
    assert s.phase == pg.Phase.RESOURCES


def test_the_last_player_to_open_pays_the_minimum() -> None:
    s = game(3, seed=2)
    act(s, f"open 3 {10}")
    for _ in range(2):
        act(s, "pass")
    act(s, "open 4 4")
    act(s, "pass")
    seat = s.current_player
    legal = s.legal_actions()
    assert legal == [pg.Action.open(p, p) for p in s.current_market()]
    err = refused(s, "open 6 7")
    assert "minimum" in err.reason
    act(s, "open 6 6")
    assert s.money[seat] == 44 and 6 in s.plants[seat]
    assert s.phase == pg.Phase.RESOURCES


def test_no_sale_in_a_round_after_the_first_boxes_the_lowest_plant() -> None:
    s = _round2()
    stack_deck(s, 30)
    for _ in range(4):
        assert pg.Action.pass_() in s.legal_actions()
        act(s, "pass")
    assert 3 in s.boxed
    assert s.market == [4, 5, 6, 7, 8, 9, 10, 30]
    assert s.phase == pg.Phase.RESOURCES
    assert s.order == (3, 0, 1, 2)                # only round 1 re-orders after the auction


def test_a_sale_in_the_phase_keeps_the_market() -> None:
    s = _round2()
    act(s, "open 3 3")
    for _ in range(3):
        act(s, "pass")
    top = s.market[:]
    for _ in range(3):
        act(s, "pass")
    assert s.market == top and s.phase == pg.Phase.RESOURCES


def _limit_position() -> pg.GameState:
    s = _round2()
    give_plants(s, 3, 4, 5, 9)                    # coal 4, hybrid 4, oil 2
    set_resources(s, 3, coal=4, oil=4)
    set_market(s, 3, 6, 8, 13, 14, 15, 16, 17)
    act(s, "open 13 13")
    for _ in range(3):
        act(s, "pass")
    return s


def test_plant_limit_discard_an_older_plant_choosing_the_hybrid_mix() -> None:
    s = _limit_position()
    assert s.plants[3] == (4, 5, 9, 13)
    assert s.discard_seat == 3 and s.current_player == 3
    legal = s.legal_actions()
    assert set(legal) == {
        pg.Action.discard(4, (4, 2, 0, 0)), pg.Action.discard(4, (3, 3, 0, 0)),
        pg.Action.discard(4, (2, 4, 0, 0)), pg.Action.discard(5, (4, 2, 0, 0)),
        pg.Action.discard(9, (4, 4, 0, 0)),
    }
    refused(s, "discard 13 keep 4coal 4oil")      # never the plant just bought
    refused(s, "discard 4 keep 4coal 4oil")       # does not fit on 5 and 9
    refused(s, "discard 4 keep 1coal 1oil")       # must keep what fits
    refused(s, "pass")
    refused(s, "open 6 6")
    supply = list(s.supply)
    act(s, "discard 4 keep 3coal 3oil")
    assert s.plants[3] == (5, 9, 13)
    assert 4 in s.boxed
    assert s.resources_of(3) == (3, 3, 0, 0)
    assert s.supply[0] == supply[0] + 1 and s.supply[1] == supply[1] + 1
    assert s.discard_seat == -1 and s.current_player == 0


def test_plant_limit_discard_sends_what_does_not_fit_to_the_supply() -> None:
    s = _limit_position()
    supply = list(s.supply)
    act(s, "discard 5 keep 4coal 2oil")
    assert s.resources_of(3) == (4, 2, 0, 0) and s.supply[1] == supply[1] + 2


@pytest.mark.parametrize("players, limit", [(2, 4), (3, 3), (4, 3), (5, 3), (6, 3)])
def test_plant_limit_by_player_count(players: int, limit: int) -> None:
    s = game(players, seed=1)
    held = (20, 21, 22, 23)[:limit]
    opener = s.order[0]
    give_plants(s, opener, *held)
    to_phase(s, pg.Phase.AUCTION, round=3)
    s.apply(pg.Action.open(3, 3))
    while s.auc_plant:
        s.apply(pg.Action.pass_())
    assert len(s.plants[opener]) == limit + 1
    assert s.discard_seat == opener
    assert {a.plant for a in s.legal_actions()} == set(held)
    s.apply(s.legal_actions()[0])
    assert len(s.plants[opener]) == limit and 3 in s.plants[opener]
    s2 = game(players, seed=1)
    give_plants(s2, opener, *held[:-1])
    to_phase(s2, pg.Phase.AUCTION, round=3)
    s2.apply(pg.Action.open(3, 3))
    while s2.auc_plant:
        s2.apply(pg.Action.pass_())
    assert len(s2.plants[opener]) == limit and s2.discard_seat == -1


def test_deck_draw_after_each_purchase_in_order() -> None:
    s = _round2()
    set_deck(s, 25, 11, 40)
    act(s, "open 3 3")
    for _ in range(3):
        act(s, "pass")
    assert s.market == [4, 5, 6, 7, 8, 9, 10, 25]
    act(s, "open 4 4")
    for _ in range(2):
        act(s, "pass")
    assert s.market == [5, 6, 7, 8, 9, 10, 11, 25]
    assert s.current_market() == [5, 6, 7, 8] and s.future_market() == [9, 10, 11, 25]



def test_default_discard_keeps_the_most_valuable_resources() -> None:
    # docs/rules.md, Phase 2 ruling: where the kept mix is a choice, the default keeps the most valuable.
    s = _limit_position()
    def everything_on_market(r: int) -> None:
        set_market_res(s, r, s.market_res[r] + s.supply[r])

    set_market_res(s, 0, 3)        # coal scarce: its cheapest unit costs 8
    everything_on_market(1)        # oil plentiful: cheap
    assert pg.default_discard(s, 3, 4) == pg.Action.discard(4, (4, 2, 0, 0))
    everything_on_market(0)
    set_market_res(s, 1, 3)
    assert pg.default_discard(s, 3, 4) == pg.Action.discard(4, (2, 4, 0, 0))
    assert pg.default_discard(s, 3, 9) == pg.Action.discard(9, (4, 4, 0, 0))
    assert pg.default_discard(s, 3, 4) in s.legal_actions()
