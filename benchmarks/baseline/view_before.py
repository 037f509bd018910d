"""The view as it was built before issue 12: a full masked copy of the state at every call."""

from __future__ import annotations

from powergrid.rules import GameState, GameView
from powergrid.rules.catalog import STEP3, UNKNOWN
from powergrid.rules.scenario import public_scenario


def view_before(state: GameState, seat: int) -> GameView:
    masked = state.clone()
    deck = masked.deck
    bottom = state.known_bottom
    hidden_end = len(deck) - state.known_top
    if bottom < hidden_end:
        step3_at = deck.index(STEP3) if STEP3 in deck else -1
        deck[bottom:hidden_end] = [UNKNOWN] * (hidden_end - bottom)
        if step3_at >= 0:
            deck[step3_at] = STEP3
    masked.removed = (UNKNOWN,) * len(state.removed)
    masked.rng = 0
    masked.scn = public_scenario(state.scn)
    return GameView(masked, seat)
