"""Slow and half-open clients: a cap on each client's connections and a deadline for each request.

uvicorn has no header timeout: a connection that sends half a request and then nothing holds a file
descriptor for ever, and a few thousand of them (slowloris) exhaust the process's descriptors so
that nobody else is answered. ``GuardedHttp`` wraps uvicorn's own HTTP protocol (``http=`` takes an
import string) and adds, per connection:

- a cap per client: a client (``clients.py``) with ``connections_per_client`` connections open has
  further ones closed at once, before they cost more than the accept (trusted proxies are not
  counted: the proxy limits its own clients, see ``docs/server.md``);
- bounded headers: a request whose line and headers pass ``max_header_bytes`` before they end, or
  that has more than ``max_headers`` headers, is answered 431 and the connection closed, before the
  parser has buffered more than that (httptools keeps a header whole until it ends, and uvicorn's
  httptools protocol has no bound of its own; h11's is set from the same limit);
- a request deadline: from the moment a connection waits for a request (it opened, or answered the
  previous one) the request's headers and body must have arrived within ``header_timeout``
  seconds, or the connection is closed. A WebSocket, once upgraded, is the socket's business
  (first message within the same time, then pings).

It also raises the soft limit on open files to the hard one (``raise_open_file_limit``), and, with
several web processes on one port, hands a request that names a game to the game's owner process
(``owners.py``) when the connection is between requests.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import resource
import socket
import time
from typing import Any

from ..common.clients import ClientAddresses
from ..common.limits import Limits
from ..fanout.owners import Owners, owners_directory, requested_game

log = logging.getLogger("powergrid.server")


class ConnectionGuard:
    """The process's open connections per client, and the settings the connections read."""

    def __init__(self, limits: Limits) -> None:
        self.addresses: ClientAddresses = limits.addresses()
        self.per_client = limits.connections_per_client if limits.on(limits.connections_per_client) else 0
        self.timeout = limits.header_timeout
        self.max_header_bytes = limits.max_header_bytes if limits.on(limits.max_header_bytes) else 0
        self.max_headers = limits.max_headers if limits.on(limits.max_headers) else 0
        self.open: dict[str, int] = {}
        self.refused = 0

    def enter(self, host: str | None) -> tuple[bool, str | None]:
        """Whether to admit the connection, and the client key it is counted under (None: not counted)."""
        if not self.per_client or self.addresses.is_trusted(host):
            return True, None
        client = self.addresses.of_peer(host)
        count = self.open.get(client, 0)
        if count >= self.per_client:
            self.refused += 1
            if self.refused in (1, 10, 100) or self.refused % 1000 == 0:
                log.warning("%d connections refused: %s (and maybe others) holds %d open", self.refused,
                            client, count)
            return False, None
        self.open[client] = count + 1
        return True, client

    def leave(self, client: str) -> None:
        count = self.open.get(client, 0) - 1
        if count > 0:
            self.open[client] = count
        else:
            self.open.pop(client, None)


_guard: ConnectionGuard | None = None


def connection_guard() -> ConnectionGuard:
    """This process's guard, from the POWERGRID_* variables (uvicorn's workers each build their own)."""
    global _guard
    if _guard is None:
        _guard = ConnectionGuard(Limits())
    return _guard


_owners: Owners | None = None
_owners_started = False
_adoptions: set[asyncio.Task[Any]] = set()


def game_owners(config: Any, server_state: Any, app_state: Any,
                loop: asyncio.AbstractEventLoop) -> Owners | None:
    """This process's place among the owners of games, started with its first connection (which
    brings what a handed connection's protocol is made of); None with one web process or when off."""
    global _owners, _owners_started
    if _owners_started:
        return _owners
    _owners_started = True
    from ..common.settings import Settings

    count = int(os.environ.get(WEB_PROCESSES, "1") or 1)
    if count < 2 or not Settings().game_owners or getattr(config, "ssl", None) is not None:
        return None

    def adopt(conn: socket.socket, data: bytes) -> None:
        def protocol() -> GuardedHttp:
            return GuardedHttp(config, server_state, app_state, handed=data)

        def adopted(done: asyncio.Task[Any]) -> None:
            _adoptions.discard(done)
            if not done.cancelled() and done.exception() is not None:
                log.warning("a handed connection could not be adopted: %s", done.exception())
                conn.close()

        task = loop.create_task(loop.connect_accepted_socket(protocol, conn))
        _adoptions.add(task)
        task.add_done_callback(adopted)

    _owners = Owners(owners_directory(), count, adopt)
    if _owners.index is not None:
        loop.add_reader(_owners.socket.fileno(), _owners.receive)
    return _owners


def close_game_owners() -> None:
    """At shutdown: no more connections are handed to this process."""
    global _owners
    if _owners is not None:
        with contextlib.suppress(Exception):
            asyncio.get_running_loop().remove_reader(_owners.socket.fileno())
        _owners.close()
        _owners = None


def game_owners_stats() -> dict[str, Any] | None:
    return _owners.stats() if _owners is not None else None


#: the number of web processes on the port, set by `powergrid serve --workers N` for its workers
WEB_PROCESSES = "POWERGRID_WEB_PROCESSES"


def raise_open_file_limit() -> int:
    """Raise the soft limit on open files to the hard limit; the limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return soft


def uvicorn_options(settings: Any) -> dict[str, Any]:
    """What ``powergrid serve`` passes to uvicorn for slow clients, sizes and client addresses."""
    return {
        "http": "powergrid.server.api.connections:GuardedHttp",
        # clients.py reads the trusted proxy's header itself (uvicorn's would trust 127.0.0.1 by default)
        "proxy_headers": False,
        # the app refuses messages over max_body_bytes with an error first; frames far beyond are cut here
        "ws_max_size": 4 * settings.max_body_bytes,
        "ws_ping_interval": 20.0, "ws_ping_timeout": 20.0,
        "timeout_keep_alive": 5,
        # h11 (where httptools is missing) buffers at most this much of an unfinished request head
        "h11_max_incomplete_event_size": settings.limits.max_header_bytes or None,
    }


#: the answer to a request whose headers are over the limits (the connection is closed after it)
TOO_LARGE = (b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: application/json\r\n"
             b"connection: close\r\ncontent-length: %d\r\n\r\n%s")


def too_large_answer(why: str) -> bytes:
    body = json.dumps({"error": {"code": "headers_too_large", "message": why}}).encode()
    return TOO_LARGE % (len(body), body)


class TooManyHeaders(Exception):
    """Raised inside the parser's callback: httptools stops parsing the request."""


_MISSING = object()


def _waiting_for_client(protocol: Any) -> bool:
    """Whether uvicorn's HTTP protocol is waiting for (the rest of) a request from the client."""
    cycle: Any = getattr(protocol, "cycle", _MISSING)
    if cycle is _MISSING:
        return False  # upgraded to a WebSocket (or not an HTTP protocol)
    return cycle is None or bool(cycle.response_complete) or bool(getattr(cycle, "more_body", False))


class _Relay:
    """The transport as the wrapped protocol sees it: writes and protocol switches are noticed."""

    def __init__(self, transport: Any, owner: GuardedHttp) -> None:
        self._transport = transport
        self._owner = owner

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self._transport.write(data)
        self._owner.check_soon()

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self._owner.inner = protocol  # the WebSocket upgrade: the real transport keeps calling us
        self._owner.check_soon()

    def get_protocol(self) -> Any:
        return self._owner.inner


_http_class: Any = None


def _http_protocol() -> Any:
    """uvicorn's httptools protocol, told when its parser is between requests; h11's if httptools is
    missing (its connections are never handed over)."""
    global _http_class
    if _http_class is None:
        from uvicorn.protocols.http.auto import AutoHTTPProtocol

        _http_class = AutoHTTPProtocol
        with contextlib.suppress(ImportError):
            from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

            if AutoHTTPProtocol is HttpToolsProtocol:
                class Tracked(HttpToolsProtocol):
                    #: whether the parser has begun a request it has not finished
                    mid_request = False
                    #: whether the parser is before the end of a request's headers
                    in_head = True
                    headers_seen = 0
                    max_headers = 0
                    completed = 0  # requests parsed to their end

                    def on_message_begin(self) -> None:
                        self.mid_request = True
                        self.headers_seen = 0
                        super().on_message_begin()

                    def on_header(self, name: bytes, value: bytes) -> None:
                        self.headers_seen += 1
                        if self.max_headers and self.headers_seen > self.max_headers:
                            self.transport.write(too_large_answer(
                                f"a request may have at most {self.max_headers} headers"))
                            raise TooManyHeaders  # httptools stops; uvicorn closes the connection
                        super().on_header(name, value)

                    def on_headers_complete(self) -> None:
                        self.in_head = False
                        super().on_headers_complete()

                    def on_message_complete(self) -> None:
                        self.mid_request = False
                        self.in_head = True
                        self.completed += 1
                        super().on_message_complete()

                _http_class = Tracked
    return _http_class


class GuardedHttp(asyncio.Protocol):
    """uvicorn's HTTP protocol (httptools or h11) under the connection cap and request deadline.
    ``handed``: the bytes another web process read from this connection before handing it here."""

    def __init__(self, config: Any, server_state: Any, app_state: Any,
                 _loop: asyncio.AbstractEventLoop | None = None, handed: bytes | None = None) -> None:
        protocol_class: Any = _http_protocol()
        self.loop = _loop or asyncio.get_event_loop()
        self.guard = connection_guard()
        self.inner: Any = protocol_class(config=config, server_state=server_state, app_state=app_state,
                                           _loop=_loop)
        if hasattr(self.inner, "in_head"):
            self.inner.max_headers = self.guard.max_headers
        self.head_bytes = 0  # bytes fed to the parser since the request now unfinished began
        self.owners = game_owners(config, server_state, app_state, self.loop)
        self.handed = handed
        self.transport: Any = None
        self.client: str | None = None
        self.waiting_since: float | None = None
        self.deadline: asyncio.TimerHandle | None = None
        self.check_pending = False
        self.refused = False
        self.moved = False  # handed to the owner of the game its request names
        self.cut = False  # answered 431: nothing more is read

    # ------------------------------------------------------------------ asyncio.Protocol
    def connection_made(self, transport: Any) -> None:  # uvloop's transports are not asyncio's classes
        self.transport = transport
        peer = transport.get_extra_info("peername")
        host = peer[0] if isinstance(peer, tuple | list) and peer else None
        admitted, self.client = self.guard.enter(host)
        if not admitted:
            self.refused = True
            transport.abort()  # frees the descriptor now; the client sees a reset
            return
        self.inner.connection_made(_Relay(transport, self))
        if self.handed is not None:  # what the process that handed it here had read, before anything new
            handed, self.handed = self.handed, None
            self.inner.data_received(handed)
        self.check()

    def data_received(self, data: bytes) -> None:
        if self.refused or self.moved or self.cut:
            return
        if self.owners is not None and self._between_requests() and self._hand_over(data):
            return
        if self._head_too_large(data):
            return
        completed = getattr(self.inner, "completed", 0)
        self.inner.data_received(data)
        if getattr(self.inner, "in_head", False) and self.inner.completed == completed:
            self.head_bytes += len(data)
        else:  # the head ended (or a request did) in this chunk
            self.head_bytes = 0
        self.check()

    def _head_too_large(self, data: bytes) -> bool:
        """Refuse a request whose head would pass the limit with ``data`` and still not end (the
        parser would buffer it all). A chunk that ends the head is fed: the body after it is no head."""
        limit = self.guard.max_header_bytes
        if not limit or not getattr(self.inner, "in_head", False) or self.head_bytes + len(data) <= limit:
            return False
        if b"\r\n\r\n" in data and self.head_bytes + data.index(b"\r\n\r\n") <= limit:
            return False
        self.cut = True
        self.transport.write(too_large_answer(f"a request's line and headers may have at most {limit} bytes"))
        self.transport.close()
        return True

    # ------------------------------------------------------------------ the game's owner
    def _between_requests(self) -> bool:
        """Whether the connection is idle: the last answer is sent and no request has begun."""
        inner = self.inner
        if getattr(inner, "mid_request", True) or inner.pipeline:
            return False  # not httptools (or upgraded to a WebSocket), or a request is under way
        cycle = inner.cycle
        return (cycle is None or cycle.response_complete) and not self.transport.is_closing() \
            and not self.transport.get_write_buffer_size()

    def _hand_over(self, data: bytes) -> bool:
        """Send the connection to the owner of the game its request names; True: it went."""
        game_id = requested_game(data)
        if game_id is None:
            return False
        sock = self.transport.get_extra_info("socket")
        if sock is None or self.owners is None or not self.owners.hand_over(sock.fileno(), data, game_id):
            return False
        self.moved = True  # the rest is the owner's: nothing more is read or answered here
        self.transport.abort()  # closes this process's descriptor only: the owner's keeps it open
        return True

    def eof_received(self) -> bool | None:
        if self.refused or self.moved:
            return None
        return self.inner.eof_received()  # type: ignore[no-any-return]

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel()
        if self.client is not None:
            self.guard.leave(self.client)
            self.client = None
        if not self.refused:
            self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()

    # ------------------------------------------------------------------ the deadline
    def check_soon(self) -> None:
        """After a write: the response may complete in the same step, so look once it has."""
        if not self.check_pending:
            self.check_pending = True
            self.loop.call_soon(self.check)

    def check(self) -> None:
        self.check_pending = False
        if self.transport is None or self.transport.is_closing() or self.guard.timeout <= 0:
            return
        if not _waiting_for_client(self.inner):
            self._cancel()
        elif self.waiting_since is None:
            self.waiting_since = time.monotonic()
            self.deadline = self.loop.call_later(self.guard.timeout, self._expire)

    def _cancel(self) -> None:
        self.waiting_since = None
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def _expire(self) -> None:
        self.deadline = None
        if self.transport is not None and not self.transport.is_closing() and _waiting_for_client(self.inner):
            self.transport.close()
        self.waiting_since = None
