"""The terminal's line to a game server: a seat link read, the HTTP API called with the seat's
token, the game's WebSocket listened to in a thread, and a server's view made into a state the
terminal's menus and board can read.

The server's API: docs/server-api.md. Every message of the socket and every line typed arrive on
one queue (``Remote.events``), so the session reads them in order in one thread.
"""

from __future__ import annotations

import json
import queue
import threading
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlsplit

from ..rules import STEP3, GameState, catalog
from ..rules.catalog import UNKNOWN
from ..rules.serialize import FORMAT, VERSION


class BadLink(ValueError):
    """The text is not a seat link (the message says what one looks like)."""


@dataclass(frozen=True)
class SeatLink:
    """Where a seat plays: the server's address, the game, the seat and its token."""

    server: str
    game_id: str
    seat: int
    token: str


def parse_seat_link(link: str, server: str | None = None) -> SeatLink:
    """A seat link as the server makes it (``http://host:8000/game/<id>#seat=1&token=...``; the
    seat and token may also be in the query, as older links have them). ``server`` gives the
    address of a link without one (``/game/<id>#seat=...``)."""
    parts = urlsplit(link.strip())
    fragment = parse_qs(parts.fragment)
    query = parse_qs(parts.query)
    seat = next(iter(fragment.get("seat") or query.get("seat") or []), None)
    token = next(iter(fragment.get("token") or query.get("token") or []), None)
    path = parts.path.rstrip("/").split("/")
    if len(path) < 2 or path[-2] != "game" or not path[-1] or seat is None or not token:
        raise BadLink("a seat link looks like http://host:8000/game/<id>#seat=1&token=…")
    if not seat.isdigit():
        raise BadLink(f"the link's seat {seat!r} is not a number")
    if parts.scheme and parts.netloc:
        base = f"{parts.scheme}://{parts.netloc}"
    elif server:
        base = server.rstrip("/")
    else:
        raise BadLink("the link has no server address: give the whole link (http://host:port/game/…) "
                      "or --server")
    if not base.startswith(("http://", "https://")):
        raise BadLink(f"the server address {base!r} is not http:// or https://")
    return SeatLink(base, path[-1], int(seat), token)


class Refused(Exception):
    """The server refused (``code`` as in docs/server-api.md, Errors) or could not be reached
    (``code`` is ``unreachable``)."""

    def __init__(self, code: str, message: str, retry_after: float | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.retry_after = retry_after


def state_from_view(view: dict[str, Any]) -> GameState:
    """The engine state a seat's view shows (format ``powergrid.view``), its hidden cards filled in
    with the plants nobody has seen, in number order: good for reading the board and the legal
    choices (which never depend on the deck's order), never for playing on past a draw."""
    visible = {p for p in view["plant_market"] if p != UNKNOWN}
    visible.update(p for p in view["boxed"] if p != UNKNOWN)
    visible.update(p for p in view["deck"] if p != UNKNOWN)
    for player in view["players"]:
        visible.update(player["plants"])
    unseen = iter(sorted(p for p in catalog().plants if p not in visible and p != STEP3))
    deck = [p if p != UNKNOWN else next(unseen) for p in view["deck"]]
    removed = [next(unseen) for _ in view["removed"]]
    data = {key: view[key] for key in (
        "config", "regions", "seating", "round", "step", "phase", "order", "players", "resource_market",
        "supply", "plant_market", "known_top", "known_bottom", "boxed", "step3_pending", "step3_next", "turn",
        "auction", "winners", "decisions")}
    data.update(format=FORMAT, version=VERSION, rng=0, deck=deck, removed=removed, log=[])
    return GameState.from_dict(data)


# ---------------------------------------------------------------------- the connection
class Remote:
    """One seat of one game on a server: HTTP calls, and the socket's messages on ``events``.

    ``events`` receives ``("socket", message)`` for each socket message, ``("socket-lost", why)``
    when the socket closed (it is opened again, with waits that grow up to 10 s),
    ``("socket-refused", code)`` when the server closed it for good (a wrong token, an unknown
    game), and whatever else the session puts there (the lines typed)."""

    def __init__(self, link: SeatLink, lang: str, timeout: float = 20.0) -> None:
        try:
            import httpx
        except ImportError as exc:  # pragma: no cover - the online extra is missing
            raise RuntimeError("playing online needs httpx and websockets: "
                               "pip install 'powergrid[online]'") from exc
        self.link = link
        self.lang = lang
        self.events: queue.Queue[tuple[Any, ...]] = queue.Queue()
        self.http = httpx.Client(base_url=link.server, timeout=timeout,
                                 headers={"Authorization": f"Bearer {link.token}", "Accept-Language": lang})
        self._stop = threading.Event()
        self._socket: Any = None
        self._thread: threading.Thread | None = None
        #: the server's clock minus this machine's (seconds), from GET /api/clock
        self.offset = 0.0

    @property
    def game_path(self) -> str:
        return f"/api/games/{self.link.game_id}"

    # -------------------------------------------------------------- HTTP
    def call(self, method: str, path: str, body: dict[str, Any] | None = None,
             params: dict[str, Any] | None = None) -> Any:
        """The answer's JSON; raises Refused with the server's code."""
        import httpx
        try:
            r = self.http.request(method, path, json=body, params=params)
        except httpx.HTTPError as exc:
            raise Refused("unreachable", str(exc) or type(exc).__name__) from None
        try:
            data = r.json()
        except ValueError:
            data = None
        if r.status_code >= 400:
            error = data.get("error") if isinstance(data, dict) else None
            if isinstance(error, dict) and isinstance(error.get("code"), str):
                raise Refused(error["code"], str(error.get("message", "")), error.get("retry_after"))
            raise Refused("unreachable", f"HTTP {r.status_code}")
        return data

    def view(self) -> dict[str, Any]:
        return self.call("GET", f"{self.game_path}/view", params={"seat": self.link.seat})  # type: ignore[no-any-return]

    def game(self) -> dict[str, Any]:
        return self.call("GET", self.game_path)  # type: ignore[no-any-return]

    def act(self, action: str, version: int) -> dict[str, Any]:
        return self.call("POST", f"{self.game_path}/actions",  # type: ignore[no-any-return]
                         {"seat": self.link.seat, "action": action, "version": version})

    def seat_call(self, route: str, body: dict[str, Any] | None = None) -> Any:
        """POST to a route of the seat (``undo``, ``leave``, ``return``, ``hints``, ``orders``, ``chat``)."""
        return self.call("POST", f"{self.game_path}/{route}", {"seat": self.link.seat, **(body or {})})

    def sync_clock(self) -> None:
        """Learn the server's time (this machine's clock may be off): the middle of a round trip."""
        sent = time.time()
        now = self.call("GET", "/api/clock").get("now")
        back = time.time()
        if isinstance(now, (int, float)):
            self.offset = now - (sent + back) / 2

    def server_now(self) -> float:
        return time.time() + self.offset

    # -------------------------------------------------------------- the socket
    def listen(self) -> None:
        """Start the socket's thread."""
        self._thread = threading.Thread(target=self._listen, name="powergrid-socket", daemon=True)
        self._thread.start()

    def _socket_url(self) -> str:
        scheme = "wss" if self.link.server.startswith("https://") else "ws"
        host = self.link.server.split("://", 1)[1]
        return f"{scheme}://{host}{self.game_path}/ws?seat={self.link.seat}"

    def _listen(self) -> None:
        from websockets.exceptions import ConnectionClosed, InvalidStatus
        from websockets.sync.client import connect

        wait = 0.5
        while not self._stop.is_set():
            try:
                with connect(self._socket_url(), open_timeout=15, close_timeout=2,
                             additional_headers={"Authorization": f"Bearer {self.link.token}"}) as ws:
                    self._socket = ws
                    wait = 0.5
                    for text in ws:
                        message = json.loads(text)
                        if isinstance(message, dict):
                            self.events.put(("socket", message))
                    code = ws.close_code
            except ConnectionClosed as exc:
                code = exc.rcvd.code if exc.rcvd is not None else None
            except (OSError, InvalidStatus, TimeoutError) as exc:
                code = None
                if not self._stop.is_set():
                    self.events.put(("socket-lost", str(exc) or type(exc).__name__))
            finally:
                self._socket = None
            if self._stop.is_set():
                return
            if code is not None and 4400 <= code < 4500 and code != 4429:
                self.events.put(("socket-refused", code))
                return
            if code is not None:
                self.events.put(("socket-lost", str(code)))
            self._stop.wait(wait)
            wait = min(10.0, wait * 2)

    def close(self) -> None:
        self._stop.set()
        ws = self._socket
        if ws is not None:
            try:
                ws.close()
            except Exception:  # noqa: BLE001 - closing a socket that is going anyway
                pass
        if self._thread is not None:
            self._thread.join(5)
        self.http.close()
