"""Who is winning: each seat's chance to win from a position.

:func:`win_chances` is the learned evaluator's (``powergrid.bots.value``: a small network over
each seat's public features, softmax over the seats, the players' ratings added where known),
the same one the ``expert`` search scores its rollouts with. Its figures: docs/coach.md.

The former model, kept for comparison (``win_model()``, ``benchmarks/coach_calibration.py``), is
a conditional logit over the seats: seat j's score is ``w · features(j)`` and its chance to win
is the softmax of the scores over the seats, so the chances always sum to 1 whatever the player
count. The features are a few public facts of the position (cities, plants, money, fuel, turn
order), each also scaled by how far the game has gone, since money counts for little in round 2
and cities count for nearly everything near the end. The weights are fitted on self-play games
by ``benchmarks/coach_calibration.py``, which also measures calibration on held-out games
(docs/coach.md) and writes ``win_model.json``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from ..bots import heuristic, value

#: the name of each feature, in the order of the weights
BASE_FEATURES = ("cities", "powered_last", "capacity", "money", "fuel_cities", "portfolio",
                 "late_in_order")
FEATURES = BASE_FEATURES + tuple(f"{name}*progress" for name in BASE_FEATURES) + ("outlook",)


def progress(s: Any) -> float:
    """How near the end the game is: the leader's cities over the end-game count (0..1)."""
    end: int = s.scn.end_cities
    return min(1.0, max(len(c) for c in s.cities) / end)


def seat_features(s: Any, seat: int, t: float | None = None) -> list[float]:
    """The features of one seat in a position (a GameState, or a view: only public facts)."""
    scn = s.scn
    end = scn.end_cities
    t = progress(s) if t is None else t
    cities = len(s.cities[seat])
    capacity = sum(scn.plant_cities[p] for p in s.plants[seat])
    look = heuristic.Outlook(s, seat)
    look.ambition = end
    players = len(s.money)
    order_place = s.order.index(seat) / (players - 1) if players > 1 else 0.0
    base = [
        cities / end,
        s.powered[seat] / end,
        min(capacity, end) / end,
        s.money[seat] / 100.0,
        _fuel_cities(s, seat) / end,
        look.portfolio(s.plants[seat]) / 100.0,
        order_place,
    ]
    fuel = sum(n * look.unit[r] for r, n in enumerate(s.resources_of(seat)))
    outlook = (s.money[seat] + 12.0 * cities + 8.0 * min(cities, capacity)
               + 0.5 * look.portfolio(s.plants[seat]) + fuel) / 100.0
    return base + [x * t for x in base] + [outlook]


def _fuel_cities(s: Any, seat: int) -> int:
    """Cities the seat's plants could power with the fuel it holds (ignoring its city count)."""
    scn = s.scn
    held = list(s.resources_of(seat))
    total = 0
    for p in sorted(s.plants[seat], key=lambda p: -scn.plant_cities[p]):
        kind = scn.plant_kind[p]
        burn = scn.plant_burn[p]
        if kind in ("ecological", "fusion") or burn == 0:
            total += scn.plant_cities[p]
            continue
        if kind == "hybrid":
            coal = min(held[0], burn)
            if coal + held[1] >= burn:
                held[0] -= coal
                held[1] -= burn - coal
                total += scn.plant_cities[p]
            continue
        r = heuristic._RES_INDEX[kind]
        if held[r] >= burn:
            held[r] -= burn
            total += scn.plant_cities[p]
    return total


@dataclass(frozen=True)
class WinModel:
    """Weights of the conditional logit (one per feature)."""

    weights: tuple[float, ...]
    #: what it was trained and tested on, for the docs
    about: dict[str, Any]

    def scores(self, s: Any) -> list[float]:
        t = progress(s)
        w = self.weights
        return [sum(wi * xi for wi, xi in zip(w, seat_features(s, j, t), strict=True))
                for j in range(len(s.money))]

    def chances(self, s: Any) -> list[float]:
        """Each seat's chance to win, summing to 1. A finished game gives its result."""
        if s.is_over:
            winners = s.winners
            return [1.0 / len(winners) if j in winners else 0.0 for j in range(s.players)]
        scores = self.scores(s)
        top = max(scores)
        exp = [math.exp(x - top) for x in scores]
        total = sum(exp)
        return [x / total for x in exp]

    def to_dict(self) -> dict[str, Any]:
        return {"features": list(FEATURES), "weights": list(self.weights), "about": self.about}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> WinModel:
        if list(data.get("features", [])) != list(FEATURES):
            raise ValueError("win model was fitted on other features; refit it with "
                             "benchmarks/coach_calibration.py")
        return cls(tuple(float(x) for x in data["weights"]), dict(data.get("about", {})))


@lru_cache(maxsize=1)
def win_model() -> WinModel:
    """The fitted model shipped with the package."""
    text = resources.files(__package__).joinpath("win_model.json").read_text(encoding="utf-8")
    return WinModel.from_dict(json.loads(text))


def named(players: Sequence[str | None] | None) -> list[str | None] | None:
    """Bot names as the ratings know them: a former name (``mcts``) as the bot it names, a
    default level without its ``:default``; None (a person) and unknown names as they are."""
    from ..bots.levels import facts

    return None if players is None else [None if p is None else facts(p).name for p in players]


def win_chances(s: Any, players: Sequence[str | None] | None = None) -> list[float]:
    """Each seat's estimated chance to win from this position (a GameState or a view), by the
    learned evaluator; ``players`` names the bot in each seat where known (None for a person),
    so that their ratings count too."""
    return value.win_chances(s, players)
