"""benchmarks/revisions.py: bots of an earlier git revision, loaded onto today's engine."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import powergrid as pg
import powergrid.bots.heuristic
from powergrid.bots import Bot, HeuristicBot

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import revisions  # noqa: E402


def _have(commit: str) -> bool:
    found = subprocess.run(["git", "-C", str(BENCHMARKS), "cat-file", "-e", f"{commit}^{{commit}}"],
                           capture_output=True, check=False)
    return found.returncode == 0


needs_history = pytest.mark.skipif(
    not (_have(revisions.BEFORE_ISSUE_12) and _have(revisions.HEURISTIC_V4)),
    reason="the clone lacks the revisions (shallow)")


def actions(bots: list[Bot], view: object = None) -> list[pg.Action]:
    state = pg.new_game(pg.GameConfig(map="germany", players=len(bots), seed=3))
    played = []
    while (seat := state.current_player) is not None:
        action = bots[seat].act(view(state, seat) if callable(view) else state.view(seat))
        played.append(action)
        state.apply(action)
    return played


@needs_history
def test_an_old_module_runs_on_todays_engine_without_replacing_todays_module() -> None:
    old = revisions.load(revisions.HEURISTIC_V4, ["bots.heuristic"])["bots.heuristic"]
    assert old is not powergrid.bots.heuristic
    assert sys.modules["powergrid.bots.heuristic"] is powergrid.bots.heuristic
    assert pg.bots.heuristic is powergrid.bots.heuristic and pg.bots.HeuristicBot is HeuristicBot
    assert old.GameView is pg.GameView and old.Bot is powergrid.bots.Bot  # its imports are today's
    assert old.__file__.startswith(revisions.HEURISTIC_V4[:12])
    assert revisions.load(revisions.HEURISTIC_V4[:7], ["bots.heuristic"])["bots.heuristic"] is old
    # the old heuristic raised by one in auctions: the same seeds give another game
    then = actions([old.HeuristicBot(i) for i in range(3)])
    now = actions([HeuristicBot(i) for i in range(3)])
    assert then != now
    assert then == actions([old.HeuristicBot(i) for i in range(3)])


@needs_history
def test_old_bots_search_with_their_own_heuristic_and_views() -> None:
    old = revisions.old_bots()
    search = sys.modules[old.SearchBot.__module__]
    assert search.heuristic is sys.modules[old.HeuristicBot.__module__]
    assert search.heuristic is not powergrid.bots.heuristic
    state = pg.new_game(pg.GameConfig(map="germany", players=3, seed=1))
    view = old.view(state, 0)
    assert isinstance(view, pg.GameView) and view == state.view(0)
    assert len(actions([old.HeuristicBot(i) for i in range(3)], old.view)) > 100


def test_a_revision_or_module_not_in_history_is_a_named_error() -> None:
    with pytest.raises(revisions.RevisionError, match="names no commit"):
        revisions.load("no-such-revision", ["bots.heuristic"])
    if _have(revisions.HEURISTIC_V4):
        with pytest.raises(revisions.RevisionError, match="not in revision"):
            revisions.load(revisions.HEURISTIC_V4, ["bots.no_such_bot"])
