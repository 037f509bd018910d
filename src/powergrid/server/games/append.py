"""The validated, versioned append: the one way an action (a person's or a bot's) enters a game.

``next_frame`` checks the action against the frame the actor saw (game over, version, turn,
notation, legality) and applies it to a copy; ``Store.append`` then commits it as action number
``version + 1``, which exactly one writer can take. Every refusal changes nothing.
"""

from __future__ import annotations

import powergrid as pg

from ..common.errors import ApiError
from .frames import Frame, advance


def next_frame(frame: Frame, seat: int, text: str, version: int | None) -> Frame:
    """The frame ``text`` makes when played by ``seat`` at ``frame``; ApiError if it may not be."""
    if frame.state.is_over:
        raise ApiError("game_over", "the game is over")
    if version is not None and version != frame.version:
        raise ApiError("stale_version", f"the game is at version {frame.version}, not {version}; "
                                        "read the current view and try again")
    to_act = frame.state.current_player
    if to_act != seat:
        raise ApiError("not_your_turn", f"it is seat {to_act}'s turn, not seat {seat}'s")
    try:
        action = pg.parse_action(text)
    except pg.PowerGridError as exc:
        raise ApiError("malformed_action", str(exc)) from None
    try:
        return advance(frame, seat, action)
    except pg.PowerGridError as exc:
        raise ApiError("illegal_action", str(exc)) from None


def status_of(state: pg.GameState) -> str:
    return "over" if state.is_over else "playing"
