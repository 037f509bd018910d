"""The per-client limits (settings), and the ASGI middleware that enforce the HTTP ones.

Every limit has a ``POWERGRID_*`` variable (``docs/server.md``, "Limits"); ``POWERGRID_LIMITS=0`` turns
all per-client limits off (a load test from one address, a private server). Refusals are named
errors: ``429`` with ``Retry-After`` for the rates and quotas, ``413 body_too_large`` for size.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field
from typing import Any

from .buckets import BucketsByClient
from .clients import ClientAddresses

Scope = dict[str, Any]


def _env(name: str, default: float) -> float:
    value = os.environ.get(f"POWERGRID_{name}")
    return float(value) if value not in (None, "") else default


def _env_int(name: str, default: int) -> int:
    return int(_env(name, default))


@dataclass
class Limits:
    """Per-client limits. ``0`` turns one limit off."""

    #: all per-client limits (off: none of the counts below is enforced; sizes and timeouts still are)
    enabled: bool = field(default_factory=lambda: os.environ.get("POWERGRID_LIMITS", "1").lower()
                          not in ("0", "false", "off", "no"))
    #: games one client may create in any 60 seconds
    games_per_minute: int = field(default_factory=lambda: _env_int("GAMES_PER_MINUTE", 10))
    #: games all clients together may create in any 60 seconds (a flood from many addresses)
    server_games_per_minute: int = field(default_factory=lambda: _env_int("SERVER_GAMES_PER_MINUTE", 600))
    #: games in play that one client created
    active_games: int = field(default_factory=lambda: _env_int("ACTIVE_GAMES", 20))
    #: of those, games with at least one bot seat
    bot_games: int = field(default_factory=lambda: _env_int("BOT_GAMES", 5))
    #: what one client sends a second (per server process): HTTP requests, WebSocket handshakes and
    #: socket messages together, with bursts up to request_burst
    requests_per_second: float = field(default_factory=lambda: _env("REQUESTS_PER_SECOND", 20))
    request_burst: int = field(default_factory=lambda: _env_int("REQUEST_BURST", 120))
    #: open WebSockets of one client (per server process)
    sockets_per_client: int = field(default_factory=lambda: _env_int("SOCKETS_PER_CLIENT", 16))
    #: messages a second one WebSocket may send, with bursts up to message_burst
    messages_per_second: float = field(default_factory=lambda: _env("MESSAGES_PER_SECOND", 5))
    message_burst: int = field(default_factory=lambda: _env_int("MESSAGE_BURST", 20))
    #: analyses of finished games one client has queued or running at once (across processes)
    analyses_per_client: int = field(default_factory=lambda: _env_int("ANALYSES_PER_CLIENT", 2))
    #: analyses queued or running on the whole server: beyond, 503 analysis_queue_full
    analysis_queue: int = field(default_factory=lambda: _env_int("ANALYSIS_QUEUE", 16))
    #: TCP connections of one client at once (per server process; trusted proxies are not counted)
    connections_per_client: int = field(default_factory=lambda: _env_int("CONNECTIONS_PER_CLIENT", 64))
    #: seconds a connection has to send a request's headers (and a WebSocket its first message)
    header_timeout: float = field(default_factory=lambda: _env("HEADER_TIMEOUT", 10))
    #: bytes of one request's line and headers, and the number of its headers (431 beyond either)
    max_header_bytes: int = field(default_factory=lambda: _env_int("MAX_HEADER_BYTES", 32 * 1024))
    max_headers: int = field(default_factory=lambda: _env_int("MAX_HEADERS", 64))
    #: proxies whose client-address header is believed (IPs or CIDR networks, comma-separated)
    trusted_proxies: list[str] = field(default_factory=lambda: [
        p for p in os.environ.get("POWERGRID_TRUSTED_PROXIES", "").split(",") if p.strip()])
    #: the header a trusted proxy puts the client's address in
    client_ip_header: str = field(default_factory=lambda: os.environ.get("POWERGRID_CLIENT_IP_HEADER")
                                  or "x-forwarded-for")

    def on(self, value: float) -> bool:
        """Whether a limit with this value is enforced."""
        return self.enabled and value > 0

    def addresses(self) -> ClientAddresses:
        return ClientAddresses(self.trusted_proxies, self.client_ip_header)

    def request_buckets(self) -> BucketsByClient | None:
        """The per-client buckets of ``requests_per_second`` (None when off): one per process, shared
        by the HTTP requests, the socket handshakes (``RequestRate``) and the socket messages."""
        return (BucketsByClient(self.requests_per_second, self.request_burst)
                if self.on(self.requests_per_second) else None)


def retry_seconds(wait: float) -> int:
    return max(1, math.ceil(wait))


async def send_error(send: Any, status: int, code: str, message: str, retry_after: int | None = None) -> None:
    body: dict[str, Any] = {"code": code, "message": message}
    headers = [(b"content-type", b"application/json")]
    if retry_after is not None:
        body["retry_after"] = retry_after
        headers.append((b"retry-after", str(retry_after).encode()))
    payload = json.dumps({"error": body}).encode()
    headers.append((b"content-length", str(len(payload)).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": payload})


RATE_LIMITED = "too many requests from this address; slow down"


class RequestRate:
    """Pure ASGI middleware: HTTP requests and WebSocket handshakes per client (the client's socket
    messages take from the same buckets: socket.py), ``429 rate_limited`` with ``Retry-After``
    beyond; a refused handshake is accepted, told so and closed with 4429 (so a client reconnecting
    in a loop is as bounded as one sending requests)."""

    def __init__(self, app: Any, limits: Limits, buckets: BucketsByClient | None = None) -> None:
        self.app = app
        self.addresses = limits.addresses()
        self.buckets = buckets if buckets is not None else limits.request_buckets()

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket") and self.buckets is not None:
            wait = self.buckets.take(self.addresses.of_scope(scope))
            if wait > 0:
                if scope["type"] == "http":
                    await send_error(send, 429, "rate_limited", RATE_LIMITED, retry_seconds(wait))
                else:
                    await refuse_socket(receive, send, "rate_limited", RATE_LIMITED, retry_seconds(wait))
                return
        await self.app(scope, receive, send)


async def refuse_socket(receive: Any, send: Any, code: str, message: str, retry_after: int) -> None:
    """Answer a WebSocket handshake with an error message and close it with 4429."""
    if (await receive())["type"] != "websocket.connect":
        return
    error = {"code": code, "message": message, "retry_after": retry_after}
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": json.dumps({"type": "error", "error": error})})
    await send({"type": "websocket.close", "code": 4429})


class BodyLimit:
    """Pure ASGI middleware: checks Content-Length, then counts the bytes actually sent."""

    def __init__(self, app: Any, max_bytes: int, per_path: dict[str, int] | None = None) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.per_path = per_path or {}  # exact paths allowed a different limit

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.per_path.get(scope.get("path", ""), self.max_bytes)
        if limit != self.max_bytes:
            await BodyLimit(self.app, limit)(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    too_big = int(value) > self.max_bytes
                except ValueError:
                    too_big = False
                if too_big:
                    await self._refuse(send)
                    return
        # read the whole (bounded) body first, then hand it on
        chunks, size, more = [], 0, True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, _replay([message]), send)
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await self._refuse(send)
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        await self.app(scope, _replay([{"type": "http.request", "body": body, "more_body": False}], receive),
                       send)

    async def _refuse(self, send: Any) -> None:
        await send_error(send, 413, "body_too_large", f"request bodies are limited to {self.max_bytes} bytes")


def _replay(messages: list[dict[str, Any]], then: Any = None) -> Any:
    queue = list(messages)

    async def receive() -> dict[str, Any]:
        if queue:
            return queue.pop(0)
        if then is not None:
            message: dict[str, Any] = await then()
            return message
        return {"type": "http.disconnect"}

    return receive
