"""The standing orders' table (one order per seat at a time) and the job that applies one.

Every function is blocking (SQLAlchemy Core); the service calls them from worker threads.

When is an order applied? At its seat's turn, by a bot worker (``standing_order`` job, see
bots/order_turns.py). Whoever appends an action that makes a seat with an order the one to act
enqueues that job (``jobs_for``, after its commit), and so does placing an order (after its own
commit, once it has read the game's newest version). Each side writes, then reads what the other
writes, so at least one of them sees both; the job's key (game, version, order) makes a second
enqueue of the same job a no-op, and the append at a fixed version lets one move in.
"""

from __future__ import annotations

import json
import time
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    Engine,
    Float,
    ForeignKey,
    Integer,
    String,
    Table,
    Text,
    UniqueConstraint,
    bindparam,
    delete,
    insert,
    select,
    update,
)

from ..storage import db
from ..storage.jobs import QUICK, JobSpec
from .orders import PENDING, REFUSED, Order, from_row, to_row

orders = Table(
    "orders", db.metadata,
    Column("id", BigInteger().with_variant(Integer(), "sqlite"), primary_key=True, autoincrement=True),
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("kind", String(16), nullable=False),
    Column("detail", Text, nullable=False),
    Column("scope", Text, nullable=False),
    #: pending, or refused (kept until the seat reads or replaces it: it says why)
    Column("status", String(12), nullable=False),
    Column("refusal", Text, nullable=True),
    Column("version", Integer, nullable=False),
    Column("created_at", Float, nullable=False),
    UniqueConstraint("game_id", "seat", name="uq_orders_game_seat"),
)

STANDING_ORDER = "standing_order"

#: the pending orders of some games (looked up after appends: built once, not per call)
_PENDING_OF_GAMES = select(orders).where(orders.c.status == PENDING,
                                         orders.c.game_id.in_(bindparam("b_games", expanding=True)))


def order_job(game_id: str, version: int, order: Order) -> JobSpec:
    """The job that applies ``order`` at ``version`` (its seat to act there). Its key names the order
    by id and time placed: SQLite may give a new order the id of a deleted one."""
    assert order.id is not None
    placed = int(order.created_at * 1_000_000)
    return JobSpec(kind=STANDING_ORDER, lane=QUICK, key=f"{game_id}:{version}:{order.id}:{placed}",
                   payload={"seat": order.seat, "order": order.id}, game_id=game_id, version=version,
                   not_before=0.0)


def place(engine: Engine, game_id: str, order: Order) -> Order:
    """Store the seat's order, replacing the one it had; the order with its id."""
    row = {**to_row(order), "game_id": game_id, "created_at": time.time()}
    o = orders
    with engine.begin() as conn:
        conn.execute(delete(o).where(o.c.game_id == game_id, o.c.seat == order.seat))
        conn.execute(insert(o).values(**row))
        stored = conn.execute(select(o).where(o.c.game_id == game_id, o.c.seat == order.seat)).first()
    assert stored is not None
    return from_row(stored)


def of_seat(engine: Engine, game_id: str, seat: int) -> Order | None:
    with db.autocommit(engine) as conn:
        row = conn.execute(select(orders).where(orders.c.game_id == game_id, orders.c.seat == seat)).first()
    return None if row is None else from_row(row)


def by_id(engine: Engine, order_id: int) -> Order | None:
    with db.autocommit(engine) as conn:
        row = conn.execute(select(orders).where(orders.c.id == order_id)).first()
    return None if row is None else from_row(row)


def remove(engine: Engine, game_id: str, seat: int, order_id: int | None = None) -> bool:
    """Delete the seat's order (only that one if ``order_id`` is given); whether one was deleted."""
    o = orders
    query = delete(o).where(o.c.game_id == game_id, o.c.seat == seat)
    if order_id is not None:
        query = query.where(o.c.id == order_id)
    with engine.begin() as conn:
        return bool(conn.execute(query).rowcount)


def refuse(engine: Engine, order_id: int, refusal: dict[str, str]) -> None:
    """The order could not be applied: kept as refused, with why, for its seat to read."""
    with engine.begin() as conn:
        conn.execute(update(orders).where(orders.c.id == order_id, orders.c.status == PENDING)
                     .values(status=REFUSED, refusal=json.dumps(refusal)))


def pending_of(engine: Engine, to_act: list[tuple[str, int]]) -> dict[tuple[str, int], Order]:
    """The pending orders of these (game, seat) pairs, in one query."""
    if not to_act:
        return {}
    wanted = set(to_act)
    # by game only (one statement, built and compiled once, whatever the number of pairs); the
    # seats are picked here
    games = sorted({game_id for game_id, _ in wanted})
    with db.autocommit(engine) as conn:
        rows = [r for r in conn.execute(_PENDING_OF_GAMES, {"b_games": games})
                if (r.game_id, r.seat) in wanted]
    return {(r.game_id, r.seat): from_row(r) for r in rows}


def jobs_for(engine: Engine, to_act: list[tuple[str, int, int]]) -> list[JobSpec]:
    """After appends: for each (game, version, seat to act), the job applying that seat's pending
    order, if it has one."""
    found = pending_of(engine, [(game_id, seat) for game_id, _, seat in to_act])
    out = []
    for game_id, version, seat in to_act:
        order = found.get((game_id, seat))
        if order is not None:
            out.append(order_job(game_id, version, order))
    return out


def rows_of_game(engine: Engine, game_id: str) -> list[Any]:
    with db.autocommit(engine) as conn:
        return list(conn.execute(select(orders).where(orders.c.game_id == game_id).order_by(orders.c.seat)))


def queue_jobs(store: Any, to_act: list[tuple[str, int, int]]) -> int:
    """``jobs_for`` these positions, enqueued (the bot workers are rung); how many."""
    specs = jobs_for(store.engine, to_act)
    for spec in specs:
        store.enqueue(spec)
    return len(specs)
