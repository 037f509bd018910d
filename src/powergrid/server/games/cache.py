"""The games this process holds in memory, loaded on demand from the store and kept up to date.

A live game holds its latest frames (for the WebSocket pushes), a lock that serialises this
process's work on it, and the events of the sockets watching it. The cache is bounded in
bytes (an estimate: each frame's state and the JSON encoded from it); a game that is watched or
being worked on is never dropped. Finished games are dropped once nobody watches them.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict, deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import islice

import powergrid as pg
from powergrid.rules.undo import Taken

from ..common.errors import ApiError
from ..storage.store import GameRow, SeatRow, Store
from . import absence, snapshots, undo
from .frames import MESSAGES_KEPT, Frame, advance


@dataclass
class LiveGame:
    row: GameRow
    frames: deque[Frame]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watchers: set[asyncio.Event] = field(default_factory=set)
    #: the version a person's action made here and when it arrived, until a bot answers it (metrics.py)
    awaiting_bot: tuple[int, float] | None = None

    @property
    def game_id(self) -> str:
        return self.row.game_id

    @property
    def latest(self) -> Frame:
        return self.frames[-1]

    @property
    def version(self) -> int:
        return self.frames[-1].version

    @property
    def state(self) -> pg.GameState:
        return self.frames[-1].state

    def seat(self, seat: int) -> SeatRow:
        return self.row.seats[seat]

    def is_bot(self, seat: int) -> bool:
        return self.row.seats[seat].kind == "bot"

    def push(self, frame: Frame) -> None:
        """Make ``frame`` the latest."""
        frames = self.frames
        frames[-1].retire(keep_messages=True)
        if len(frames) >= MESSAGES_KEPT:
            frames[-MESSAGES_KEPT].retire(keep_messages=False)
        frames.append(frame)
        self.row.version = frame.version

    def wake(self) -> None:
        for event in self.watchers:
            event.set()


#: memory of a game's first frame (state, history, log tail) and of each further one (states share
#: most of their parts), measured with tracemalloc on 3-player games of 150 actions
FIRST_FRAME_BYTES = 240_000
NEXT_FRAME_BYTES = 9_000


def game_bytes(live: LiveGame) -> int:
    """An estimate of a live game's memory: its frames plus the JSON encoded for its seats (a decoded
    payload weighs about as much again as its text)."""
    frames = live.frames
    encoded = sum(f.encoded_bytes() for f in islice(reversed(frames), MESSAGES_KEPT))
    return FIRST_FRAME_BYTES + NEXT_FRAME_BYTES * (len(frames) - 1) + 2 * encoded


class GameCache:
    """Live games by id, least recently used first, within ``max_bytes`` (estimated)."""

    def __init__(self, store: Store, max_bytes: int) -> None:
        self.store = store
        self.max_bytes = max_bytes
        self._games: OrderedDict[str, LiveGame] = OrderedDict()
        self._loading: dict[str, asyncio.Future[LiveGame | None]] = {}
        #: bytes held at the last measure, plus the games remembered since
        self._estimate = 0

    def __getitem__(self, game_id: str) -> LiveGame:
        return self._games[game_id]

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._games

    def __len__(self) -> int:
        return len(self._games)

    def __iter__(self) -> Iterator[str]:
        return iter(self._games)

    def get(self, game_id: str) -> LiveGame | None:
        return self._games.get(game_id)

    def remember(self, live: LiveGame) -> None:
        self._games[live.game_id] = live
        self._games.move_to_end(live.game_id)
        # Measuring every game would make each new game cost as much as the games held; the
        # estimate adds this one to the last measure, and trim (every few seconds too) measures.
        self._estimate += game_bytes(live)
        if self._estimate > self.max_bytes:
            self.trim()

    def forget(self, game_id: str) -> None:
        self._games.pop(game_id, None)

    def size_bytes(self) -> int:
        return sum(game_bytes(live) for live in self._games.values())

    def trim(self) -> None:
        """Drop least recently used games (not watched, not busy) until within the bound."""
        size = self.size_bytes()
        for game_id in list(self._games):
            if size <= self.max_bytes:
                break
            other = self._games[game_id]
            if other.watchers or other.lock.locked():
                continue
            size -= game_bytes(other)
            del self._games[game_id]
        self._estimate = size

    async def live(self, game_id: str) -> LiveGame:
        """The game, from the cache or loaded (latest snapshot + later actions); unknown_game if none."""
        live = self._games.get(game_id)
        if live is not None:
            self._games.move_to_end(game_id)
            return live
        pending = self._loading.get(game_id)
        if pending is None:
            pending = asyncio.get_running_loop().create_future()
            self._loading[game_id] = pending
            try:
                loaded = await asyncio.to_thread(self._load, game_id) if len(game_id) <= 32 else None
                if loaded is not None:
                    self.remember(loaded)
                pending.set_result(loaded)
            except BaseException as exc:
                pending.set_exception(exc)
                raise
            finally:
                del self._loading[game_id]
        found = await asyncio.shield(pending)
        if found is None:
            raise ApiError("unknown_game", f"no game {game_id!r}")
        return found

    def _load(self, game_id: str) -> LiveGame | None:
        row = self.store.game(game_id)
        if row is None:
            return None
        return LiveGame(row, snapshots.load_frames(self.store, row))

    async def catch_up(self, live: LiveGame) -> bool:
        """Apply log entries other processes appended since this one last looked (under live.lock)."""
        newer = await asyncio.to_thread(self.store.entries_after, live.game_id, live.version)
        for _seq, seat, text, at, _to_act in newer:
            latest = live.latest
            if undo.is_undo(text):
                taken = undo.taken_back(latest)
                new = undo.rewind(latest, seat, taken, await self.frame_before(live, taken))
            elif absence.is_notice(text):
                new = absence.notice_frame(latest, seat, text)
            else:
                new = advance(latest, seat, pg.parse_action(text))
            live.push(absence.stamp(new, latest, seat, text, at))
        if newer:
            live.wake()
        return bool(newer)

    async def frame_before(self, live: LiveGame, taken: Taken) -> Frame:
        """The frame just before an action still standing: kept in memory, or loaded up to it."""
        found = undo.find(live.frames, taken.entry)
        if found is not None:
            return found
        return await asyncio.to_thread(snapshots.frame_at, self.store, live.row, taken.entry)

    async def fresh(self, game_id: str) -> LiveGame:
        """The game, brought up to date with the log (read every time: a client that saw version v
        through another process must never be answered with an older one)."""
        live = await self.live(game_id)
        async with live.lock:
            await self.catch_up(live)
        return live
