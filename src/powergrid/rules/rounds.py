"""Moving from one phase to the next, and from round to round."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import market
from .catalog import STEP3
from .phase import AUCTION, BUILD, BUREAUCRACY, OVER, RESOURCES

if TYPE_CHECKING:
    from .state import GameState


def player_order(s: GameState) -> tuple[int, ...]:
    """docs/rules.md, Phase 1: most cities first, ties by the highest plant."""
    cities = s.cities
    plants = s.plants
    return tuple(sorted(range(len(cities)),
                        key=lambda p: (-len(cities[p]), -(plants[p][-1] if plants[p] else 0))))


def reset_auction(s: GameState) -> None:
    s.auc_done = 0
    s.auc_any = False
    s.auc_plant = 0
    s.auc_bid = 0
    s.auc_leader = -1
    s.auc_in = 0
    s.auc_turn = -1
    s.discard_seat = -1
    s.new_plant = 0


def end_auction(s: GameState) -> None:
    if s.round > 1 and not s.auc_any and s.market:
        # docs/rules.md, Phase 2: no plant bought in the whole phase.
        market.box(s, s.market.pop(0), "no_sale")
        market.refill(s)
    if s.step3_pending:
        # docs/rules.md, Step 3 (1): the card and the lowest plant leave at the end of phase 2.
        s.market.remove(STEP3)
        s.step3_pending = False
        if s.market:
            market.box(s, s.market.pop(0), "step3")
        market.start_step(s, 3)
    if s.round == 1:
        s.order = player_order(s)
        s.note(("order", s.order))
    s.phase = RESOURCES
    s.turn = 0
    s.note(("phase", RESOURCES))


def end_resources(s: GameState) -> None:
    s.phase = BUILD
    s.turn = 0
    s.note(("phase", BUILD))


def end_build(s: GameState) -> None:
    if max(len(c) for c in s.cities) >= s.scn.end_cities:
        finish(s)
        return
    # docs/rules.md, Step 3 ruling: a Step 3 already drawn this phase skips Step 2.
    if (s.step == 1 and not s.step3_next and not s.scn.first_game
            and max(len(c) for c in s.cities) >= s.scn.rules.step2_cities):
        market.start_step(s, 2)
        if s.market:
            market.box(s, s.market.pop(0), "step2")
        market.refill(s)
    if s.step3_next:
        # docs/rules.md, Step 3 (2): drawn in phase 4 (or by Step 2's refill), it applies from phase 5.
        s.step3_next = False
        market.start_step(s, 3)
    s.phase = BUREAUCRACY
    s.turn = 0
    s.note(("phase", BUREAUCRACY))


def end_bureaucracy(s: GameState) -> None:
    resupply(s)
    if s.step == 3:
        if s.market:
            market.box(s, s.market.pop(0), "step3_update")
        market.refill(s)
    elif s.market:
        highest = s.market.pop()
        s.deck.insert(0, highest)
        s.known_bottom += 1
        s.note(("under_deck", highest))
        market.refill(s)
    start_round(s, s.round + 1)


def resupply(s: GameState) -> None:
    """docs/rules.md, Phase 5 (2): refill from the supply, limited by what the supply holds."""
    table = s.scn.catalog.resupply[(s.players, s.step)]
    added = []
    for r in range(4):
        amount = table[r]
        if s.supply[r] < amount:
            amount = s.supply[r]
        room = s.scn.capacity[r] - s.market_res[r]
        if room < amount:
            amount = room
        s.market_res[r] += amount
        s.supply[r] -= amount
        added.append(amount)
    s.note(("resupply", tuple(added)))


def start_round(s: GameState, number: int) -> None:
    s.round = number
    s.note(("round", number))
    if number > 1:
        s.order = player_order(s)
        s.note(("order", s.order))
    s.phase = AUCTION
    s.turn = 0
    reset_auction(s)
    s.note(("phase", AUCTION))


def finish(s: GameState) -> None:
    from .bureaucracy import best_powered
    scores = {p: (best_powered(s, p), s.money[p], len(s.cities[p])) for p in range(s.players)}
    # At the end, "powered" is what decides the game: the cities each player can power now.
    s.powered = [scores[p][0] for p in range(s.players)]
    top = max(scores.values())
    s.winners_ = tuple(p for p in range(s.players) if scores[p] == top)
    s.phase = OVER
    s.note(("over", s.winners_, tuple(scores[p][0] for p in range(s.players))))
