"""The game WebSocket: every new view pushed as it happens; actions may be sent back over it."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect

from .errors import ApiError
from .service import GameService, LiveGame

#: close codes: 4000 + the HTTP status of the refusal
CLOSE_BASE = 4000


def _int_param(value: str | None, name: str) -> int | None:
    if value is None or value == "":
        return None
    try:
        return int(value)
    except ValueError:
        raise ApiError("malformed_request", f"{name} must be an integer, not {value!r}") from None


async def serve_socket(service: GameService, ws: WebSocket, game_id: str, max_bytes: int) -> None:
    await ws.accept()
    try:
        params = ws.query_params
        seat = _int_param(params.get("seat"), "seat")
        _int_param(params.get("since"), "since")  # any version: the current view is sent at once
        token = params.get("token")
        live = await service.fresh(game_id)
        if seat is not None:
            await service.authenticate(live, seat, token)
        elif token:
            raise ApiError("malformed_request", "a token needs its seat (?seat=N&token=...)")
    except ApiError as exc:
        await _send(ws, {"type": "error", **exc.body()})
        await ws.close(code=CLOSE_BASE + exc.status)
        return
    wake = service.watch(live)
    sender = asyncio.create_task(_push(service, ws, live, seat, wake))
    try:
        await _receive(service, ws, live, seat, token, max_bytes)
    except WebSocketDisconnect:
        pass
    finally:
        service.unwatch(live, wake)
        sender.cancel()
        try:
            await sender
        except (asyncio.CancelledError, Exception):
            pass


async def _send(ws: WebSocket, message: dict[str, Any]) -> None:
    await ws.send_text(json.dumps(message, ensure_ascii=False))


async def _push(service: GameService, ws: WebSocket, live: LiveGame, seat: int | None,
                wake: asyncio.Event) -> None:
    """Send the current view, then each newer version in order (the latest if some scrolled away)."""
    frame = live.latest
    await ws.send_text(frame.message(seat))
    sent = frame.version
    while True:
        await wake.wait()
        wake.clear()
        newer = [f for f in list(live.frames) if f.version > sent]
        if newer and newer[0].version != sent + 1:
            newer = newer[-1:]  # missed more than the frames kept: the latest view suffices
        for frame in newer:
            await ws.send_text(frame.message(seat))
            sent = frame.version


async def _receive(service: GameService, ws: WebSocket, live: LiveGame, seat: int | None,
                   token: str | None, max_bytes: int) -> None:
    while True:
        text = await ws.receive_text()
        try:
            if len(text.encode()) > max_bytes:
                raise ApiError("body_too_large", f"messages are limited to {max_bytes} bytes")
            try:
                message = json.loads(text)
            except json.JSONDecodeError:
                raise ApiError("malformed_request", "the message is not valid JSON") from None
            if not isinstance(message, dict) or message.get("type") != "action":
                raise ApiError("malformed_request", 'send {"type": "action", "action": "...", "version": N}')
            action, version = message.get("action"), message.get("version")
            if not isinstance(action, str) or (version is not None and (
                    isinstance(version, bool) or not isinstance(version, int))):
                raise ApiError("malformed_request", "action must be text and version an integer")
            if seat is None:
                raise ApiError("missing_token", "spectators cannot act; connect with ?seat=N&token=...")
            await service.act(live.game_id, seat, token, action, version)
        except ApiError as exc:
            await _send(ws, {"type": "error", **exc.body()})
