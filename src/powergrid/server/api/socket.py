"""The game WebSocket: every new view pushed as it happens; actions may be sent back over it (the
browser does: no HTTP request per move). An action message may carry an ``id``; its answer, after
the new view, is ``{"type": "done", "id", "version"}`` or ``{"type": "error", "id", "error"}``.

A seat's token never travels in the URL (proxies log URLs): connect with ``?seat=N`` and send
``{"type": "auth", "token": "..."}`` as the first message, or send an ``Authorization: Bearer``
header (for programs; browsers cannot). Without ``seat`` the socket watches as a spectator.

Chat: ``{"type": "chat", "text": "..."}`` (or ``"phrase": key``; a spectator adds ``"name"``) posts
to the game's chat, answered ``{"type": "done", "id", "chat": message id}``; every socket of the
game is sent ``{"type": "chat", "messages": [...]}`` for each new message and
``{"type": "seats", "seats": [...]}`` when a seat is taken or named (social_routes.py).

Refusals are ``{"type": "error", "error": {...}}`` messages. A refused connection is then closed
with 4000 + the HTTP status of the refusal; a message the server will not read at all (binary,
over the size limit, nested too deeply) closes the socket with the WebSocket code for it (1003,
1009, 1007), and so does a client that keeps flooding after being told to slow down (4429). A
socket's messages are limited per socket (``message_rate_limited``) and, with the client's HTTP
requests and socket handshakes, per client (``rate_limited``: limits.py).
Such a close is logged once, in one line.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import time
from collections.abc import Mapping
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect

from ..chat import posting
from ..chat.rooms import ChatRooms
from ..common.buckets import BucketsByClient, TokenBucket
from ..common.clients import creator_key
from ..common.errors import ApiError
from ..common.limits import RATE_LIMITED, Limits, retry_seconds
from ..common.metrics import PROCESS_HEADER, BotReplies
from ..common.settings import Settings
from ..common.tokens import bearer, well_formed_game_id
from ..games.service import GameService, LiveGame

log = logging.getLogger("powergrid.server")

#: close codes: 4000 + the HTTP status of the refusal
CLOSE_BASE = 4000
CLOSE_UNSUPPORTED_DATA = 1003
CLOSE_INVALID_PAYLOAD = 1007
CLOSE_TOO_BIG = 1009
#: a message is a flat JSON object: deeper nesting than this is refused unread
MAX_DEPTH = 4


class Closing(ApiError):
    """A refusal after which the socket is closed with ``close_code``."""

    def __init__(self, code: str, message: str, close_code: int, retry_after: int | None = None) -> None:
        super().__init__(code, message, retry_after)
        self.close_code = close_code


class SocketCounts:
    """Open WebSockets per client in this process (``sockets_per_client``)."""

    def __init__(self, limits: Limits) -> None:
        self.limit = limits.sockets_per_client if limits.on(limits.sockets_per_client) else 0
        self.open: dict[str, int] = {}

    def enter(self, client: str) -> bool:
        count = self.open.get(client, 0)
        if self.limit and count >= self.limit:
            return False
        self.open[client] = count + 1
        return True

    def leave(self, client: str) -> None:
        count = self.open.get(client, 0) - 1
        if count > 0:
            self.open[client] = count
        else:
            self.open.pop(client, None)


def _int_param(value: str | None, name: str) -> int | None:
    if value is None or value == "":
        return None
    try:
        return int(value)
    except ValueError:
        raise ApiError("malformed_request", f"{name} must be an integer, not {value[:40]!r}") from None


def too_deep(text: str, limit: int = MAX_DEPTH) -> bool:
    """Whether the JSON text nests arrays/objects more than ``limit`` deep (strings are skipped)."""
    if text.count("[") + text.count("{") <= limit:
        return False
    depth, in_string, escaped = 0, False, False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return True
        elif ch in "]}":
            depth -= 1
    return False


def read_message(message: Mapping[str, Any], max_bytes: int) -> dict[str, Any]:
    """The JSON object a client sent; raises Closing for what is not read at all, ApiError otherwise."""
    text = message.get("text")
    if text is None:
        raise Closing("binary_message", "messages are JSON text, not binary", CLOSE_UNSUPPORTED_DATA)
    if len(text) > max_bytes or len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        raise Closing("body_too_large", f"messages are limited to {max_bytes} bytes", CLOSE_TOO_BIG)
    if too_deep(text):
        raise Closing("nesting_too_deep", f"a message is a flat JSON object (nested at most {MAX_DEPTH} "
                      "deep)", CLOSE_INVALID_PAYLOAD)
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise ApiError("malformed_request", "the message is not valid JSON") from None
    if not isinstance(data, dict):
        raise ApiError("malformed_request", 'a message is a JSON object, e.g. {"type": "action", ...}')
    return data


async def serve_socket(service: GameService, ws: WebSocket, game_id: str, settings: Settings,
                       counts: SocketCounts, client: str, client_rate: BucketsByClient | None = None,
                       chat: ChatRooms | None = None) -> None:
    if settings.process_header:
        await ws.accept(headers=[(PROCESS_HEADER, str(os.getpid()).encode())])
    else:
        await ws.accept()
    if not counts.enter(client):
        await _refuse(ws, Closing("socket_limit", f"at most {counts.limit} open sockets from one address",
                                  CLOSE_BASE + 429, retry_after=5), client, game_id)
        return
    try:
        await _serve(service, ws, game_id, settings, client, client_rate, chat)
    finally:
        counts.leave(client)


async def _serve(service: GameService, ws: WebSocket, game_id: str, settings: Settings, client: str,
                 client_rate: BucketsByClient | None, chat: ChatRooms | None = None) -> None:
    limits = settings.limits
    try:
        params = ws.query_params
        if "token" in params:
            raise ApiError("malformed_request", "tokens are not taken from the URL: connect with ?seat=N and "
                                                'send {"type": "auth", "token": "..."} first')
        seat = _int_param(params.get("seat"), "seat")
        _int_param(params.get("since"), "since")  # any version: the current view is sent at once
        if not well_formed_game_id(game_id):
            raise ApiError("unknown_game", f"no game {game_id[:40]!r}")
        live = await service.fresh(game_id)
        token = None
        if seat is not None:
            service.check_seat(live, seat)
            token = bearer(ws.headers.get("authorization"))
            if token is None:
                token = await _auth_message(ws, seat, limits.header_timeout, settings.max_body_bytes)
            await service.authenticate(live, seat, token)
    except WebSocketDisconnect:
        return
    except ApiError as exc:
        await _refuse(ws, exc, client, game_id)
        return
    try:
        live, wake = await service.attach(live)
    except ApiError as exc:
        await _refuse(ws, exc, client, game_id)
        return
    pusher = Pusher(ws, live, seat, service.bot_replies)
    sender = asyncio.create_task(pusher.run(wake))
    if chat is not None:
        chat.join(live.game_id, pusher.send, [s.name for s in live.row.seats])
    if seat is not None:
        service.absences.presence.connected(live, seat)  # a live clock's absent player (absence.py)
    try:
        await _receive(service, ws, live, seat, token, settings, client, pusher, client_rate)
    except WebSocketDisconnect:
        pass
    finally:
        if chat is not None:
            chat.leave(live.game_id, pusher.send)
        if seat is not None:
            service.absences.presence.disconnected(live, seat)
        service.unwatch(live, wake)
        sender.cancel()
        try:
            await sender
        except (asyncio.CancelledError, Exception):
            pass


async def _auth_message(ws: WebSocket, seat: int, timeout: float, max_bytes: int) -> str:
    """The token from the first message, which must come within ``timeout`` seconds."""
    try:
        message = await asyncio.wait_for(ws.receive(), timeout if timeout > 0 else None)
    except TimeoutError:
        raise ApiError("missing_token", f'send {{"type": "auth", "token": "..."}} within {timeout:g} s of '
                                        "connecting") from None
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    data = read_message(message, max_bytes)
    token = data.get("token")
    if data.get("type") != "auth" or not isinstance(token, str) or not token:
        raise ApiError("missing_token",
                       f'the first message for seat {seat} is {{"type": "auth", "token": "..."}}')
    if "seat" in data and data["seat"] != seat:
        raise ApiError("malformed_request", f"the socket is for seat {seat} (?seat=), not {data['seat']!r}")
    return token


async def _refuse(ws: WebSocket, exc: ApiError, client: str, game_id: str) -> None:
    close_code = exc.close_code if isinstance(exc, Closing) else CLOSE_BASE + exc.status
    if isinstance(exc, Closing):
        log.warning("socket of %s to game %.40r closed (%d): %s", client, game_id, close_code, exc.code)
    try:
        await _send(ws, {"type": "error", **exc.body()})
        await ws.close(code=close_code)
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass  # the client is gone already


async def _send(ws: WebSocket, message: dict[str, Any]) -> None:
    await ws.send_text(json.dumps(message, ensure_ascii=False))


class Pusher:
    """Sends a socket the views of its seat in order: the current one, then each newer version (the
    latest if some scrolled away). The watcher task and an acted-on message share it, so that an
    action's ``done`` follows its own new view."""

    def __init__(self, ws: WebSocket, live: LiveGame, seat: int | None, replies: BotReplies) -> None:
        self.ws = ws
        self.live = live
        self.seat = seat
        self.replies = replies
        self.sent = -1
        self._lock = asyncio.Lock()

    async def run(self, wake: asyncio.Event) -> None:
        await self.catch_up()
        while True:
            await wake.wait()
            wake.clear()
            await self.catch_up()

    async def send(self, text: str) -> None:
        """Another message (chat, seats) between the views, never in the middle of sending one."""
        async with self._lock:
            await self.ws.send_text(text)

    async def catch_up(self) -> None:
        async with self._lock:
            if self.sent < 0:
                newer = [self.live.latest]
            else:
                newer = [f for f in list(self.live.frames) if f.version > self.sent]
                if newer and newer[0].version != self.sent + 1:
                    newer = newer[-1:]  # missed more than the frames kept: the latest view suffices
            for frame in newer:
                await self.ws.send_text(frame.message(self.seat))
                self.sent = frame.version
                if self.live.awaiting_bot is not None:
                    self.replies.sent(self.live, frame)


async def _receive(service: GameService, ws: WebSocket, live: LiveGame, seat: int | None,
                   token: str | None, settings: Settings, client: str, pusher: Pusher,
                   client_rate: BucketsByClient | None) -> None:
    limits = settings.limits
    bucket = (TokenBucket(limits.messages_per_second, limits.message_burst)
              if limits.on(limits.messages_per_second) else None)
    refused_in_a_row = 0
    while True:
        message = await ws.receive()
        if message["type"] == "websocket.disconnect":
            return
        ref: Any = None
        try:
            wait = bucket.take() if bucket is not None else 0.0
            whole_client = False
            if wait <= 0 and client_rate is not None:  # with the client's requests and handshakes
                wait, whole_client = client_rate.take(client), True
            if wait > 0:
                ref = _reference_of(message, settings.max_body_bytes)  # its sender waits on the answer
                refused_in_a_row += 1
                code = "rate_limited" if whole_client else "message_rate_limited"
                if refused_in_a_row > limits.message_burst:
                    raise Closing(code, "too many messages: closing", CLOSE_BASE + 429, retry_seconds(wait))
                words = (RATE_LIMITED if whole_client
                         else f"at most {limits.messages_per_second:g} messages a second: slow down")
                raise ApiError(code, words, retry_seconds(wait))
            refused_in_a_row = 0
            data = read_message(message, settings.max_body_bytes)
            ref = _reference(data.get("id"))
            if data.get("type") == "chat":
                posted = await posting.post(service, live.game_id, seat=seat, token=token,
                                            client_key=creator_key(client), text=data.get("text"),
                                            phrase=data.get("phrase"), name=data.get("name"))
                await _send(ws, {"type": "done", "id": ref, "chat": posted["id"]})
                continue
            if data.get("type") != "action":
                raise ApiError("malformed_request", 'send {"type": "action", "action": "...", "version": N}')
            action, version = data.get("action"), data.get("version")
            if not isinstance(action, str) or (version is not None and (
                    isinstance(version, bool) or not isinstance(version, int))):
                raise ApiError("malformed_request", "action must be text and version an integer")
            if seat is None:
                raise ApiError("missing_token", "spectators cannot act; connect with ?seat=N and "
                                                "authenticate")
            began = time.perf_counter()
            frame = await service.act(live.game_id, seat, token, action, version)
            await pusher.catch_up()  # the new view first, then the answer to this message
            # "ms": the server's time on it, as an HTTP answer's Server-Timing header gives it
            await _send(ws, {"type": "done", "id": ref, "version": frame.version,
                             "ms": round((time.perf_counter() - began) * 1000, 2)})
        except Closing as exc:
            await _refuse(ws, exc, client, live.game_id)
            return
        except ApiError as exc:
            await _send(ws, {"type": "error", "id": ref, **exc.body()})


def _reference_of(message: Mapping[str, Any], max_bytes: int) -> Any:
    """The ``id`` of a message refused before being read (rate limit); None if it has none."""
    try:
        data = read_message(message, max_bytes)
    except ApiError:
        return None
    return _reference(data.get("id"))


def _reference(value: Any) -> Any:
    """A message's ``id``, echoed in its answer: a short text or an integer (else dropped)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int) or (isinstance(value, str) and len(value) <= 64):
        return value
    return None
