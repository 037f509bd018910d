"""`powergrid tournament`: the table, results.json with replayable games, plots, bad options."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import powergrid as pg
from powergrid.cli.main import _register, app

_register()
runner = CliRunner()

SMALL = ["tournament", "--players", "2", "--map", "usa", "--bots", "random,random", "--games", "4",
         "--seed", "3", "--variant", "first_game"]


def test_table_results_and_plots(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = runner.invoke(app, [*SMALL, "--workers", "2", "--out", str(out)])
    assert result.exit_code == 0, result.output
    for column in ("bot", "games", "wins", "win rate", "95% interval", "powered", "money", "Elo"):
        assert column in result.stdout
    assert "4 games on usa, 2 players, seed 3" in result.stdout
    data = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert data["format"] == "powergrid.tournament" and data["settings"]["seed"] == 3
    (summary,) = data["summary"]
    assert summary["bot"] == "random" and summary["games"] == 8 and summary["wins"] == pytest.approx(4)
    assert len(data["games"]) == 4 and data["failures"] == []
    for game in data["games"]:
        assert game["format"] == "powergrid.game" and game["version"] == 1
        state = pg.replay(pg.GameConfig.from_dict(game["config"]), game["actions"])
        assert state.is_over and list(state.winners) == game["winners"]
        assert [b["seed"] for b in game["bots"]] and game["config"]["map"] == "usa"
    for name in ("win_rates.png", "by_round.png", "games/game-0000.json"):
        assert (out / name).stat().st_size > 0
    shown = runner.invoke(app, ["show", str(out / "games" / "game-0002.json")])
    assert shown.exit_code == 0, shown.output
    assert "Game over" in shown.stdout


def test_same_seed_same_results_and_json_summary(tmp_path: Path) -> None:
    a = runner.invoke(app, [*SMALL, "--workers", "1", "--out", str(tmp_path / "a"), "--json", "--no-plots"])
    b = runner.invoke(app, [*SMALL, "--workers", "2", "--out", str(tmp_path / "b"), "--json", "--no-plots"])
    assert a.exit_code == b.exit_code == 0, a.output + b.output
    assert json.loads(a.stdout) == json.loads(b.stdout)
    assert (tmp_path / "a" / "results.json").read_text() == (tmp_path / "b" / "results.json").read_text()
    assert not (tmp_path / "a" / "win_rates.png").exists()


@pytest.mark.parametrize(("args", "message"), [
    (["--bots", "random,random,random", "--players", "2"], "3 bots for 2 players"),
    (["--bots", "nobody"], "unknown bot"),
    (["--bots", "random,random", "--backend", "spark"], "unknown backend"),
    (["--bots", "random,random", "--map", "mars"], "mars"),
])
def test_bad_options_fail_cleanly(tmp_path: Path, args: list[str], message: str) -> None:
    result = runner.invoke(app, ["tournament", "--games", "1", "--out", str(tmp_path), *args])
    assert result.exit_code == 2
    assert message in result.output


def test_a_failing_game_is_listed_with_its_seeds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import powergrid.cli.tournament as command
    from powergrid.bots import make_bot

    def factory(spec: str, seed: int):  # type: ignore[no-untyped-def]
        if spec == "broken":
            raise RuntimeError("this bot cannot start")
        return make_bot(spec, seed)

    real = command.run_tournament
    # the command accepts the name; the games then fail when the bot is made
    monkeypatch.setattr(command, "make_bot",
                        lambda spec, seed: None if spec == "broken" else make_bot(spec, seed))
    monkeypatch.setattr(command, "run_tournament",
                        lambda *a, **k: real(*a, **{**k, "bot_factory": factory, "workers": 1}))
    result = runner.invoke(app, ["tournament", "--bots", "broken,random", "--games", "2", "--seed", "4",
                                 "--variant", "first_game", "--out", str(tmp_path)])
    assert result.exit_code == 1
    assert "game 0 failed: RuntimeError: this bot cannot start" in result.output
    assert "seat 0 broken seed" in result.output
    data = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    assert [f["index"] for f in data["failures"]] == [0, 1]
