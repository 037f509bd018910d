"""The game service: what the routes and sockets call. It wires the parts, each in its module:

- ``cache``: live games in memory, loaded from the store and caught up with the log;
- ``seats``: tokens, claiming, what is public of a seat;
- ``append``: the validated, versioned append of an action;
- ``snapshots``: loading from the latest snapshot, saving one every N actions;
- ``bot_turns``: a bot's decision; ``lobby``: the games list; ``records``: the game record.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import powergrid as pg

from . import records, seats, snapshots
from .append import next_frame, status_of
from .bot_turns import bot_decision, check_bot_spec, derive_seed
from .cache import GameCache, LiveGame
from .errors import ApiError
from .frames import FRAMES_KEPT, Frame, advance, first_frame
from .lobby import lobby_entry
from .pubsub import SEATS_CHANGED, Hub
from .seats import public_seat, seat_link
from .settings import Settings
from .store import GameRow, SeatRow, Store
from .tokens import new_game_id, new_token, token_hash

log = logging.getLogger("powergrid.server")

__all__ = ["GameService", "LiveGame", "Frame", "public_seat", "seat_link"]


class GameService:
    def __init__(self, store: Store, hub: Hub, settings: Settings) -> None:
        self.store = store
        self.hub = hub
        self.settings = settings
        self.cache = GameCache(store, settings.cache_size)
        self._bot_tasks: dict[str, asyncio.Task[None]] = {}
        self._background: set[asyncio.Task[Any]] = set()
        self.bot_pool = ThreadPoolExecutor(max(1, settings.bot_threads), thread_name_prefix="bot")
        self.closing = False

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        await self.hub.start(self.on_notify)
        for game_id in await asyncio.to_thread(self.store.games_waiting_for_bots):
            live = await self.live(game_id)
            self.ensure_bots(live)

    async def stop(self) -> None:
        self.closing = True
        for task in list(self._bot_tasks.values()) + list(self._background):
            task.cancel()
        await asyncio.gather(*self._bot_tasks.values(), *self._background, return_exceptions=True)
        await self.hub.stop()
        self.bot_pool.shutdown(wait=False, cancel_futures=True)

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        return task

    # ------------------------------------------------------------------ creating and listing
    async def create_game(self, map_name: str, players: int, regions: list[str] | None, variant: str,
                          seed: int | None, seat_specs: list[tuple[str, str | None]], *, public: bool = False,
                          open_seats: frozenset[int] = frozenset(), creator: str | None = None
                          ) -> dict[str, Any]:
        seeded = seed is not None
        if seed is None:
            seed = random.SystemRandom().getrandbits(63)
        try:
            config = pg.GameConfig(map=map_name, players=players, seed=seed,
                                   regions=tuple(regions) if regions is not None else None, variant=variant)
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
            elif seat in open_seats:  # anyone takes it from the lobby; no token until then
                seat_rows.append(SeatRow(seat, "human", None, None, None, False, open=True))
                out.append({"seat": seat, "kind": "human", "open": True})
            else:
                token = new_token()
                seat_rows.append(SeatRow(seat, "human", None, None, token_hash(token), False))
                out.append({"seat": seat, "kind": "human", "token": token,
                            "link": seat_link(game_id, seat, token)})
        created = await asyncio.to_thread(self.store.create_game, game_id, config.to_dict(), seat_rows,
                                          state.current_player, public=public, seeded=seeded, creator=creator)
        row = GameRow(game_id, created, config.to_dict(), seat_rows, 0, "playing", 1, public=public,
                      seeded=seeded)
        live = LiveGame(row, deque([first_frame(state)], maxlen=FRAMES_KEPT))
        self.cache.remember(live)
        self.ensure_bots(live)
        return {"game_id": game_id, "version": 0, "public": public, "seeded": seeded, "seats": out,
                "spectator_link": f"/game/{game_id}"}

    async def list_games(self) -> list[dict[str, Any]]:
        rows = await asyncio.to_thread(self.store.list_games, 200)
        return [lobby_entry(row) for row in rows]

    # ------------------------------------------------------------------ loading
    async def live(self, game_id: str) -> LiveGame:
        return await self.cache.live(game_id)

    async def fresh(self, game_id: str) -> LiveGame:
        live = await self.cache.fresh(game_id)
        self.ensure_bots(live)
        return live

    # ------------------------------------------------------------------ seats and tokens
    def check_seat(self, live: LiveGame, seat: int) -> SeatRow:
        return seats.check_seat(live, seat)

    async def authenticate(self, live: LiveGame, seat: int, token: str | None) -> None:
        await seats.authenticate(self.store, live, seat, token)

    async def any_seat_token(self, live: LiveGame, token: str | None) -> None:
        seats.any_seat_token(live, token)

    async def claim(self, game_id: str, seat: int) -> dict[str, Any]:
        live = await self.fresh(game_id)
        return await seats.claim(self.store, self.hub, live, seat)

    # ------------------------------------------------------------------ acting
    async def act(self, game_id: str, seat: int, token: str | None, text: str,
                  version: int | None) -> Frame:
        """Validate and append a human's action; the frame it made. Every refusal changes nothing."""
        live = await self.live(game_id)
        await self.authenticate(live, seat, token)
        async with live.lock:
            if version is None or version > live.version:
                await self.cache.catch_up(live)  # another process may have moved on (else the append tells)
            new = next_frame(live.latest, seat, text, version)
            if not await self._commit(live, new):
                raise ApiError("stale_version", "another action was taken at the same moment; "
                                                "read the current view and try again")
        self.ensure_bots(live)
        return new

    async def _commit(self, live: LiveGame, new: Frame) -> bool:
        """Append the frame's action to the log (under live.lock); False if another writer won."""
        state = new.state
        assert new.last is not None
        status = status_of(state)
        ok = await asyncio.to_thread(self.store.append, live.game_id, new.version, new.last["seat"],
                                     new.last["action"], status=status, round_=state.round,
                                     to_act=state.current_player)
        if not ok:
            await self.cache.catch_up(live)
            return False
        live.frames.append(new)
        live.row.version, live.row.status, live.row.round = new.version, status, state.round
        live.wake()
        if snapshots.is_due(new.version, self.settings.snapshot_every):
            self._spawn(asyncio.to_thread(snapshots.save, self.store, live.game_id, new))
        await self.hub.publish(live.game_id, new.version)
        return True

    # ------------------------------------------------------------------ bots
    def ensure_bots(self, live: LiveGame) -> None:
        """Start this game's bot loop if a bot is to act and none runs here."""
        if self.closing or live.game_id in self._bot_tasks:
            return
        seat = live.state.current_player
        if seat is None or live.seat(seat).kind != "bot":
            return
        task = asyncio.create_task(self._run_bots(live))
        self._bot_tasks[live.game_id] = task
        task.add_done_callback(lambda _t: self._bot_tasks.pop(live.game_id, None))

    async def _run_bots(self, live: LiveGame) -> None:
        loop = asyncio.get_running_loop()
        try:
            while not self.closing:
                async with live.lock:
                    await self.cache.catch_up(live)
                    frame = live.latest
                seat = frame.state.current_player
                if seat is None or live.seat(seat).kind != "bot":
                    return
                row = live.seat(seat)
                assert row.bot is not None and row.bot_seed is not None
                if self.settings.bot_delay > 0:
                    await asyncio.sleep(self.settings.bot_delay)
                action = await loop.run_in_executor(
                    self.bot_pool, bot_decision, row.bot, derive_seed(row.bot_seed, frame.version),
                    frame.state.clone(), seat)
                async with live.lock:
                    if live.version != frame.version:
                        continue  # someone else (another process's bot loop) moved first
                    await self._commit(live, advance(frame, seat, action))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot loop of game %s stopped", live.game_id)

    # ------------------------------------------------------------------ fan-out
    def on_notify(self, game_id: str, version: int) -> None:
        """A process (maybe this one) appended action ``version`` to ``game_id`` (or changed its seats)."""
        live = self.cache.get(game_id)
        if live is None:
            return
        if version == SEATS_CHANGED:
            self._spawn(self._reload_seats(live))
        elif live.version < version:
            self._spawn(self._refresh(live))

    async def _reload_seats(self, live: LiveGame) -> None:
        live.row.seats = await asyncio.to_thread(self.store.seats, live.game_id)

    async def _refresh(self, live: LiveGame) -> None:
        async with live.lock:
            await self.cache.catch_up(live)

    def watch(self, live: LiveGame) -> asyncio.Event:
        event = asyncio.Event()
        live.watchers.add(event)
        return event

    def unwatch(self, live: LiveGame, event: asyncio.Event) -> None:
        live.watchers.discard(event)

    # ------------------------------------------------------------------ records
    def record(self, live: LiveGame) -> dict[str, Any]:
        return records.record(live)
