"""The players' clocks and who holds each seat, computed from the stored log alone.

A game's *time control* is the creator's choice (docs/server.md, Clocks):

- ``none``: no clock (today's behaviour);
- ``live``: each player has a bank of time (``bank_s``) and gains ``increment_s`` for each action
  they take; when the bank runs out, the game's stand-in bot plays the seat;
- ``correspondence``: each turn (the stretch while a player is to act) has ``turn_s``; time
  beyond it is drawn from the player's vacation allowance (``vacation_s`` for the whole game),
  automatically; when that is spent too, the stand-in plays the seat.

A clock runs only while its player is to act, and only for a seat its person holds (not a bot
seat, not a seat a stand-in plays). Every log entry is stored with the server clock's time of its
append and the seat to act after it (``actions.at``, ``actions.to_act``): ``Clocks.after`` folds
one entry into the clocks, so the clocks of any version follow from the log whatever process, or
replay, computes them. The engine knows nothing of this.

The log also holds *notices* (``absence.py``): a seat handed to the stand-in (``@stand-in time``,
``@stand-in left``, ``@stand-in away``) and a seat taken back (``@back``). They are folded here
too: the stand-ins are part of the same record, and they stop and restart clocks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import orjson

NONE, LIVE, CORRESPONDENCE = "none", "live", "correspondence"
KINDS = (NONE, LIVE, CORRESPONDENCE)

#: why a stand-in plays a seat: its clock ran out, its person pressed Leave, or (live games) its
#: person's sockets were all closed longer than the grace period
TIME, LEFT, AWAY = "time", "left", "away"
REASONS = (TIME, LEFT, AWAY)
#: the log entries that hand a seat over and give it back (absence.py writes them)
STAND_IN = "@stand-in"
BACK = "@back"

#: a person who takes back a seat in a live game has at least this much in the bank (or the
#: whole bank, if that is shorter): one whose time ran out can still make a move
RETURN_FLOOR_S = 60.0

#: the default stand-in bot
DEFAULT_STAND_IN = "heuristic"

#: bounds of the creator's numbers (seconds)
LIMITS = {"bank_s": (10, 4 * 3600), "increment_s": (0, 600), "turn_s": (60, 14 * 86400),
          "vacation_s": (0, 60 * 86400)}
DEFAULTS = {LIVE: {"bank_s": 480, "increment_s": 15},
            CORRESPONDENCE: {"turn_s": 86400, "vacation_s": 7 * 86400}}


@dataclass(frozen=True)
class TimeControl:
    kind: str = NONE
    bank_s: float = 0.0
    increment_s: float = 0.0
    turn_s: float = 0.0
    vacation_s: float = 0.0

    @property
    def timed(self) -> bool:
        return self.kind != NONE

    def to_dict(self) -> dict[str, Any]:
        if self.kind == LIVE:
            return {"kind": LIVE, "bank_s": self.bank_s, "increment_s": self.increment_s}
        if self.kind == CORRESPONDENCE:
            return {"kind": CORRESPONDENCE, "turn_s": self.turn_s, "vacation_s": self.vacation_s}
        return {"kind": NONE}

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> TimeControl:
        """The time control of a stored or requested dict; ValueError (words) if it is not one."""
        if not data:
            return cls()
        kind = data.get("kind", NONE)
        if kind not in KINDS:
            raise ValueError(f"time_control.kind must be one of {', '.join(KINDS)}, not {kind!r}")
        if kind == NONE:
            return cls()
        wanted = {**DEFAULTS[kind], **{k: v for k, v in data.items() if k != "kind" and v is not None}}
        for name, value in wanted.items():
            if name not in DEFAULTS[kind]:
                raise ValueError(f"a {kind} clock has no {name} (it has {', '.join(DEFAULTS[kind])})")
            low, high = LIMITS[name]
            if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
                raise ValueError(f"time_control.{name} must be a number of seconds from {low} to {high}")
        return cls(kind, **{k: float(v) for k, v in wanted.items()})


def parse_notice(entry: str) -> tuple[str, str | None] | None:
    """(``STAND_IN``, reason) or (``BACK``, None) for a notice entry; None for anything else."""
    if not entry.startswith("@"):
        return None
    head, _, reason = entry.partition(" ")
    if head == STAND_IN and reason in REASONS:
        return STAND_IN, reason
    if head == BACK and not reason:
        return BACK, None
    return None


def is_notice(entry: str) -> bool:
    return entry.startswith("@")


@dataclass(frozen=True)
class Clocks:
    """The clocks and the seats' holders at one version of a game (immutable: ``after`` makes the next).

    ``bank`` (live) is each seat's time left as of ``at``; ``vacation`` (correspondence) each seat's
    vacation left, as of the start of its turn in progress (``since``).
    """

    control: TimeControl
    #: seats played by people (the others are bots: no clock, never handed over)
    humans: frozenset[int]
    #: the stand-in bot of the game
    bot: str
    version: int
    #: server time of the latest entry (or of the start); None if unknown (no time passes)
    at: float | None
    #: the seat to act (None: nobody)
    to_act: int | None
    #: when the running seat's turn began (correspondence)
    since: float | None
    bank: tuple[float, ...]
    vacation: tuple[float, ...]
    #: per seat: why its stand-in plays it, or None while its person (or its bot) holds it
    stand_ins: tuple[str | None, ...]
    #: every person has left (or run out of time): the game ended
    abandoned: bool = False
    #: the notices so far: (version, seat, entry, at)
    notices: tuple[tuple[int, int, str, float | None], ...] = ()
    #: per seat: the time its clock has run in all (as of ``at``; timed games)
    spent: tuple[float, ...] = ()

    @classmethod
    def start(cls, control: TimeControl, players: int, humans: frozenset[int], bot: str,
              at: float | None, to_act: int | None) -> Clocks:
        return cls(control, humans, bot, 0, at, to_act, at, (control.bank_s,) * players,
                   (control.vacation_s,) * players, (None,) * players, spent=(0.0,) * players)

    @classmethod
    def of_game(cls, clock: dict[str, Any] | None, players: int, humans: frozenset[int]) -> Clocks:
        """The clocks at version 0 of a game whose stored ``clock`` settings these are (``settings``)."""
        clock = clock or {}
        control = TimeControl.from_dict(clock.get("time_control"))
        return cls.start(control, players, humans, clock.get("stand_in") or DEFAULT_STAND_IN,
                         clock.get("started_at"), clock.get("first"))

    @property
    def thinking(self) -> int | None:
        """The seat to act if its person holds it (not a bot, not a stand-in), else None."""
        seat = self.to_act
        if seat is None or self.abandoned or seat not in self.humans or self.stand_ins[seat] is not None:
            return None
        return seat

    @property
    def running(self) -> int | None:
        """The seat whose clock runs now (a person to act, in a timed game), or None."""
        return self.thinking if self.control.timed else None

    def held_by_stand_in(self, seat: int) -> bool:
        return 0 <= seat < len(self.stand_ins) and self.stand_ins[seat] is not None

    def deadline(self) -> float | None:
        """When the running seat's time runs out (server time), or None when no clock runs."""
        seat = self.running
        if seat is None or self.at is None:
            return None
        if self.control.kind == LIVE:
            return self.at + self.bank[seat]
        assert self.since is not None
        return self.since + self.control.turn_s + self.vacation[seat]

    def left(self, seat: int, now: float) -> float:
        """The seat's time left at ``now``: its bank (live), or its turn plus vacation (correspondence)."""
        running = self.running == seat and self.at is not None
        if self.control.kind == LIVE:
            return max(0.0, self.bank[seat] - (now - self.at if running else 0.0))  # type: ignore[operator]
        if self.control.kind == CORRESPONDENCE:
            turn = self.control.turn_s - (now - self.since if running else 0.0)  # type: ignore[operator]
            return max(0.0, turn + self.vacation[seat]) if running else self.vacation[seat]
        return 0.0

    def after(self, seat: int, entry: str, at: float | None, to_act: int | None) -> Clocks:
        """The clocks after log entry ``version + 1``: ``entry`` by ``seat`` at server time ``at``,
        with ``to_act`` to act after it."""
        control = self.control
        if not control.timed and not is_notice(entry):
            # no clock runs and nobody changes hands: only the version, time and seat to act move
            # (the general case below gives the same, at several times the cost: every append), and
            # what is shown, which leaves those out, is the same: made once, shared by every version
            moved = Clocks(control, self.humans, self.bot, self.version + 1, self.at if at is None else at,
                           to_act, self.since, self.bank, self.vacation, self.stand_ins, self.abandoned,
                           self.notices, self.spent)
            object.__setattr__(moved, "_shown", self.shown)
            object.__setattr__(moved, "_shown_json", self.shown_json)
            return moved
        if at is None or self.at is None:
            at = self.at if at is None else at
            elapsed = 0.0
        else:
            elapsed = max(0.0, at - self.at)  # processes' clocks may disagree a little: never back
        running = self.running
        bank, vacation, stand_ins = list(self.bank), list(self.vacation), list(self.stand_ins)
        spent = list(self.spent)
        if running is not None:
            spent[running] += elapsed
            if control.kind == LIVE:
                bank[running] = max(0.0, bank[running] - elapsed)
        notice = parse_notice(entry)
        notices, abandoned = self.notices, self.abandoned
        if notice is not None:
            notices = notices + ((self.version + 1, seat, entry, at),)
            kind, reason = notice
            if kind == STAND_IN:
                stand_ins[seat] = reason
                people = [s for s in self.humans if s < len(stand_ins)]
                abandoned = bool(people) and all(stand_ins[s] in (TIME, LEFT) for s in people)
            else:
                stand_ins[seat] = None
                if control.kind == LIVE:
                    bank[seat] = max(bank[seat], min(RETURN_FLOOR_S, control.bank_s))
        elif control.kind == LIVE and entry == "undo":
            # taking an action back returns the increment it earned (whoever is to act meanwhile)
            if seat in self.humans and stand_ins[seat] is None:
                bank[seat] = max(0.0, bank[seat] - control.increment_s)
        elif control.kind == LIVE and seat == running:
            bank[seat] += control.increment_s  # an action by the seat to act earns the increment
        since = self.since
        # the seat whose clock runs next (``running`` of the clocks made here; one constructor call,
        # not dataclasses.replace twice: this runs for every entry of a timed game)
        next_running = (to_act if control.timed and to_act is not None and not abandoned
                        and to_act in self.humans and stand_ins[to_act] is None else None)
        if next_running != running or notice is not None:  # a turn ended, or began again
            if running is not None and control.kind == CORRESPONDENCE and None not in (since, at):
                assert since is not None and at is not None
                over = max(0.0, at - since - control.turn_s)
                vacation[running] = max(0.0, vacation[running] - over)
            since = at
        return Clocks(control, self.humans, self.bot, self.version + 1, at, to_act, since, tuple(bank),
                      tuple(vacation), tuple(stand_ins), abandoned, notices, tuple(spent))

    def public(self) -> dict[str, Any]:
        return self.shown

    # made once each, when first asked for (not functools.cached_property: it takes a lock each time)
    _shown: dict[str, Any] | None = field(default=None, init=False, repr=False, compare=False)
    _shown_json: bytes | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def shown_json(self) -> bytes:
        """``shown`` as JSON, encoded once: every seat's frame carries the same."""
        data = self._shown_json
        if data is None:
            data = orjson.dumps(self.shown)
            object.__setattr__(self, "_shown_json", data)
        return data

    @property
    def shown(self) -> dict[str, Any]:
        data = self._shown
        if data is None:
            data = self._show()
            object.__setattr__(self, "_shown", data)
        return data

    def _show(self) -> dict[str, Any]:
        """What every seat is shown (a frame's ``clocks``): the control, each seat's time left as of
        ``at`` (timed games) and, for the running seat, its deadline; who holds each seat; the
        notices so far ([version, seat, entry, at])."""
        running = self.running
        seats = []
        for seat in range(len(self.stand_ins)):
            item: dict[str, Any] = {"seat": seat, "stand_in": self.stand_ins[seat]}
            if self.control.timed and seat in self.humans and self.at is not None:
                item["left_s"] = round(self.left(seat, self.at), 3)
                if self.control.kind == CORRESPONDENCE:
                    item["vacation_s"] = round(self.vacation[seat], 3)
                item["running"] = seat == running
            seats.append(item)
        deadline = self.deadline()
        at = self.at if self.control.timed else None  # untimed: nothing shown moves with the time
        return {**self.control.to_dict(), "stand_in_bot": self.bot, "at": at, "running": running,
                "deadline": deadline, "abandoned": self.abandoned, "seats": seats,
                "notices": [list(n) for n in self.notices]}


def settings(control: TimeControl, stand_in: str, started_at: float, first: int | None) -> dict[str, Any]:
    """The game's stored ``clock`` (games.clock)."""
    return {"time_control": control.to_dict(), "stand_in": stand_in, "started_at": started_at, "first": first}


def replay(start: Clocks, entries: list[tuple[int, int, str, float | None, int | None]]) -> Clocks:
    """The clocks after these stored entries (seq, seat, entry, at, to_act), from ``start``."""
    clocks = start
    for seq, seat, entry, at, to_act in entries:
        if seq != clocks.version + 1:
            raise ValueError(f"the log jumps from version {clocks.version} to {seq}")
        clocks = clocks.after(seat, entry, at, to_act)
    return clocks
