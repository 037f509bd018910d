"""docs/rules.md, Phase 5 payout: chosen plants, hybrid mix, cap by cities, the default choice."""

from __future__ import annotations

import pytest

import powergrid as pg

from .positions import (
    act,
    fill_hands,
    game,
    give_cities,
    give_plants,
    refused,
    set_market_res,
    set_resources,
    to_phase,
)


def _phase5(plants: tuple[int, ...], cities: int, **res: int) -> pg.GameState:
    s = game(4, seed=0)
    fill_hands(s)
    give_plants(s, 0, *plants)
    set_resources(s, 0, **res)
    give_cities(s, 0, cities)
    to_phase(s, pg.Phase.BUREAUCRACY, order=(0, 1, 2, 3), round=5)
    return s


def test_bureaucracy_in_player_order() -> None:
    s = _phase5((13,), 1)
    to_phase(s, pg.Phase.BUREAUCRACY, order=(2, 0, 3, 1))
    seen = []
    while s.phase == pg.Phase.BUREAUCRACY:
        seen.append(s.current_player)
        act(s, "power nothing")
    assert seen == [2, 0, 3, 1]


def test_every_way_to_run_the_plants_is_listed_and_nothing_else() -> None:
    s = _phase5((3, 5), 3, coal=1, oil=3)
    assert set(s.legal_actions()) == {
        pg.parse_action("power nothing"),
        pg.parse_action("power 3 burn 2oil"),
        pg.parse_action("power 5 burn 1coal 1oil"),
        pg.parse_action("power 5 burn 2oil"),
        pg.parse_action("power 3 5 burn 1coal 3oil"),
    }
    assert len(s.legal_actions()) == 5


def test_hybrid_mix_is_the_players_choice_and_burns_to_the_supply() -> None:
    s = _phase5((3, 5), 3, coal=1, oil=3)
    supply = list(s.supply)
    act(s, "power 5 burn 2oil")
    assert s.resources_of(0) == (1, 1, 0, 0)
    assert s.supply[1] == supply[1] + 2 and s.supply[0] == supply[0]
    assert s.money[0] == 50 + 22 and s.powered[0] == 1


def test_a_plant_runs_fully_or_not_at_all_and_only_once() -> None:
    s = _phase5((10,), 2, coal=3)
    refused(s, "power 10 burn 1coal")
    refused(s, "power 10 burn 3coal")
    with pytest.raises(pg.MalformedAction):
        pg.parse_action("power 10 10 burn 4coal")
    err = refused(s, "power 12 burn 2coal")
    assert "does not own" in err.reason
    refused(s, "done")
    refused(s, "build Essen")


def test_payout_is_capped_by_cities_owned() -> None:
    s = _phase5((15, 20), 2, coal=5)               # 3 + 5 cities of power
    assert s.powerable(0) == 2
    act(s, "power 15 20 burn 5coal")
    assert s.money[0] == 50 + 33 and s.powered[0] == 2


def test_a_player_may_power_fewer_cities_than_possible() -> None:
    s = _phase5((4, 8), 3, coal=5)
    act(s, "power 4 burn 2coal")
    assert s.money[0] == 50 + 22 and s.resources_of(0)[0] == 3


def test_ecological_and_fusion_plants_burn_nothing() -> None:
    s = _phase5((13, 50), 10)
    assert pg.default_power(s, 0) == pg.Action.power((13, 50), (0, 0, 0, 0))
    act(s, "power 13 50 burn nothing")
    assert s.money[0] == 50 + 82


def test_default_powers_the_most_cities() -> None:
    s = _phase5((3, 4), 2, coal=2, oil=2)
    assert pg.default_power(s, 0) == pg.Action.power((3, 4), (2, 2, 0, 0))


def test_default_then_burns_the_cheapest_resources_by_market_value() -> None:
    s = _phase5((3, 4), 1, coal=2, oil=2)
    assert pg.default_power(s, 0) == pg.parse_action("power 4 burn 2coal")      # coal 1, oil 3
    set_market_res(s, 0, 1)                                                    # coal now 8
    assert pg.default_power(s, 0) == pg.parse_action("power 3 burn 2oil")


def test_default_hybrid_mix_is_the_cheaper_fuel() -> None:
    s = _phase5((5,), 1, coal=2, oil=2)
    assert pg.default_power(s, 0) == pg.parse_action("power 5 burn 2coal")
    set_market_res(s, 0, 2)                                                    # coal 8, oil 3
    assert pg.default_power(s, 0) == pg.parse_action("power 5 burn 2oil")


def test_zero_cities_pays_ten_and_twenty_or_more_pay_150() -> None:
    s = _phase5((50, 44, 13), 21)                # 6 + 5 + 1 = 12 cities
    act(s, "power 13 44 50 burn nothing")
    assert s.money[0] == 50 + 118
    act(s, "power nothing")
    assert s.money[1] == 60
    assert pg.catalog().pay(20) == pg.catalog().pay(22) == 150


def test_powerable_is_the_best_option_capped_by_cities_whatever_the_memo_holds() -> None:
    # best_powered keeps each holding's best in a memo shared by states of the scenario: states
    # with the same plants and resources but different cities must each get their own cap
    import random

    from powergrid.rules import bureaucracy

    rng = random.Random(3)
    checked = 0
    for seed in range(3):
        state = pg.new_game(pg.GameConfig(map="germany", players=4, seed=seed))
        while not state.is_over:
            for seat in range(state.players):
                expected = max(min(cities, len(state.cities[seat])) for _, _, cities in
                               bureaucracy.options(state, seat))
                assert state.powerable(seat) == expected
                checked += 1
            state.apply(rng.choice(state.legal_actions()))
    assert checked >= 4000
