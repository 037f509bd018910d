"""Random games on both maps with 2-6 players, every invariant checked after every action.

After each action (see invariants.py): coal/oil/garbage/uranium conserved, each plant in exactly
one place, houses consistent with cities (never two of one seat in a city, at most 22), money
never negative and changed only by auction prices, track prices, previewed build costs and
the payout table; market sorted with the current/future split; storage respected; every
listed action applies on a clone and its text round-trips; a clone taken before the action
is unchanged; JSON round-trips; a view never holds a hidden card's number.
"""

from __future__ import annotations

import pytest

import powergrid as pg

from .invariants import play_checked
from .positions import random_game

MAPS = ("germany", "usa")
PLAYERS = (2, 3, 4, 5, 6)


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("map_name", MAPS)
def test_random_game_keeps_every_invariant(map_name: str, players: int, seed: int) -> None:
    cfg = pg.GameConfig(map=map_name, players=players, seed=seed * 100 + players)
    s = play_checked(cfg, seed, every=40)
    assert s.is_over and s.winners
    assert max(len(c) for c in s.cities) >= s.scn.rules.end_cities
    assert s.phase == pg.Phase.OVER


def test_every_check_with_the_full_log_after_every_action() -> None:
    s = play_checked(pg.GameConfig(map="germany", players=2, seed=77), 77, every=1)
    assert s.is_over


@pytest.mark.parametrize("map_name", MAPS)
def test_first_game_variant_keeps_every_invariant(map_name: str) -> None:
    s = play_checked(pg.GameConfig(map=map_name, players=4, seed=5, variant="first_game"), 5,
                     every=40)
    assert s.step == 1 and max(len(c) for c in s.cities) == 7


def test_explicit_regions_keep_every_invariant() -> None:
    cfg = pg.GameConfig(map="germany", players=3, seed=9, regions=("purple", "yellow", "brown"))
    s = play_checked(cfg, 9, every=40)
    in_play = set(s.scn.board.in_play)
    assert all(set(c) <= in_play for c in s.cities)


@pytest.mark.parametrize("map_name", MAPS)
def test_many_random_games_reach_every_step_and_end(map_name: str) -> None:
    """Plain random games (no checks) over more seeds: they all end, and reach Step 3."""
    steps = set()
    for seed in range(20):
        players = 2 + seed % 5
        s = random_game(pg.GameConfig(map=map_name, players=players, seed=seed), seed)
        assert s.is_over and s.winners
        steps.add(s.step)
        timing = {e[1] for e in s.events if e[0] == "step3_drawn"}
        assert len(timing) <= 1
    assert 3 in steps
