"""Applying standing orders in the bot workers: the ``standing_order`` job.

The job for version *v* applies a seat's order if the game is still at *v* with that seat to act
and the order still pending: its actions (``orders.decide``, from the engine's legal actions) are
checked by the same ``append.next_frame`` as a person's and appended one at a time as the seat's
own, each at a fixed version, so a person acting at the same moment takes the version or loses it,
never both. Then the order ends (or stays, for the auction's later turns), and the next person to
act gets their own order's job. A job run twice (its lease ran out) finds the game moved on and
does nothing.
"""

from __future__ import annotations

import logging

from ..games import absence, order_store, orders, snapshots
from ..games.append import next_frame
from ..storage.jobs import Job
from ..storage.store import Move
from .bot_worker import BotWorker, register_handler

log = logging.getLogger("powergrid.bots")

#: the most times one job applies its order in a row (the seat to act again after its own action)
MAX_ROUNDS = 8


def apply_order(worker: BotWorker, job: Job) -> None:
    assert job.game_id is not None and job.version is not None
    engine = worker.store.engine
    order = order_store.by_id(engine, int(job.payload["order"]))
    if order is None or order.status != orders.PENDING:
        worker.queue.done(job, {"skipped": "the order was cancelled or replaced"})
        return
    found = worker.game(job.game_id)
    if found is None:
        worker.queue.done(job, {"skipped": "no such game"})
        return
    row, frames = found
    frame = frames[-1]
    seat = order.seat
    if frame.version != job.version or frame.state.current_player != seat:
        worker.queue.done(job, {"skipped": f"the game is at version {frame.version}"})
        return
    acted = False
    for _ in range(MAX_ROUNDS):  # the seat may be to act again at once (an auction sold, a new one opens)
        decision = orders.decide(order, frame.state)
        if decision.refusal is not None:
            order_store.refuse(engine, order.id or 0, decision.refusal)
            worker.queue.done(job, {"refused": decision.refusal["code"]})
            return
        for i, text in enumerate(decision.actions):
            new = next_frame(frame, seat, text, frame.version)  # the same checks as a person's action
            at = worker.settings.clock.now()  # the seat's own action: its clock runs to here
            absence.stamp(new, frame, seat, text, at)
            state = new.state
            last = i == len(decision.actions) - 1
            move = Move(row.game_id, new.version, seat, text, absence.status(new), state.round,
                        state.current_player, next_job=absence.next_job(row, new),
                        done_job=job.id if last else None, at=at)
            if not worker.store.append_moves([move])[0]:  # the person acted (or undid) at the same moment
                worker.games.pop(row.game_id, None)
                worker.queue.done(job, {"skipped": f"version {new.version} was taken meanwhile"})
                return
            frames.append(new)
            if snapshots.is_due(new.version, worker.settings.snapshot_every):
                snapshots.save(worker.store, row.game_id, new)
            worker.announce(row.game_id, new.version, seat, text, at)
            frame = new
            acted = True
        kept = decision.keep and orders.in_scope(order, frame.state)
        if not kept:
            order_store.remove(engine, row.game_id, seat, order.id)
        if not (kept and decision.actions and frame.state.current_player == seat):
            break
    if not acted:
        worker.queue.done(job, {"skipped": "nothing to do now"})
    if frame.state.is_over:
        worker.games.pop(row.game_id, None)
        return
    to_act = frame.state.current_player
    if acted and to_act is not None and to_act != seat and row.seats[to_act].kind == "human":
        order_store.queue_jobs(worker.store, [(row.game_id, frame.version, to_act)])


register_handler(order_store.STANDING_ORDER, apply_order)
