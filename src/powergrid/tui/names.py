"""How players and cards are named on screen."""

from __future__ import annotations

from rich.text import Text

from ..rules import STEP3, GameState

#: Seat colours: (name, Rich style)
COLOURS = (("Red", "bold red"), ("Blue", "bold blue"), ("Green", "bold green"),
           ("Yellow", "bold yellow"), ("Purple", "bold magenta"), ("Cyan", "bold cyan"))

KIND_SHORT = {"coal": "coal", "oil": "oil", "hybrid": "coal/oil", "garbage": "garbage",
              "uranium": "uranium", "ecological": "eco", "fusion": "fusion"}
KIND_STYLE = {"coal": "#b08050", "oil": "bright_black", "hybrid": "#c08040", "garbage": "yellow",
              "uranium": "red", "ecological": "green", "fusion": "cyan"}
RESOURCE_STYLE = ("#b08050", "bright_white", "yellow", "red")


def seat_style(seat: int) -> str:
    return COLOURS[seat % len(COLOURS)][1]


def seat_name(seat: int) -> str:
    return f"P{seat} {COLOURS[seat % len(COLOURS)][0]}"


def seat_text(seat: int) -> Text:
    return Text(seat_name(seat), style=seat_style(seat))


def plant_words(state: GameState, number: int) -> str:
    """``13: ecological, powers 1 city`` / ``5: burns 2 coal or oil, powers 1 city``."""
    if number == STEP3:
        return "the Step 3 card"
    plant = state.scn.catalog.plants[number]
    cities = f"powers {count(plant.cities, 'city')}"
    if plant.burn == 0:
        return f"plant {number}: {KIND_SHORT[plant.kind]}, no fuel, {cities}"
    fuel = "coal or oil" if plant.kind == "hybrid" else plant.kind
    return f"plant {number}: burns {plant.burn} {fuel}, {cities}"


def plant_card(state: GameState, number: int) -> Text:
    """A compact card: ``[13 eco →1]``, ``[5 coal/oil 2→1]``."""
    if number == STEP3:
        return Text("[Step 3]", style="bold magenta")
    plant = state.scn.catalog.plants[number]
    burn = f"{plant.burn}" if plant.burn else ""
    return Text(f"[{number} {KIND_SHORT[plant.kind]} {burn}→{plant.cities}]", style=KIND_STYLE[plant.kind])


def count(n: int, word: str, plural: str | None = None) -> str:
    """``1 city``, ``2 cities``, ``0 actions``: a number with its noun agreeing."""
    if n == 1:
        return f"{n} {word}"
    if plural is None:
        plural = word[:-1] + "ies" if word.endswith("y") and word[-2:-1] not in "aeiou" else word + "s"
    return f"{n} {plural}"
