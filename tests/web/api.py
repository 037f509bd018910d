"""The browser tests' side door: the API over HTTP, and a game driven through it except for the
seats the test's pages play."""

from __future__ import annotations

import json
import urllib.request
from typing import Any


def call(url: str, path: str, body: Any = None, token: str | None = None) -> Any:
    """GET ``path`` (POST with a JSON ``body``), as ``token``'s seat; the JSON answer."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url + path, data=data, headers=headers, method="POST" if data else "GET")
    with urllib.request.urlopen(request, timeout=10) as reply:
        return json.load(reply)


class ApiTable:
    """A game on Germany (default: three people), hints off, bots without a pause."""

    def __init__(self, url: str, seats: list[dict[str, Any]] | None = None, seed: int = 11) -> None:
        self.url = url
        seats = seats if seats is not None else [{"kind": "human"}] * 3
        game = call(url, "/api/games", {"map": "germany", "players": len(seats), "seed": seed, "seats": seats,
                                        "hints": False, "bot_pace_ms": 0})
        self.gid = game["game_id"]
        self.tokens = {s["seat"]: s["token"] for s in game["seats"] if s.get("token")}

    def public(self) -> Any:
        return call(self.url, f"/api/games/{self.gid}")

    def act(self, action: str, seat: int | None = None) -> Any:
        now = self.public()
        seat = now["to_act"] if seat is None else seat
        return call(self.url, f"/api/games/{self.gid}/actions",
                    {"seat": seat, "action": action, "version": now["version"]}, self.tokens[seat])

    def legal(self, seat: int) -> list[str]:
        view = call(self.url, f"/api/games/{self.gid}/view?seat={seat}", token=self.tokens[seat])
        return view["legal"]  # type: ignore[no-any-return]

    def calm_step(self) -> None:
        """The seat to act passes (or is done), else plays its first legal action."""
        seat = self.public()["to_act"]
        legal = self.legal(seat)
        calm = [a for a in legal if a in ("pass", "done")]
        self.act(calm[0] if calm else legal[0])

    def open_page(self, new_page, seat: int, width: int = 1366, height: int = 768):  # type: ignore[no-untyped-def]
        page = new_page(width, height)
        page.goto(f"{self.url}/game/{self.gid}#seat={seat}&token={self.tokens[seat]}")
        page.wait_for_selector(".connection.live")
        return page
