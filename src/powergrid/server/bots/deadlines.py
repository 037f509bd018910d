"""The ``deadline`` job: a person's clock ran out, so the game's stand-in bot takes the seat.

The job is enqueued with the entry that made the seat to act, keyed by the game and that version
and due at the seat's deadline (games/absence.py, ``next_job``); a worker claims it once. If the
game has moved on since (the person acted, or took something back), it is skipped. If the
worker's clock says the deadline has not come yet (clocks of machines disagree), the job is put
back until then. Otherwise the worker appends ``@stand-in time`` at the job's version + 1, in the
transaction that queues the stand-in's turn and marks this job done; a person's action that
reached a web process at the same moment races for the same version, and exactly one is written.
"""

from __future__ import annotations

from ..games import absence
from ..games.clocks import TIME
from ..storage.jobs import Job
from .bot_worker import BotWorker, Turn, record_turns, register_handler


def time_out(worker: BotWorker, job: Job) -> None:
    assert job.game_id is not None and job.version is not None
    found = worker.game(job.game_id)
    if found is None:
        worker.queue.done(job, {"skipped": "no such game"})
        return
    row, frames = found
    frame = frames[-1]
    seat = int(job.payload["seat"])
    clock = frame.clock
    deadline = clock.deadline() if clock is not None else None
    if frame.version != job.version or clock is None or deadline is None or clock.running != seat:
        worker.queue.done(job, {"skipped": f"the game is at version {frame.version}"})
        return
    now = worker.settings.clock.now()
    if now < deadline:
        worker.queue.postpone(job, deadline)
        return
    entry = absence.stand_in_entry(TIME)
    new = absence.stamp(absence.notice_frame(frame, seat, entry), frame, seat, entry, now)
    record_turns(worker, [Turn(job, row, frames, new, seat, entry, now)])


register_handler(absence.DEADLINE, time_out)
