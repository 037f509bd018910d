"""A person's undo window against bots: the bots wait until it has passed.

Against bots, an action could be taken back only until the next bot moved (its pause, less than a
second). So a person's action that they may take back (the game allows undo, and the action
brought out nothing new), and that makes a bot or a stand-in to act, holds that bot's turn until
the game's ``undo_window_ms`` (its creator's choice, by default ``POWERGRID_UNDO_WINDOW_MS``) after
the action's stored time:

- the job is due no earlier than then (its not-before time, by the machine's clock), and its
  payload says when (``undo_until``, by the server's clock): a worker that takes it earlier by the
  server's clock (a test's ManualClock, machines' clocks that disagree) puts it back until then
  (``bots/bot_worker.py``, ``decide_turn``);
- the frame carries the end (``Frame.undo_until``): the person's view says it (``undo.until``) and
  the browser counts it down on the Undo button.

An undo inside the window takes the version the bot's turn waits at, so the turn is skipped like
any other stale one, and the bots play on as usual after the person's next action (with its own
window). Actions a standing order makes are not held: the person is not at the table for them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..storage.jobs import JobSpec
from .bot_turns import BOT_TURN
from .frames import Frame

#: the payload member of a held bot turn: the end of the window, by the server's clock
UNTIL = "undo_until"


def window_end(frame: Frame, seat: int, at: float, window_ms: int) -> float | None:
    """When the undo window of ``seat``'s action that made ``frame``, stored at ``at``, ends; None
    if it has none (no window set, undo off, or the action may not be taken back)."""
    if window_ms <= 0 or not frame.undo_allowed or not frame.ledger.undoable(seat):
        return None
    return at + window_ms / 1000


def hold(job: JobSpec | None, frame: Frame, seat: int, at: float,
         window_ms: int) -> tuple[JobSpec | None, float | None]:
    """The job that ``seat``'s action (which made ``frame`` at ``at``) calls for, held until its undo
    window ends if it is a bot's turn; and that end (None: nothing waits for it)."""
    if job is None or job.kind != BOT_TURN:
        return job, None
    until = window_end(frame, seat, at, window_ms)
    if until is None:
        return job, None
    return replace(job, not_before=max(job.not_before, until), payload={**job.payload, UNTIL: until}), until


def still_open(payload: dict[str, Any], now: float) -> float | None:
    """The end of the undo window a bot's turn waits for, if it has not passed at ``now``."""
    until = payload.get(UNTIL)
    if isinstance(until, (int, float)) and now < until:
        return float(until)
    return None
