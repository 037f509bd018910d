"""The terminal client: the undo command (in process and through a terminal), and its plurals."""

from __future__ import annotations

import io
import json
import os
import re
import sys
from pathlib import Path

import pytest
from rich.console import Console

import powergrid as pg
from powergrid.rules.events import describe
from powergrid.sim.records import HUMAN, Seat, load_game_record
from powergrid.tui import Session, menu_for
from powergrid.tui.names import count

FAST = pg.GameConfig(seed=3, map="germany", players=2, variant="first_game")


class QueueConsole(Console):
    """Answers prompts from a list, then quits."""

    def __init__(self, answers: list[str]) -> None:
        super().__init__(file=io.StringIO(), width=120, color_system=None)
        self.answers = list(answers)
        self.prompts: list[str] = []

    def input(self, prompt="", **kwargs) -> str:  # type: ignore[no-untyped-def,override]
        self.prompts.append(str(prompt))
        return self.answers.pop(0) if self.answers else "quit"


def test_hot_seat_undo_takes_back_a_bid_and_the_save_keeps_the_undo(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    state = pg.new_game(FAST)
    console = QueueConsole(["undo", "open 4 6", "8", "undo", "pass"])
    session = Session(state, [Seat(0, HUMAN), Seat(1, HUMAN)], console, save_path=save)
    assert session.run() is False  # quit once the answers run out
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert "cannot undo: there is no action to take back" in out
    assert re.search(r"takes back 'bid 8'", out)
    # after the undo, P1 was asked again and passed: P0 bought plant 4 at the opening bid
    assert console.prompts[:5] == ["P0 auction> ", "P0 auction> ", "P1 bid> ", "P0 bid> ", "P1 bid> "]
    state = session.state  # an undo puts the earlier state back: a different object
    assert ("bought", 0, 4, 6) in state.events
    record = json.loads(save.read_text(encoding="utf-8"))
    assert record["actions"][:4] == ["open 4 6", "bid 8", "undo", "pass"]
    assert load_game_record(record).replay().to_dict() == record["final"] == state.to_dict()


def test_undo_of_a_build_restores_the_money_and_the_running_total() -> None:
    state = pg.new_game(pg.GameConfig(seed=5, map="germany", players=2))
    session = Session(state, [Seat(0, HUMAN), Seat(1, HUMAN)], QueueConsole([]))
    while state.phase != pg.Phase.BUILD:
        legal = state.legal_actions()
        session.play(next((a for a in legal if a.kind in ("pass", "done")), legal[0]))
    seat = state.current_player
    assert seat is not None
    money = state.money[seat]
    city = next(a for a in state.legal_actions() if a.kind == "build")
    session.play(city)
    assert session.done_this_turn == [city.city] and session.spent == money - state.money[seat]
    assert session.undo() is True
    state = session.state
    assert state.money[seat] == money and not state.cities[seat]
    assert session.done_this_turn == [] and session.spent == 0
    assert "nothing yet" in menu_for(state, session.spent, session.done_this_turn).notes[0]
    # the action before was the other seat's last purchase (hot-seat: they share the keyboard) or
    # this seat's own; either way a third undo in a row reaches a closed window or another phase
    assert state.phase == pg.Phase.BUILD


def test_plurals_in_the_terminal_and_the_log() -> None:
    assert [count(n, "city") for n in (0, 1, 2)] == ["0 cities", "1 city", "2 cities"]
    assert count(1, "action") == "1 action" and count(3, "plant") == "3 plants"
    state = pg.new_game(FAST)
    assert describe(state.scn, ("payout", 0, 1, 22)) == "P0 powers 1 city and earns 22"
    assert describe(state.scn, ("payout", 0, 2, 33)) == "P0 powers 2 cities and earns 33"
    # a power menu with one plant to run says "run plant N"
    for action in (pg.Action.open(4, 4), pg.Action.pass_(), pg.Action.open(3, 3)):
        state.apply(action)
    while state.phase != pg.Phase.BUREAUCRACY:
        legal = state.legal_actions()
        buys = [a for a in legal if a.kind == "buy"]
        builds = [a for a in legal if a.kind == "build"]
        state.apply(buys[-1] if buys else builds[0] if builds and not state.cities[state.current_player or 0]
                    else pg.Action.done())
    labels = [c.label for c in menu_for(state).choices]
    runs = [label for label in labels if label.startswith("run plant")]
    assert runs and all(re.match(r"run plant \d+ burning", label) for label in runs)
    assert all(": 1 city," in label for label in runs)
    assert not any("1 cities" in label or re.match(r"run plants \d+ burning", label) for label in labels)


# ------------------------------------------------------------------ through a terminal
pexpect = pytest.importorskip("pexpect")

BIN = Path(sys.executable).parent / "powergrid"
PROMPT = re.compile(r"P(\d) (auction|bid|discard|buy|build|power)> |amount> ")


def spawn(*args: str):  # type: ignore[no-untyped-def]
    if BIN.exists():
        command, argv = str(BIN), list(args)
    else:  # pragma: no cover - an install without the console script
        command, argv = sys.executable, ["-c", "from powergrid.cli.main import main; main()", *args]
    env = {"PATH": "/usr/bin:/bin", "TERM": "xterm", "NO_COLOR": "1", "COLUMNS": "130", "LINES": "50",
           "PYTHONIOENCODING": "utf-8", "HOME": str(Path.home())}
    if os.environ.get("PYTHONPATH"):  # a worktree's code, run with a shared virtualenv
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    return pexpect.spawn(command, argv, env=env, encoding="utf-8", timeout=30, dimensions=(50, 130))


def test_undo_a_build_in_the_terminal_and_be_told_when_it_is_too_late(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    child = spawn("play", "--players", "2", "--bots", "random", "--variant", "first_game", "--seed", "4",
                  "--save", str(save))
    for _ in range(200):
        child.expect(PROMPT)
        kind = child.match.group(2) or "amount"
        if kind == "build":
            break
        if kind == "auction":
            reply = "pass" if "pass: buy no plant" in child.before.split("Choose a plant")[-1] else "1"
        else:
            reply = {"bid": "pass", "discard": "1", "buy": "done", "amount": "", "power": ""}[kind]
        child.sendline(reply)
    else:  # pragma: no cover
        pytest.fail("never asked to build")
    child.sendline("1")
    child.expect(r"Built this turn: (\S+) — ")
    city = child.match.group(1)
    child.expect(r"P0 build> ")
    child.sendline("undo")
    child.expect(f"takes back 'build {city}'")
    child.expect("Built this turn: nothing yet")
    child.expect(r"P0 build> ")
    child.sendline("u")
    child.expect("cannot undo")
    child.expect(r"P0 build> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    record = json.loads(save.read_text(encoding="utf-8"))
    assert record["actions"][-2:] == [f"build {city}", "undo"]
    assert load_game_record(record).replay().to_dict() == record["final"]
