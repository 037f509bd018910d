"""`powergrid play`: menus in words, and whole games driven through a terminal (pexpect)."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import pytest
from rich.console import Console

import powergrid as pg
from powergrid.sim.records import HUMAN, Seat, load_game_record
from powergrid.tui import Command, Followup, Session, fuel_on_plants, menu_for
from powergrid.tui.menus import build_preview, resolve

FAST = dict(map="germany", players=2, variant="first_game")


def advance_to(state: pg.GameState, phase: int) -> pg.GameState:
    """Play the first legal action until the given phase (a simple, repeatable way to get there)."""
    while state.phase != phase:
        legal = state.legal_actions()
        state.apply(next((a for a in legal if a.kind in ("pass", "done")), legal[0]))
    return state


# ------------------------------------------------------------------ menus, without a terminal
def test_opening_menu_lists_the_affordable_plants_and_asks_the_bid() -> None:
    state = pg.new_game(pg.GameConfig(seed=3, **FAST))
    menu = menu_for(state)
    assert menu.kind == "auction"
    assert len(menu.choices) == len(state.current_market())
    assert "plant 3: burns 2 oil, powers 1 city" in menu.choices[0].label
    assert not any(c.action == pg.Action.pass_() for c in menu.choices)  # round 1: everyone buys
    followup = resolve(menu, state, "1")
    assert isinstance(followup, Followup)
    assert followup.resolve("") == pg.Action.open(3, 3)
    assert followup.resolve("7") == pg.Action.open(3, 7)
    assert "out of range" in followup.resolve("51")  # type: ignore[operator]
    assert "not a number" in followup.resolve("lots")  # type: ignore[operator]


def test_answers_are_numbers_commands_or_the_notation_and_bad_ones_say_why() -> None:
    state = pg.new_game(pg.GameConfig(seed=3, **FAST))
    menu = menu_for(state)
    assert resolve(menu, state, "open 4 6") == pg.Action.open(4, 6)
    assert resolve(menu, state, "help") == Command("help")
    assert resolve(menu, state, "log 5") == Command("log", 5)
    assert resolve(menu, state, "q") == Command("quit")
    assert "no choice 9" in resolve(menu, state, "9")  # type: ignore[operator]
    assert "not understood" in resolve(menu, state, "gimme")  # type: ignore[operator]
    refused = resolve(menu, state, "open 4 2")
    assert isinstance(refused, str) and "not allowed" in refused
    assert "pass" in resolve(menu, state, "pass")  # type: ignore[operator]  # round 1: no passing


def test_a_bare_number_is_a_bid_in_a_running_auction() -> None:
    state = pg.new_game(pg.GameConfig(seed=3, map="germany", players=3))
    state.apply(pg.Action.open(3, 3))
    menu = menu_for(state)
    assert menu.kind == "bid" and menu.amount_range == (4, 50)
    assert resolve(menu, state, "12") == pg.Action.bid(12)
    assert resolve(menu, state, "p") == pg.Action.pass_()
    assert "not possible" in resolve(menu, state, "3")  # type: ignore[operator]


def test_build_menu_previews_every_reachable_city_by_cost_with_a_running_total() -> None:
    state = advance_to(pg.new_game(pg.GameConfig(seed=5, map="germany", players=3)), 4)
    seat = state.current_player
    assert seat is not None
    state.apply(pg.Action.build(build_preview(state, seat)[0][0]))
    preview = build_preview(state, seat)
    costs = [cost for _, cost, _ in preview]
    assert costs == sorted(costs) and costs[0] > 10  # now the connection counts too
    assert {name for name, _, _ in preview} == {
        state.scn.map.cities[c] for c in state.scn.board.in_play if state.build_cost(seat, c) is not None}
    menu = menu_for(state, spent=10, done_this_turn=["Köln"])
    assert "Built this turn: Köln — 10 E spent" in menu.notes[0]
    assert menu.choices[-1].action == pg.Action.done() and menu.default == pg.Action.done()
    first = preview[0][0]
    assert resolve(menu, state, first.upper()) == pg.Action.build(first)
    assert resolve(menu, state, "1") == pg.Action.build(first)
    assert resolve(menu, state, "") == pg.Action.done()


def test_buy_menu_prices_each_amount_and_reads_short_answers() -> None:
    state = pg.new_game(pg.GameConfig(seed=3, **FAST))
    for action in (pg.Action.open(4, 4), pg.Action.pass_(), pg.Action.open(3, 3)):  # a coal plant each
        state.apply(action)
    advance_to(state, 3)
    seat = state.current_player
    assert seat is not None and state.plants[seat]
    menu = menu_for(state)
    assert menu.kind == "buy"
    assert any(c.label.startswith("buy ") and "1 for " in c.label and " E" in c.label for c in menu.choices)
    kind = state.scn.catalog.plants[state.plants[seat][0]].kind
    assert resolve(menu, state, f"2 {kind}") == pg.Action.buy(kind, 2)
    assert "not allowed" in resolve(menu, state, f"9 {kind}")  # type: ignore[operator]


def test_power_menu_recommends_the_default_and_fuel_is_shown_on_plants() -> None:
    state = pg.new_game(pg.GameConfig(seed=3, **FAST))
    for action in (pg.Action.open(5, 5), pg.Action.pass_(), pg.Action.open(4, 4)):  # hybrid, then coal
        state.apply(action)
    advance_to(state, 3)
    seat = state.current_player
    assert seat is not None
    for action in (pg.Action.buy("coal", 4), pg.Action.buy("oil", 1)):
        if action in state.legal_actions():
            state.apply(action)
    held = state.resources_of(seat)
    spread = fuel_on_plants(state, seat)
    assert tuple(map(sum, zip(*spread.values(), strict=True))) == held
    for number, fuel in spread.items():
        assert sum(fuel) <= 2 * state.scn.catalog.plants[number].burn
    advance_to(state, 5)
    while state.current_player != seat:
        state.apply(state.legal_actions()[0])
    menu = menu_for(state)
    assert menu.choices[0].action == pg.default_power(state, seat)
    assert menu.choices[0].label.endswith("(recommended)")
    assert resolve(menu, state, "") == pg.default_power(state, seat)
    assert resolve(menu, state, "nothing") == pg.Action.power((), (0, 0, 0, 0))


class ScriptedConsole(Console):
    """A console whose prompts are answered by a function of the prompt and the output so far."""

    def __init__(self, answer) -> None:  # type: ignore[no-untyped-def]
        super().__init__(file=io.StringIO(), width=120, color_system=None)
        self.answer = answer
        self.prompts: list[str] = []
        self.seen = 0

    def input(self, prompt="", **kwargs) -> str:  # type: ignore[no-untyped-def,override]
        """Answer from what was printed since the last prompt."""
        self.prompts.append(str(prompt))
        out = self.file.getvalue()  # type: ignore[attr-defined]
        screen, self.seen = out[self.seen:], len(out)
        return self.answer(str(prompt), screen)


def lazy_human(prompt: str, screen: str) -> str:
    """Buys the cheapest plant when it must, never bids, builds nothing, powers by default."""
    kind = prompt.split()[-1].rstrip(">")
    if kind == "auction":
        return "pass" if "pass: buy no plant" in screen.split("Choose a plant")[-1] else "1"
    return {"bid": "pass", "discard": "1", "buy": "done", "build": "done", "amount": ""}.get(kind, "")


def test_hot_seat_game_in_process_reaches_the_end_with_every_prompt_labelled() -> None:
    state = pg.new_game(pg.GameConfig(seed=11, map="germany", players=3, variant="first_game"))
    seats = [Seat(0, HUMAN), Seat(1, HUMAN), Seat(2, "random", 5)]
    console = ScriptedConsole(lazy_human)
    assert Session(state, seats, console).run() is True
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert state.is_over and "GAME OVER" in out
    assert {p.split()[0] for p in console.prompts if p != "amount> "} == {"P0", "P1"}
    assert "P1 Blue: your turn" in out and "(random)" in out


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
    return pexpect.spawn(command, argv, env=env, encoding="utf-8", timeout=30, dimensions=(50, 130))


def answer_prompts(child, limit: int, build_once: bool = True) -> int:  # type: ignore[no-untyped-def]
    """Answer like a scripted person until the game is over (returns 0) or ``limit`` prompts."""
    built = False
    for _ in range(limit):
        index = child.expect([PROMPT, "GAME OVER"])
        if index == 1:
            return 0
        kind = child.match.group(2) or "amount"
        screen = child.before
        if kind == "auction":
            reply = "pass" if "pass: buy no plant" in screen.split("Choose a plant")[-1] else "1"
        elif kind == "build":
            reply = "1" if build_once and not built else "done"
            built = not built
        else:
            reply = {"bid": "pass", "discard": "1", "buy": "done", "amount": "", "power": ""}[kind]
        child.sendline(reply)
    return limit


def test_a_person_plays_a_whole_game_against_a_bot_in_the_terminal(tmp_path: Path) -> None:
    child = spawn("play", "--map", "germany", "--players", "2", "--bots", "random", "--variant", "first_game",
                  "--seed", "4")
    assert answer_prompts(child, 2000) == 0
    child.expect("win")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_invalid_input_is_explained_and_asked_again() -> None:
    child = spawn("play", "--players", "2", "--bots", "random", "--variant", "first_game", "--seed", "3")
    child.expect(r"P0 auction> ")  # with this seed, P0 opens the first auction
    for bad, why in (("gimme", "not understood"), ("99", "there is no choice 99"),
                     ("open 4 2", "is not allowed"), ("log x", "type 'log'")):
        child.sendline(bad)
        child.expect(why)
        child.expect(r"P0 auction> ")
    child.sendline("help")
    child.expect("Commands")
    child.expect(r"P0 auction> ")
    child.sendline("1")
    child.expect("amount> ")
    child.sendline("lots")
    child.expect("not a number")
    child.expect("amount> ")
    child.sendline("back")
    child.expect(r"P0 auction> ")
    child.sendline("quit")
    child.expect("unsaved")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_save_after_every_action_then_resume(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    child = spawn("play", "--players", "2", "--bots", "random", "--variant", "first_game", "--seed", "9",
                  "--save", str(save))
    assert answer_prompts(child, 12) == 12
    child.expect([PROMPT])
    child.sendline("quit")
    child.expect("--resume")
    child.expect(pexpect.EOF)
    child.close()
    first = json.loads(save.read_text(encoding="utf-8"))
    record = load_game_record(first)
    assert [s.spec for s in record.seats] == [HUMAN, "random"]
    assert record.config.seed == 9 and len(record.actions) > 12
    assert record.replay().to_dict() == first["final"]

    child = spawn("play", "--resume", str(save))
    child.expect("Resuming")
    assert answer_prompts(child, 2000) == 0
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    final = json.loads(save.read_text(encoding="utf-8"))
    assert final["actions"][:len(first["actions"])] == first["actions"]
    assert load_game_record(final).replay().is_over


def test_bad_options_fail_with_one_line() -> None:
    child = spawn("play", "--players", "3", "--bots", "random,random,random")
    child.expect("2 seats without a human")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
