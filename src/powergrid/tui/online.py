"""`powergrid play --join <seat link>`: one seat of a game on a server, played at this terminal.

The board, the log and the clocks are drawn as the server's views arrive on the game's socket;
the seat's decisions are asked with the local game's menus (menus.py), read from the view made
into a state (remote.state_from_view), and sent to the server, which checks them again. Besides
the local game's commands (help, log, board, undo, hint, quit) a person may chat (``say``), give
standing orders (``order``), leave the seat to the game's stand-in bot and take it back (``leave``,
``back``), at any prompt, their turn or not.
"""

from __future__ import annotations

import queue
import sys
import threading
import time
from typing import Any

from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from ..i18n import N_, _, current, ngettext, pgettext
from ..i18n.errors import error_message
from ..i18n.log import display_texts
from ..i18n.terms import resource_count
from ..i18n.terms import seat as seat_mention
from ..rules import Action, GameState, MalformedAction, parse_action
from .board import board
from .clocks import REASONS, clock_text, clocks_line, control_words, left_now, low_at, timed, turn_left
from .menus import ALIASES, Followup, Menu, menu_for, resolve
from .names import mentions, money, seat_name, seat_text
from .remote import Refused, Remote, state_from_view
from .session import HELP, PROMPTS, print_game_over, print_menu

HELP_ONLINE = N_("""[bold]Online[/], at any prompt, your turn or not:
  say <text> (write to the table) · order bid-up-to <n> (bid the minimum each time it is your turn in
  this auction, up to n; then pass) · order pass-auction (pass the rest of this auction phase) ·
  order power <plants> burn <fuel> (bureaucracy: choose now, played at your turn) · order (show
  yours) · order cancel · leave (the stand-in bot plays your seat) · back (take your seat back) ·
  quit (close this terminal; your seat stays yours: join again with the same link)""")
HELP_CLOCK = N_("  clock (every player's time left, as of now)")

#: the chat's quick phrases (the server sends their key; each reader sees them in their language)
PHRASES = {"good_luck": N_("Good luck!"), "good_game": N_("Good game"), "your_turn": N_("Your turn"),
           "one_moment": N_("One moment"), "well_played": N_("Well played"), "thanks": N_("Thanks!")}

#: how many of the log's last entries are shown on joining
JOIN_LOG_LINES = 12


class OnlineSession:
    """One seat of a server's game at this terminal (see the module's docstring)."""

    def __init__(self, remote: Remote, console: Console) -> None:
        self.remote = remote
        self.console = console
        self.seat = remote.link.seat
        self.message: dict[str, Any] = {}
        self.state: GameState | None = None
        self.version = -1
        self.seats: list[dict[str, Any]] = []
        self.printed = -1  # display-log entries shown (-1: none yet)
        self.noticed = 0  # notices shown
        self.chat_seen: set[int] = set()
        self.menu: Menu | None = None
        self.menu_version = -1
        self.followup: Followup | None = None
        self.board_key: tuple[Any, ...] | None = None
        self.order: dict[str, Any] | None = None
        self.turn_key: tuple[int, int] | None = None
        self.spent = 0
        self.done_this_turn: list[str] = []
        self.warned = -1  # the version whose low clock was announced
        self.prompt_shown = False
        #: the prompt is shown again once the events waiting are handled: after a line typed, a
        #: decision asked, or (while a decision waits) anything printed; not for every move of
        #: the others while the seat waits
        self.prompt_due = True
        self.finished = False

    # ------------------------------------------------------------------ names
    def label(self, seat: int) -> str:
        """Who plays a seat, for the board: you, a bot's name, a stand-in, or the person's name."""
        clocks = self.message.get("clocks") or {}
        held = (clocks.get("seats") or [])
        if seat < len(held) and held[seat].get("stand_in"):
            return _("{bot} bot plays", bot=clocks.get("stand_in_bot", ""))
        if seat == self.seat:
            return _("you")
        info = self.seats[seat] if seat < len(self.seats) else {}
        if info.get("kind") == "bot":
            return str(info.get("bot", ""))
        return str(info.get("name") or _("human"))

    def out(self, *renderables: Any, **kwargs: Any) -> None:
        """Print, on a line of its own if a prompt is showing."""
        self.fresh_line()
        self.console.print(*renderables, **kwargs)

    def fresh_line(self) -> None:
        if self.prompt_shown:
            self.console.print()
            self.prompt_shown = False
            self.prompt_due = self.prompt_due or self.menu is not None

    def refused(self, exc: Refused) -> None:
        if exc.code == "unreachable":
            words = _("The server cannot be reached: {why}", why=exc.message)
        else:
            words = error_message(exc.code, current())
        self.out(Text("✗ " + words, style="red"))

    # ------------------------------------------------------------------ the loop
    def run(self, name: str | None = None) -> int:
        """Play until the game is over (0), the person quits (0), or the seat cannot be joined (1)."""
        remote = self.remote
        try:
            first = remote.view()
            self.seats = remote.game().get("seats") or []
            if name:
                remote.call("PUT", f"{remote.game_path}/seats/{self.seat}/name", {"name": name})
            remote.sync_clock()
            chat = remote.call("GET", f"{remote.game_path}/chat")
        except Refused as exc:
            self.refused(exc)
            return 1
        self.out(_("Joined game {game} on {server} as {player}.", game=remote.link.game_id,
                   server=remote.link.server, player=seat_name(self.seat)))
        words = control_words(first.get("clocks"))
        if words:
            self.out(Text(words, style="dim"))
        self.out(_("Type 'help' at any prompt."))
        for message in (chat.get("messages") or [])[-5:]:
            self.show_chat(message)
        self.accept(first)
        remote.listen()
        threading.Thread(target=self._read_lines, name="powergrid-stdin", daemon=True).start()
        try:
            while not self.finished:
                try:
                    event = remote.events.get_nowait()
                except queue.Empty:
                    if self.prompt_due:
                        self.show_prompt()
                    try:
                        event = remote.events.get(timeout=self.wait_for_warning())
                    except queue.Empty:
                        self.warn_low_clock()
                        continue
                self.handle(event)
        except QuitOnline:
            self.out()
            self.out(_("You closed the table; your seat stays yours: join again with the same link."))
        finally:
            remote.close()
        return 0

    def _read_lines(self) -> None:
        for line in sys.stdin:
            self.remote.events.put(("line", line.rstrip("\r\n")))
        self.remote.events.put(("eof",))

    def handle(self, event: tuple[Any, ...]) -> None:
        kind = event[0]
        if kind == "line":
            self.prompt_shown, self.prompt_due = False, True
            self.on_line(event[1])
        elif kind == "eof":
            raise QuitOnline
        elif kind == "socket":
            self.on_socket(event[1])
        elif kind == "socket-lost":
            self.out(Text(_("The connection to the server was lost; trying again…"), style="yellow"))
        elif kind == "socket-refused":
            self.out(Text(_("The server closed the connection ({code}).", code=event[1]), style="red"))
            raise QuitOnline

    def on_socket(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "state":
            self.accept(message)
        elif kind == "chat":
            for item in message.get("messages") or []:
                self.show_chat(item)
        elif kind == "seats":
            self.seats = message.get("seats") or self.seats
        elif kind == "error":
            error = message.get("error") or {}
            self.refused(Refused(str(error.get("code", "")), str(error.get("message", ""))))

    # ------------------------------------------------------------------ views
    def accept(self, message: dict[str, Any]) -> None:
        """A view of the game (from the socket, or the answer to a request); older ones are dropped."""
        version = message.get("version", -1)
        if version < self.version or (version == self.version and "state" not in message):
            return
        fresh = version > self.version
        self.message, self.version = message, version
        self.state = state_from_view(message["state"])
        self.print_log(message["state"])
        self.print_notices()
        if fresh and self.order is not None:
            self.refresh_order()
        if message["state"].get("game_over") or (message.get("clocks") or {}).get("abandoned"):
            self.game_over()
            return
        self.decide()

    def my_decision(self) -> bool:
        clocks = self.message.get("clocks") or {}
        held = clocks.get("seats") or []
        stand_in = self.seat < len(held) and held[self.seat].get("stand_in")
        return self.message.get("to_act") == self.seat and not stand_in and self.state is not None

    def decide(self) -> None:
        """Ask for the seat's decision if it has one at this version (once per version)."""
        state = self.state
        if not self.my_decision() or state is None:
            if self.menu is not None:
                self.menu, self.followup = None, None
                self.prompt_due = True
            return
        if self.menu_version == self.version:
            return
        key = (state.round, state.phase)
        if key != self.turn_key:
            self.turn_key, self.spent, self.done_this_turn = key, 0, []
        board_key = (state.round, state.phase, sum(len(p) for p in state.plants), state.discard_seat)
        if board_key != self.board_key:
            self.board_key = board_key
            self.show_board()
        self.menu = menu_for(state, self.spent, self.done_this_turn)
        self.menu_version, self.followup = self.version, None
        self.show_menu()

    def show_board(self) -> None:
        assert self.state is not None
        self.out(board(self.state, self.label))
        line = clocks_line(self.message.get("clocks"), self.remote.server_now())
        if line is not None:
            self.out(line)
        if self.order is not None:
            self.out(Text(_("Your standing order: {order}", order=order_words(self.order)), style="cyan"))

    def show_menu(self) -> None:
        assert self.menu is not None
        self.fresh_line()
        print_menu(self.console, self.seat, self.menu)
        self.prompt_due = True
        clocks = self.message.get("clocks")
        if timed(clocks):
            assert clocks is not None
            left = left_now(clocks, self.seat, self.remote.server_now())
            if left is not None:
                words = _("Your clock: {left}", left=clock_text(clocks, self.seat, left))
                self.out(Text(words, style="bold"))

    def show_prompt(self) -> None:
        if self.finished:
            return
        if self.followup is not None:
            prompt = pgettext("prompt", "amount") + "> "
        elif self.menu is not None:
            prompt = f"P{self.seat} {PROMPTS[self.menu.kind]()}> "
        else:
            waiting = pgettext("prompt", "waiting")
            prompt = f"P{self.seat} {waiting}> "
        self.console.print(Text(prompt), end="")
        self.console.file.flush()
        self.prompt_shown, self.prompt_due = True, False

    def print_log(self, view: dict[str, Any]) -> None:
        """The display log's entries not shown yet (on joining, the last few)."""
        entries = view.get("log") or []
        total = int(view.get("log_total", len(entries)))
        if self.printed < 0:
            self.printed = max(0, total - JOIN_LOG_LINES)
        new = total - self.printed
        if new <= 0:
            return
        assert self.state is not None
        texts = display_texts(self.state.scn, entries, current())
        if new > len(entries):
            self.out(Text("…", style="dim"))
        bots = {i for i, s in enumerate(self.seats) if s.get("kind") == "bot"}
        for entry, line in list(zip(entries, texts, strict=True))[-new:]:
            kind = entry[0]
            if kind == "act" and entry[1] != self.seat:
                who = Text(f"  ({self.label(entry[1])})", "dim") if entry[1] in bots else Text()
                self.out(Text("  ") + mentions(line, self.state.players) + who)
            elif kind in ("act", "bought", "payout", "paid", "summary"):
                self.out(Text("  ") + mentions(line, self.state.players))
            else:
                self.out(mentions(line, self.state.players, kind),
                         style="dim" if kind in ("drawn", "boxed") else None)
        self.printed = total

    def print_notices(self) -> None:
        """Seats handed to the stand-in bot and taken back, as they happen."""
        clocks = self.message.get("clocks") or {}
        notices = clocks.get("notices") or []
        bot = clocks.get("stand_in_bot", "")
        for _version, seat, entry, _at in notices[self.noticed:]:
            player = seat_mention(seat)
            reason = entry.split(" ")[1] if " " in entry else ""
            if entry == "@back":
                words = _("{player} takes their seat back", player=player)
            elif reason == "time":
                words = _("{player} ran out of time: the {bot} bot plays for them", player=player, bot=bot)
            elif reason == "left":
                words = _("{player} left: the {bot} bot plays for them", player=player, bot=bot)
            else:
                words = _("{player} is away: the {bot} bot plays for them until they are back", player=player,
                          bot=bot)
            self.out(Text("⏱ ") + mentions(words, len(clocks.get("seats") or [])), style="yellow")
            if seat == self.seat and entry != "@back":
                why = _(REASONS.get(reason, REASONS["away"]))
                self.out(_("The {bot} bot is playing for you: {why}.", bot=bot, why=why) + " "
                         + _("Type 'back' to take your seat back."))
        self.noticed = max(self.noticed, len(notices))

    # ------------------------------------------------------------------ clocks
    def wait_for_warning(self) -> float | None:
        """Seconds until the seat's clock runs low (None: no warning to come)."""
        clocks = self.message.get("clocks")
        if not self.my_decision() or not timed(clocks) or self.warned == self.version:
            return None
        assert clocks is not None
        left = left_now(clocks, self.seat, self.remote.server_now())
        if left is None:
            return None
        return max(0.0, turn_left(clocks, self.seat, left) - low_at(clocks)) + 0.05

    def show_clocks(self) -> None:
        """Every clock as of now (the board shows them as of its last redraw)."""
        line = clocks_line(self.message.get("clocks"), self.remote.server_now())
        self.out(line if line is not None else Text(_("This game has no clocks."), style="dim"))

    def warn_low_clock(self) -> None:
        clocks = self.message.get("clocks")
        if not self.my_decision() or not timed(clocks):
            return
        assert clocks is not None
        left = left_now(clocks, self.seat, self.remote.server_now())
        if left is None:
            return
        self.warned = self.version
        self.out(Text(_("{name}: your time is running out ({left} left)", name=seat_name(self.seat),
                        left=clock_text(clocks, self.seat, left)), style="bold red"))

    # ------------------------------------------------------------------ what a person types
    def on_line(self, text: str) -> None:
        if self.followup is not None:
            self.answer_amount(text)
            return
        word, _sep, rest = text.strip().partition(" ")
        head = ALIASES.get(word.lower(), word.lower())
        rest = rest.strip()
        if head == "say":
            self.say(rest)
        elif head == "order":
            self.order_command(rest)
        elif head in ("leave", "back") and not rest:
            self.leave() if head == "leave" else self.come_back()
        elif head == "clock" and not rest:
            self.show_clocks()
        elif head == "quit" and not rest:
            raise QuitOnline
        elif self.menu is not None:
            self.answer(text)
        elif head == "help" and not rest:
            self.show_help()
        elif head == "log":
            self.show_log(rest)
        elif head == "board" and not rest:
            if self.state is not None:
                self.show_board()
        elif head == "undo" and not rest:
            self.undo()
        elif head == "hint" and not rest:
            self.refused(Refused("not_your_turn", ""))
        elif text.strip():
            self.out(Text("✗ " + self.waiting_words(), style="red"))

    def waiting_words(self) -> str:
        clocks = self.message.get("clocks") or {}
        held = clocks.get("seats") or []
        if self.seat < len(held) and held[self.seat].get("stand_in"):
            return _("The {bot} bot is playing for you: type 'back' to take your seat back.",
                     bot=clocks.get("stand_in_bot", ""))
        to_act = self.message.get("to_act")
        if to_act is None:
            return _("Nobody is to act.")
        return _("It is {player}'s turn: you can chat ('say …'), give a standing order ('order …'), "
                 "or type 'help'.", player=seat_name(to_act))

    def answer(self, text: str) -> None:
        """An answer to the seat's decision (a choice, the notation, or one of the local commands)."""
        assert self.menu is not None and self.state is not None
        answer = resolve(self.menu, self.state, text)
        if isinstance(answer, str):
            self.out(Text(f"✗ {answer}", style="red"))
            return
        if isinstance(answer, Followup):
            self.followup = answer
            self.out(_("{question}; Enter = {default}, 'back' to choose again", question=answer.question,
                       default=answer.default))
            self.prompt_due = True
            return
        if isinstance(answer, Action):
            self.send(answer)
            return
        if answer.name == "help":
            self.show_help()
        elif answer.name == "log":
            self.show_log(str(answer.arg) if answer.arg is not None else "")
        elif answer.name == "board":
            self.show_board()
        elif answer.name == "undo":
            self.undo()
            return
        elif answer.name == "hint":
            self.hint()
        self.show_menu()

    def answer_amount(self, text: str) -> None:
        assert self.followup is not None
        word = text.strip().lower()
        if word in ("back", "b"):
            self.followup = None
            self.show_menu()
            return
        if word in ("quit", "q", "exit"):
            raise QuitOnline
        action = self.followup.resolve(text)
        if isinstance(action, str):
            self.out(Text(f"✗ {action}", style="red"))
            return
        self.followup = None
        self.send(action)

    def show_help(self) -> None:
        end = self.state.scn.end_cities if self.state is not None else 0
        self.out(Panel(_(HELP, end=end) + "\n" + _(HELP_ONLINE) + "\n" + _(HELP_CLOCK), title=_("help")))

    def show_log(self, arg: str) -> None:
        if arg and not arg.isdigit():
            self.out(Text("✗ " + _("type 'log' or 'log <number of lines>'"), style="red"))
            return
        view = self.message.get("state") or {}
        entries = view.get("log") or []
        if self.state is None or not entries:
            return
        texts = display_texts(self.state.scn, entries, current())
        for entry, line in list(zip(entries, texts, strict=True))[-(int(arg) if arg else 20):]:
            self.out(mentions(line, self.state.players, entry[0]))

    # ------------------------------------------------------------------ requests
    def send(self, action: Action) -> None:
        """The seat's action, to the server (which checks it again)."""
        assert self.state is not None
        legal = self.message.get("legal")
        if isinstance(legal, list) and str(action) not in legal:
            self.out(Text("✗ " + _("'{action}' is not allowed now", action=str(action)), style="red"))
            return
        money_before = self.state.money[self.seat]
        try:
            reply = self.remote.act(str(action), self.version)
        except Refused as exc:
            self.refused(exc)
            self.reload()
            return
        after = reply.get("state", {}).get("players", [])
        if action.kind in ("buy", "build") and self.seat < len(after):
            self.spent += money_before - int(after[self.seat]["money"])
            self.done_this_turn.append(resource_count(current(), action.amount, action.resource)
                                       if action.kind == "buy" else action.city)
        self.accept(reply)

    def reload(self) -> None:
        """The latest view, after a refusal (the game may have moved on)."""
        try:
            view = self.remote.view()
        except Refused as exc:
            self.refused(exc)
            return
        self.menu_version = -1
        self.accept(view)

    def undo(self) -> None:
        try:
            reply = self.remote.seat_call("undo", {"version": self.version})
        except Refused as exc:
            self.refused(exc)
            if self.menu is not None:
                self.show_menu()
            return
        last = reply.get("last") or {}
        if last.get("undone"):
            taken = _("{player} takes back '{action}'", player=seat_mention(self.seat), action=last["undone"])
            self.out(Text("↶ ") + mentions(taken, len(reply["state"]["players"])))
            if str(last["undone"]).startswith(("buy ", "build ")) and self.done_this_turn:
                self.done_this_turn.pop()
                self.spent -= int(reply["state"]["players"][self.seat]["money"]) - \
                    int(self.message["state"]["players"][self.seat]["money"])
        self.board_key = None
        self.accept(reply)

    def hint(self) -> None:
        """The server's coach on this decision (docs/server-api.md, hints): asked, then waited for."""
        from .coach import hint_panel
        try:
            with self.console.status(_("The coach is thinking…")):
                answer = self.remote.seat_call("hints", {"version": self.version})
                deadline = time.monotonic() + 60
                while answer.get("status") == "pending" and time.monotonic() < deadline:
                    time.sleep(0.5)
                    answer = self.remote.call("GET", f"{self.remote.game_path}/hints",
                                              params={"seat": self.seat})
        except Refused as exc:
            self.refused(exc)
            return
        advice = hint_from_json(answer.get("hint"))
        if advice is None:
            self.out(Text("✗ " + _("No hint came (status: {status}).", status=str(answer.get("status"))),
                          style="red"))
            return
        self.out(hint_panel(advice))

    def say(self, text: str) -> None:
        if not text:
            self.out(Text("✗ " + _("Type 'say' and your message, e.g. 'say good luck'."), style="red"))
            return
        try:
            message = self.remote.seat_call("chat", {"text": text})
        except Refused as exc:
            self.refused(exc)
            return
        self.show_chat(message)

    def show_chat(self, message: dict[str, Any]) -> None:
        number = message.get("id")
        if isinstance(number, int):
            if number in self.chat_seen:
                return
            self.chat_seen.add(number)
        phrase = message.get("phrase")
        text = _(PHRASES[phrase]) if phrase in PHRASES else str(message.get("text", ""))
        seat = message.get("seat")
        line = Text("💬 ")
        if isinstance(seat, int):
            line.append_text(seat_text(seat))
            if message.get("name"):
                line.append(f" ({message['name']})", style="dim")
        else:
            name = str(message.get("name") or _("a spectator"))
            line.append(_("{name} (spectator)", name=name), style="dim")
        line.append(": ")
        line.append(text)  # as text: never read as markup
        self.out(line)

    def _seat_call(self, route: str) -> dict[str, Any] | None:
        """``leave`` or ``return`` for this seat: the answer (its clocks' notices counted as seen),
        or None after saying why it was refused."""
        try:
            reply = self.remote.seat_call(route)
        except Refused as exc:
            self.refused(exc)
            return None
        self.noticed = len((reply.get("clocks") or {}).get("notices") or [])
        return reply

    def leave(self) -> None:
        reply = self._seat_call("leave")
        if reply is None:
            return
        bot = (reply.get("clocks") or {}).get("stand_in_bot", "")
        self.menu = self.followup = None
        self.out(_("You left: the {bot} bot plays your seat. Type 'back' to take it back.", bot=bot))
        self.accept(reply)

    def come_back(self) -> None:
        reply = self._seat_call("return")
        if reply is None:
            return
        self.out(_("Your seat is yours again."))
        self.menu_version = -1
        self.accept(reply)

    # ------------------------------------------------------------------ standing orders
    def order_command(self, rest: str) -> None:
        words = rest.split()
        path = f"{self.remote.game_path}/orders"
        try:
            if not words:
                found = self.remote.call("GET", path, params={"seat": self.seat})
            elif words == ["cancel"]:
                found = self.remote.call("DELETE", path, params={"seat": self.seat})
                self.out(_("Standing order cancelled."))
            elif words[0] == "bid-up-to" and len(words) == 2 and words[1].isdigit():
                found = self.remote.seat_call("orders", {"kind": "bid_up_to", "limit": int(words[1])})
                self.out(_("Order placed: it is played for you when your turn comes."))
            elif words == ["pass-auction"]:
                found = self.remote.seat_call("orders", {"kind": "pass_auction"})
                self.out(_("Order placed: it is played for you when your turn comes."))
            elif words[0] == "power":
                try:
                    action = parse_action(" ".join(words))
                except MalformedAction as exc:
                    self.out(Text("✗ " + _("not understood: {why}", why=str(exc)), style="red"))
                    return
                found = self.remote.seat_call("orders", {"kind": "power", "action": str(action)})
                self.out(_("Order placed: it is played for you when your turn comes."))
            else:
                self.out(Text("✗ " + _("An order is 'order bid-up-to <n>', 'order pass-auction', "
                                       "'order power <plants> burn <fuel>', 'order cancel', or 'order' "
                                       "to see yours."), style="red"))
                return
        except Refused as exc:
            self.refused(exc)
            return
        self.note_order(found.get("order"), announce=not words)

    def refresh_order(self) -> None:
        try:
            found = self.remote.call("GET", f"{self.remote.game_path}/orders", params={"seat": self.seat})
        except Refused:
            return
        order = found.get("order")
        if order is not None and order.get("status") == "refused" and (
                self.order is None or self.order.get("status") != "refused"):
            refusal = order.get("refusal") or {}
            reason = error_message(str(refusal.get("code")), current())
            self.out(Text(_("Order refused: {reason}", reason=reason), style="red"))
        self.order = order

    def note_order(self, order: dict[str, Any] | None, announce: bool) -> None:
        self.order = order
        if order is not None:
            self.out(Text(_("Your standing order: {order}", order=order_words(order)), style="cyan"))
        elif announce:
            self.out(_("You have no standing order."))

    # ------------------------------------------------------------------ the end
    def game_over(self) -> None:
        self.finished = True
        self.menu = self.followup = None
        assert self.state is not None
        self.out()
        if (self.message.get("clocks") or {}).get("abandoned"):
            self.out(Text(_("Every player left: the game was abandoned."), style="bold"))
        else:
            self.fresh_line()
            print_game_over(self.console, self.state, self.label)


class QuitOnline(Exception):
    """The person closes the table (``quit``, or the end of input)."""


def order_words(order: dict[str, Any]) -> str:
    """A standing order in words (as the browser's table shows it)."""
    kind = order.get("kind")
    if kind == "bid_up_to":
        return _("Bid up to {limit} for this plant", limit=money(int(order.get("limit", 0))))
    if kind == "pass_auction":
        return _("Pass every auction left this round")
    if kind == "power":
        return _("Power when your turn comes: {choice}", choice=str(order.get("action", "")))
    cities = [str(c) for c in order.get("cities") or []]
    return ngettext("Build {n} city when your turn comes: {cities}, for {total}",
                    "Build {n} cities when your turn comes: {cities}, for {total}", len(cities),
                    cities=", ".join(cities), total=money(int(order.get("total", 0))))


def hint_from_json(data: Any) -> Any:
    """The server's hint (docs/server-api.md) as the coach's Hint, for the terminal's hint panel."""
    if not isinstance(data, dict) or not isinstance(data.get("action"), str):
        return None
    from ..coach import Hint
    from ..coach.hint import Choice

    def choice(item: dict[str, Any]) -> Choice:
        return Choice(parse_action(item["action"]), str(item.get("plan", "")),
                      float(item.get("win_chance", 0)), float(item.get("score", 0)),
                      int(item.get("samples", 0)))

    try:
        best = data.get("best")
        return Hint(seat=int(data.get("seat", 0)), round=int(data.get("round", 0)),
                    phase=str(data.get("phase", "")), action=parse_action(data["action"]),
                    reason=str(data.get("reason", "")),
                    win_chance=float(data.get("win_chance", 0)),
                    alternatives=[choice(a) for a in data.get("alternatives") or []],
                    best=choice(best) if isinstance(best, dict) else None)
    except (MalformedAction, KeyError, TypeError, ValueError):
        return None
