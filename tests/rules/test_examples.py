"""The worked examples at the end of docs/rules.md, one test each."""

from __future__ import annotations

import powergrid as pg
from powergrid.rules.rounds import player_order

from .positions import (
    act,
    city,
    finish_phase,
    game,
    give_plants,
    place_houses,
    set_market_res,
    set_resources,
    set_supply,
    to_phase,
)


def test_order_six_five_five_four_with_ties_broken_by_highest_plant() -> None:
    s = game(4)
    # seat 2 has 6 cities, seats 0 and 3 have 5 (highest plants 15 and 17), seat 1 has 4.
    give_plants(s, 0, 4, 15)
    give_plants(s, 1, 5, 20)
    give_plants(s, 2, 3, 6)
    give_plants(s, 3, 10, 17)
    names = [s.scn.map.cities[c] for c in s.scn.board.in_play]
    place_houses(s, 2, *names[0:6])
    place_houses(s, 0, *names[6:11])
    place_houses(s, 3, *names[11:16])
    place_houses(s, 1, *names[16:20])
    assert player_order(s) == (2, 3, 0, 1)
    # The same order is what the next round actually uses.
    to_phase(s, pg.Phase.BUREAUCRACY, order=(0, 1, 2, 3), round=3)
    finish_phase(s)
    assert s.round == 4 and s.order == (2, 3, 0, 1)


def _max_buy(s: pg.GameState, r: int) -> int:
    return max([a.amount for a in s.legal_actions() if a.kind == "buy" and a.resource == r], default=0)


def test_storage_of_plants_03_05_13() -> None:
    s = game(4)
    to_phase(s, pg.Phase.RESOURCES, order=(1, 2, 3, 0), round=2)
    seat = s.current_player
    s.money[seat] = 500
    give_plants(s, seat, 3)
    assert (_max_buy(s, 0), _max_buy(s, 1), _max_buy(s, 2), _max_buy(s, 3)) == (0, 4, 0, 0)
    give_plants(s, seat, 5)
    assert (_max_buy(s, 0), _max_buy(s, 1)) == (4, 4)
    act(s, "buy 1 coal")
    assert (_max_buy(s, 0), _max_buy(s, 1)) == (3, 3)  # any mix of 4
    set_resources(s, seat)
    give_plants(s, seat, 13)
    assert s.legal_actions() == [pg.Action.done()]


def test_payout_six_cities_plants_07_10_15_fully_stocked() -> None:
    s = game(4)
    to_phase(s, pg.Phase.BUREAUCRACY, order=(0, 1, 2, 3), round=5)
    give_plants(s, 0, 7, 10, 15)
    set_resources(s, 0, coal=8, oil=6)   # 10 and 15 store 4 coal each; 07 stores 6 oil
    place_houses(s, 0, *[s.scn.map.cities[c] for c in s.scn.board.in_play[:6]])
    default = pg.default_power(s, 0)
    assert default == pg.Action.power((7, 10, 15), (4, 3, 0, 0))
    assert s.powerable(0) == 6
    money, supply = s.money[0], list(s.supply)
    s.apply(default)
    assert s.money[0] == money + 73
    assert s.resources_of(0) == (4, 3, 0, 0)
    assert s.supply[0] == supply[0] + 4 and s.supply[1] == supply[1] + 3
    assert s.powered[0] == 6


def test_payout_four_cities_and_zero_cities() -> None:
    s = game(4)
    to_phase(s, pg.Phase.BUREAUCRACY, order=(0, 1, 2, 3), round=5)
    give_plants(s, 0, 20)               # coal, 3 per run, 5 cities
    set_resources(s, 0, coal=3)
    place_houses(s, 0, *[s.scn.map.cities[c] for c in s.scn.board.in_play[:4]])
    before = s.money[0]
    s.apply(pg.default_power(s, 0))
    assert s.money[0] == before + 54
    before = s.money[1]
    give_plants(s, 1, 4)
    act(s, "power nothing")
    assert s.money[1] == before + 10


def test_building_on_germany_from_essen() -> None:
    s = game(4)
    to_phase(s, pg.Phase.BUILD, order=(1, 2, 3, 0), round=2)
    seat = s.current_player
    assert seat == 0
    place_houses(s, 0, "Essen")
    assert s.build_cost(0, "Duisburg") == 10       # connection 0
    assert s.build_cost(0, "Aachen") == 21         # 10 + 2 + 9 through Düsseldorf
    place_houses(s, 0, "Münster")
    assert s.build_cost(0, "Dortmund") == 12       # 10 + 2 from Münster
    money = s.money[0]
    act(s, "build Aachen")
    assert s.money[0] == money - 21


def test_building_in_step_2_duesseldorf_koeln_and_both() -> None:
    s = game(4)
    to_phase(s, pg.Phase.BUILD, order=(1, 2, 3, 0), round=6, step=2)
    place_houses(s, 0, "Essen")
    place_houses(s, 1, "Düsseldorf", "Köln")
    assert s.build_cost(0, "Düsseldorf") == 17     # 15 + 2
    assert s.build_cost(0, "Köln") == 21           # 15 + 2 + 4
    money = s.money[0]
    act(s, "build Düsseldorf")
    assert s.money[0] == money - 17
    assert s.build_cost(0, "Köln") == 19           # now from Düsseldorf: 15 + 4
    act(s, "build Köln")
    assert s.money[0] == money - 36
    assert s.houses[city(s, "Köln")] == (1, 0)


def test_resupply_five_players_step_1_short_coal_supply() -> None:
    s = game(5)
    to_phase(s, pg.Phase.BUREAUCRACY, order=(0, 1, 2, 3, 4), round=1)
    # Round 1 bought 10 coal, 2 oil, 1 garbage from the starting market.
    set_market_res(s, 0, 14)
    set_market_res(s, 1, 16)
    set_market_res(s, 2, 5)
    give_plants(s, 0, 4)
    give_plants(s, 1, 8)
    set_resources(s, 0, coal=4)
    set_resources(s, 1, coal=2)
    set_supply(s, 0, 4)                 # only 4 coal left in the supply
    assert s.supply[0] == 4 and s.market_res[0] == 14
    finish_phase(s)
    track = pg.catalog().tracks
    # coal: 1 on space 4 and 3 on space 3 -> 18 in the market, cheapest 3
    assert s.market_res[0] == 18 and s.supply[0] == 0
    assert track[0].slot_prices[24 - 18:24 - 14] == (3, 3, 3, 4)
    # oil: 2 on space 3 and 2 on space 2
    assert s.market_res[1] == 20
    assert track[1].slot_prices[24 - 20:24 - 16] == (2, 2, 3, 3)
    # garbage: 1 on space 7 and 2 on space 6
    assert s.market_res[2] == 8
    assert track[2].slot_prices[24 - 8:24 - 5] == (6, 6, 7)
    # uranium: 1 on 12 and 1 on 10
    assert s.market_res[3] == 4
    assert track[3].slot_prices[12 - 4:12 - 2] == (10, 12)
    assert s.price(0) == 3 and s.price(1) == 2 and s.price(2) == 6 and s.price(3) == 10
