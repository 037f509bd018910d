"""`powergrid analyse`: chances by round and costliest decisions in Rich tables; JSON out; bad input."""

from __future__ import annotations

import json
import random
from pathlib import Path

from typer.testing import CliRunner

import powergrid as pg
from powergrid.bots import heuristic
from powergrid.cli.common import game_record
from powergrid.cli.main import _register, app

_register()
runner = CliRunner()


def short_game(tmp_path: Path) -> Path:
    state = pg.new_game(pg.GameConfig(map="germany", players=2, seed=3))
    rng = random.Random(3)
    while state.round < 3:
        seat = state.current_player
        assert seat is not None
        legal = state.legal_actions()
        state.apply(heuristic.decide(state, seat, legal) if seat == 0 else rng.choice(legal))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game_record(state, [])), encoding="utf-8")
    return path


def test_analyse_prints_chances_and_decisions_and_writes_json(tmp_path: Path) -> None:
    game = short_game(tmp_path)
    out = tmp_path / "analysis.json"
    result = runner.invoke(app, ["analyse", str(game), "--level", "fast", "--seed", "2", "--json", str(out),
                                 "--lang", "en"])
    assert result.exit_code == 0, result.output
    assert "chance to win" in result.output and "costliest decisions" in result.output
    assert "P0" in result.output and "P1" in result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["format"] == "powergrid.analysis" and data["seed"] == 2 and data["level"] == "fast"
    assert [e["round"] for e in data["chances"]] == [1, 2, 3]


def test_analyse_refuses_bad_input(tmp_path: Path) -> None:
    missing = runner.invoke(app, ["analyse", str(tmp_path / "nope.json")])
    assert missing.exit_code == 2 and "no such file" in missing.output
    game = short_game(tmp_path)
    level = runner.invoke(app, ["analyse", str(game), "--level", "grandmaster"])
    assert level.exit_code == 2 and "no level" in level.output


def test_analyse_speaks_the_language_asked_for(tmp_path: Path) -> None:
    from powergrid.i18n import translator

    game = short_game(tmp_path)
    out = tmp_path / "analysis.json"
    result = runner.invoke(app, ["analyse", str(game), "--level", "fast", "--seed", "2", "--lang", "pl",
                                 "--json", str(out)])
    assert result.exit_code == 0, result.output
    polish = translator("pl")
    title = polish.gettext("Estimated chance to win at the start of each round")
    assert title != "Estimated chance to win at the start of each round"
    assert " ".join(title.split()[:3]) in " ".join(result.output.split())
    decisions = json.loads(out.read_text(encoding="utf-8"))["decisions"]
    worded = [d["words"]["pl"] for d in decisions]
    assert any(done in result.output or preferred in result.output for done, preferred in worded
               if len(done) < 30)  # (a short phrase is not wrapped by the table)
    wrong = runner.invoke(app, ["analyse", str(game), "--lang", "xx"])
    assert wrong.exit_code == 2 and "no language" in wrong.output


def test_analyse_weighs_the_bots_a_record_names(tmp_path: Path) -> None:
    """A record says which bot played each seat: the chances by round weigh them, as the
    server's analysis does (docs/coach.md)."""
    from powergrid.cli.common import record_players

    game = short_game(tmp_path)
    data = json.loads(game.read_text(encoding="utf-8"))
    data["bots"] = [{"seat": 0, "bot": "expert", "seed": 1}]
    named = tmp_path / "named.json"
    named.write_text(json.dumps(data), encoding="utf-8")
    assert record_players(named, 2) == ["expert", None]
    assert record_players(game, 2) is None
    chances = {}
    for path in (game, named):
        out = tmp_path / f"{path.stem}-analysis.json"
        result = runner.invoke(app, ["analyse", str(path), "--level", "fast", "--json", str(out),
                                     "--lang", "en"])
        assert result.exit_code == 0, result.output
        chances[path.stem] = [e["chances"][0] for e in json.loads(out.read_text(encoding="utf-8"))["chances"]]
    assert all(n > b for n, b in zip(chances["named"][1:], chances["game"][1:], strict=True))
