"""Fan-out of "game G reached version V" between server processes (and from bot workers).

A message about an appended action also carries the entry itself (seat, action text and the
entry's stored time), so a process that holds the game at the version before applies it, clocks
included, without reading the log back.

One interface, four transports: in memory (one process, no bot workers), PostgreSQL
LISTEN/NOTIFY (the NOTIFY is sent by the append transaction itself, see Store.append), the
``notices`` table on SQLite (written by the append transaction, read when the appending process
rings, see doorbell.py), and Redis pub/sub.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from .doorbell import NOTICES, Bell

log = logging.getLogger("powergrid.server")

#: the channel (PostgreSQL NOTIFY, Redis pub/sub) of the change messages
CHANNEL = "powergrid_games"

#: a log entry carried by a message: (seat, action text or ``undo``, its stored server time or None)
Entry = tuple[int, str, float | None]
#: called (on the event loop) with a game id, the version it reached and, where the message carries
#: it, the entry that made that version
Listener = Callable[[str, int, Entry | None], None]


class Hub:
    """Delivers every published (game, version) to the listener of every process, this one included."""

    #: whether other processes can hear what this one publishes
    shared = False

    def __init__(self) -> None:
        self.listener: Listener | None = None

    async def start(self, listener: Listener) -> None:
        self.listener = listener

    async def publish(self, game_id: str, version: int, entry: Entry | None = None) -> None:
        """Announce an action committed by this process."""
        self._deliver(game_id, version, entry)

    async def stop(self) -> None:
        self.listener = None

    def _deliver(self, game_id: str, version: int, entry: Entry | None = None) -> None:
        if self.listener is not None:
            self.listener(game_id, version, entry)


class MemoryHub(Hub):
    """One process: the listener is called directly."""


#: the "version" announcing that a game's seats changed (a claim: a token was replaced; a name given)
SEATS_CHANGED = -1
#: the "version" announcing a chat message; its entry is ``(message id, "chat")``
CHAT_POSTED = -2


def message(game_id: str, version: int, entry: Entry | None = None) -> str:
    """``<game> <version>``, ``<game> <version> <seat>[@<time>] <action>``, ``<game> seats`` or
    ``<game> chat <message id>``. The time is the stored float's ``repr`` (it reads back exactly, so
    a process that follows the message computes the same clocks as one that reads the log)."""
    if version == SEATS_CHANGED:
        return f"{game_id} seats"
    if version == CHAT_POSTED:
        return f"{game_id} chat {entry[0] if entry is not None else 0}"
    if entry is None:
        return f"{game_id} {version}"
    seat, text, at = entry
    return f"{game_id} {version} {seat} {text}" if at is None else f"{game_id} {version} {seat}@{at!r} {text}"


def _parse(payload: str) -> tuple[str, int, Entry | None] | None:
    game_id, _, rest = payload.partition(" ")
    version, _, rest = rest.partition(" ")
    if version == "seats":
        return game_id, SEATS_CHANGED, None
    if version == "chat":
        return (game_id, CHAT_POSTED, (int(rest), "chat", None)) if rest.isdigit() else None
    if not version.isdigit():
        return None
    who, _, text = rest.partition(" ")
    seat, _, stamp = who.partition("@")
    if not (seat.isdigit() and text):
        return game_id, int(version), None
    try:
        at = float(stamp) if stamp else None
    except ValueError:
        return game_id, int(version), None  # the entry unread: the listener reads the log
    return game_id, int(version), (int(seat), text, at)


class NoticeHub(Hub):
    """SQLite: every append writes its message to the ``notices`` table and rings the other
    processes' bells (doorbell.py); a thread reads the table when rung, or every ``poll_s`` anyway.

    Ids only grow (pruning always keeps the newest row), so a cursor on the id sees every message
    committed after this process started, in commit order.
    """

    shared = True

    def __init__(self, store: Any, poll_s: float = 0.02, keep_s: float = 120.0) -> None:
        super().__init__()
        self.store = store
        self.poll_s = poll_s
        self.keep_s = keep_s
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._bell: Bell | None = None

    async def start(self, listener: Listener) -> None:
        await super().start(listener)
        if self.store.bells is not None:
            self._bell = self.store.bells.bell(NOTICES)
        cursor = await asyncio.to_thread(self.store.last_notice)
        loop = asyncio.get_running_loop()
        self._thread = threading.Thread(target=self._poll, args=(loop, cursor), name="notices", daemon=True)
        self._thread.start()

    def _poll(self, loop: asyncio.AbstractEventLoop, cursor: int) -> None:
        pruned = time.monotonic()
        while not self._stop.is_set():
            if self._bell is not None:
                self._bell.wait(self.poll_s)
            else:
                self._stop.wait(self.poll_s)
            if self._stop.is_set():
                break
            try:
                found = self.store.notices_after(cursor)
                if found:
                    cursor = found[-1][0]
                    parsed = [p for p in (_parse(m) for _id, m in found) if p is not None]
                    loop.call_soon_threadsafe(self._deliver_all, parsed)
                if time.monotonic() - pruned > 10:
                    pruned = time.monotonic()
                    self.store.prune_notices(self.keep_s)
            except Exception as exc:
                if self._stop.is_set():
                    break
                log.warning("reading notices failed (%s); retrying", exc)
                self._stop.wait(1.0)

    def _deliver_all(self, messages: list[tuple[str, int, Entry | None]]) -> None:
        for game_id, version, entry in messages:
            self._deliver(game_id, version, entry)

    async def stop(self) -> None:
        self._stop.set()
        if self._bell is not None:
            self._bell.ring()
        if self._thread is not None:
            await asyncio.to_thread(self._thread.join, 5)
        if self._bell is not None:
            self._bell.close()
        await super().stop()


class PostgresHub(Hub):
    """LISTEN on one channel in a thread; the appending transaction sends the NOTIFY on commit."""

    shared = True

    def __init__(self, conninfo: str, channel: str) -> None:
        super().__init__()
        self.conninfo = conninfo
        self.channel = channel
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()

    async def start(self, listener: Listener) -> None:
        await super().start(listener)
        loop = asyncio.get_running_loop()
        self._thread = threading.Thread(target=self._listen, args=(loop,), name="pg-listen", daemon=True)
        self._thread.start()
        await asyncio.to_thread(self._ready.wait, 10)

    async def publish(self, game_id: str, version: int, entry: Entry | None = None) -> None:
        self._deliver(game_id, version, entry)  # here at once; the NOTIFY reaches the other processes

    def _listen(self, loop: asyncio.AbstractEventLoop) -> None:
        import psycopg
        from psycopg import sql

        while not self._stop.is_set():
            try:
                with psycopg.connect(self.conninfo, autocommit=True) as conn:
                    conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self.channel)))
                    self._ready.set()
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=0.5):
                            parsed = _parse(note.payload)
                            if parsed is not None:
                                loop.call_soon_threadsafe(self._deliver, *parsed)
            except Exception as exc:  # the database restarted or the network failed: listen again
                if self._stop.is_set():
                    break
                log.warning("LISTEN connection lost (%s); reconnecting", exc)
                self._stop.wait(1.0)

    async def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            await asyncio.to_thread(self._thread.join, 5)
        await super().stop()


class RedisHub(Hub):
    """Redis pub/sub: publish after commit; a task listens to the channel."""

    shared = True

    def __init__(self, url: str, channel: str) -> None:
        super().__init__()
        self.url = url
        self.channel = channel
        self._task: asyncio.Task[None] | None = None

    async def start(self, listener: Listener) -> None:
        import redis.asyncio as redis

        await super().start(listener)
        self._client = redis.from_url(self.url)
        self._pubsub = self._client.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(self.channel)
        self._task = asyncio.create_task(self._listen())

    async def publish(self, game_id: str, version: int, entry: Entry | None = None) -> None:
        self._deliver(game_id, version, entry)
        await self._client.publish(self.channel, message(game_id, version, entry))

    async def _listen(self) -> None:
        while True:
            try:
                message = await self._pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("Redis pub/sub failed (%s); retrying", exc)
                await asyncio.sleep(1.0)
                continue
            if message and message.get("type") == "message":
                data = message["data"]
                parsed = _parse(data.decode() if isinstance(data, bytes) else str(data))
                if parsed is not None:
                    self._deliver(*parsed)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
        await self._pubsub.aclose()
        await self._client.aclose()
        await super().stop()
