"""Seats and their tokens: who may act for a seat, claiming an open seat, what is public of a seat."""

from __future__ import annotations

import asyncio
from typing import Any

from ..common.errors import ApiError
from ..common.tokens import new_token, token_hash, token_matches
from ..fanout.pubsub import SEATS_CHANGED, Hub
from ..storage.store import SeatRow, Store
from .cache import LiveGame


def check_seat(live: LiveGame, seat: int) -> SeatRow:
    if not 0 <= seat < len(live.row.seats):
        raise ApiError("unknown_seat", f"game {live.game_id} has seats 0 to {len(live.row.seats) - 1}, "
                                       f"not {seat}")
    return live.seat(seat)


async def authenticate(store: Store, live: LiveGame, seat: int, token: str | None) -> None:
    """Refuse unless ``token`` is the seat's; the seat counts as claimed from its first use."""
    row = check_seat(live, seat)
    if not token:
        raise ApiError("missing_token", f"acting for seat {seat} needs its token "
                                        "(Authorization: Bearer <token>)")
    if not token_matches(token, row.token_hash):
        raise ApiError("wrong_token", f"that token is not seat {seat}'s")
    if not row.claimed:
        row.claimed = True
        await asyncio.to_thread(store.mark_claimed, live.game_id, seat)


def any_seat_token(live: LiveGame, token: str | None) -> None:
    if not token:
        raise ApiError("missing_token", "the record of a game in play needs a seat's token")
    if not any(token_matches(token, s.token_hash) for s in live.row.seats):
        raise ApiError("wrong_token", "that token is no seat's of this game")


async def claim(store: Store, hub: Hub, live: LiveGame, seat: int, name: str | None = None) -> dict[str, Any]:
    """The token of an open seat of a public game, for whoever takes it first (it had none before);
    ``name``: the taker's display name (checked by names.clean_name)."""
    row = check_seat(live, seat)
    if row.kind != "human":
        raise ApiError("seat_taken", f"seat {seat} is played by the bot {row.bot}")
    if not row.open:
        raise ApiError("seat_not_open", f"seat {seat} is joined only through its seat link")
    if live.state.is_over:
        raise ApiError("game_over", "the game is over")
    token = new_token()
    hashed = token_hash(token)
    if row.claimed or not await asyncio.to_thread(store.claim_seat, live.game_id, seat, hashed, name):
        row.claimed = True
        raise ApiError("seat_taken", f"seat {seat} has been taken")
    row.claimed = True
    row.token_hash = hashed
    row.name = name
    await hub.publish(live.game_id, SEATS_CHANGED)  # other processes learn the seat's token
    return {"seat": seat, "token": token, "link": seat_link(live.game_id, seat, token)}


def seat_link(game_id: str, seat: int, token: str) -> str:
    # the token rides in the fragment, which browsers never send to a server (or a proxy's log)
    return f"/game/{game_id}#seat={seat}&token={token}"


def public_seat(row: SeatRow) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": row.seat, "kind": row.kind, "claimed": row.claimed}
    if row.kind == "bot":
        out["bot"] = row.bot
    else:
        out["open"] = row.open
        out["name"] = row.name
    return out
