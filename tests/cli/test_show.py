"""`powergrid show`: a saved game's log and standings; bad files fail with one line and status 2."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

import powergrid as pg
from powergrid.cli.common import game_record
from powergrid.cli.main import _register, app

_register()
runner = CliRunner()


@pytest.fixture(scope="module")
def finished() -> pg.GameState:
    state = pg.new_game(pg.GameConfig(map="germany", players=3, seed=11))
    rng = random.Random(11)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.fixture()
def record_file(tmp_path: Path, finished: pg.GameState) -> Path:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game_record(finished, [])), encoding="utf-8")
    return path


def show(*args: str):  # noqa: ANN202 - click's Result
    return runner.invoke(app, ["show", *args])


def test_shows_log_in_words_and_standings(record_file: Path, finished: pg.GameState) -> None:
    result = show(str(record_file))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Round 1" in out and "Phase 2: auction" in out
    assert f"Round {finished.round}" in out
    assert "Game over" in out
    assert "Final standings" in out
    assert "winner" in out
    for seat in range(3):
        assert f"P{seat}" in out
    # Each winner's row is marked and shows their money.
    for w in finished.winners:
        row = next(line for line in out.splitlines() if f" P{w} " in line and "winner" in line)
        assert str(finished.money[w]) in row


def test_tail_shows_only_the_end(record_file: Path, finished: pg.GameState) -> None:
    result = show(str(record_file), "--tail", "2")
    assert result.exit_code == 0, result.output
    assert "Game over" in result.stdout
    assert "Phase 2: auction" not in result.stdout
    assert finished.log[-1][:30] in result.stdout


def test_shows_a_bare_saved_state_mid_game(tmp_path: Path) -> None:
    state = pg.new_game(pg.GameConfig(map="usa", players=4, seed=3))
    rng = random.Random(3)
    for _ in range(60):
        state.apply(rng.choice(state.legal_actions()))
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state.to_dict()), encoding="utf-8")
    result = show(str(path))
    assert result.exit_code == 0, result.output
    assert f"Standings in round {state.round}" in result.stdout
    assert "winner" not in result.stdout


def write(tmp_path: Path, data: object, name: str = "bad.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def assert_fails(result, *words: str) -> None:  # noqa: ANN001
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    message = result.stderr.strip()
    assert message.startswith("error:")
    for word in words:
        assert word in message


def test_help_lists_the_commands() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    assert "simulate" in result.stdout and "show" in result.stdout


def test_missing_file(tmp_path: Path) -> None:
    assert_fails(show(str(tmp_path / "nothing.json")), "no such file")


def test_not_json(tmp_path: Path) -> None:
    assert_fails(show(str(write(tmp_path, "this is not { json"))), "not JSON")


def test_not_a_game(tmp_path: Path) -> None:
    assert_fails(show(str(write(tmp_path, {"hello": 1}))), "not a Power Grid game")
    assert_fails(show(str(write(tmp_path, [1, 2, 3]))), "not a Power Grid game")


def test_wrong_record_version(tmp_path: Path, record_file: Path) -> None:
    record = json.loads(record_file.read_text(encoding="utf-8"))
    record["version"] = 99
    assert_fails(show(str(write(tmp_path, record))), "version 99")


def test_wrong_state_version(tmp_path: Path, finished: pg.GameState) -> None:
    data = finished.to_dict()
    data["version"] = 99
    assert_fails(show(str(write(tmp_path, data))), "version")


def test_corrupt_state(tmp_path: Path, finished: pg.GameState) -> None:
    data = finished.to_dict()
    data["players"][0]["money"] = -5
    assert_fails(show(str(write(tmp_path, data))), "money")


def test_illegal_action_in_record(tmp_path: Path, record_file: Path) -> None:
    record = json.loads(record_file.read_text(encoding="utf-8"))
    record["actions"][0] = "bid 999"
    assert_fails(show(str(write(tmp_path, record))), "action 1", "bid 999")


def test_malformed_action_in_record(tmp_path: Path, record_file: Path) -> None:
    record = json.loads(record_file.read_text(encoding="utf-8"))
    record["actions"][3] = "fly to the moon"
    assert_fails(show(str(write(tmp_path, record))), "action 4", "unknown action")


def test_record_whose_final_state_disagrees(tmp_path: Path, record_file: Path) -> None:
    record = json.loads(record_file.read_text(encoding="utf-8"))
    record["final"]["players"][1]["money"] += 1
    assert_fails(show(str(write(tmp_path, record))), "does not match")


def test_record_with_bad_config(tmp_path: Path, record_file: Path) -> None:
    record = json.loads(record_file.read_text(encoding="utf-8"))
    record["config"]["players"] = 9
    assert_fails(show(str(write(tmp_path, record))), "bad config")


def test_a_players_view_is_refused(tmp_path: Path, finished: pg.GameState) -> None:
    assert_fails(show(str(write(tmp_path, finished.view(0).to_dict()))), "view")
