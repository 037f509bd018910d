"""Ratings over tables of any size: the fit recovers known strengths, places count, and
`powergrid tournament` prints ratings when more than two bots play."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from powergrid.cli.main import _register, app
from powergrid.sim import ratings

_register()


def test_the_fit_recovers_the_strengths_that_drew_the_winners() -> None:
    true = {"a": 0.0, "b": 1.0, "c": -1.0, "d": 2.0}
    rng = random.Random(1)
    tables = []
    for _ in range(3000):
        seats = tuple(rng.sample(list(true), rng.choice([2, 3, 4])))
        weights = [math.exp(true[b]) for b in seats]
        winner = rng.choices(range(len(seats)), weights)[0]
        tables.append((seats, tuple(1.0 if j == winner else 0.0 for j in range(len(seats)))))
    rated = {r.bot: r for r in ratings.ratings(tables, list(true), anchor="a", resamples=40)}
    for bot, value in true.items():
        assert rated[bot].rating == pytest.approx(value, abs=0.2)
        assert rated[bot].low <= rated[bot].rating <= rated[bot].high
    assert rated["a"].elo == pytest.approx(1500.0)
    best_first = ratings.ratings(tables, list(true), anchor="a", resamples=5)
    assert [r.bot for r in best_first] == ["d", "b", "a", "c"]


def test_tournament_prints_ratings_for_more_than_two_bots(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["tournament", "--bots", "random,greedy,heuristic", "--games", "6",
                                      "--workers", "1", "--seed", "2", "--no-plots", "--json",
                                      "--out", str(tmp_path / "run")])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    order = [r["bot"] for r in data["ratings"]]
    assert order == ["heuristic", "greedy", "random"]  # places count: random never beats greedy here
    two = CliRunner().invoke(app, ["tournament", "--bots", "random,heuristic", "--games", "2", "--workers",
                                   "1", "--no-plots", "--json", "--out", str(tmp_path / "two")])
    assert two.exit_code == 0 and json.loads(two.stdout)["ratings"] == []
