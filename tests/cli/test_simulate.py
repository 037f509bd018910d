"""`powergrid simulate`: summaries, JSON output, saved records, determinism, bad options."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import powergrid as pg
from powergrid.cli.main import _register, app
from powergrid.cli.simulate import TIMING_FIELDS

_register()
runner = CliRunner()

SMALL = ["simulate", "--map", "germany", "--players", "3", "--games", "3", "--seed", "5"]


def run_json(*args: str) -> dict:
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def without_timings(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k not in TIMING_FIELDS}


def test_prints_a_summary_table() -> None:
    result = runner.invoke(app, SMALL)
    assert result.exit_code == 0, result.output
    for label in ("rounds (mean / min / max)", "decisions per game", "winners' powered cities",
                  "wins by seat", "games/s", "decisions/s"):
        assert label in result.stdout
    assert "3 games on germany, 3 players, random bots, seed 5" in result.stdout


def test_json_summary_is_consistent() -> None:
    summary = run_json(*SMALL)
    assert summary["games"] == 3
    assert summary["map"] == "germany" and summary["players"] == 3
    assert summary["bots"] == ["random"] * 3
    rounds = summary["rounds"]
    assert 1 <= rounds["min"] <= rounds["mean"] <= rounds["max"]
    assert summary["decisions"]["total"] == pytest.approx(3 * summary["decisions"]["mean"], abs=0.02)
    # Every game has at least one winner; a shared win credits each winner.
    assert sum(summary["wins_by_seat"]) >= 3
    assert len(summary["wins_by_seat"]) == 3
    assert summary["winners_powered_mean"] > 0
    assert summary["games_per_s"] > 0 and summary["decisions_per_s"] > 0


def test_same_seed_same_games() -> None:
    first = run_json(*SMALL)
    second = run_json(*SMALL)
    assert without_timings(first) == without_timings(second)
    other = run_json("simulate", "--players", "3", "--games", "3", "--seed", "6")
    assert without_timings(other)["decisions"] != without_timings(first)["decisions"]


def test_saved_record_replays_exactly(tmp_path: Path) -> None:
    record_file = tmp_path / "game.json"
    result = runner.invoke(app, [*SMALL, "--save", str(record_file)])
    assert result.exit_code == 0, result.output
    record = json.loads(record_file.read_text(encoding="utf-8"))
    assert record["format"] == "powergrid.game" and record["version"] == 1
    assert [b["seat"] for b in record["bots"]] == [0, 1, 2]
    assert all(b["bot"] == "random" for b in record["bots"])
    state = pg.replay(pg.GameConfig.from_dict(record["config"]), record["actions"])
    assert state.is_over
    assert json.loads(json.dumps(state.to_dict())) == record["final"]


def test_record_bots_replay_the_game(tmp_path: Path) -> None:
    """The recorded bots and seeds, played again, make the same moves."""
    from powergrid.bots import make_bot
    from powergrid.cli.simulate import play_game

    record_file = tmp_path / "game.json"
    runner.invoke(app, [*SMALL, "--save", str(record_file)])
    record = json.loads(record_file.read_text(encoding="utf-8"))
    bots = [make_bot(b["bot"], b["seed"]) for b in record["bots"]]
    state = play_game(pg.new_game(pg.GameConfig.from_dict(record["config"])), bots)
    assert [str(a) for a in state.actions_taken()] == record["actions"]


def test_save_dir_writes_every_game(tmp_path: Path) -> None:
    result = runner.invoke(app, [*SMALL, "--save-dir", str(tmp_path / "games")])
    assert result.exit_code == 0, result.output
    files = sorted((tmp_path / "games").glob("*.json"))
    assert len(files) == 3
    seeds = {json.loads(f.read_text(encoding="utf-8"))["config"]["seed"] for f in files}
    assert len(seeds) == 3  # each game its own deal


def test_explicit_regions_and_first_game_variant(tmp_path: Path) -> None:
    record_file = tmp_path / "first.json"
    summary = run_json("simulate", "--players", "3", "--games", "2", "--regions", "green,brown,yellow",
                       "--variant", "first_game", "--save", str(record_file))
    assert summary["regions"] == ["green", "brown", "yellow"]
    record = json.loads(record_file.read_text(encoding="utf-8"))
    assert record["config"]["variant"] == "first_game"
    assert sorted(record["final"]["regions"]) == ["brown", "green", "yellow"]
    # First game: the game ends when someone reaches 7 cities, and nobody builds past 7.
    assert max(len(p["cities"]) for p in record["final"]["players"]) == 7


def test_one_bot_per_seat() -> None:
    summary = run_json("simulate", "--players", "2", "--games", "1", "--bots", "random,random")
    assert summary["bots"] == ["random", "random"]


@pytest.mark.parametrize("args, message", [
    (["--players", "7"], "2 to 6 players"),
    (["--map", "mars"], "unknown map 'mars'"),
    (["--bots", "nobody"], "unknown bot 'nobody'"),
    (["--bots", "random,random"], "2 bots for 4 players"),
    (["--regions", "green,atlantis,red,cyan"], "atlantis"),
    (["--variant", "speedy"], "unknown variant"),
])
def test_bad_options_fail_cleanly(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["simulate", "--games", "1", *args])
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.output


def test_registration_skips_commands_not_written_yet(monkeypatch: pytest.MonkeyPatch) -> None:
    from powergrid.cli import main

    monkeypatch.setattr(main, "_registered", False)
    monkeypatch.setattr(main, "COMMANDS", ("simulate", "no_such_command_module"))
    main._register()  # a module that does not exist is skipped, not an error
    assert main._registered


def test_unwritable_save_path_fails_cleanly(tmp_path: Path) -> None:
    result = runner.invoke(app, ["simulate", "--games", "1", "--save", str(tmp_path)])
    assert result.exit_code == 2
    assert "cannot write" in result.stderr
