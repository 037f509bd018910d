"""The plant market and the deck: drawing, the city-count removal, the Step 3 card."""

from __future__ import annotations

from bisect import insort
from typing import TYPE_CHECKING

from . import rng as _rng
from .catalog import STEP3
from .phase import AUCTION, BUILD

if TYPE_CHECKING:
    from .state import GameState


def shuffle_deck(s: GameState) -> None:
    s.rng = _rng.shuffle(s.rng, s.deck)
    s.known_top = 0
    s.known_bottom = 0


def box(s: GameState, plant: int, why: str) -> None:
    s.boxed = s.boxed + (plant,)
    s.note(("boxed", plant, why))


def _step3_drawn(s: GameState) -> None:
    """docs/rules.md, Step 3: what drawing the card does depends on the phase."""
    shuffle_deck(s)
    if s.scn.first_game:
        # Ruling of this project: the first-game variant plays Step 1 only, so the
        # card just leaves the game and the market is refilled normally.
        s.note(("step3_ignored",))
        return
    if s.phase == AUCTION:
        s.market.append(STEP3)
        s.step3_pending = True
        s.note(("step3_drawn", "auction"))
        return
    s.note(("step3_drawn", "build" if s.phase == BUILD else "bureaucracy"))
    if s.market:
        box(s, s.market.pop(0), "step3")
    if s.phase == BUILD:
        s.step3_next = True
    else:
        start_step(s, 3)


def start_step(s: GameState, step: int) -> None:
    s.step = step
    s.note(("step", step))


def refill(s: GameState, draws: int = 1) -> None:
    """Draw ``draws`` cards into the market, then apply the city-count removal, chained."""
    market = s.market
    deck = s.deck
    while True:
        while draws > 0 and deck:
            card = deck.pop()
            draws -= 1
            if s.known_top:
                s.known_top -= 1
            if s.known_bottom > len(deck):
                # the deck ran down into the plants put under it (first game: no Step 3 shuffle)
                s.known_bottom = len(deck)
            if card == STEP3:
                _step3_drawn(s)
                if s.scn.first_game:
                    draws += 1
            else:
                insort(market, card)
                s.note(("drawn", card))
        # docs/rules.md, Phase 4, "At any time": plants numbered <= the largest city count go.
        if market and market[0] != STEP3:
            lowest = market[0]
            # (a loop: max(map(len, ...)) costs more in CPython 3.11, and this runs on every build)
            for c in s.cities:
                if len(c) >= lowest:
                    box(s, market.pop(0), "cities")
                    draws = 1
                    break
            else:
                return
            continue
        return


def remove_city_count_plants(s: GameState) -> None:
    refill(s, 0)
