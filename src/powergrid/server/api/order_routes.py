"""Routes for standing orders, a finished game's summary and Play again.

- ``GET    /api/games/{id}/orders?seat=N`` (the seat's token): the seat's order, and the choices it
  may give now though not to act (``early``).
- ``POST   /api/games/{id}/orders`` ``{"seat": N, "kind": ..., ...}`` (token): place an order (it
  replaces the seat's earlier one); applied at once if the seat is to act.
- ``DELETE /api/games/{id}/orders?seat=N[&order=ID]`` (token): cancel it (``no_order`` if applied).
- ``GET    /api/games/{id}/summary``: spending, income, cost per city, rounds, time used; only once
  the game is over (``game_not_over`` before: nothing hidden leaks).
- ``POST   /api/games/{id}/again`` ``{"seat": N}`` (a seat's token): a new game with the same
  seats, bots and settings and a new seed (one per finished game); ``GET`` tells its id.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import FastAPI, Header, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from ..chat import chat_store
from ..common.errors import ApiError
from ..games import again, order_service, summary
from .schemas import MAX_SEATS


class PlaceOrder(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    seat: int = Field(ge=0, lt=MAX_SEATS, description="the seat, 0 to players - 1")
    kind: str = Field(max_length=16, description="bid_up_to, pass_auction, power or build")
    limit: int | None = Field(None, ge=0, lt=10_000, description="bid_up_to: the most to bid")
    action: str | None = Field(None, max_length=300, description="power: the power action")
    cities: list[str] | None = Field(None, max_length=22, description="build: the cities, in order")
    prices: list[int] | None = Field(None, max_length=22, description="build: each city's price as seen")


class AskAgain(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    seat: int = Field(ge=0, lt=MAX_SEATS, description="a seat of the finished game")


SEAT_TOKEN = {"parameters": [{"name": "Authorization", "in": "header", "required": True,
                              "schema": {"type": "string"}, "description": "Bearer <the seat's token>"}]}


def add_order_routes(app: FastAPI, service_of: Callable[[Any], Any],
                     bearer: Callable[[str | None], str | None],
                     client_of: Callable[[Request], str], checked: Callable[[str], str]) -> None:
    summaries = summary.Summaries()

    @app.get("/api/games/{game_id}/orders", tags=["play"])
    async def get_order(game_id: str, request: Request, seat: Annotated[int, Query(ge=0, lt=MAX_SEATS)],
                        authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        """The seat's standing order (only the seat sees it), and what it may order now."""
        return await order_service.show(service_of(request), checked(game_id), seat, bearer(authorization))

    @app.post("/api/games/{game_id}/orders", tags=["play"])
    async def post_order(game_id: str, body: PlaceOrder, request: Request,
                         authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        """Place the seat's standing order, applied as its own action when its turn comes."""
        fields = body.model_dump(exclude_none=True)
        seat = fields.pop("seat")
        return await order_service.place(service_of(request), checked(game_id), seat, bearer(authorization),
                                         fields)

    @app.delete("/api/games/{game_id}/orders", tags=["play"])
    async def delete_order(game_id: str, request: Request, seat: Annotated[int, Query(ge=0, lt=MAX_SEATS)],
                           order: Annotated[int | None, Query(ge=0, lt=2**62)] = None,
                           authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        """Cancel the seat's order before it is applied (or clear a refused one)."""
        return await order_service.cancel(service_of(request), checked(game_id), seat, bearer(authorization),
                                          order)

    @app.get("/api/games/{game_id}/summary", tags=["games"])
    async def game_summary(game_id: str, request: Request) -> dict[str, Any]:
        """A finished game's summary per player; refused (game_not_over) while it is played."""
        service = service_of(request)
        game_id = checked(game_id)
        found = summaries.get(game_id)
        if found is not None:
            return found
        live = await service.fresh(game_id)
        if not live.state.is_over:
            raise ApiError("game_not_over", "the summary is given once the game is over")
        times = await asyncio.to_thread(summary.log_times, service.store.engine, game_id)
        made = await asyncio.to_thread(summary.summarize, live.state, times, live.row.created_at)
        made = {"game_id": game_id, **made}
        summaries.put(game_id, made)
        return made

    @app.post("/api/games/{game_id}/again", tags=["games"])
    async def post_again(game_id: str, body: AskAgain, request: Request,
                         authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        """Play again: a new game with the same seats, bots and settings and a new seed (a seat of
        the finished game asks; every person keeps their seat and token)."""
        service = service_of(request)
        with_bots = any(s.kind == "bot" for s in (await service.live(checked(game_id))).row.seats)
        async with request.app.state.quotas.admit(client_of(request), with_bots):
            made = await again.play_again(service, game_id, body.seat, bearer(authorization))
        if made["created"]:
            await _copy_hint_settings(service, game_id, made["new_game_id"])
            engine = service.store.engine
            if not await asyncio.to_thread(chat_store.is_on, engine, game_id):
                await asyncio.to_thread(chat_store.turn_off, engine, made["new_game_id"])
        return made

    @app.get("/api/games/{game_id}/again", tags=["games"])
    async def get_again(game_id: str, request: Request) -> dict[str, Any]:
        """The game that follows this one, once a seat asked to play again (no_rematch before)."""
        return await again.next_game(service_of(request), checked(game_id))


async def _copy_hint_settings(service: Any, old: str, new: str) -> None:
    from ..coach import coach_store

    engine = service.store.engine
    options = await asyncio.to_thread(coach_store.options, engine, old)
    await asyncio.to_thread(coach_store.set_options, engine, new, options.enabled, options.per_seat)
