"""Posting a chat message (over HTTP or a game's socket) and reading a game's chat.

A seat writes with its token and under its own name; anyone watching the game writes as a
spectator, giving a name, and is marked as one. The message is stored with the game, then every
process sends it to the game's sockets (rooms.py).
"""

from __future__ import annotations

import asyncio
from typing import Any

from ..common.errors import ApiError
from ..fanout.pubsub import CHAT_POSTED
from ..games.names import clean_name
from ..games.service import GameService
from . import chat_store, messages


async def post(service: GameService, game_id: str, *, seat: int | None, token: str | None, client_key: str,
               text: Any = None, phrase: Any = None, name: Any = None) -> dict[str, Any]:
    """Store and announce a message; the message. Every refusal changes nothing."""
    live = await service.live(game_id)
    if seat is not None:
        await service.authenticate(live, seat, token)
        author, shown = messages.seat_author(seat), live.seat(seat).name
    else:
        author, shown = messages.spectator_author(game_id, client_key), clean_name(name)
    words, key = messages.content(text, phrase)
    engine = service.store.engine
    if not await asyncio.to_thread(chat_store.is_on, engine, game_id):
        raise ApiError("chat_off", "the game's creator turned chat off")
    posted = await asyncio.to_thread(chat_store.post, service.store, game_id, seat=seat, author=author,
                                     name=shown, text=words, phrase=key)
    # this process's sockets at once (the transaction's notice reaches the others; Redis: this sends it)
    await service.hub.publish(game_id, CHAT_POSTED, (posted["id"], "chat", None))
    return posted


async def history(service: GameService, game_id: str, after_id: int = 0) -> dict[str, Any]:
    """Whether the game's chat is on, its quick phrases, and its messages after ``after_id``."""
    await service.live(game_id)  # unknown_game
    engine = service.store.engine
    on = await asyncio.to_thread(chat_store.is_on, engine, game_id)
    found = await asyncio.to_thread(chat_store.after, engine, game_id, after_id) if on else []
    return {"chat": on, "phrases": messages.PHRASES, "max_chars": messages.MAX_CHARS, "messages": found}
