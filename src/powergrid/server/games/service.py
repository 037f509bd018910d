"""The game service: what the routes and sockets call. It wires the parts, each in its module:

- ``cache``: live games in memory, loaded from the store and caught up with the log;
- ``seats``: tokens, claiming, what is public of a seat;
- ``append``: the validated, versioned append of an action; ``group_commit``: appends written together;
- ``undo``: taking back (the route's checks, the frame of the earlier state; appended like an action);
- ``snapshots``: loading from the latest snapshot, saving one every N actions;
- ``bot_turns``: the job for a bot's turn (played by bot workers, ``bot_worker``);
- ``lobby``: the games list; ``records``: the game record; ``jobs``: the job queue;
- ``clocks``: the players' clocks from the log's stored times; ``absence``: stand-ins for absent
  players (Leave, taking a seat back, deadlines, sockets gone).

The web process only validates, stores and pushes: bots think in bot-worker processes, and their
moves reach this process like another process's actions (the hub's notification).
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import time
from collections import deque
from datetime import UTC, datetime
from typing import Any

import powergrid as pg

from ..common import collector
from ..common.errors import ApiError
from ..common.metrics import BotReplies, CollectorPauses, LoopLag
from ..common.settings import Settings
from ..common.tokens import new_game_id, new_token, token_hash
from ..fanout.pubsub import CHAT_POSTED, SEATS_CHANGED, Entry, Hub, Listener
from ..storage.group_commit import GroupCommit
from ..storage.jobs import JobQueue
from ..storage.store import GameRow, Move, SeatRow, Store
from . import absence, clocks, order_service, records, seats, snapshots, undo, undo_window
from .append import next_frame
from .bot_turns import check_bot_spec, derive_seed, pace_ms
from .cache import GameCache, LiveGame
from .frames import FRAMES_KEPT, Frame, advance, first_frame
from .lobby import lobby_entry
from .seats import public_seat, seat_link

log = logging.getLogger("powergrid.server")

#: finished and failed jobs are deleted after this long (their effects are in the game log)
FINISHED_JOBS_KEPT_S = 24 * 3600

__all__ = ["GameService", "LiveGame", "Frame", "public_seat", "seat_link"]


class GameService:
    def __init__(self, store: Store, hub: Hub, settings: Settings) -> None:
        self.store = store
        self.hub = hub
        self.settings = settings
        self.cache = GameCache(store, settings.cache_mb * 1024 * 1024)
        # with SQLite and no disk flush per commit, a batch is written on the loop when the lock is free
        self.appends = GroupCommit(store, on_loop=settings.appends_on_loop)
        self._background: set[asyncio.Task[Any]] = set()
        self._lobby: tuple[float, bytes] | None = None
        self._lobby_lock = asyncio.Lock()
        self.loop_lag = LoopLag()
        self.collector_pauses = CollectorPauses()
        self.bot_replies = BotReplies()
        self.closing = False
        #: also told of every notice (the chat's rooms: chat messages and seat changes for their sockets)
        self.listeners: list[Listener] = []
        #: where the clocks read the time (settings.clock; tests give a ManualClock)
        self.clock = settings.clock
        self.absences = absence.Absences(self)
        #: (game, version, seat to act) appended here whose standing orders are still to be looked
        #: for (order_service.after_append: one look for all of them)
        self.order_looks: list[tuple[str, int, int]] = []

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        """Nothing is loaded here: bot games resume in the bot workers, other games on demand."""
        await self.hub.start(self.on_notify)
        self._spawn(self._expire_regularly())
        self._spawn(self._trim_regularly())
        if self.settings.appends_on_loop:
            self._spawn(self._checkpoint_regularly())
        self._spawn(self.loop_lag.run())
        if self.settings.gc_threshold > 0 and self.settings.gc_sweep_ms > 0:  # 0: CPython's own collector
            self._spawn(collector.Sweeper(self.settings.gc_sweep_ms / 1000, self.settings.gc_older_s).run())
        self.collector_pauses.start()

    async def stop(self) -> None:
        self.closing = True
        self.collector_pauses.stop()
        for task in list(self._background):
            task.cancel()
        await asyncio.gather(*self._background, return_exceptions=True)
        self.appends.close()
        await self.hub.stop()

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        return task

    async def _expire_regularly(self, every_s: float = 600.0) -> None:
        """Delete abandoned games (idle past the setting) and old finished jobs, every few minutes."""
        if self.settings.idle_expiry_hours <= 0:
            return
        await asyncio.sleep(min(every_s, 60.0))
        while not self.closing:
            try:
                await self.expire()
            except Exception:
                log.exception("expiring idle games failed")
            await asyncio.sleep(every_s)

    async def _trim_regularly(self, every_s: float = 2.0) -> None:
        """Keep the cache within its memory bound as games grow (loading a game trims too)."""
        while not self.closing:
            await asyncio.sleep(every_s)
            self.cache.trim()

    async def _checkpoint_regularly(self, every_s: float = 1.0) -> None:
        """Copy SQLite's write-ahead log back into the database from a thread (this process's
        connections do not do it on commit: the commit may run on the event loop)."""
        while not self.closing:
            await asyncio.sleep(every_s)
            try:
                await asyncio.to_thread(self.store.checkpoint)
            except Exception:
                log.exception("checkpointing the database failed")

    async def expire(self) -> list[str]:
        """Delete the games in play untouched for ``idle_expiry_hours``; their ids."""
        gone = await asyncio.to_thread(self.store.expire_idle, self.settings.idle_expiry_hours * 3600)
        await asyncio.to_thread(JobQueue(self.store.engine).prune, FINISHED_JOBS_KEPT_S)
        for game_id in gone:
            self.cache.forget(game_id)
        if gone:
            log.info("expired %d idle games", len(gone))
        return gone

    async def take_back(self, game_id: str, seat: int, token: str | None, version: int) -> Frame:
        """``seat`` (with its token) takes back its newest action, seen at ``version``; the new frame."""
        live = await self.live(game_id)
        await self.authenticate(live, seat, token)
        async with live.lock:
            if version > live.version:
                await self.cache.catch_up(live)  # another process may have moved on
            at = self.clock.now()
            await self.absences.before_action(live, seat, at)
            taken = undo.check(live.latest, seat, version)
            before = await self.cache.frame_before(live, taken)
            new = undo.rewind(live.latest, seat, taken, before)
            if not await self.commit(live, new, at):
                self.absences.after_lost_race(live, seat)
                raise ApiError("stale_version", "another action was taken at the same moment; "
                                                "read the current view and try again")
        return new

    # ------------------------------------------------------------------ creating and listing
    async def create_game(self, map_name: str, players: int, regions: list[str] | None, variant: str,
                          seed: int | None, seat_specs: list[tuple[str, str | None]], *, public: bool = False,
                          open_seats: frozenset[int] = frozenset(), creator: str | None = None,
                          bot_pace_ms: int | None = None, allow_undo: bool = True,
                          undo_window_ms: int | None = None, map_data: dict[str, Any] | None = None,
                          time_control: clocks.TimeControl | None = None,
                          stand_in: str | None = None,
                          token_hashes: dict[int, str] | None = None) -> dict[str, Any]:
        """``token_hashes``: human seats that keep a token they hold already (Play again, again.py)."""
        time_control = time_control or clocks.TimeControl()
        seeded = seed is not None
        if seed is None:
            seed = random.SystemRandom().getrandbits(63)
        try:
            config = pg.GameConfig(map=map_name, players=players, seed=seed,
                                   regions=tuple(regions) if regions is not None else None, variant=variant,
                                   map_data=map_data)
            state = await asyncio.to_thread(pg.new_game, config)
        except pg.PowerGridError as exc:
            raise ApiError("invalid_config", str(exc)) from None
        if len(seat_specs) != players:
            raise ApiError("invalid_config", f"{players} players need {players} seats, not {len(seat_specs)}")
        game_id = new_game_id()
        seat_rows, out = [], []
        for seat, (kind, bot) in enumerate(seat_specs):
            if kind == "bot":
                assert bot is not None
                check_bot_spec(bot)
                seat_rows.append(SeatRow(seat, "bot", bot, derive_seed(seed, seat), None, True))
                out.append({"seat": seat, "kind": "bot", "bot": bot})
            elif token_hashes and seat in token_hashes:  # the same person's token, as in the game before
                seat_rows.append(SeatRow(seat, "human", None, None, token_hashes[seat], True))
                out.append({"seat": seat, "kind": "human", "same_token": True})
            elif seat in open_seats:  # anyone takes it from the lobby; no token until then
                seat_rows.append(SeatRow(seat, "human", None, None, None, False, open=True))
                out.append({"seat": seat, "kind": "human", "open": True})
            else:
                token = new_token()
                seat_rows.append(SeatRow(seat, "human", None, None, token_hash(token), False))
                out.append({"seat": seat, "kind": "human", "token": token,
                            "link": seat_link(game_id, seat, token)})
        pace = pace_ms(bot_pace_ms, [kind for kind, _ in seat_specs], self.settings)
        window = self.settings.undo_window_ms if undo_window_ms is None else undo_window_ms
        window = window if allow_undo else 0
        clock = clocks.settings(time_control, absence.check_stand_in(stand_in), self.clock.now(),
                                state.current_player)
        row = GameRow(game_id, datetime.now(UTC), config.to_dict(), seat_rows, 0, "playing", 1, public=public,
                      seeded=seeded, creator=creator, bot_pace_ms=pace, allow_undo=allow_undo,
                      undo_window_ms=window, time_control=time_control.kind, clock=clock)
        first = first_frame(state, allow_undo)
        first.clock = absence.first_clocks(row)
        first_job = absence.next_job(row, first)
        row.created_at = await asyncio.to_thread(
            self.store.create_game, game_id, config.to_dict(), seat_rows, state.current_player, public=public,
            seeded=seeded, creator=creator, bot_pace_ms=pace, allow_undo=allow_undo, undo_window_ms=window,
            first_job=first_job, time_control=time_control.kind, clock=clock)
        live = LiveGame(row, deque([first], maxlen=FRAMES_KEPT))
        self.cache.remember(live)
        self._lobby = None
        return {"game_id": game_id, "version": 0, "public": public, "seeded": seeded, "seats": out,
                "spectator_link": f"/game/{game_id}", "bot_pace_ms": pace, "allow_undo": allow_undo,
                "undo_window_ms": window, "time_control": time_control.to_dict(),
                "stand_in": clock["stand_in"]}

    async def list_games(self) -> list[dict[str, Any]]:
        return json.loads(await self.lobby_json())["games"]  # type: ignore[no-any-return]

    async def lobby_json(self) -> bytes:
        """``{"games": [...]}``, encoded; read from the database at most every ``lobby_cache_s``."""
        cached = self._lobby
        if cached is not None and time.monotonic() - cached[0] < self.settings.lobby_cache_s:
            return cached[1]
        async with self._lobby_lock:  # one reader at a time; the others take its answer
            cached = self._lobby
            if cached is not None and time.monotonic() - cached[0] < self.settings.lobby_cache_s:
                return cached[1]
            body = await asyncio.to_thread(self._read_lobby)
            self._lobby = (time.monotonic(), body)
            return body

    def _read_lobby(self) -> bytes:
        rows = self.store.list_games(200)
        return json.dumps({"games": [lobby_entry(row) for row in rows]}, ensure_ascii=False).encode()

    # ------------------------------------------------------------------ loading
    async def live(self, game_id: str) -> LiveGame:
        return await self.cache.live(game_id)

    async def fresh(self, game_id: str) -> LiveGame:
        live = await self.cache.fresh(game_id)
        if live.state.is_over and not live.watchers:
            self.cache.forget(game_id)  # finished: answered from here, then kept in the database only
        return live

    # ------------------------------------------------------------------ seats and tokens
    def check_seat(self, live: LiveGame, seat: int) -> SeatRow:
        return seats.check_seat(live, seat)

    async def authenticate(self, live: LiveGame, seat: int, token: str | None) -> None:
        claimed = 0 <= seat < len(live.row.seats) and live.row.seats[seat].claimed
        await seats.authenticate(self.store, live, seat, token)
        if not claimed:
            self._lobby = None  # the seat's first use claims it: the lobby shows it

    async def any_seat_token(self, live: LiveGame, token: str | None) -> None:
        seats.any_seat_token(live, token)

    async def claim(self, game_id: str, seat: int, name: str | None = None) -> dict[str, Any]:
        live = await self.fresh(game_id)
        self._lobby = None
        async with live.lock:  # a seats reload from an earlier notice must not undo the new token
            return await seats.claim(self.store, self.hub, live, seat, name)

    # ------------------------------------------------------------------ acting
    async def act(self, game_id: str, seat: int, token: str | None, text: str,
                  version: int | None) -> Frame:
        """Validate and append a human's action; the frame it made. Every refusal changes nothing."""
        arrived = time.perf_counter()
        live = await self.live(game_id)
        await self.authenticate(live, seat, token)
        async with live.lock:
            if version is None or version > live.version:
                await self.cache.catch_up(live)  # another process may have moved on (else the append tells)
            at = self.clock.now()
            await self.absences.before_action(live, seat, at)
            new = next_frame(live.latest, seat, text, version)
            if not await self.commit(live, new, at, by_person=True):
                self.absences.after_lost_race(live, seat)
                raise ApiError("stale_version", "another action was taken at the same moment; "
                                                "read the current view and try again")
            if new.undo_until is None:  # a bot held for the undo window answers later by design
                self.bot_replies.acted(live, new.version, arrived)
        return new

    async def commit(self, live: LiveGame, new: Frame, at: float | None = None,
                     by_person: bool = False) -> bool:
        """Append the frame's log entry (an action, an undo or a notice) to the log (under live.lock)
        at server time ``at`` (default: now), with the job the new position calls for (a bot's or
        stand-in's turn, a person's deadline); False if another writer won. ``by_person``: a
        person's action, whose undo window holds the bot's turn after it (undo_window.py)."""
        state = new.state
        assert new.last is not None
        at = self.clock.now() if at is None else at
        absence.stamp(new, live.latest, new.last["seat"], new.last["action"], at)
        status = absence.status(new)
        job = absence.next_job(live.row, new)
        if by_person:
            window = live.row.undo_window_ms
            if window is None:  # a game from before its creator chose
                window = self.settings.undo_window_ms
            job, new.undo_until = undo_window.hold(job, new, new.last["seat"], at, window)
        ok = await self.appends.append(Move(live.game_id, new.version, new.last["seat"], new.last["action"],
                                            status, state.round, state.current_player, job, at=at))
        if not ok:
            await self.cache.catch_up(live)
            return False
        live.push(new)
        live.row.status, live.row.round = status, state.round
        live.wake()
        if snapshots.is_due(new.version, self.settings.snapshot_every):
            self._spawn(asyncio.to_thread(snapshots.save, self.store, live.game_id, new))
        await self.hub.publish(live.game_id, new.version, (new.last["seat"], new.last["action"], at))
        order_service.after_append(self, live, new)  # a person's standing order, if now to act
        if state.is_over or status == absence.ABANDONED:
            self._lobby = None
            if not live.watchers:
                self.cache.forget(live.game_id)  # finished: the record stays in the database
        return True

    # ------------------------------------------------------------------ fan-out
    def on_notify(self, game_id: str, version: int, entry: Entry | None = None) -> None:
        """A process (maybe this one, maybe a bot worker) appended action ``version`` to ``game_id``
        (or changed its seats). Only games watched here are brought up to date at once; the others
        catch up when next asked for, so a process does not replay every game's actions."""
        for listener in self.listeners:
            listener(game_id, version, entry)
        if version == CHAT_POSTED:
            return
        self._lobby = None if version == SEATS_CHANGED else self._lobby
        live = self.cache.get(game_id)
        if live is None:
            return
        if version == SEATS_CHANGED:
            self._spawn(self._reload_seats(live))
        elif live.version < version and live.watchers:
            # the next entry, with nothing else at the game: applied now rather than by a task that
            # would run a turn of the loop later (a bot's move reaches its watchers a turn sooner)
            if entry is not None and live.version == version - 1 and not live.lock.locked():
                if self._follow(live, entry):
                    return
                entry = None  # it did not apply (said once): the task reads the log
            self._spawn(self._refresh(live, version, entry))

    async def _reload_seats(self, live: LiveGame) -> None:
        async with live.lock:
            live.row.seats = await asyncio.to_thread(self.store.seats, live.game_id)

    async def _refresh(self, live: LiveGame, version: int, entry: Entry | None) -> None:
        async with live.lock:
            if live.version >= version:
                pass  # a catch-up while this waited for the lock read the entry already
            elif not (entry is not None and live.version == version - 1 and self._follow(live, entry)):
                await self.cache.catch_up(live)
        if live.state.is_over and not live.watchers:
            self.cache.forget(live.game_id)

    @staticmethod
    def _follow(live: LiveGame, entry: Entry) -> bool:
        """Apply the entry a message carried (the game's next); False to read the log instead (an
        undo, which may need older frames, or an entry this process cannot apply)."""
        seat, text, at = entry
        clock = live.latest.clock
        if undo.is_undo(text) or absence.is_notice(text) or (clock is not None and clock.control.timed
                                                               and at is None):
            return False  # a timed game's clocks need the entry's stored time: read the log
        try:
            new = advance(live.latest, seat, pg.parse_action(text))
            live.push(absence.stamp(new, live.latest, seat, text, at))
        except pg.PowerGridError:
            log.warning("game %s: the announced entry %r did not apply; reading the log", live.game_id, text)
            return False
        live.wake()
        return True

    def watch(self, live: LiveGame) -> asyncio.Event:
        event = asyncio.Event()
        live.watchers.add(event)
        return event

    async def attach(self, live: LiveGame) -> tuple[LiveGame, asyncio.Event]:
        """Watch a game for a socket that has just been let in; the game object it must watch and
        its wake-up. While the socket authenticated, the game was nobody's here: another process's
        append was not caught up (only watched games are), and the cache may have dropped the game
        (then an action would go to a newly loaded object, not to this one). So: watch the object
        the cache holds (this one if none), then catch up with the log once."""
        current = self.cache.get(live.game_id) or live
        wake = self.watch(current)
        try:
            if current is live and self.cache.get(live.game_id) is None:
                self.cache.remember(live)
            async with current.lock:
                await self.cache.catch_up(current)
        except BaseException:
            self.unwatch(current, wake)
            raise
        return current, wake

    def unwatch(self, live: LiveGame, event: asyncio.Event) -> None:
        live.watchers.discard(event)
        if not live.watchers and live.state.is_over:
            self.cache.forget(live.game_id)  # finished: the record stays in the database

    # ------------------------------------------------------------------ records
    def record(self, live: LiveGame) -> dict[str, Any]:
        return {**records.record(live), **absence.record_extras(live.latest)}

    # ------------------------------------------------------------------ absent players
    async def leave(self, game_id: str, seat: int, token: str | None) -> Frame:
        """The person of ``seat`` leaves: the game's stand-in bot plays it until they take it back."""
        return await self.absences.leave(game_id, seat, token)

    async def come_back(self, game_id: str, seat: int, token: str | None) -> Frame:
        """The person of ``seat`` takes it back from its stand-in."""
        return await self.absences.come_back(game_id, seat, token)

    def ended(self, live: LiveGame) -> bool:
        """Over, or abandoned by every person."""
        return absence.ended(live.latest)
