"""The game log in words."""

from __future__ import annotations

from typing import Any

from .catalog import RESOURCES
from .scenario import Scenario

_WHY = {
    "cities": "it is numbered no higher than a player's city count",
    "no_sale": "no plant was bought this round",
    "step2": "Step 2 began",
    "step3": "Step 3 began",
    "step3_update": "the Step 3 market update",
    "discard": "discarded over the plant limit",
}


def describe(scn: Scenario, event: tuple[Any, ...]) -> str:
    kind = event[0]
    if kind == "setup":
        return (f"New game on {scn.map.name} with {scn.players} players; regions "
                f"{', '.join(event[1])}; seating {', '.join(f'P{p}' for p in event[2])}")
    if kind == "round":
        return f"Round {event[1]}"
    if kind == "phase":
        return {2: "Phase 2: auction", 3: "Phase 3: buy resources", 4: "Phase 4: build",
                5: "Phase 5: bureaucracy"}[event[1]]
    if kind == "order":
        return "Player order: " + ", ".join(f"P{p}" for p in event[1])
    if kind == "act":
        return f"P{event[1]}: {event[2]}"
    if kind == "bought":
        return f"P{event[1]} buys plant {event[2]} for {event[3]}"
    if kind == "paid":
        return f"P{event[1]} pays {event[2]}"
    if kind == "drawn":
        return f"Plant {event[1]} enters the market"
    if kind == "boxed":
        return f"Plant {event[1]} leaves the game ({_WHY.get(event[2], event[2])})"
    if kind == "under_deck":
        return f"Plant {event[1]} goes under the deck"
    if kind == "step":
        return f"Step {event[1]} begins"
    if kind == "step3_drawn":
        return f"The Step 3 card is drawn (during {event[1]}); the deck is shuffled"
    if kind == "step3_ignored":
        return "The Step 3 card is drawn and set aside (first game: Step 1 only)"
    if kind == "payout":
        cities = "city" if event[2] == 1 else "cities"
        return f"P{event[1]} powers {event[2]} {cities} and earns {event[3]}"
    if kind == "resupply":
        return "Resupply: " + ", ".join(f"{n} {RESOURCES[i]}" for i, n in enumerate(event[1]))
    if kind == "over":
        won = " and ".join(f"P{p}" for p in event[1])
        return f"Game over: {won} win{'s' if len(event[1]) == 1 else ''} (cities powered: " \
               + ", ".join(f"P{p} {n}" for p, n in enumerate(event[2])) + ")"
    return " ".join(str(x) for x in event)
