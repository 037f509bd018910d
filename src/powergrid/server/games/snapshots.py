"""Loading a game from its latest snapshot plus the log entries after it, and when to save one.

Snapshots are derived data: a game loads without any (its config replayed through the log), and a
snapshot that does not load is skipped with a warning. A snapshot holds the state at its version
(after an undo: the earlier state) and the undo window then; an ``undo`` entry whose earlier state
is older than the frames at hand is answered by loading the game up to that version.
"""

from __future__ import annotations

import logging
from collections import deque

import powergrid as pg
from powergrid.rules.undo import GAME_OVER, NEW_INFORMATION, Ledger

from ..storage.store import GameRow, Snapshot, Store
from . import absence, clocks, undo, views
from .frames import FRAMES_KEPT, Frame, advance, first_frame

log = logging.getLogger("powergrid.server")


def load_frames(store: Store, row: GameRow, upto: int | None = None,
                display_log: bool = True) -> deque[Frame]:
    """The game's frames up to its newest log entry, or up to version ``upto`` (blocking: run off
    the event loop). ``display_log=False``: frames without the display log (a bot worker's)."""
    frame = None
    snap = store.latest_snapshot(row.game_id, upto)
    if snap is not None:
        try:
            frame = snapshot_frame(snap, row, display_log)
        except pg.PowerGridError:
            log.warning("game %s: snapshot %d does not load; replaying from the start", row.game_id, snap.seq)
    if frame is None:
        frame = first_frame(pg.new_game(pg.GameConfig.from_dict(row.config)), row.allow_undo, display_log)
    # the clocks are replayed from the stored times of every entry (clocks.py), the game from the frame
    entries = store.entries_after(row.game_id, 0, upto)
    done = frame.version
    frame.clock = clocks.replay(absence.first_clocks(row), entries[:done])
    frames: deque[Frame] = deque([frame], maxlen=FRAMES_KEPT)
    for _seq, seat, text, at, _to_act in entries[done:]:
        frames.append(follow(store, row, frames, seat, text, at))
    return frames


def snapshot_frame(snap: Snapshot, row: GameRow, display_log: bool = True) -> Frame:
    state = pg.GameState.from_dict(snap.state)
    if snap.ledger is not None:
        ledger = Ledger.from_dict(snap.ledger)
    else:  # saved before undo existed: what came before it stands
        standing = len(state.actions_taken())
        ledger = Ledger(standing, (), -1, GAME_OVER if state.is_over else NEW_INFORMATION,
                        "the game was loaded from a saved state") if standing else Ledger()
    tail = views.LogTail.of(state) if display_log else views.NO_LOG_TAIL
    return Frame(snap.seq, state, snap.history, None, tail, ledger, row.allow_undo)


def follow(store: Store, row: GameRow, frames: deque[Frame], seat: int, entry: str,
           at: float | None = None) -> Frame:
    """The frame the log entry (an action, ``undo`` or a notice) by ``seat``, stored at time ``at``,
    makes after ``frames[-1]``."""
    latest = frames[-1]
    if undo.is_undo(entry):
        taken = undo.taken_back(latest)
        before = undo.find(frames, taken.entry) or frame_at(store, row, taken.entry)
        new = undo.rewind(latest, seat, taken, before)
    elif absence.is_notice(entry):
        new = absence.notice_frame(latest, seat, entry)
    else:
        new = advance(latest, seat, pg.parse_action(entry))
    return absence.stamp(new, latest, seat, entry, at)


def frame_at(store: Store, row: GameRow, version: int) -> Frame:
    """The game's frame at an earlier version (blocking)."""
    frame = load_frames(store, row, version)[-1]
    if frame.version != version:
        raise pg.CorruptState(f"game {row.game_id} has no version {version}")
    return frame


def is_due(version: int, every: int) -> bool:
    """Whether the frame at this version is snapshotted."""
    return every > 0 and version % every == 0


def save(store: Store, game_id: str, frame: Frame) -> None:
    """Store the frame's full state and undo window (blocking)."""
    store.save_snapshot(game_id, frame.version, frame.state.to_dict(), frame.history, frame.ledger.to_dict())
