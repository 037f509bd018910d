"""docs/rules.md: the plant market over the game: city-count removal, Steps 2 and 3, updates."""

from __future__ import annotations

import pytest

import powergrid as pg
from powergrid.rules.catalog import STEP3

from .positions import (
    act,
    fill_hands,
    finish_phase,
    game,
    give_cities,
    give_plants,
    plant_places,
    refused,
    set_deck,
    set_market,
    set_market_res,
    stack_deck,
    to_phase,
)

RESUPPLY = {
    2: {1: (3, 2, 1, 1), 2: (4, 2, 2, 1), 3: (3, 4, 3, 1)},
    3: {1: (4, 2, 1, 1), 2: (5, 3, 2, 1), 3: (3, 4, 3, 1)},
    4: {1: (5, 3, 2, 1), 2: (6, 4, 3, 2), 3: (4, 5, 4, 2)},
    5: {1: (5, 4, 3, 2), 2: (7, 5, 3, 3), 3: (5, 6, 5, 2)},
    6: {1: (7, 5, 3, 2), 2: (9, 6, 5, 3), 3: (6, 7, 6, 3)},
}
STEP2_CITIES = {2: 10, 3: 7, 4: 7, 5: 7, 6: 6}


def _events(s: pg.GameState, kind: str) -> list[tuple]:
    return [e for e in s.events if e[0] == kind]


def _empty_resource_market(s: pg.GameState) -> None:
    for r in range(4):
        set_market_res(s, r, 0)


def _build(players: int = 4, step: int = 1, round: int = 4) -> pg.GameState:
    s = game(players, seed=0)
    fill_hands(s)
    to_phase(s, pg.Phase.BUILD, order=tuple(range(1, players)) + (0,), round=round, step=step)
    s.money = [500] * players
    assert s.current_player == 0
    return s


# ---------------------------------------------------------------- city-count removal
def test_city_count_removal_is_chained_and_spares_owned_plants() -> None:
    s = _build()
    give_plants(s, 1, 3)
    set_market(s, 4, 6, 7, 8, 9, 10, 11, 12)
    stack_deck(s, 5, 20, 21)
    give_cities(s, 0, 5)
    free = next(s.scn.map.cities[c] for c in s.scn.board.in_play if not s.houses[c])
    act(s, f"build {free}")                      # 6 cities: 4, drawn 5, then 6 go
    assert s.boxed[-3:] == (4, 5, 6)
    assert s.market == [7, 8, 9, 10, 11, 12, 20, 21]
    assert s.plants[1] == (3,)
    assert [e[2] for e in _events(s, "boxed")[-3:]] == ["cities"] * 3


def test_city_count_removal_when_a_plant_is_drawn_in_the_auction() -> None:
    s = game(4, seed=0)
    fill_hands(s)
    give_cities(s, 2, 12)
    set_market(s, 13, 14, 15, 16, 17, 18, 19, 20)
    stack_deck(s, 11, 30)
    to_phase(s, pg.Phase.AUCTION, order=(2, 0, 1, 3), round=5)
    act(s, "open 13 13")
    for _ in range(3):
        act(s, "pass")
    assert 11 in s.boxed
    assert s.market == [14, 15, 16, 17, 18, 19, 20, 30]


# ---------------------------------------------------------------- Step 2
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_step2_starts_after_phase4_at_the_player_count_threshold(players: int) -> None:
    below = _build(players)
    give_cities(below, 1, STEP2_CITIES[players] - 1)
    market = list(below.market)
    finish_phase(below)
    assert below.step == 1 and below.market == market

    s = _build(players)
    give_cities(s, 1, STEP2_CITIES[players] - 1)
    top = s.deck[-1]
    free = next(s.scn.map.cities[c] for c in s.scn.board.in_play if not s.houses[c])
    while s.current_player != 1:
        act(s, "done")
    act(s, f"build {free}")
    assert s.step == 1                            # not during phase 4
    assert s.build_cost(1, free) is None
    lowest = s.market[0]
    finish_phase(s)
    assert s.step == 2
    assert s.boxed[-1] == lowest and _events(s, "boxed")[-1][2] == "step2"
    assert top in s.market
    assert len(s.market) == 8


def test_step2_removal_happens_once_and_bureaucracy_resupplies_by_step2() -> None:
    s = _build(4)
    give_cities(s, 1, 7)
    _empty_resource_market(s)
    finish_phase(s)                               # build -> Step 2 starts
    assert s.step == 2
    finish_phase(s)                               # bureaucracy
    assert _events(s, "resupply")[-1][1] == RESUPPLY[4][2]
    step2_removals = len([e for e in _events(s, "boxed") if e[2] == "step2"])
    assert step2_removals == 1
    to_phase(s, pg.Phase.BUILD, order=s.order)
    give_cities(s, 2, 8)
    finish_phase(s)
    assert s.step == 2
    assert len([e for e in _events(s, "boxed") if e[2] == "step2"]) == 1


# ---------------------------------------------------------------- Step 3, drawn in phase 2
def test_step3_drawn_in_phase2() -> None:
    s = game(4, seed=0)
    fill_hands(s)
    set_market(s, 10, 11, 12, 13, 14, 15, 16, 17)
    stack_deck(s, STEP3)
    to_phase(s, pg.Phase.AUCTION, order=(0, 1, 2, 3), round=6, step=2)
    rest = [p for p in s.deck if p != STEP3]
    act(s, "open 10 10")
    for _ in range(3):
        act(s, "pass")
    assert s.market == [11, 12, 13, 14, 15, 16, 17, STEP3]   # the card sorts last
    assert s.current_market() == [11, 12, 13, 14]
    assert s.future_market() == [15, 16, 17, STEP3]
    assert sorted(s.deck) == sorted(rest) and s.deck != rest   # shuffled at once
    assert s.step == 2 and s.phase == pg.Phase.AUCTION
    refused(s, "open 15 15")
    top = s.deck[-1]
    act(s, "open 11 11")
    for _ in range(2):
        act(s, "pass")
    assert top in s.market or top in s.boxed                  # replacements are still drawn
    assert STEP3 in s.market and len(s.market) == 8
    lowest = [p for p in s.market if p != STEP3][0]
    finish_phase(s)                                           # the last two pass
    assert s.phase == pg.Phase.RESOURCES
    assert s.step == 3
    assert STEP3 not in s.market and lowest in s.boxed
    assert len(s.market) == 6
    assert s.current_market() == s.market and s.future_market() == []
    finish_phase(s)                                           # resources
    s.money[s.current_player] = 100
    s.houses[s.scn.board.in_play[0]] = (1, 2)
    assert s.build_cost(s.current_player, s.scn.board.in_play[0]) == 20


def test_step3_drawn_in_phase2_of_step1_skips_step2() -> None:
    s = game(4, seed=0)
    fill_hands(s)
    stack_deck(s, STEP3)
    to_phase(s, pg.Phase.AUCTION, order=(0, 1, 2, 3), round=3, step=1)
    act(s, "open 3 3")
    for _ in range(3):
        act(s, "pass")
    finish_phase(s)
    assert s.step == 3
    assert [e[1] for e in _events(s, "step")] == [3]
    finish_phase(s)                                           # resources
    give_cities(s, 1, 8)                                      # past the Step 2 count
    market = list(s.market)
    finish_phase(s)                                           # build
    assert s.step == 3 and s.market == market                 # no Step 2 removal


# ---------------------------------------------------------------- Step 3, drawn in phase 4
def test_step3_drawn_in_phase4_applies_from_phase5() -> None:
    s = _build(4, step=2)
    set_market(s, 4, 5, 6, 7, 8, 9, 10, 11)
    stack_deck(s, STEP3, 30)
    give_cities(s, 0, 3)
    _empty_resource_market(s)
    free = next(s.scn.map.cities[c] for c in s.scn.board.in_play if not s.houses[c])
    act(s, f"build {free}")                                   # 4 cities: 4 goes, the card comes
    assert 4 in s.boxed and 5 in s.boxed                      # the card takes the lowest with it
    assert s.market == [6, 7, 8, 9, 10, 11]                   # not replaced
    assert STEP3 not in s.deck and 30 in s.deck
    assert s.step == 2                                        # still Step 2 in phase 4
    assert len(s.current_market()) == 4
    finish_phase(s)
    assert s.step == 3 and s.phase == pg.Phase.BUREAUCRACY
    finish_phase(s)
    assert _events(s, "resupply")[-1][1] == RESUPPLY[4][3]    # that round's resupply uses Step 3
    assert 6 in s.boxed                                       # Step 3 market update: lowest out
    assert len(s.market) == 6


def test_step3_drawn_in_phase4_of_step1_skips_step2() -> None:
    s = _build(4, step=1)
    set_market(s, 7, 8, 9, 10, 11, 12, 13, 14)
    stack_deck(s, STEP3, 30)
    give_cities(s, 0, 6)
    free = next(s.scn.map.cities[c] for c in s.scn.board.in_play if not s.houses[c])
    act(s, f"build {free}")                                   # 7 cities: 7 goes, card, 8 goes
    assert s.market == [9, 10, 11, 12, 13, 14]
    finish_phase(s)
    assert s.step == 3
    assert [e[1] for e in _events(s, "step")] == [3]
    assert not [e for e in _events(s, "boxed") if e[2] == "step2"]
    assert s.market == [9, 10, 11, 12, 13, 14]


# ---------------------------------------------------------------- Step 3, drawn in phase 5
def test_step3_drawn_in_phase5_applies_from_the_next_round() -> None:
    s = game(4, seed=0)
    fill_hands(s)
    set_market(s, 10, 11, 12, 13, 14, 15, 16, 17)
    stack_deck(s, STEP3, 30)
    _empty_resource_market(s)
    to_phase(s, pg.Phase.BUREAUCRACY, order=(0, 1, 2, 3), round=7, step=2)
    finish_phase(s)
    assert _events(s, "resupply")[-1][1] == RESUPPLY[4][2]    # resupply before the card
    assert 17 in s.deck                                       # the highest went under the deck
    assert 10 in s.boxed                                      # the card took the lowest
    assert s.market == [11, 12, 13, 14, 15, 16]
    assert STEP3 not in s.deck and s.known_bottom == 0        # shuffled
    assert s.step == 3 and s.round == 8 and s.phase == pg.Phase.AUCTION
    assert s.current_market() == s.market
    assert pg.Action.open(16, 16) in s.legal_actions()


# ---------------------------------------------------------------- Step 3 market
def _step3_auction(deck: tuple[int, ...]) -> pg.GameState:
    s = game(4, seed=0)
    fill_hands(s)
    set_market(s, 20, 21, 22, 23, 24, 25)
    set_deck(s, *deck)
    to_phase(s, pg.Phase.AUCTION, order=(0, 1, 2, 3), round=12, step=3)
    return s


def test_step3_market_has_six_plants_all_current() -> None:
    s = _step3_auction((30, 31))
    assert s.current_market() == [20, 21, 22, 23, 24, 25]
    assert s.future_market() == []
    opens = {a.plant for a in s.legal_actions() if a.kind == "open"}
    assert opens == {20, 21, 22, 23, 24, 25}
    act(s, "open 25 25")
    for _ in range(3):
        act(s, "pass")
    assert s.market == [20, 21, 22, 23, 24, 30]


def test_empty_deck_shrinks_the_market() -> None:
    s = _step3_auction(())
    act(s, "open 20 20")
    for _ in range(3):
        act(s, "pass")
    assert s.market == [21, 22, 23, 24, 25]
    finish_phase(s)
    finish_phase(s)
    finish_phase(s)
    assert s.phase == pg.Phase.BUREAUCRACY
    finish_phase(s)
    assert s.market == [22, 23, 24, 25]                      # lowest out, nothing drawn
    assert 21 in s.boxed
    assert plant_places(s) == sorted(pg.catalog().plants)


# ---------------------------------------------------------------- market update by Step
@pytest.mark.parametrize("step", [1, 2])
def test_market_update_in_steps_1_and_2_puts_the_highest_under_the_deck(step: int) -> None:
    s = game(4, seed=0)
    fill_hands(s)
    set_market(s, 10, 11, 12, 13, 14, 15, 16, 17)
    stack_deck(s, 30)
    to_phase(s, pg.Phase.BUREAUCRACY, order=(0, 1, 2, 3), round=4, step=step)
    finish_phase(s)
    assert s.deck[0] == 17                                   # the bottom of the deck,
    assert s.deck[1] == STEP3                                # beneath the Step 3 card
    assert s.market == [10, 11, 12, 13, 14, 15, 16, 30]
    v = s.view(2)
    assert v.deck_bottom_known == [17]


def test_market_update_in_step3_boxes_the_lowest() -> None:
    s = _step3_auction((30, 31))
    to_phase(s, pg.Phase.BUREAUCRACY)
    finish_phase(s)
    assert 20 in s.boxed and s.market == [21, 22, 23, 24, 25, 30]


# ---------------------------------------------------------------- resupply
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("step", [1, 2, 3])
def test_resupply_by_player_count_and_step(players: int, step: int) -> None:
    s = game(players, seed=0)
    fill_hands(s)
    set_market(s, 20, 21, 22, 23, 24, 25, 26, 27)
    _empty_resource_market(s)
    to_phase(s, pg.Phase.BUREAUCRACY, round=5, step=step)
    finish_phase(s)
    assert _events(s, "resupply")[-1][1] == RESUPPLY[players][step]
    assert tuple(s.market_res) == RESUPPLY[players][step]
    # units sit on the most expensive spaces: the next price is the top slots'
    assert s.price(3) == (1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16)[12 - RESUPPLY[players][step][3]]


def test_resupply_limited_by_the_supply_and_the_market_space() -> None:
    s = game(6, seed=0)
    to_phase(s, pg.Phase.BUREAUCRACY, round=5, step=2)
    set_market_res(s, 0, 22)                  # room for 2 coal only
    from .positions import set_supply
    set_supply(s, 1, 3)                       # 3 oil left in the supply
    finish_phase(s)
    assert s.market_res[0] == 24
    assert _events(s, "resupply")[-1][1][:2] == (2, 3)
    assert s.supply[1] == 0


def test_drawing_down_to_plants_put_under_the_deck_keeps_the_deck_knowledge_right() -> None:
    # First game: no Step 3 shuffle, so the deck can run down into plants put under it.
    s = game(4, seed=0, variant="first_game")
    fill_hands(s)
    set_market(s, 10, 11, 12, 13, 14, 15, 16, 17)
    set_deck(s)
    to_phase(s, pg.Phase.BUREAUCRACY, round=4)
    finish_phase(s)
    assert s.market == [10, 11, 12, 13, 14, 15, 16, 17] and s.deck == []
    assert s.known_bottom == 0 and s.view(0).deck_bottom_known == []
    assert pg.GameState.from_dict(s.to_dict()).to_dict() == s.to_dict()
