"""Tournament statistics: Wilson intervals, shared wins, means by round, deterministic Elo, plots."""

from __future__ import annotations

import json

import pytest

import powergrid as pg
from powergrid.sim import GameResult, Seat, elo_ratings, run_tournament, summarize, wilson_interval

CONFIG = pg.GameConfig(map="germany", players=3)


def result(index: int, specs: list[str], winners: tuple[int, ...], powered: list[int],
           money: list[int] | None = None, rounds: int = 2) -> GameResult:
    n = len(specs)
    money = money or [10] * n
    return GameResult(index, CONFIG, tuple(Seat(s, spec, s) for s, spec in enumerate(specs)),
                      winners=winners, powered=powered, money=money, cities=list(powered), rounds=rounds,
                      money_by_round=[[5] * n, money][:rounds], cities_by_round=[[1] * n, powered][:rounds])


def test_wilson_interval_known_values() -> None:
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    low, high = wilson_interval(0, 20)
    assert low == 0.0 and high == pytest.approx(0.1611, abs=1e-4)
    low, high = wilson_interval(20, 20)
    assert high == 1.0 and low == pytest.approx(0.8389, abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert wilson_interval(2.5, 10)[0] < 0.25 < wilson_interval(2.5, 10)[1]


def test_summary_counts_shared_wins_fractionally_and_skips_failures() -> None:
    results = [
        result(0, ["a", "b", "b"], (0,), [5, 3, 2], [20, 10, 0]),
        result(1, ["b", "b", "a"], (0, 2), [4, 1, 4], [10, 30, 10]),
        result(2, ["b", "a", "b"], (1,), [1, 6, 2], rounds=1),
    ]
    failed = GameResult(3, CONFIG, results[0].seats, error="RuntimeError: boom")
    a, b = summarize([*results, failed], order=["a", "b"])
    assert (a.spec, a.games, a.wins) == ("a", 3, 2.5)
    assert (b.spec, b.games, b.wins) == ("b", 6, 0.5)
    assert a.wins + b.wins == 3
    assert a.mean_powered == pytest.approx((5 + 4 + 6) / 3)
    assert a.mean_money == pytest.approx((20 + 10 + 10) / 3)
    assert a.by_round == [[3, 15, 3], [9, 30, 2]]  # game 2 lasted one round
    assert a.mean_cities_by_round() == [1.0, 4.5]
    data = a.to_dict()
    assert data["win_rate"] == pytest.approx(2.5 / 3) and data["win_rate_95"][0] < data["win_rate"]
    assert json.dumps(data)


def test_elo_rewards_the_winner_and_is_deterministic() -> None:
    results = [result(i, ["strong", "weak", "weak"] if i % 2 else ["weak", "weak", "strong"],
                      (0,) if i % 2 else (2,), [5, 1, 1] if i % 2 else [1, 1, 5]) for i in range(20)]
    ratings = elo_ratings(results)
    assert ratings["strong"] > 1500 > ratings["weak"]
    assert ratings["strong"] + ratings["weak"] == pytest.approx(3000)
    assert elo_ratings(list(reversed(results))) == ratings  # taken in game order, whatever the input order
    draw = elo_ratings([result(0, ["x", "y"], (0, 1), [3, 3])])
    assert draw == {"x": 1500, "y": 1500}


def test_a_tournament_summary_and_plots(tmp_path) -> None:  # type: ignore[no-untyped-def]
    tour = run_tournament(CONFIG, ["random", "random", "random"], 4, seed=1)
    (summary,) = tour.summary()
    assert summary.games == 12 and summary.wins == pytest.approx(4)
    assert summary.elo == 1500  # a bot does not rate against itself
    pytest.importorskip("matplotlib")
    from powergrid.sim.plots import plot_by_round, plot_win_rates
    for path in (plot_win_rates([summary], 3, tmp_path / "w.png", "t"),
                 plot_by_round([summary], tmp_path / "b.png", "t")):
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
