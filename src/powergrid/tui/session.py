"""The game loop of the terminal client: bots move, people are asked, the game is saved."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.columns import Columns
from rich.console import Console
from rich.panel import Panel
from rich.rule import Rule
from rich.text import Text

from ..bots import Bot, make_bot
from ..i18n import N_, _, current, ngettext, pgettext
from ..i18n.log import describe
from ..i18n.terms import and_list, resource_count
from ..i18n.terms import seat as seat_mention
from ..rules import Action, GameState, Timeline, UndoRefused
from ..sim.records import Seat, game_record
from .board import board, standings
from .menus import Command, Followup, Menu, menu_for, resolve
from .names import mentions, seat_name, seat_style, seat_text

#: the prompt's word for each kind of decision (the prompt reads ``P0 auction> ``)
PROMPTS = {
    "auction": lambda: pgettext("prompt", "auction"),
    "bid": lambda: pgettext("prompt", "bid"),
    "discard": lambda: pgettext("prompt", "discard"),
    "buy": lambda: pgettext("prompt", "buy"),
    "build": lambda: pgettext("prompt", "build"),
    "power": lambda: pgettext("prompt", "power"),
}

HELP = N_("""[bold]Answering[/]: type the number of a choice, or the action itself in the game's notation:
  open 13 15 · bid 16 · pass · buy 2 coal · build Köln · done · power 5 10 burn 2coal 3oil · power nothing
  In an auction a bare number is your bid. Enter takes the default shown in the prompt line (if any).
[bold]Commands[/]: help · log \\[n] (the last n lines of the game log) · board (draw the board again) ·
  undo (take back your last action, until another player acts or a plant is drawn) ·
  hint (what the search bot would do from your view, and why) · quit
[bold]A round[/]: 2 auction (buy at most one plant) → 3 buy resources (last player first) →
  4 build (last player first; first city $10, then the slot price plus the connections) →
  5 bureaucracy (power cities with your plants, get paid, the markets refill).
The game ends when someone has {end} cities; whoever then powers the most cities wins
(ties: money, then cities).""")

#: A bot that took longer than this over its last move gets a spinner for the next one.
SLOW_SECONDS = 0.3

class QuitGame(Exception):
    """The player asked to leave (``quit`` or end of input)."""


class Session:
    """One game in the terminal: ``seats`` says who is human and which bot plays each other seat."""

    def __init__(self, state: GameState | Timeline, seats: Sequence[Seat], console: Console,
                 save_path: Path | None = None, bot_factory: Callable[[str, int], Bot] = make_bot) -> None:
        #: the game and its log (undo entries included); a bare state starts a log that goes on from it
        self.timeline = state if isinstance(state, Timeline) else Timeline.starting_at(state)
        self.seats = list(seats)
        self.console = console
        self.save_path = save_path
        self.bots: dict[int, Bot] = {s.seat: bot_factory(s.spec, s.seed or 0)
                                     for s in seats if not s.is_human}
        self.humans = [s.seat for s in seats if s.is_human]
        self.printed = len(self.state.events)
        self.board_key: tuple[Any, ...] | None = None
        self.last_human: int | None = None
        self.turn_key: tuple[int, int, int] | None = None
        self.spent = 0
        self.done_this_turn: list[str] = []
        self.slow: dict[int, bool] = {}
        #: hints each seat asked for (kept in the saved record)
        self.hints_used: dict[int, int] = {}

    @property
    def state(self) -> GameState:
        return self.timeline.state

    # ------------------------------------------------------------------ names
    def label(self, seat: int) -> str:
        if seat in self.bots:
            return next(s.spec for s in self.seats if s.seat == seat)
        return _("you") if len(self.humans) == 1 else _("human")

    def styled(self, line: str, kind: str = "") -> Text:
        """A log line with each ``P<n>`` in that seat's colour."""
        return mentions(line, self.state.players, kind)

    # ------------------------------------------------------------------ the loop
    def run(self) -> bool:
        """Play until the game is over (True) or a player quits (False)."""
        try:
            while not self.state.is_over:
                seat = self.state.current_player
                assert seat is not None
                if seat in self.bots:
                    action: Action | None = self.bot_move(seat)
                else:
                    action = self.ask(seat)
                if action is not None:  # None: an action was taken back; ask again
                    self.play(action)
        except QuitGame:
            self.console.print()
            if self.save_path is not None:
                command = f"powergrid play --resume {self.save_path}"
                self.console.print(_("Game saved to {path}; continue it with [bold]{command}[/]",
                                     path=str(self.save_path), command=command))
            else:
                self.console.print(_("Game left unsaved (play with --save FILE to keep it)."))
            return False
        self.game_over()
        return True

    def bot_move(self, seat: int) -> Action:
        """The bot's choice; a spinner shows while a bot that was slow last time thinks."""
        view = self.state.view(seat)
        started = time.perf_counter()
        if self.slow.get(seat) and self.console.is_terminal:
            with self.console.status(_("{player} ({label}) is thinking…", player=seat_name(seat),
                                       label=self.label(seat))):
                action = self.bots[seat].act(view)
        else:
            action = self.bots[seat].act(view)
        self.slow[seat] = time.perf_counter() - started > SLOW_SECONDS
        return action

    def play(self, action: Action) -> None:
        state = self.state
        seat = state.current_player
        assert seat is not None
        self.start_turn(seat)
        money = state.money[seat]
        self.timeline.act(action)
        state = self.state
        if action.kind in ("buy", "build"):
            self.spent += money - state.money[seat]
            self.done_this_turn.append(resource_count(current(), action.amount, action.resource)
                                       if action.kind == "buy" else action.city)
        self.save()
        self.print_log()

    def start_turn(self, seat: int) -> None:
        """Reset the running total (money spent, things bought or built) when a new turn starts."""
        key = (self.state.round, self.state.phase, seat)
        if key != self.turn_key:
            self.turn_key, self.spent, self.done_this_turn = key, 0, []

    def print_log(self, last: int | None = None) -> None:
        events = self.state.events
        if last is None:
            new, self.printed = events[self.printed:], len(events)
        else:
            new = events[-last:] if last else []
        for event in new:
            line = describe(self.state.scn, event, current())
            if event[0] == "act" and event[1] in self.bots:
                who = Text(f"  ({self.label(event[1])})", "dim")
                self.console.print(Text("  ") + self.styled(line) + who)
            elif event[0] in ("act", "bought", "payout", "paid"):
                self.console.print(Text("  ") + self.styled(line))
            else:
                self.console.print(self.styled(line, event[0]),
                                   style="dim" if event[0] in ("drawn", "boxed") else None)

    def undo(self) -> bool:
        """Take back the newest action, if a person at this terminal took it and may; say so."""
        seat = self.timeline.ledger.last_seat
        if seat is None or seat in self.bots:
            why = (_("there is no action to take back") if seat is None else
                   _("the last action is {player}'s ({label})", player=seat_name(seat),
                     label=self.label(seat)))
            self.console.print(Text("✗ " + _("cannot undo: {why}", why=why), style="red"))
            return False
        money = self.state.money[seat]
        try:
            taken = self.timeline.undo(seat)
        except UndoRefused as exc:
            self.console.print(Text("✗ " + _("cannot undo: {why}", why=str(exc)), style="red"))
            return False
        taken_back = _("{player} takes back '{action}'", player=seat_mention(seat), action=taken.action)
        self.console.print(Text("↶ ") + self.styled(taken_back))
        self.printed = len(self.state.events)
        if taken.action.startswith(("buy ", "build ")) and self.done_this_turn:
            self.done_this_turn.pop()  # the running total of the turn, less what was taken back
            self.spent -= self.state.money[seat] - money
        self.board_key = None
        self.save()
        return True

    def save(self) -> None:
        if self.save_path is None:
            return
        record = game_record(self.state.config, self.timeline.log, self.seats)
        record["final"] = self.state.to_dict()
        if self.hints_used:
            record["hints"] = {str(seat): n for seat, n in sorted(self.hints_used.items())}
        tmp = self.save_path.with_name(self.save_path.name + ".tmp")
        tmp.write_text(json.dumps(record, ensure_ascii=False) + "\n", encoding="utf-8")
        os.replace(tmp, self.save_path)

    # ------------------------------------------------------------------ asking people
    def ask(self, seat: int) -> Action | None:
        """The person's action; None when they took an action back instead (ask again)."""
        state = self.state
        if len(self.humans) > 1 and seat != self.last_human:
            turn = _("{player}: your turn", player=seat_name(seat))
            self.console.print(Rule(Text(turn, style=seat_style(seat))))
        self.last_human = seat
        key = (state.round, state.phase, seat, sum(len(p) for p in state.plants), state.discard_seat)
        if key != self.board_key:
            self.board_key = key
            self.console.print(board(state, self.label))
        self.start_turn(seat)
        menu = menu_for(state, self.spent, self.done_this_turn)
        self.show_menu(seat, menu)
        while True:
            answer = resolve(menu, state, self.read(f"P{seat} {PROMPTS[menu.kind]()}> "))
            if isinstance(answer, str):
                self.console.print(Text(f"✗ {answer}", style="red"))
                continue
            if isinstance(answer, Command):
                if answer.name == "quit":
                    raise QuitGame
                if answer.name == "undo":
                    if self.undo():
                        return None
                    self.show_menu(seat, menu)
                    continue
                if answer.name == "help":
                    self.console.print(Panel(_(HELP, end=state.scn.end_cities), title=_("help")))
                elif answer.name == "log":
                    self.print_log(answer.arg if answer.arg is not None else 20)
                elif answer.name == "hint":
                    self.show_hint(seat)
                else:
                    self.console.print(board(state, self.label))
                self.show_menu(seat, menu)
                continue
            if isinstance(answer, Followup):
                action = self.ask_amount(answer)
                if action is None:
                    self.show_menu(seat, menu)
                    continue
                return action
            return answer

    def show_hint(self, seat: int) -> None:
        from .coach import ask_coach, hint_panel  # the coach loads its model on first use
        with self.console.status(_("The coach is thinking…")):
            bots = {s.seat: s.spec for s in self.seats if s.seat in self.bots}
            players = [bots.get(s) for s in range(self.state.players)]
            advice = ask_coach(self.state, seat, seed=self.state.decisions, players=players)
        self.hints_used[seat] = self.hints_used.get(seat, 0) + 1
        self.console.print(hint_panel(advice))
        self.save()

    def ask_amount(self, followup: Followup) -> Action | None:
        """The number a choice needs; None to go back to the menu."""
        self.console.print(_("{question}; Enter = {default}, 'back' to choose again",
                             question=followup.question, default=followup.default))
        while True:
            text = self.read(pgettext("prompt", "amount") + "> ")
            if text.strip().lower() in ("back", "b"):
                return None
            if text.strip().lower() in ("quit", "q", "exit"):
                raise QuitGame
            action = followup.resolve(text)
            if isinstance(action, str):
                self.console.print(Text(f"✗ {action}", style="red"))
                continue
            if action not in self.state.legal_actions():  # pragma: no cover - the menu offers legal ranges
                refused = _("'{action}' is not allowed now", action=str(action))
                self.console.print(Text("✗ " + refused, style="red"))
                continue
            return action

    def read(self, prompt: str) -> str:
        try:
            return self.console.input(prompt)
        except EOFError:
            raise QuitGame from None
        except KeyboardInterrupt:
            raise QuitGame from None

    def show_menu(self, seat: int, menu: Menu) -> None:
        print_menu(self.console, seat, menu)

    def game_over(self) -> None:
        self.console.print()
        print_game_over(self.console, self.state, self.label)


def print_menu(console: Console, seat: int, menu: Menu) -> None:
    """The decision: the question, its notes, the numbered choices, and how to answer."""
    title = seat_text(seat)
    title.append(f" — {menu.question}", style="bold")
    console.print(title)
    for note in menu.notes:
        console.print(Text(note, style="dim"))
    if menu.amount_range is None:
        items = [f"{i:>2}) {c.label}" for i, c in enumerate(menu.choices, 1)]
        if menu.kind == "build" and len(items) > 6:
            console.print(Columns(items, padding=(0, 3), column_first=True))
        else:
            for item in items:
                console.print(item, highlight=False)
    hint = _("Answer: {hint}", hint=menu.hint)
    if menu.default is not None:
        hint += "; " + _("Enter = {label} ({action})", label=menu.default_label, action=str(menu.default))
    console.print(Text(hint + "; " + _("'help' for help"), style="dim italic"))


def print_game_over(console: Console, state: GameState, label: Callable[[int], str]) -> None:
    """The board, the standings and who won."""
    console.print(board(state, label))
    console.print(standings(state, label))
    names = and_list(current(), [seat_name(w) for w in state.winners])
    line = ngettext("GAME OVER: {winners} wins!", "GAME OVER: {winners} win!", len(state.winners),
                    winners=names)
    text = Text(line)
    for seat in range(state.players):
        text.highlight_words([seat_name(seat)], style=seat_style(seat))
    console.print(text, style="bold")
