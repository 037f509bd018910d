"""Loading a game from its latest snapshot plus the actions after it, and when to save one.

Snapshots are derived data: a game loads without any (its config replayed through the log), and a
snapshot that does not load is skipped with a warning.
"""

from __future__ import annotations

import logging
from collections import deque

import powergrid as pg

from . import views
from .frames import FRAMES_KEPT, Frame, advance, first_frame
from .store import GameRow, Store

log = logging.getLogger("powergrid.server")


def load_frames(store: Store, row: GameRow) -> deque[Frame]:
    """The game's frames up to its newest action (blocking: run off the event loop)."""
    frame = None
    snap = store.latest_snapshot(row.game_id)
    if snap is not None:
        try:
            state = pg.GameState.from_dict(snap.state)
            frame = Frame(snap.seq, state, snap.history, None, views.LogTail.of(state))
        except pg.PowerGridError:
            log.warning("game %s: snapshot %d does not load; replaying from the start", row.game_id, snap.seq)
    if frame is None:
        frame = first_frame(pg.new_game(pg.GameConfig.from_dict(row.config)))
    frames: deque[Frame] = deque([frame], maxlen=FRAMES_KEPT)
    for _seq, seat, text in store.actions_after(row.game_id, frame.version):
        frames.append(advance(frames[-1], seat, pg.parse_action(text)))
    return frames


def is_due(version: int, every: int) -> bool:
    """Whether the frame at this version is snapshotted."""
    return every > 0 and version % every == 0


def save(store: Store, game_id: str, frame: Frame) -> None:
    """Store the frame's full state (blocking)."""
    store.save_snapshot(game_id, frame.version, frame.state.to_dict(), frame.history)
