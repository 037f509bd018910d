"""Views handed out in ``info``, and the fast path to what a view shows."""

from __future__ import annotations

from ..rules import GameState, GameView


def info_view(state: GameState, seat: int) -> GameView:
    # GameView compares by content, which PettingZoo's seed test needs for infos.
    return state.view(seat)


def seen_state(view: GameView) -> GameState:
    """What the view reads from (hidden cards as -1): reading it directly saves the view's
    per-attribute indirection on the hot path; it holds nothing the view hides."""
    return view.public_state
