"""The two routes every move takes (POST an action, GET a seat's view), served without FastAPI's
routing.

A profile of the web process under the load test (benchmarks/server_load.py, one POST per move)
put FastAPI's own layers (exception middleware, exit stack, route matching over every route,
dependency solving and body validation) at about as much CPU as the move itself: reading the
action, applying it and encoding the seat's view. This pure ASGI middleware sits inside the
server's own middlewares (rate, timing, game-id check, body limit: they still apply) and answers
these two routes when the request is well formed. Anything else, and any request it would have to
refuse for its shape (not JSON, a field missing or unknown, a seat that is not a number), goes on
to FastAPI unchanged, so that every refusal is the one the API documents. The FastAPI routes stay
declared: they document these two in the OpenAPI and answer the refusals.
"""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import parse_qsl

from pydantic import ValidationError
from starlette.responses import JSONResponse, Response

from ..common.errors import ApiError
from ..common.tokens import bearer, well_formed_game_id
from .schemas import PostAction

log = logging.getLogger("powergrid.server")

Scope = dict[str, Any]
#: seats are 0 to 5; a longer query value goes to FastAPI's route, which refuses it by name
MAX_SEAT_DIGITS = 3


class PlayRoutes:
    """Pure ASGI middleware: ``POST /api/games/{id}/actions`` and ``GET /api/games/{id}/view``."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            path: str = scope["path"]
            method: str = scope["method"]
            if method == "POST" and path.endswith("/actions"):
                game_id = _game_id(path, "actions")
                if game_id is not None:
                    await self._action(game_id, scope, receive, send)
                    return
            elif method == "GET" and path.endswith("/view"):
                game_id = _game_id(path, "view")
                seat = _seat(scope)
                if game_id is not None and seat is not None:
                    await _answer(scope, receive, send, self._view(scope, game_id, seat))
                    return
        await self.app(scope, receive, send)

    async def _action(self, game_id: str, scope: Scope, receive: Any, send: Any) -> None:
        body, more = b"", True
        while more:  # the body limit (outside) has read and bounded it already
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            body += message.get("body", b"")
            more = message.get("more_body", False)
        try:
            posted = PostAction.model_validate_json(body) if _is_json(scope) else None
        except ValidationError:
            posted = None
        if posted is None:  # FastAPI refuses it, in the documented words
            await self.app(scope, _replay(body), send)
            return
        await _answer(scope, receive, send, self._act(scope, game_id, posted))

    async def _act(self, scope: Scope, game_id: str, posted: PostAction) -> Response:
        body = await action_body(scope["app"].state.service, game_id, posted,
                                 _header(scope, b"authorization"))
        return Response(body, media_type="application/json")

    async def _view(self, scope: Scope, game_id: str, seat: int) -> Response:
        body = await view_body(scope["app"].state.service, game_id, seat, _header(scope, b"authorization"))
        return Response(body, media_type="application/json")


async def action_body(service: Any, game_id: str, posted: PostAction, authorization: str | None) -> bytes:
    """Take the posted action; the answer: the seat's view of the new version (JSON bytes)."""
    frame = await service.act(game_id, posted.seat, bearer(authorization), posted.action, posted.version)
    return frame.body(game_id, posted.seat)  # type: ignore[no-any-return]


async def view_body(service: Any, game_id: str, seat: int, authorization: str | None) -> bytes:
    """The seat's view of the latest version (JSON bytes); the seat's token is checked first."""
    live = await service.live(game_id)
    await service.authenticate(live, seat, bearer(authorization))
    live = await service.fresh(game_id)
    return live.latest.body(game_id, seat)  # type: ignore[no-any-return]


async def _answer(scope: Scope, receive: Any, send: Any, work: Any) -> None:
    """Await the route's work and send its answer; a refusal as the API's error (as app.py maps it)."""
    try:
        response = await work
    except ApiError as exc:
        response = JSONResponse(exc.body(), status_code=exc.status, headers=exc.headers())
    except Exception as exc:
        log.exception("unexpected error", exc_info=exc)
        response = JSONResponse({"error": {"code": "internal_error", "message": "the server failed; "
                                                                                "nothing was changed"}},
                                status_code=500)
    await response(scope, receive, send)


def _game_id(path: str, last: str) -> str | None:
    """The game id of ``/api/games/{id}/<last>``, if it is one."""
    parts = path.split("/")
    if len(parts) != 5 or parts[0] or parts[1] != "api" or parts[2] != "games" or parts[4] != last:
        return None
    return parts[3] if well_formed_game_id(parts[3]) else None


def _seat(scope: Scope) -> int | None:
    """``?seat=N`` when it is the only query parameter and a plain number."""
    query = parse_qsl(scope.get("query_string", b"").decode("latin-1"))
    if len(query) != 1 or query[0][0] != "seat":
        return None
    raw = query[0][1]
    # bounded before parsing: a number of thousands of digits is not a seat (FastAPI names the fault)
    if not 0 < len(raw) <= MAX_SEAT_DIGITS or not raw.isascii() or not raw.isdigit():
        return None
    return int(raw)


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope["headers"]:
        if key == name:
            return str(value.decode("latin-1"))
    return None


def _is_json(scope: Scope) -> bool:
    kind = _header(scope, b"content-type")
    return kind is not None and kind.split(";")[0].strip().lower() == "application/json"


def _replay(body: bytes) -> Any:
    sent = False

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return {"type": "http.disconnect"}

    return receive
