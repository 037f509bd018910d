"""docs/rules.md: game end, winners and tie-breaks, the first-game variant."""

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
    random_game,
    refused,
    set_market,
    set_resources,
    stack_deck,
    to_phase,
)

END_CITIES = {2: 21, 3: 17, 4: 17, 5: 15, 6: 14}


def _last_build(players: int = 3) -> pg.GameState:
    """Phase 4, round 10, Step 2; seat 0 is the last to build."""
    s = game(players, seed=0)
    fill_hands(s)
    to_phase(s, pg.Phase.BUILD, order=(0,) + tuple(range(1, players)), round=10, step=2)
    while s.current_player != 0:
        act(s, "done")
    return s


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_game_ends_after_phase4_at_the_end_count(players: int) -> None:
    s = _last_build(players)
    give_cities(s, 0, END_CITIES[players] - 1)
    act(s, "done")
    assert not s.is_over and s.phase == pg.Phase.BUREAUCRACY

    s = _last_build(players)
    give_cities(s, 1 % players, END_CITIES[players])
    money = list(s.money)
    act(s, "done")
    assert s.is_over and s.phase == pg.Phase.OVER and s.phase_name == "over"
    assert s.money == money                       # no phase 5
    assert s.current_player is None and s.legal_actions() == []
    with pytest.raises(pg.IllegalAction) as err:
        s.apply(pg.Action.done())
    assert err.value.seat is None


def _ending(plants: tuple[tuple[int, ...], ...], money: tuple[int, ...],
            cities: tuple[int, ...]) -> pg.GameState:
    """Three players with ecological plants (no fuel needed); seat 0 ends the game."""
    s = _last_build(3)
    for seat in range(3):
        give_plants(s, seat)
    for seat in range(3):
        give_plants(s, seat, *plants[seat])
        give_cities(s, seat, cities[seat])
        s.money[seat] = money[seat]
    act(s, "done")
    assert s.is_over
    return s


# ecological/fusion capacities: 13:1 18:2 22:2 27:3 33:4 37:4 44:5 50:6
def test_winner_powers_the_most_cities() -> None:
    s = _ending(((44,), (37, 27), (50,)), money=(90, 10, 50), cities=(17, 9, 10))
    assert s.winners == (1,)                      # 5, 7, 6


def test_power_is_capped_by_cities_owned() -> None:
    s = _ending(((33, 37), (44, 22), (27,)), money=(10, 90, 10), cities=(17, 5, 3))
    assert s.winners == (0,)                      # 8; seat 1 powers 7 but owns 5
    assert s.events[-1][2] == (8, 5, 3)


def test_power_counts_fuel_held_at_the_end() -> None:
    s = _last_build(3)
    give_plants(s, 0, 20)                          # coal 3 -> 5 cities
    give_plants(s, 1, 27)                          # eco 3
    give_plants(s, 2, 18)                          # eco 2
    set_resources(s, 0, coal=2)                    # not enough to run
    give_cities(s, 0, 17)
    give_cities(s, 1, 5)
    give_cities(s, 2, 5)
    act(s, "done")
    assert s.winners == (1,)


def test_tie_on_power_broken_by_money() -> None:
    s = _ending(((50,), (33, 18), (44,)), money=(30, 40, 90), cities=(17, 10, 10))
    assert s.winners == (1,)


def test_tie_on_power_and_money_broken_by_cities() -> None:
    s = _ending(((50,), (33, 18), (44,)), money=(40, 40, 90), cities=(10, 17, 12))
    assert s.winners == (1,)


def test_full_tie_is_a_shared_win() -> None:
    s = _ending(((50,), (33, 18), (37, 22)), money=(40, 40, 30), cities=(17, 17, 17))
    assert s.winners == (0, 1)
    assert "P0 and P1 win" in s.log[-1]


# ---------------------------------------------------------------- first game
def _first_game(players: int = 4) -> pg.GameState:
    return game(players, seed=0, variant="first_game")


def test_first_game_ends_after_the_seventh_city_and_nobody_builds_past_seven() -> None:
    s = _first_game()
    fill_hands(s)
    to_phase(s, pg.Phase.BUILD, order=(1, 2, 3, 0), round=6)
    s.money = [500] * 4
    give_cities(s, 0, 6)
    free = [s.scn.map.cities[c] for c in s.scn.board.in_play if not s.houses[c]]
    act(s, f"build {free[0]}")
    assert s.legal_actions() == [pg.Action.done()]
    err = refused(s, f"build {free[1]}")
    assert "no houses left" in err.reason
    act(s, "done")
    assert not s.is_over
    finish_phase(s)
    assert s.is_over


def test_first_game_plays_step1_only() -> None:
    s = _first_game(6)
    fill_hands(s)
    to_phase(s, pg.Phase.BUILD, order=(1, 2, 3, 4, 5, 0), round=6)
    give_cities(s, 0, 6)                          # the Step 2 count for 6 players
    finish_phase(s)
    assert s.step == 1 and s.phase == pg.Phase.BUREAUCRACY
    # the Step 3 card is set aside and replaced; the game stays in Step 1
    set_market(s, 10, 11, 12, 13, 14, 15, 16, 17)
    stack_deck(s, STEP3, 30)
    finish_phase(s)
    assert s.step == 1
    assert STEP3 not in s.deck and STEP3 not in s.market
    assert s.market[:7] == [10, 11, 12, 13, 14, 15, 16] and len(s.market) == 8   # replaced
    assert s.current_market() == [10, 11, 12, 13]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_first_game_random_games_end_at_seven(players: int) -> None:
    cfg = pg.GameConfig(map="usa", players=players, seed=players, variant="first_game")
    s = random_game(cfg, seed=players)
    assert s.is_over and s.step == 1
    assert max(len(c) for c in s.cities) == 7
    assert all(e[1] == 1 for e in s.events if e[0] == "step") or not any(e[0] == "step" for e in s.events)
