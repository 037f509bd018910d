"""The cards and tables of the base game, loaded from the package data files."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

COAL, OIL, GARBAGE, URANIUM = 0, 1, 2, 3
RESOURCES = ("coal", "oil", "garbage", "uranium")
RESOURCE_INDEX = {name: i for i, name in enumerate(RESOURCES)}

#: The Step 3 card, sorted as if it were the highest plant (docs/rules.md, Step 3).
STEP3 = 99
#: A deck card whose identity the viewer may not know.
UNKNOWN = -1

STARTING_MONEY = 50
HOUSES_PER_PLAYER = 22
SLOT_PRICES = (10, 15, 20)
FIRST_GAME_CITIES = 7

KINDS = ("coal", "oil", "hybrid", "garbage", "uranium", "ecological", "fusion")


@dataclass(frozen=True, slots=True)
class Plant:
    """A power plant card."""

    number: int
    kind: str
    burn: int
    cities: int

    @property
    def storage(self) -> int:
        """At most twice what one run burns (docs/rules.md, Components)."""
        return 2 * self.burn

    @property
    def resource(self) -> int:
        """Index of the resource it burns; -1 for hybrids and plants that burn nothing."""
        return RESOURCE_INDEX.get(self.kind, -1)


@dataclass(frozen=True, slots=True)
class PlayerCountRules:
    regions: int
    plants_removed: int
    max_plants: int
    step2_cities: int
    end_cities: int


@dataclass(frozen=True, slots=True)
class ResourceTrack:
    """One resource's price track: the price of each token slot, cheapest first."""

    slot_prices: tuple[int, ...]
    start_count: int
    total: int

    @property
    def capacity(self) -> int:
        return len(self.slot_prices)


@dataclass(frozen=True)
class Catalog:
    plants: dict[int, Plant]
    payout: tuple[int, ...]
    resupply: dict[tuple[int, int], tuple[int, int, int, int]]
    player_counts: dict[int, PlayerCountRules]
    tracks: tuple[ResourceTrack, ...]

    def pay(self, cities: int) -> int:
        """Elektro paid for powering ``cities`` cities."""
        last = len(self.payout) - 1
        return self.payout[cities if cities < last else last]


def _load_json(name: str) -> Any:
    return json.loads(resources.files("powergrid.rules.data").joinpath(name).read_text("utf-8"))


@cache
def catalog() -> Catalog:
    """The base game's cards and tables (loaded once)."""
    cards = _load_json("cards.json")
    tables = _load_json("tables.json")
    plants: dict[int, Plant] = {}
    for card in cards["power_plants"]:
        plant = Plant(int(card["number"]), card["type"], int(card["resources_per_run"]),
                      int(card["cities_powered"]))
        if plant.kind not in KINDS or plant.number in plants or plant.storage != card["max_storage"]:
            raise ValueError(f"bad plant card in cards.json: {card}")
        plants[plant.number] = plant
    payout = tuple(int(x) for x in tables["payment"]["by_cities_powered"])
    resupply = {
        (int(p), int(s)): tuple(int(row[r]) for r in RESOURCES)
        for p, by_step in tables["resupply"]["by_players_step"].items()
        for s, row in by_step.items()
    }
    counts = {
        int(p): PlayerCountRules(int(r["regions"]), int(r["plants_removed"]), int(r["max_plants"]),
                                 int(r["step2_cities"]), int(r["end_cities"]))
        for p, r in tables["player_counts"].items()
    }
    tracks = []
    for name in RESOURCES:
        market = tables["resource_market"]["markets"][name]
        prices = tuple(space["price"] for space in market["spaces"] for _ in range(space["slots"]))
        tracks.append(ResourceTrack(prices, int(market["start_count"]), int(market["components_total"])))
    return Catalog(plants, payout, resupply, counts, tuple(tracks))  # type: ignore[arg-type]
