"""rank_plans: the plan search as a function (for hints): ranked, legal, honest about samples."""

from __future__ import annotations

import math
import random

import pytest

import powergrid as pg
from powergrid.bots import SearchBot, make_bot, rank_plans
from powergrid.rules.phase import AUCTION, BUILD


def _play_until(phase: int, seed: int, decisions: int = 0) -> pg.GameState:
    """A heuristic game stopped at a decision in ``phase`` with several legal actions."""
    state = pg.new_game(pg.GameConfig(map="germany", players=3, seed=seed))
    bots = [make_bot("heuristic", i) for i in range(3)]
    while not state.is_over:
        if (state.decisions >= decisions and state.phase == phase and state.discard_seat < 0
                and len(state.legal_actions()) > 1):
            return state
        seat = state.current_player
        assert seat is not None
        state.apply(bots[seat].act(state.view(seat)))
    raise AssertionError("no such decision")


@pytest.mark.parametrize("phase", [AUCTION, BUILD])
def test_ranked_plans_are_legal_sorted_and_the_bots_choice_comes_first(phase: int) -> None:
    state = _play_until(phase, seed=4, decisions=60)
    seat = state.current_player
    assert seat is not None
    view = state.view(seat)
    ranked = rank_plans(view, level="fast", seed=7)
    assert len(ranked) >= 2
    legal = state.legal_actions()
    assert all(r.action in legal and r.text for r in ranked)
    finalists = [r for r in ranked if r.samples == max(x.samples for x in ranked)]
    assert [r.value for r in finalists] == sorted((r.value for r in finalists), reverse=True)
    assert ranked[0] in finalists and all(r.samples >= 1 for r in ranked)
    # the bot at the same level and seed plays the first-ranked plan
    bot = SearchBot(7, level="fast")
    assert bot.act(view) == ranked[0].action
    assert rank_plans(view, level="fast", seed=7) == ranked  # deterministic given the seed


def test_buying_is_ranked_and_a_forced_move_is_not_searched() -> None:
    state = _play_until(3, seed=5, decisions=30)  # phase 3: buying resources
    seat = state.current_player
    assert seat is not None
    ranked = rank_plans(state.view(seat), budget=300, seed=1)
    assert 2 <= len(ranked) <= 6 and ranked[0].samples > 0
    forced = pg.new_game(pg.GameConfig(map="germany", players=3, seed=5))
    rng = random.Random(1)
    while len(forced.legal_actions()) != 1:
        forced.apply(rng.choice(forced.legal_actions()))
    seat = forced.current_player
    assert seat is not None
    only = rank_plans(forced.view(seat))
    assert len(only) == 1 and only[0].samples == 0 and math.isnan(only[0].value)


def test_rank_plans_refuses_what_it_cannot_rank() -> None:
    state = _play_until(AUCTION, seed=6, decisions=10)
    seat = state.current_player
    assert seat is not None
    with pytest.raises(ValueError):
        rank_plans(state.view(seat), level="insane")
    with pytest.raises(ValueError):
        rank_plans(state.view((seat + 1) % 3))


def test_two_search_bots_end_a_long_game() -> None:
    """From round 30 on the plan search builds to the end when it can, as the heuristic does:
    two searching bots that each wait for a better moment would otherwise never end the game."""
    from powergrid.bots.search import _build_plans

    state = _play_until(BUILD, seed=8, decisions=200)
    seat = state.current_player
    assert seat is not None
    s = state.view(seat).public_state
    end = s.scn.end_cities
    rich = s.clone()
    rich.money[seat] = 10_000
    rich.round = 29
    assert len(_build_plans(rich, seat)) > 1  # before round 30: the usual choice of counts
    rich.round = 30
    assert _build_plans(rich, seat) == [("build", end)]
