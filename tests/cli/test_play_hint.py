"""`hint` at a terminal prompt: the coach's suggestion, which the player can then type; the saved
record counts the hints each seat asked for."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pytest

import powergrid as pg
from powergrid.sim.records import load_game_record

pexpect = pytest.importorskip("pexpect")

BIN = Path(sys.executable).parent / "powergrid"


def spawn(*args: str):  # type: ignore[no-untyped-def]
    if BIN.exists():
        command, argv = str(BIN), list(args)
    else:  # pragma: no cover - an install without the console script
        command, argv = sys.executable, ["-c", "from powergrid.cli.main import main; main()", *args]
    env = {"PATH": "/usr/bin:/bin", "TERM": "xterm", "NO_COLOR": "1", "COLUMNS": "130", "LINES": "50",
           "PYTHONIOENCODING": "utf-8", "HOME": str(Path.home())}
    if "PYTHONPATH" in os.environ:  # a source checkout run without installing
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    return pexpect.spawn(command, argv, env=env, encoding="utf-8", timeout=60, dimensions=(50, 130))


def test_hint_suggests_a_legal_move_that_can_be_played_and_is_counted(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    child = spawn("play", "--players", "2", "--bots", "random", "--seed", "3", "--save", str(save))
    child.expect(r"P0 auction> ")  # with this seed, P0 opens the first auction
    child.sendline("hint")
    child.expect(r"Suggested: (?:\x1b\[[0-9;]*m)*(open \d+ \d+)")  # Rich may style it
    suggestion = child.match.group(1)
    child.expect("chance to win")
    child.expect(r"P0 auction> ")
    child.sendline(suggestion)
    child.expect(": " + re.escape(suggestion))
    child.expect([r"P\d \w+> ", "amount> "])
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    saved = json.loads(save.read_text(encoding="utf-8"))
    assert saved["hints"] == {"0": 1}
    state = load_game_record(saved).replay()
    assert str(state.actions_taken()[0]) == suggestion
    assert pg.parse_action(suggestion).kind == "open"

    # resumed, the count carries on
    child = spawn("play", "--resume", str(save))
    child.expect([r"P0 \w+> ", "amount> "])
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert json.loads(save.read_text(encoding="utf-8"))["hints"] == {"0": 1}


def test_hints_in_a_record_are_read_carefully() -> None:
    from powergrid.tui.coach import hints_in_record

    assert hints_in_record({"hints": {"0": 2, "1": 1}}, 2) == {0: 2, 1: 1}
    assert hints_in_record({"hints": {"7": 2, "x": 1, "1": -3, "0": "many"}}, 2) == {}
    assert hints_in_record({"hints": [1, 2]}, 2) == {} and hints_in_record([], 2) == {}


def test_the_hint_panel_shows_each_plans_standing_and_says_why_a_lower_chance_can_rank_first() -> None:
    from rich.console import Console

    from powergrid.coach.hint import Choice, Hint
    from powergrid.tui.coach import hint_panel

    def choice(plan: str, chance: float, score: float) -> Choice:
        return Choice(pg.Action("done"), plan, chance, score, 8)

    def shown(advice: Hint) -> str:
        console = Console(width=160, record=True, color_system=None)
        console.print(hint_panel(advice))
        return console.export_text()

    best, other = choice("build 1 (Duisburg) for 10", 0.30, -1.4), choice("build 3 for 36", 0.42, -33.5)
    advice = Hint(0, 1, "build", pg.Action("done"), "Build in Duisburg.", 0.30, [other], best=best)
    text = shown(advice)
    assert "against the best rival" in text and "−1 E" in text and "−34 E" in text  # minus signs
    assert "a higher chance can come with a weaker position" in text  # the ranking explained
    lower = choice("build nothing", 0.20, 5.2)
    plain = shown(Hint(0, 1, "build", pg.Action("done"), "x", 0.30, [lower], best=best))
    assert "+5 E" in plain and "weaker position" not in plain
    # a row below a lower one showing more (43%, 28%, 31%) is out of order too, and said so
    third = choice("build 2 for 22", 0.31, -9.0)
    middle = choice("build nothing", 0.28, 2.0)
    text = shown(Hint(0, 1, "build", pg.Action("done"), "x", 0.43, [middle, third],
                      best=choice("build 1 for 10", 0.43, 1.0)))
    assert "weaker position" in text
