"""The lobby's list of games (newest first, with open seats)."""

from __future__ import annotations

from typing import Any

from .seats import public_seat
from .store import GameRow


def lobby_entry(row: GameRow) -> dict[str, Any]:
    open_seats = [s.seat for s in row.seats if s.kind == "human" and not s.claimed]
    status = "over" if row.status == "over" else ("waiting" if open_seats else "playing")
    return {"game_id": row.game_id, "map": row.config["map"], "players": row.config["players"],
            "variant": row.config["variant"], "status": status, "round": row.round,
            "version": row.version, "open_seats": open_seats,
            "seats": [public_seat(s) for s in row.seats],
            "created_at": row.created_at.isoformat()}
