"""Taking actions back: which of a seat's last actions may be undone, and logs that hold undos.

A game's *log* is everything the players did, in order: each entry is an action's notation
(``bid 16``) or the word ``undo``. An ``undo`` takes back the newest action still standing; it is
appended to the log like any entry, so history is never deleted and a config plus its log still
reproduce the game exactly (:func:`replay_log`). The state after an undo is exactly the state
before the action it takes back.

The window (docs/rules.md, Undo; docs/engine.md, Undo): a seat may take back its own newest
actions, newest first, as long as

- no other player has acted since (even if that player then took their own action back), and
- the action brought out no new information: no plant was drawn (nor the Step 3 card), the market
  was not resupplied (the end of a round), and the game did not end.

:class:`Ledger` is that bookkeeping alone, immutable and small, for callers that keep the states
themselves (the server); :class:`Timeline` keeps a state, its ledger and the states an undo can
return to (clients, records, replays).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .actions import Action, parse_action
from .config import GameConfig
from .errors import CorruptState, UndoRefused
from .setup import new_game
from .state import Event, GameState, events_after

#: the log entry that takes back the newest action still standing
UNDO = "undo"

NOTHING_TO_UNDO = "nothing_to_undo"
NOT_YOUR_ACTION = "not_your_action"
ANOTHER_PLAYER_ACTED = "another_player_acted"
NEW_INFORMATION = "new_information"
GAME_OVER = "game_over"

#: every reason an undo is refused, for clients that name them
REASONS = (NOTHING_TO_UNDO, NOT_YOUR_ACTION, ANOTHER_PLAYER_ACTED, NEW_INFORMATION, GAME_OVER)

#: a refusal's facts as pairs (a refusal's ``facts`` is their dict): ``by`` (a seat), ``action`` (a
#: notation), ``revealed`` (``plant``, ``step3``, ``resupply``, ``saved_state``), ``plant``
Facts = tuple[tuple[str, str | int], ...]


def closing_event(events: Sequence[Event]) -> tuple[str, str, Facts] | None:
    """Why the action that logged ``events`` can never be taken back: (reason, words, facts), or None.

    New information is a plant drawn into the market (what was hidden in the deck comes out), the
    Step 3 card drawn (the deck is shuffled), and a resupply (the round ends); the end of the game
    closes everything. The facts say what came out without words (``revealed``, and ``plant``).
    """
    for event in events:
        kind = event[0]
        if kind == "over":
            return GAME_OVER, "the game is over", ()
        if kind == "drawn":
            plant = (("revealed", "plant"), ("plant", event[1]))
            return NEW_INFORMATION, f"plant {event[1]} was drawn", plant
        if kind in ("step3_drawn", "step3_ignored"):
            return NEW_INFORMATION, "the Step 3 card was drawn", (("revealed", "step3"),)
        if kind == "resupply":
            return NEW_INFORMATION, "the resource market was resupplied", (("revealed", "resupply"),)
    return None


def events_since(after: GameState, before: GameState) -> list[Event]:
    """Log events ``after`` added to ``before`` (the log is a shared linked list: walk the new part)."""
    return events_after(after._log, before._log)


@dataclass(frozen=True)
class Taken:
    """An action still standing that its seat may take back."""

    seat: int
    #: the action's notation
    action: str
    #: its index in the log, which is also the log's length (the game's version) just before it
    entry: int


@dataclass(frozen=True)
class Ledger:
    """Which actions may still be taken back: the bookkeeping of the undo window, immutable.

    ``open`` holds the newest standing actions that may be taken back, oldest first (always one
    seat's); the ``standing - len(open)`` actions before them stand for good, the newest of them
    (``closed_action``) played by ``closed_seat`` and closed for ``closed_reason``
    (``closed_words`` says it in words, ``closed_facts`` without: who acted since, what came out).
    """

    standing: int = 0
    open: tuple[Taken, ...] = ()
    closed_seat: int = -1
    closed_reason: str = NOTHING_TO_UNDO
    closed_words: str = "no action has been taken"
    closed_action: str = ""
    closed_facts: Facts = ()

    def acted(self, seat: int, action: Action | str, entry: int, events: Sequence[Event]) -> Ledger:
        """The ledger after ``seat`` took ``action`` (log entry ``entry``), which logged ``events``."""
        text = str(action)
        closing = closing_event(events)
        if closing is not None:
            reason, words, facts = closing
            return Ledger(self.standing + 1, (), seat, reason, f"'{text}': {words}", text, facts)
        taken = Taken(seat, text, entry)
        if self.open and self.open[0].seat != seat:
            last = self.open[-1]
            return Ledger(self.standing + 1, (taken,), last.seat, ANOTHER_PLAYER_ACTED,
                          f"seat {seat} has acted since '{last.action}'", last.action, (("by", seat),))
        return Ledger(self.standing + 1, self.open + (taken,), self.closed_seat, self.closed_reason,
                      self.closed_words, self.closed_action, self.closed_facts)

    def undone(self) -> Ledger:
        """The ledger after the newest open action is taken back (call only when one is open)."""
        if not self.open:
            raise AssertionError("no open action to take back")  # pragma: no cover
        return Ledger(self.standing - 1, self.open[:-1], self.closed_seat, self.closed_reason,
                      self.closed_words, self.closed_action, self.closed_facts)

    @property
    def last_seat(self) -> int | None:
        """The seat of the newest action still standing (None before any)."""
        if self.open:
            return self.open[-1].seat
        return self.closed_seat if self.standing else None

    def undoable(self, seat: int) -> tuple[Taken, ...]:
        """The seat's actions that may be taken back now, oldest first (newest is taken back first)."""
        if self.open and self.open[0].seat == seat:
            return self.open
        return ()

    def refusal(self, seat: int) -> UndoRefused | None:
        """The error an undo by ``seat`` would meet now, or None when it is allowed.

        Its ``facts``: ``by``, the seat whose action stands in the way (the last action's, or the
        one that acted since, or the seat's own that brought out ``revealed``); ``action``, the
        action in question (the last one, or the seat's own that may no longer be taken back).
        """
        if self.open:
            last = self.open[-1]
            if last.seat == seat:
                return None
            return UndoRefused(seat, NOT_YOUR_ACTION, f"the last action, '{last.action}', is seat "
                               f"{last.seat}'s: only the seat that took an action may take it back",
                               {"by": last.seat, "action": last.action})
        if not self.standing:
            return UndoRefused(seat, NOTHING_TO_UNDO, "there is no action to take back")
        if self.closed_reason == GAME_OVER:
            return UndoRefused(seat, GAME_OVER, "the game is over: its last action stands")
        if self.closed_seat < 0:
            return UndoRefused(seat, self.closed_reason, f"too late to take it back: {self.closed_words}",
                               {"revealed": "saved_state"})
        known = {"by": self.closed_seat, "action": self.closed_action} if self.closed_action else {
            "by": self.closed_seat}
        if self.closed_seat != seat:
            return UndoRefused(seat, NOT_YOUR_ACTION, f"the last action is seat {self.closed_seat}'s: "
                               "only the seat that took an action may take it back", known)
        return UndoRefused(seat, self.closed_reason, f"too late to take it back: {self.closed_words}",
                           {**known, **dict(self.closed_facts)})

    def to_dict(self) -> dict[str, Any]:
        return {"standing": self.standing, "open": [[t.seat, t.action, t.entry] for t in self.open],
                "closed_seat": self.closed_seat, "closed_reason": self.closed_reason,
                "closed_words": self.closed_words, "closed_action": self.closed_action,
                "closed_facts": dict(self.closed_facts)}

    @classmethod
    def from_dict(cls, data: Any) -> Ledger:
        """Read :meth:`to_dict`'s form (one written before ``closed_action`` and ``closed_facts``
        existed reads with neither).

        :raises CorruptState: it is malformed.
        """
        try:
            facts = data.get("closed_facts") or {}
            ledger = cls(int(data["standing"]),
                         tuple(Taken(int(s), str(a), int(e)) for s, a, e in data["open"]),
                         int(data["closed_seat"]), str(data["closed_reason"]), str(data["closed_words"]),
                         str(data.get("closed_action") or ""),
                         tuple((str(k), v) for k, v in facts.items()))
        except (AttributeError, KeyError, TypeError, ValueError) as exc:
            raise CorruptState(f"malformed undo ledger: {exc}") from None
        if ledger.closed_reason not in REASONS or len(ledger.open) > ledger.standing or not all(
                isinstance(v, (str, int)) and not isinstance(v, bool) for _k, v in ledger.closed_facts):
            raise CorruptState("malformed undo ledger")
        return ledger


class Timeline:
    """A game played through its log: the state now, the log so far, and how to take actions back.

    Keeps the state before each open action (one clone each), so an undo costs nothing to compute.
    """

    __slots__ = ("state", "ledger", "log", "_before")

    def __init__(self, config: GameConfig) -> None:
        self.state = new_game(config)
        self.ledger = Ledger()
        #: every entry so far (action notations and ``undo``s)
        self.log: list[str] = []
        self._before: list[GameState] = []

    @classmethod
    def starting_at(cls, state: GameState) -> Timeline:
        """A timeline that goes on from ``state`` (a saved state, say): what came before it stands.

        Its log holds the state's standing actions; nothing before ``state`` can be taken back.
        """
        timeline = cls.__new__(cls)
        timeline.state = state
        timeline.log = [str(a) for a in state.actions_taken()]
        reason = GAME_OVER if state.is_over else NEW_INFORMATION
        timeline.ledger = Ledger(len(timeline.log), (), -1, reason,
                                 "the game was loaded from a saved state") if timeline.log else Ledger()
        timeline._before = []
        return timeline

    def act(self, action: Action) -> None:
        """Apply the current player's action.

        :raises IllegalAction: it is not allowed now; nothing changes.
        """
        state = self.state
        seat = state.current_player
        before = state.clone()
        state.apply(action)  # in place, so a caller holding the state sees the game go on
        assert seat is not None  # apply refuses every action once the game is over
        self.ledger = self.ledger.acted(seat, action, len(self.log), events_since(state, before))
        self.log.append(str(action))
        keep = len(self.ledger.open)
        self._before = (self._before + [before])[-keep:] if keep else []

    def undo(self, seat: int) -> Taken:
        """``seat`` takes back its newest action; the state becomes exactly the one before it.

        :raises UndoRefused: that is not allowed now (the reason is named); nothing changes.
        """
        refused = self.ledger.refusal(seat)
        if refused is not None:
            raise refused
        taken = self.ledger.open[-1]
        self.state = self._before.pop()
        self.ledger = self.ledger.undone()
        self.log.append(UNDO)
        return taken

    def apply(self, entry: Action | str) -> None:
        """Apply one log entry: an action (``Action`` or notation) or ``undo``.

        An ``undo`` entry is taken by the seat whose action is newest.

        :raises IllegalAction, MalformedAction, UndoRefused: the entry does not fit; nothing changes.
        """
        if isinstance(entry, str) and entry.strip().lower() == UNDO:
            seat = self.ledger.last_seat
            self.undo(-1 if seat is None else seat)
            return
        self.act(parse_action(entry) if isinstance(entry, str) else entry)

    def undoable(self, seat: int) -> tuple[Taken, ...]:
        return self.ledger.undoable(seat)

    def refusal(self, seat: int) -> UndoRefused | None:
        return self.ledger.refusal(seat)


def replay_log(config: GameConfig, log: Iterable[Action | str]) -> Timeline:
    """The game of a log that may hold ``undo`` entries: a new game with every entry applied in turn.

    ``replay_log(config, log).state`` equals ``replay(config, actions)`` where ``actions`` are the
    actions still standing (``.state.actions_taken()``).

    :raises IllegalAction, MalformedAction: an action does not fit where it falls.
    :raises UndoRefused: an ``undo`` entry falls where nothing may be taken back.
    """
    timeline = Timeline(config)
    for entry in log:
        timeline.apply(entry)
    return timeline
