"""The table's social routes: names, chat, and the My games page's batch of seats.

- ``PUT  /api/games/{id}/seats/{seat}/name`` ``{"name": ...}`` (the seat's token): the seat's
  display name (``invalid_name`` unless 1-24 characters once normalised and trimmed, no controls).
- ``GET  /api/games/{id}/chat?after=ID``: whether chat is on, the quick phrases, the messages.
- ``POST /api/games/{id}/chat`` ``{"seat": N, "text": ...}`` with the seat's token, or without a
  seat ``{"name": ..., "text": ...}`` as a spectator; ``"phrase": key`` instead of text for a quick
  phrase. Refusals: ``chat_empty``, ``chat_too_long``, ``chat_rate_limited`` (429, Retry-After),
  ``chat_off`` (the creator's switch), ``invalid_name``.
- ``POST /api/my-games`` ``{"seats": [{"game_id", "seat", "token"}, ...]}`` (at most 50,
  ``too_many_tokens``): where each of those games stands, the ones waiting for these seats first.

The same chat messages can be sent over the game's socket (socket.py: ``{"type": "chat", ...}``),
and every socket of the game is sent each new message (chat/rooms.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import FastAPI, Header, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from ..chat import chat_store, posting
from ..games import names
from ..games.my_games import summaries
from .schemas import MAX_SEATS

#: a name or message longer than this is refused unread (the named refusal is for anything shorter)
MAX_RAW = 4000


class SeatName(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: str = Field(max_length=MAX_RAW, description="1 to 24 characters (after NFC and trimming)")


class ClaimSeat(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: str | None = Field(None, max_length=MAX_RAW, description="the taker's display name")


class PostChat(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    seat: int | None = Field(None, ge=0, lt=MAX_SEATS, description="the writer's seat (its token); "
                                                                    "null: a spectator")
    text: str | None = Field(None, max_length=MAX_RAW, description="at most 300 characters")
    phrase: str | None = Field(None, max_length=64, description="a quick phrase's key instead of text")
    name: str | None = Field(None, max_length=MAX_RAW, description="a spectator's display name")


class HeldSeat(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    game_id: str = Field(max_length=64)
    seat: int = Field(ge=0, lt=MAX_SEATS)
    token: str = Field(max_length=256)


class MyGames(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    seats: list[HeldSeat] = Field(max_length=1000, description="the seats this browser holds (50 at most)")


async def after_create(service: Any, game_id: str, body: Any) -> None:
    """Store the creator's chat switch (a hook in the create-game route): only when off."""
    if getattr(body, "chat", True) is False:
        await asyncio.to_thread(chat_store.turn_off, service.store.engine, game_id)


def claim_name(body: ClaimSeat | None) -> str | None:
    """The name a claim gives, checked before the seat is taken (a refusal takes nothing)."""
    return None if body is None or body.name is None else names.clean_name(body.name)


def add_social_routes(app: FastAPI, service_of: Callable[[Any], Any],
                      bearer: Callable[[str | None], str | None],
                      client_of: Callable[[Request], str]) -> None:
    @app.put("/api/games/{game_id}/seats/{seat}/name", tags=["games"])
    async def name_seat(game_id: str, seat: int, body: SeatName, request: Request,
                        authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        """Give the seat (its token) the display name shown beside its colour."""
        service = service_of(request)
        live = await service.live(game_id)
        await service.authenticate(live, seat, bearer(authorization))
        name = await names.set_name(service.store, service.hub, live, seat, body.name)
        return {"seat": seat, "name": name}

    @app.get("/api/games/{game_id}/chat", tags=["chat"])
    async def chat_history(game_id: str, request: Request,
                           after: Annotated[int, Query(ge=0, lt=2**62)] = 0) -> dict[str, Any]:
        """The game's chat after message ``after`` (the newest 200), whether it is on, the phrases."""
        return await posting.history(service_of(request), game_id, after)

    @app.post("/api/games/{game_id}/chat", tags=["chat"], status_code=201)
    async def post_chat(game_id: str, body: PostChat, request: Request,
                        authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        """Write in the game's chat: as a seat (its token) or as a spectator (a name)."""
        return await posting.post(service_of(request), game_id, seat=body.seat, token=bearer(authorization),
                                  client_key=client_of(request), text=body.text, phrase=body.phrase,
                                  name=body.name)

    @app.post("/api/my-games", tags=["games"])
    async def my_games(body: MyGames, request: Request) -> dict[str, Any]:
        """Where each game of the given seats stands (the My games page)."""
        return await summaries(service_of(request), [(s.game_id, s.seat, s.token) for s in body.seats])
