"""Play again: a finished game's seats start a new game with the same seats, bots and settings.

The new game has the old one's config (map, players, regions as chosen, variant) with a new seed
drawn by the server, the same bots in the same seats, and the same visibility, bot pace, undo,
clock and stand-in settings (the hints' and the chat's switches are copied by the route:
api/order_routes.py). Each person keeps their seat and their token: their own link to the new game
is the old one's link with the new game's id, so a player who did not press the button finds it
from the old game's page (``GET .../again``) without any token being stored or sent to anyone else.

Two seats pressing at the same moment get one game: the ``rematches`` row (one per finished game)
is written after the game is made, and the one that loses the race deletes its own new game.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from sqlalchemy import Column, Engine, Float, ForeignKey, String, Table, delete, insert, select
from sqlalchemy.exc import IntegrityError

from ..common.errors import ApiError
from ..storage import db
from . import clocks
from .seats import seat_link

rematches = Table(
    "rematches", db.metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("new_game_id", String(32), nullable=False),
    Column("created_at", Float, nullable=False),
)


def rematch_of(engine: Engine, game_id: str) -> str | None:
    with engine.connect() as conn:
        return conn.execute(select(rematches.c.new_game_id).where(rematches.c.game_id == game_id)).scalar()


def record_rematch(engine: Engine, game_id: str, new_game_id: str) -> str:
    """Note the new game of ``game_id``; the one noted first if another was (then ``new_game_id`` is
    deleted: nobody was told of it)."""
    try:
        with engine.begin() as conn:
            conn.execute(insert(rematches).values(game_id=game_id, new_game_id=new_game_id,
                                                  created_at=time.time()))
        return new_game_id
    except IntegrityError:
        with engine.begin() as conn:
            conn.execute(delete(db.games).where(db.games.c.id == new_game_id))
        found = rematch_of(engine, game_id)
        assert found is not None
        return found


async def play_again(service: Any, game_id: str, seat: int, token: str | None) -> dict[str, Any]:
    """Make (or find) the finished game's next game, for one of its seats; that seat's new link."""
    live = await service.fresh(game_id)
    await service.authenticate(live, seat, token)
    assert token is not None
    if not live.state.is_over:
        raise ApiError("game_not_over", "play again once the game is over")
    engine = service.store.engine
    found = await asyncio.to_thread(rematch_of, engine, game_id)
    created = False
    if found is None:
        row = live.row
        config = row.config
        clock = row.clock or {}
        created_game = await service.create_game(
            config["map"], config["players"], config.get("regions"), config["variant"], None,
            [(s.kind, s.bot) for s in row.seats], public=row.public,
            open_seats=frozenset(s.seat for s in row.seats if s.kind == "human" and not s.token_hash),
            creator=row.creator, bot_pace_ms=row.bot_pace_ms, allow_undo=row.allow_undo,
            undo_window_ms=row.undo_window_ms,
            map_data=config.get("map_data"),
            time_control=clocks.TimeControl.from_dict(clock.get("time_control")),
            stand_in=clock.get("stand_in"),
            token_hashes={s.seat: s.token_hash for s in row.seats if s.kind == "human" and s.token_hash})
        found = await asyncio.to_thread(record_rematch, engine, game_id, created_game["game_id"])
        created = found == created_game["game_id"]
        if not created:
            service.cache.forget(created_game["game_id"])
    return {"game_id": game_id, "new_game_id": found, "created": created, "seat": seat,
            "link": seat_link(found, seat, token)}


async def next_game(service: Any, game_id: str) -> dict[str, Any]:
    """The game that follows this one, if a seat asked to play again (anyone may know its id: without
    a seat's token it is only watched)."""
    await service.live(game_id)  # unknown_game if none
    found = await asyncio.to_thread(rematch_of, service.store.engine, game_id)
    if found is None:
        raise ApiError("no_rematch", "nobody has asked to play this game again yet")
    return {"game_id": game_id, "new_game_id": found}
