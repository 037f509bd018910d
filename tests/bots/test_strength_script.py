"""benchmarks/strength.py: the pieces it is built from (the full runs are too long for CI)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "strength.py"


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("strength_benchmark", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_wilson_interval() -> None:
    wilson = load().wilson
    lo, hi = wilson(20, 20)
    assert hi == 1.0 and 0.83 < lo < 0.85  # 20 of 20: [83.9%, 100%]
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.404, abs=0.001) and hi == pytest.approx(0.596, abs=0.001)
    assert wilson(0, 0) == (0.0, 1.0)


def test_seats_rotate_and_shares_go_to_the_listed_bots() -> None:
    play_one = load().play_one
    specs = ["heuristic", "random", "random"]
    totals = [0.0, 0.0, 0.0]
    for game in range(3):
        index, share, powered, _ = play_one((specs, "usa", 5, game))
        assert index == game and sum(share) == pytest.approx(1.0)
        totals = [t + s for t, s in zip(totals, share, strict=True)]
        assert powered[0] > max(powered[1:])
    assert totals[0] == pytest.approx(3.0)
    # same seeds, same game
    assert play_one((specs, "usa", 5, 1))[1:3] == play_one((specs, "usa", 5, 1))[1:3]


def test_main_prints_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert load().main(["--bots", "heuristic,random", "--games", "2", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "0:heuristic" in out and "95% interval" in out
