"""The lobby's list of games (newest first): public or private, seeded or not, and open seats."""

from __future__ import annotations

from typing import Any

from ..storage.store import GameRow
from .seats import public_seat


def lobby_entry(row: GameRow) -> dict[str, Any]:
    open_seats = [s.seat for s in row.seats if s.open and not s.claimed]  # only public games have open seats
    waiting = any(s.kind == "human" and not s.claimed for s in row.seats)
    status = row.status if row.status in ("over", "abandoned") else ("waiting" if waiting else "playing")
    return {"game_id": row.game_id, "map": row.config["map"], "players": row.config["players"],
            "variant": row.config["variant"], "public": row.public, "seeded": row.seeded,
            "status": status, "round": row.round,
            "version": row.version, "open_seats": open_seats,
            "seats": [public_seat(s) for s in row.seats],
            "time_control": (row.clock or {}).get("time_control") or {"kind": "none"},
            "created_at": row.created_at.isoformat()}
