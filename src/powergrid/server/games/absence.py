"""Absent players never hold a game: stand-ins, Leave, taking a seat back, deadlines, sockets gone.

A person's seat is handed to the game's stand-in bot (the creator's choice, ``heuristic`` by
default) when

- its clock runs out (``time``): a ``deadline`` job, enqueued with the entry that made the seat
  to act and due at its deadline, is claimed once by a bot worker (``bots/deadlines.py``); an
  action that reaches a web process at or after the deadline hands the seat over there and then;
- its person presses *Leave* (``left``);
- in a game with a live clock, every socket of the seat has been closed for
  ``absence_grace_s`` seconds (``away``; ``Presence``).

Each hand-over is a *notice* in the game's log (``@stand-in time|left|away``), appended like an
action at the next version: so the deadline and an action that arrives at the same moment race
for the same version, and exactly one of them is written; the loser's action is refused with
``seat_taken_over`` (or, for the deadline, skipped). The stand-in's moves are ordinary bot turns
(``bot_turn`` jobs naming the stand-in bot), played by the bot workers like a bot seat's.

The person takes the seat back with their seat link (``@back``; the table's "Take my seat back"
button) at any decision: a live game's clock then has at least a minute in it (clocks.py), a
correspondence game's turn starts again. A seat handed over because its sockets were gone is
taken back by itself when one of them returns; one handed over for time or by Leave only by the
button. A game in which every person's seat went to the stand-in for time or by Leave ends
``abandoned``. Notices are not engine events: the engine never sees them, and the game's state
is the same before and after one.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from ..common.errors import ApiError
from ..storage import jobs
from ..storage.jobs import QUICK, JobSpec
from ..storage.store import GameRow
from . import clocks
from .append import status_of
from .bot_turns import BOT_TURN, check_bot_spec, derive_seed, lane_of, turn_job
from .clocks import AWAY, BACK, LEFT, LIVE, STAND_IN, TIME, Clocks, is_notice, parse_notice
from .frames import Frame

log = logging.getLogger("powergrid.server")

#: the job that hands a seat to its stand-in when its clock runs out (bots/deadlines.py plays it)
DEADLINE = jobs.DEADLINE
ABANDONED = "abandoned"
#: how often an append of a notice is tried again when other entries keep taking its version
NOTICE_TRIES = 8

__all__ = ["ABANDONED", "DEADLINE", "Absences", "first_clocks", "is_notice", "next_job", "notice_frame",
           "stamp", "status"]


def stand_in_entry(reason: str) -> str:
    return f"{STAND_IN} {reason}"


def words(seat: int, entry: str, bot: str) -> str:
    """A notice in words (the frame's ``last.text``; seats as ``P<n>``, as the log writes them)."""
    notice = parse_notice(entry)
    if notice is None or notice[0] == BACK:
        return f"P{seat} takes their seat back"
    reason = notice[1]
    if reason == TIME:
        return f"P{seat}'s time ran out: the {bot} bot plays for P{seat}"
    if reason == LEFT:
        return f"P{seat} left: the {bot} bot plays for P{seat}"
    return f"P{seat} is away: the {bot} bot plays for P{seat} until they are back"


def first_clocks(row: GameRow) -> Clocks:
    """The clocks at version 0 (from the game's stored clock settings)."""
    humans = frozenset(s.seat for s in row.seats if s.kind == "human")
    return Clocks.of_game(row.clock, int(row.config["players"]), humans)


def stamp(new: Frame, before: Frame, seat: int, entry: str, at: float | None) -> Frame:
    """Give ``new`` (the frame ``entry`` by ``seat`` made after ``before``) its clocks; ``at``: the
    entry's stored time (None: unknown, no time passes)."""
    if before.clock is not None:
        new.clock = before.clock.after(seat, entry, at, new.state.current_player)
    return new


def notice_frame(latest: Frame, seat: int, entry: str) -> Frame:
    """The frame of a notice: the same game at the next version (the caller stamps its clocks)."""
    bot = latest.clock.bot if latest.clock is not None else clocks.DEFAULT_STAND_IN
    last = {"seat": seat, "action": entry, "text": words(seat, entry, bot)}
    return Frame(latest.version + 1, latest.state, latest.history, last, latest.log_tail, latest.ledger,
                 latest.undo_allowed)


def status(frame: Frame) -> str:
    """The game's status at this frame: ``playing``, ``over`` or ``abandoned``."""
    if frame.clock is not None and frame.clock.abandoned and not frame.state.is_over:
        return ABANDONED
    return status_of(frame.state)


def ended(frame: Frame) -> bool:
    return frame.state.is_over or (frame.clock is not None and frame.clock.abandoned)


def next_job(row: GameRow, frame: Frame) -> JobSpec | None:
    """The job the position at ``frame`` calls for: the bot's or stand-in's turn, or the deadline
    of the person to act (None: a person without a clock is to act, or nobody)."""
    to_act = frame.state.current_player
    clock = frame.clock
    if to_act is None or ended(frame):
        return None
    if row.seats[to_act].kind == "bot" or clock is None:
        return turn_job(row, frame.version, to_act)
    if clock.held_by_stand_in(to_act):
        seed = derive_seed(int(row.config.get("seed") or 0), to_act, 0x57A2D)
        return JobSpec(kind=BOT_TURN, lane=lane_of(clock.bot), key=f"{row.game_id}:{frame.version}",
                       payload={"seat": to_act, "bot": clock.bot, "seed": seed}, game_id=row.game_id,
                       version=frame.version, client=row.creator,
                       not_before=time.time() + row.bot_pace_ms / 1000)
    deadline = clock.deadline()
    if deadline is None:
        return None
    return JobSpec(kind=DEADLINE, lane=QUICK, key=f"{row.game_id}:{frame.version}", payload={"seat": to_act},
                   game_id=row.game_id, version=frame.version, not_before=deadline)


def taken_over(seat: int, clock: Clocks) -> ApiError:
    reason = clock.stand_ins[seat]
    why = {TIME: "its time ran out", LEFT: "you left it", AWAY: "you were away"}.get(reason or "", "")
    return ApiError("seat_taken_over", f"the {clock.bot} bot plays seat {seat} ({why}): take your seat "
                                       "back with its link first")


def abandoned_error() -> ApiError:
    return ApiError("game_over", "the game was abandoned: every player left")


# ---------------------------------------------------------------------- the service's side
class Absences:
    """The web process's part: Leave, taking a seat back, the deadline of an action that arrives
    late, and the sockets of live games (``Presence``). ``service`` is the GameService."""

    def __init__(self, service: Any) -> None:
        self.service = service
        self.presence = Presence(self, service.settings.absence_grace_s)

    @property
    def now(self) -> float:
        return float(self.service.clock.now())

    async def before_action(self, live: Any, seat: int, at: float) -> None:
        """Refuse an action (or an undo) of a seat its stand-in holds, or of a game abandoned; an
        action at or after the seat's deadline hands the seat over now and is refused (under
        live.lock). Nothing of the action is applied."""
        clock: Clocks | None = live.latest.clock
        if clock is None:
            return
        if clock.abandoned:
            raise abandoned_error()
        if clock.held_by_stand_in(seat):
            raise taken_over(seat, clock)
        deadline = clock.deadline()
        if deadline is not None and clock.running == seat and at >= deadline:
            await self._append(live, seat, stand_in_entry(TIME))
            after = live.latest.clock
            if after is not None and after.held_by_stand_in(seat):
                raise taken_over(seat, after)
            raise ApiError("stale_version", "the game moved on meanwhile; read the current view and try "
                                            "again")

    def after_lost_race(self, live: Any, seat: int) -> None:
        """An action lost its version to another entry (the log has been caught up): if that
        handed the seat over or ended the game, say so by name."""
        clock: Clocks | None = live.latest.clock
        if clock is None:
            return
        if clock.abandoned:
            raise abandoned_error()
        if clock.held_by_stand_in(seat):
            raise taken_over(seat, clock)

    async def leave(self, game_id: str, seat: int, token: str | None) -> Frame:
        """The person of ``seat`` leaves: the stand-in plays it (until they take it back)."""
        def check(clock: Clocks) -> str | None:
            if clock.stand_ins[seat] == LEFT:
                raise ApiError("seat_taken_over", f"you have left seat {seat} already; take it back with "
                                                  "its link")
            return stand_in_entry(LEFT)

        return await self._by_person(game_id, seat, token, check)

    async def come_back(self, game_id: str, seat: int, token: str | None) -> Frame:
        """The person of ``seat`` takes it back from the stand-in."""
        def check(clock: Clocks) -> str | None:
            if not clock.held_by_stand_in(seat):
                raise ApiError("seat_not_taken_over", f"you hold seat {seat}: no stand-in plays it")
            return BACK

        return await self._by_person(game_id, seat, token, check)

    async def _by_person(self, game_id: str, seat: int, token: str | None,
                         check: Callable[[Clocks], str | None]) -> Frame:
        service = self.service
        live = await service.live(game_id)
        await service.authenticate(live, seat, token)
        for _ in range(NOTICE_TRIES):
            async with live.lock:
                await service.cache.catch_up(live)
                clock = live.latest.clock
                if live.state.is_over:
                    raise ApiError("game_over", "the game is over")
                if clock is None:
                    raise ApiError("game_over", "this game was created before stand-ins existed")
                if clock.abandoned:
                    raise abandoned_error()
                entry = check(clock)
                assert entry is not None
                new = await self._append(live, seat, entry)
                if new is not None:
                    return new
        raise ApiError("stale_version", "the game kept moving; try again")

    async def hand_over_if_still(self, game_id: str, seat: int, reason: str,
                                 still: Callable[[Any, Clocks], bool]) -> bool:
        """Append ``@stand-in reason`` for ``seat`` unless the game ended or ``still`` says no more
        (a process's own decision: the sockets are gone); whether it was appended."""
        def wanted(live: Any, clock: Clocks) -> bool:
            return not clock.held_by_stand_in(seat) and still(live, clock)

        return await self._notice_if(game_id, seat, stand_in_entry(reason), wanted)

    async def _notice_if(self, game_id: str, seat: int, entry: str,
                         wanted: Callable[[Any, Clocks], bool]) -> bool:
        service = self.service
        try:
            live = await service.live(game_id)
        except ApiError:
            return False  # the game is gone
        for _ in range(NOTICE_TRIES):
            async with live.lock:
                await service.cache.catch_up(live)
                clock = live.latest.clock
                if clock is None or ended(live.latest) or not wanted(live, clock):
                    return False
                if await self._append(live, seat, entry) is not None:
                    return True
        return False

    async def _append(self, live: Any, seat: int, entry: str) -> Frame | None:
        """Append a notice at the next version (under live.lock); None if another entry took it
        (the log is then caught up)."""
        new = notice_frame(live.latest, seat, entry)
        if await self.service.commit(live, new):
            log.info("game %s: %s", live.game_id, new.last["text"] if new.last else entry)
            return new
        return None


class Presence:
    """The sockets of each person's seat in this process, for games with a live clock: a seat
    whose sockets have all been closed for ``grace_s`` seconds goes to the stand-in (``away``),
    and comes back by itself when a socket of it returns.

    With several web processes, a game's sockets all reach its owner process (fanout/owners.py),
    so one process sees them all; with owners turned off, a seat connected to another process may
    be taken for away here, and is taken back when it next connects."""

    def __init__(self, absences: Absences, grace_s: float) -> None:
        self.absences = absences
        self.grace_s = grace_s
        self.sockets: dict[tuple[str, int], int] = {}
        self.timers: dict[tuple[str, int], asyncio.Task[Any]] = {}

    def connected(self, live: Any, seat: int) -> None:
        key = (live.game_id, seat)
        self.sockets[key] = self.sockets.get(key, 0) + 1
        timer = self.timers.pop(key, None)
        if timer is not None:
            timer.cancel()
        clock: Clocks | None = live.latest.clock
        if clock is not None and clock.stand_ins[seat] == AWAY:
            self._spawn(self.absences._notice_if(
                live.game_id, seat, BACK, lambda _live, now: now.stand_ins[seat] == AWAY))

    def disconnected(self, live: Any, seat: int) -> None:
        key = (live.game_id, seat)
        left = self.sockets.get(key, 0) - 1
        if left > 0:
            self.sockets[key] = left
            return
        self.sockets.pop(key, None)
        clock: Clocks | None = live.latest.clock
        if clock is None or clock.control.kind != LIVE or ended(live.latest) or self.grace_s <= 0:
            return
        self.timers[key] = self._spawn(self._away_after_grace(live.game_id, seat))

    async def _away_after_grace(self, game_id: str, seat: int) -> None:
        key = (game_id, seat)
        await asyncio.sleep(self.grace_s)
        if self.timers.get(key) is asyncio.current_task():
            del self.timers[key]
        if self.sockets.get(key):
            return
        await self.absences.hand_over_if_still(game_id, seat, AWAY,
                                               lambda _live, _clock: not self.sockets.get(key))

    def _spawn(self, work: Awaitable[Any]) -> asyncio.Task[Any]:
        return self.absences.service._spawn(work)  # type: ignore[no-any-return]


def record_extras(frame: Frame) -> dict[str, Any]:
    """The record's part of clocks and stand-ins: the time control, the stand-in bot, every notice
    (version, seat, entry, time) and each seat's time used."""
    clock = frame.clock
    if clock is None:
        return {}
    return {"time_control": clock.control.to_dict(), "stand_in": clock.bot, "abandoned": clock.abandoned,
            "notices": [{"version": v, "seat": s, "notice": e, "at": at} for v, s, e, at in clock.notices],
            "time_used_s": [round(x, 3) for x in clock.spent] if clock.control.timed else None}


def check_stand_in(spec: str | None) -> str:
    """The stand-in bot of a new game (the default if none is asked for)."""
    spec = spec or clocks.DEFAULT_STAND_IN
    check_bot_spec(spec)
    return spec
