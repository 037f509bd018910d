"""Routes for absent players and clocks: Leave, taking a seat back, and the server's time.

A seat's person may leave (the game's stand-in bot plays the seat) and take the seat back with
its link at any decision (games/absence.py). Clients tick the players' clocks from a frame's
``clocks`` (games/clocks.py) and the server's time, which ``GET /api/clock`` tells them (a
browser's own clock may be minutes off).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, Request
from fastapi.responses import Response

from ..common.errors import ApiError
from ..common.tokens import bearer, well_formed_game_id
from ..games import clocks
from .schemas import CreateGame, PostSeat

router = APIRouter()


def time_control_of(body: CreateGame) -> clocks.TimeControl:
    """The time control a create-game request asks for; invalid_config if its numbers are out of range."""
    if body.time_control is None:
        return clocks.TimeControl()
    try:
        return clocks.TimeControl.from_dict(body.time_control.model_dump(exclude_none=True))
    except ValueError as exc:
        raise ApiError("invalid_config", str(exc)) from None


def _checked(game_id: str) -> str:
    if not well_formed_game_id(game_id):
        raise ApiError("unknown_game", f"no game {game_id[:40]!r}")
    return game_id


@router.post("/api/games/{game_id}/leave", tags=["play"])
async def leave(game_id: str, body: PostSeat, request: Request,
                authorization: Annotated[str | None, Header()] = None) -> Response:
    """The seat's person leaves (its token): the game's stand-in bot plays the seat until they take
    it back (``/return``). Once every person has left for good, the game ends abandoned."""
    frame = await request.app.state.service.leave(_checked(game_id), body.seat, bearer(authorization))
    return Response(frame.body(game_id, body.seat), media_type="application/json")


@router.post("/api/games/{game_id}/return", tags=["play"])
async def come_back(game_id: str, body: PostSeat, request: Request,
                    authorization: Annotated[str | None, Header()] = None) -> Response:
    """The seat's person takes it back from the stand-in (its token), at any decision."""
    frame = await request.app.state.service.come_back(_checked(game_id), body.seat, bearer(authorization))
    return Response(frame.body(game_id, body.seat), media_type="application/json")


@router.get("/api/clock", tags=["server"])
async def server_clock(request: Request) -> dict[str, Any]:
    """The server's time (seconds since the epoch): the players' clocks count from it."""
    return {"now": request.app.state.service.clock.now()}
