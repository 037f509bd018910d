"""Standing orders for the routes: place, show and cancel a seat's order, and the hook after an append.

A seat sees only its own order (a bid limit is a secret). An order whose auction, phase or round
is over is gone: it is dropped when next read, and never applied (``orders.in_scope``).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from ..common.errors import ApiError
from . import order_store
from .cache import LiveGame
from .frames import Frame
from .orders import PENDING, early_choices, in_scope, make_order

log = logging.getLogger("powergrid.server")


async def place(service: Any, game_id: str, seat: int, token: str | None,
                body: dict[str, Any]) -> dict[str, Any]:
    """Judge and store the seat's order (it replaces the seat's earlier one); applied at once if it
    is the seat's turn. The answer: what ``show`` says."""
    live = await service.live(game_id)
    await service.authenticate(live, seat, token)
    async with live.lock:
        await service.cache.catch_up(live)
        order = make_order(live.state, seat, body, live.version)
    engine = service.store.engine
    stored = await asyncio.to_thread(order_store.place, engine, game_id, order)
    # written, now read: an append that made it the seat's turn meanwhile did not see this order
    live = await service.fresh(game_id)
    if live.state.current_player == seat and in_scope(stored, live.state):
        await asyncio.to_thread(service.store.enqueue, order_store.order_job(game_id, live.version, stored))
    return await show(service, game_id, seat, token, authenticated=True)


async def show(service: Any, game_id: str, seat: int, token: str | None,
               authenticated: bool = False) -> dict[str, Any]:
    """The seat's order (None if it has none, or its time is over), and the choices it may give
    now though it is not to act (``early``: the power and build forms, the auction's state)."""
    live = await service.live(game_id)
    if not authenticated:
        await service.authenticate(live, seat, token)
    live = await service.fresh(game_id)
    state, version = live.state, live.version
    engine = service.store.engine
    order = await asyncio.to_thread(order_store.of_seat, engine, game_id, seat)
    if order is not None and order.status == PENDING and not in_scope(order, state):
        await asyncio.to_thread(order_store.remove, engine, game_id, seat, order.id)
        order = None
    return {"game_id": game_id, "seat": seat, "version": version,
            "order": None if order is None else order.public(), "early": early_choices(state, seat)}


async def cancel(service: Any, game_id: str, seat: int, token: str | None,
                 order_id: int | None) -> dict[str, Any]:
    """Withdraw the seat's order (or clear a refused one); ``no_order`` if it has none (applied already)."""
    live = await service.live(game_id)
    await service.authenticate(live, seat, token)
    if not await asyncio.to_thread(order_store.remove, service.store.engine, game_id, seat, order_id):
        raise ApiError("no_order", f"seat {seat} has no such order (it may have been applied already)")
    return await show(service, game_id, seat, token, authenticated=True)


def after_append(service: Any, live: LiveGame, new: Frame) -> None:
    """The service's hook after it appended ``new``: if a person is to act now, a bot worker applies
    their pending order (if any). In the background: the answer to the action does not wait for the
    look. Not looked for in the middle of a turn (a purchase or a house, with more to come): an
    order that applies to the turn was applied at its start."""
    state = new.state
    to_act = state.current_player
    if to_act is None or new.last is None:
        return
    if new.last.get("seat") == to_act and str(new.last.get("action", "")).startswith(("buy ", "build ")):
        return
    if live.row.seats[to_act].kind != "human":
        return
    looks = service.order_looks
    looks.append((live.game_id, new.version, to_act))
    if len(looks) == 1:  # else the look in progress, or the one already spawned, takes this one too
        service._spawn(_queue(service))


async def _queue(service: Any) -> None:
    """Look for the orders of every position appended since the last look, in one query on one
    thread: under load a look per append cost more than the rest of the hook's work."""
    looks: list[tuple[str, int, int]] = service.order_looks
    while looks:
        to_act = looks[:]
        try:
            await asyncio.to_thread(order_store.queue_jobs, service.store, to_act)
        except Exception:
            log.exception("queueing standing orders for %s failed", to_act)
        del looks[:len(to_act)]
