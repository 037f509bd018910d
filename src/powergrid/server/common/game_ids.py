"""Every route that names a game answers 404 unknown_game for an id that cannot be one, before any
handler or database sees it (PostgreSQL refuses a NUL byte in text and would answer 500)."""

from __future__ import annotations

from typing import Any

from .limits import send_error
from .tokens import well_formed_game_id

#: path prefixes whose next segment is a game id
PREFIXES = (("api", "games"), ("game",), ("replay",))


def game_id_in(path: str) -> str | None:
    parts = path.strip("/").split("/")
    for prefix in PREFIXES:
        n = len(prefix)
        if len(parts) > n and tuple(parts[:n]) == prefix:
            return parts[n]
    return None


class GameIdCheck:
    """Pure ASGI middleware (HTTP; the WebSocket route checks its id itself, to close with 4404)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            game_id = game_id_in(scope.get("path", ""))
            if game_id is not None and not well_formed_game_id(game_id):
                await send_error(send, 404, "unknown_game", f"no game {game_id[:40]!r}")
                return
        await self.app(scope, receive, send)
