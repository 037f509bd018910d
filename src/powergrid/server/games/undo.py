"""Taking back: the undo's checks, and the frame of the earlier state (``GameService.take_back``
appends it).

An undo is a log entry like an action (``undo``, by the seat that takes back): it takes the next
version in the same versioned append, so crash safety, fan-out and replays work as for actions.
The frame it makes holds exactly the state, standings history and log of the frame before the
action it takes back, at a new version, with the undo window shrunk by one (``Ledger.undone``).
What may be taken back is the engine's rule (``powergrid.rules.undo``, docs/rules.md, Undo); the
refusals are its reasons, named in the server's error format, with its facts (``by``: whose action,
``action``: which one; ``revealed``) as members of the error, for clients that word them.

A bot's turn queued for the version an undo took is dropped by the bot worker (the game is no
longer at the job's version), and its append at that version could not win anyway.
"""

from __future__ import annotations

from collections.abc import Iterable

import powergrid as pg
from powergrid.rules.undo import UNDO, Taken

from ..common.errors import ApiError
from .frames import Frame


def is_undo(entry: str) -> bool:
    return entry == UNDO


def taken_back(frame: Frame) -> Taken:
    """The action an ``undo`` entry after ``frame`` takes back (a stored undo always has one).

    :raises pg.CorruptState: the log holds an undo where nothing may be taken back.
    """
    if not frame.ledger.open:
        raise pg.CorruptState(f"the log has an undo at version {frame.version + 1} where nothing may be "
                              "taken back")
    return frame.ledger.open[-1]


def find(frames: Iterable[Frame], version: int) -> Frame | None:
    """The frame at ``version`` among those kept, if it is."""
    for frame in frames:
        if frame.version == version:
            return frame
    return None


def rewind(latest: Frame, seat: int, taken: Taken, before: Frame) -> Frame:
    """The frame of ``seat``'s undo after ``latest``: ``before`` (the frame at ``taken.entry``) again."""
    assert before.version == taken.entry
    last = {"seat": seat, "action": UNDO, "undone": taken.action,
            "text": f"P{seat} takes back '{taken.action}'"}
    return Frame(latest.version + 1, before.state, before.history, last, before.log_tail,
                 latest.ledger.undone(), latest.undo_allowed)


def check(frame: Frame, seat: int, version: int) -> Taken:
    """The action ``seat`` takes back at ``frame``; a named ApiError if it may not (nothing changes)."""
    if frame.state.is_over:
        raise ApiError("game_over", "the game is over: its last action stands")
    if not frame.undo_allowed:
        raise ApiError("undo_off", "the game's creator turned undo off")
    if version != frame.version:
        raise ApiError("stale_version", f"the game is at version {frame.version}, not {version}; "
                                        "read the current view and try again")
    refused = frame.ledger.refusal(seat)
    if refused is not None:
        raise ApiError(refused.reason, str(refused), facts=refused.facts)
    return frame.ledger.open[-1]
