"""benchmarks/mirror_bound.py: the best Brier skill a win estimate can reach on a set's positions."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import mirror_bound  # noqa: E402


@pytest.fixture(scope="module")
def positions() -> list[dict]:
    rows = mirror_bound.round_starts(("heuristic-mirror", 5, 1))
    assert rows and [r["round"] for r in rows] == list(range(1, len(rows) + 1))
    return rows


def test_known_outcomes_are_the_whole_skill_and_even_chances_none(positions) -> None:
    certain = [{**r, "chances": r["won"]} for r in positions]
    assert mirror_bound.summary(certain, 8, seed=1)["all rounds"]["best_skill"] == 1.0
    n = len(positions[0]["won"])
    even = [{**r, "chances": [1.0 / n] * n} for r in positions]
    # a share of K games that came out even says the constant, less its sampling bias
    best = mirror_bound.summary(even, 8, seed=1)["all rounds"]["best_skill"]
    assert best == pytest.approx(-1 / 7, abs=1e-4)


def test_playing_a_position_on_gives_each_seat_a_share(positions) -> None:
    shares = mirror_bound.play_out((positions[-1], 3, 2))
    assert len(shares) == len(positions[-1]["won"]) and sum(shares) == pytest.approx(1.0)
    assert mirror_bound.play_out((positions[-1], 3, 2)) == shares  # seeded: the same again


class _Inline:
    """A pool that plays in this process."""

    def imap(self, fn, jobs, chunksize=1):
        return map(fn, jobs)


def test_a_run_kept_in_a_file_is_taken_up_where_it_stopped(positions, tmp_path, monkeypatch) -> None:
    path = tmp_path / "shares.jsonl"
    first = [dict(r) for r in positions[-2:]]
    mirror_bound.play_all(first, 3, 2, _Inline(), path)
    assert len(path.read_text().splitlines()) == 2
    # a second run with one more position plays only that one, and reads the others back
    played = []
    real = mirror_bound.play_out
    monkeypatch.setattr(mirror_bound, "play_out", lambda job: played.append(job[0]["round"]) or real(job))
    again = [dict(r) for r in positions[-3:]]
    mirror_bound.play_all(again, 3, 2, _Inline(), path)
    assert played == [positions[-3]["round"]]
    assert [r["chances"] for r in again[1:]] == [r["chances"] for r in first]
    assert len(path.read_text().splitlines()) == 3
    # other rollouts are other shares: nothing is taken from the file
    other = [dict(r) for r in positions[-2:]]
    mirror_bound.play_all(other, 3, 3, _Inline(), path)
    assert played[1:] == [r["round"] for r in positions[-2:]]
