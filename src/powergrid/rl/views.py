"""Views handed out in ``info``: the engine's GameView, comparable by content."""

from __future__ import annotations

from ..rules import GameState, GameView


class InfoView(GameView):
    """A :class:`~powergrid.GameView` that compares equal to another view of the same seat
    in the same position (tests compare infos, e.g. PettingZoo's seed test)."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameView):
            return NotImplemented
        return self.seat == other.seat and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]


def info_view(state: GameState, seat: int) -> InfoView:
    # GameView's constructor takes the masked state the engine built for the seat.
    return InfoView(seen_state(state.view(seat)), seat)


def seen_state(view: GameView) -> GameState:
    """What the view reads from: the engine's copy of the game made for the seat, with the
    deck order and the removed plants replaced by unknowns. Reading it directly saves the
    view's per-attribute indirection on the hot path; it holds nothing the view hides."""
    masked: GameState = object.__getattribute__(view, "_state")
    return masked
