"""benchmarks/ladder.py: a ladder or a match kept in a games file goes on where it stopped (the
full runs are too long for CI)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "ladder.py"
ARGS = ["--bots", "random,greedy,heuristic", "--pair-games", "2", "--tables", "0", "--workers", "1",
        "--seed", "11"]


def load() -> ModuleType:
    sys.path.insert(0, str(SCRIPT.parent))
    spec = importlib.util.spec_from_file_location("ladder_benchmark", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def ratings(path: Path) -> list[dict[str, object]]:
    data: list[dict[str, object]] = json.loads(path.read_text())["ratings"]
    return data


def test_a_ladder_in_parts_rates_as_one_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ladder = load()
    whole, parts, games = tmp_path / "whole.json", tmp_path / "parts.json", tmp_path / "games.jsonl"
    assert ladder.main([*ARGS, "--json", str(whole)]) == 0
    specs = ladder.ladder_specs(["random", "greedy", "heuristic"], 2, 0, 11)
    assert len(specs) == 6
    # a first run that stopped after two games (as --seconds would cut it) ...
    ladder.play(specs[:2], 1, None, games)
    assert len(games.read_text().splitlines()) == 2
    capsys.readouterr()
    # ... and the next run plays only the other four
    assert ladder.main([*ARGS, "--json", str(parts), "--games-file", str(games)]) == 0
    assert "2 games already played" in capsys.readouterr().out
    assert len(games.read_text().splitlines()) == 6
    assert ratings(parts) == ratings(whole)


def test_a_games_file_of_another_plan_is_refused(tmp_path: Path) -> None:
    ladder = load()
    games = tmp_path / "games.jsonl"
    ladder.play(ladder.ladder_specs(["random", "greedy", "heuristic"], 2, 0, 11)[:1], 1, None, games)
    other = [a if a != "11" else "12" for a in ARGS]
    with pytest.raises(SystemExit, match="not this plan's"):
        ladder.main([*other, "--games-file", str(games)])


def test_a_match_in_parts_reports_as_one_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ladder = load()
    args = ["--match", "random,greedy", "--games", "4", "--workers", "1", "--seed", "11"]
    whole, parts, games = tmp_path / "whole.json", tmp_path / "parts.json", tmp_path / "games.jsonl"
    assert ladder.main([*args, "--json", str(whole)]) == 0
    ladder.play(ladder.match_specs(["random", "greedy"], 4, 11, "germany")[:1], 1, None, games)
    capsys.readouterr()
    assert ladder.main([*args, "--json", str(parts), "--games-file", str(games)]) == 0
    assert "1 games already played" in capsys.readouterr().out
    assert len(games.read_text().splitlines()) == 4
    assert json.loads(parts.read_text()) == json.loads(whole.read_text())
    assert json.loads(whole.read_text())["games"] == 4
