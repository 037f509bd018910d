"""The My games page: for the seat tokens a browser holds, where each of those games stands.

The tokens are checked against the seats' stored hashes first (one read for all the games), so a
list of made-up tokens costs the server one query and loads no game. A game that is gone (expired)
or whose token is not the seat's any more is answered as refused, by name; the others as a
summary: map, players (colours, names, bots), round, step, phase, whose turn, over or not.
"""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy import Engine, select

from ..common.errors import ApiError
from ..common.tokens import token_matches, well_formed_game_id
from ..storage import db
from ..storage.store import GameRow
from .seats import public_seat

#: seats one request may ask about (``too_many_tokens`` beyond)
MAX_TOKENS = 50


def _hashes(engine: Engine, game_ids: list[str]) -> tuple[dict[str, Any], dict[tuple[str, int], Any]]:
    """For the games that exist: when each last changed, and each seat's token hash."""
    g, s = db.games.c, db.seats.c
    if not game_ids:
        return {}, {}
    with db.autocommit(engine) as conn:
        changed = {r.id: r.updated_at
                   for r in conn.execute(select(g.id, g.updated_at).where(g.id.in_(game_ids)))}
        hashes = {(r.game_id, r.seat): r.token_hash for r in conn.execute(
            select(s.game_id, s.seat, s.token_hash).where(s.game_id.in_(game_ids)))}
    return changed, hashes


async def summaries(service: Any, held: list[tuple[str, int, str]]) -> dict[str, Any]:
    """``{"games": [...], "refused": [...]}`` for (game id, seat, token) triples: the games waiting
    for one of the given seats first, then the others in play (newest move first), then the
    finished ones."""
    if len(held) > MAX_TOKENS:
        raise ApiError("too_many_tokens", f"at most {MAX_TOKENS} seats at once, not {len(held)}")
    refused: list[dict[str, Any]] = []
    asked = [g for g in dict.fromkeys(game_id for game_id, _, _ in held) if well_formed_game_id(g)]
    changed, hashes = await asyncio.to_thread(_hashes, service.store.engine, asked)
    mine: dict[str, list[int]] = {}
    for game_id, seat, token in held:
        if game_id not in changed:
            refused.append(_refusal(game_id, seat, "unknown_game",
                                    f"no game {game_id[:40]!r} (it may have expired)"))
        elif not token_matches(token, hashes.get((game_id, seat))):
            refused.append(_refusal(game_id, seat, "wrong_token", f"that token is not seat {seat}'s"))
        elif seat not in mine.setdefault(game_id, []):
            mine[game_id].append(seat)
    games = []
    for game_id, seats in mine.items():
        try:
            live = await service.fresh(game_id)
        except ApiError as exc:  # deleted since the read
            refused.extend(_refusal(game_id, seat, exc.code, exc.message) for seat in seats)
            continue
        games.append(summary(live.row, live.state, sorted(seats), changed[game_id]))
    games.sort(key=lambda g: (0 if g["your_turn"] else 2 if g["over"] else 1, -(g["updated_at"] or 0)))
    return {"games": games, "refused": refused}


def summary(row: GameRow, state: Any, seats: list[int], updated_at: float | None) -> dict[str, Any]:
    over = state.is_over
    to_act = None if over else state.current_player
    return {
        "game_id": row.game_id, "map": row.config["map"], "variant": row.config["variant"],
        "players": [public_seat(s) for s in row.seats], "seats": seats,
        "round": state.round, "step": state.step, "phase": state.phase_name, "to_act": to_act,
        "your_turn": to_act is not None and to_act in seats, "over": over,
        "winners": list(state.winners) if over else [], "version": row.version,
        "updated_at": updated_at, "created_at": row.created_at.isoformat(),
    }


def _refusal(game_id: str, seat: int, code: str, message: str) -> dict[str, Any]:
    return {"game_id": game_id, "seat": seat, "error": {"code": code, "message": message}}
