"""The game sockets of this process that are sent chat messages and seat changes.

Every process hears of every message (the notice ``<game> chat <id>``, see fanout/pubsub.py) and of
every change of seats (a name given, a seat taken); a process with sockets on that game reads what
changed from the database and sends it to them: ``{"type": "chat", "messages": [...]}`` and
``{"type": "seats", "seats": [...]}`` (only when a name changed: taking a seat alone changes
nothing its sockets show). A process without such sockets does nothing.

A notice names its message, and messages are read from just before it: a message committed after
a later one (two processes posting at once on PostgreSQL) is still sent, once.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from ..fanout.pubsub import CHAT_POSTED, SEATS_CHANGED, Entry
from ..games.seats import public_seat
from ..storage.store import Store
from . import chat_store

log = logging.getLogger("powergrid.server")

#: sends a socket one JSON text message
Send = Callable[[str], Awaitable[None]]
#: message ids a room remembers having sent (a notice heard twice sends nothing again)
REMEMBERED = 500
#: a socket that takes longer than this to take a chat message is sent no more of them
SEND_TIMEOUT_S = 10.0


class Room:
    def __init__(self, game_id: str, names: list[str | None]) -> None:
        self.game_id = game_id
        #: the seats' names the sockets were last told of
        self.names = names
        self.sockets: set[Send] = set()
        self.lock = asyncio.Lock()
        self.sent: deque[int] = deque(maxlen=REMEMBERED)

    async def broadcast(self, text: str) -> None:
        """Send every socket the message at once: a client that does not read holds up only itself."""
        sockets = list(self.sockets)
        sent = await asyncio.gather(*(asyncio.wait_for(send(text), SEND_TIMEOUT_S) for send in sockets),
                                    return_exceptions=True)
        for send, outcome in zip(sockets, sent, strict=True):
            if isinstance(outcome, BaseException):  # gone, or not reading: its own task ends it
                self.sockets.discard(send)


class ChatRooms:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.rooms: dict[str, Room] = {}
        self._tasks: set[asyncio.Task[Any]] = set()

    def join(self, game_id: str, send: Send, names: list[str | None]) -> None:
        """A socket of the game, whose client knows the seats' ``names``."""
        room = self.rooms.get(game_id)
        if room is None:
            room = self.rooms[game_id] = Room(game_id, names)
        room.sockets.add(send)

    def leave(self, game_id: str, send: Send) -> None:
        room = self.rooms.get(game_id)
        if room is not None:
            room.sockets.discard(send)
            if not room.sockets and not room.lock.locked():
                del self.rooms[game_id]

    def on_notify(self, game_id: str, version: int, entry: Entry | None = None) -> None:
        """The hub's notice (on the event loop): only games with sockets here are read."""
        if version not in (CHAT_POSTED, SEATS_CHANGED):
            return
        room = self.rooms.get(game_id)
        if room is None:
            return
        if version == CHAT_POSTED and entry is not None:
            self._spawn(self._chat(room, entry[0]))
        elif version == SEATS_CHANGED:
            self._spawn(self._seats(room))

    def _spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _chat(self, room: Room, message_id: int) -> None:
        async with room.lock:
            if message_id in room.sent:
                return
            try:
                found = await asyncio.to_thread(chat_store.after, self.store.engine, room.game_id,
                                                message_id - 1)
            except Exception:
                log.exception("reading game %s's chat failed", room.game_id)
                return
            new = [m for m in found if m["id"] not in room.sent]
            if not new:
                return
            room.sent.extend(m["id"] for m in new)
            await room.broadcast(json.dumps({"type": "chat", "messages": new}, ensure_ascii=False))

    async def _seats(self, room: Room) -> None:
        async with room.lock:
            try:
                seats = await asyncio.to_thread(self.store.seats, room.game_id)
            except Exception:
                log.exception("reading game %s's seats failed", room.game_id)
                return
            names = [s.name for s in seats]
            if names == room.names:
                return
            room.names = names
            await room.broadcast(json.dumps({"type": "seats", "seats": [public_seat(s) for s in seats]},
                                            ensure_ascii=False))

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
