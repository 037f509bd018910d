"""Tournament statistics per bot kind: wins, win rate with a Wilson interval, means, Elo."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .game import GameResult

Z95 = 1.959963984540054
ELO_START = 1500.0
ELO_K = 16.0


def wilson_interval(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (``wins`` may be fractional for shared wins)."""
    if games <= 0:
        return 0.0, 1.0
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def standing(result: GameResult, seat: int) -> tuple[int, int, int, int]:
    """How well a seat did, for pairwise comparisons: winner first, then the game's own
    tie-breaks (docs/rules.md, game end: most cities powered, then money, then cities)."""
    return (seat in result.winners, result.powered[seat], result.money[seat], result.cities[seat])


def elo_ratings(results: Sequence[GameResult], start: float = ELO_START,
                k: float = ELO_K) -> dict[str, float]:
    """Elo of each bot kind from the pairwise results of every game.

    Games are taken in index order and seat pairs in seat order, so the ratings are
    deterministic. Two seats of the same kind do not rate each other.
    """
    ratings: dict[str, float] = {}
    for result in sorted(results, key=lambda r: r.index):
        if not result.ok:
            continue
        specs = [s.spec for s in result.seats]
        for spec in specs:
            ratings.setdefault(spec, start)
        n = len(specs)
        for a in range(n):
            for b in range(a + 1, n):
                if specs[a] == specs[b]:
                    continue
                sa, sb = standing(result, a), standing(result, b)
                score = 1.0 if sa > sb else 0.0 if sa < sb else 0.5
                ra, rb = ratings[specs[a]], ratings[specs[b]]
                expected = 1 / (1 + 10 ** ((rb - ra) / 400))
                ratings[specs[a]] = ra + k * (score - expected)
                ratings[specs[b]] = rb - k * (score - expected)
    return ratings


@dataclass
class BotSummary:
    """One bot kind over a tournament; ``games`` counts seats played (two seats of a kind in one
    game count twice), and a win shared by ``m`` seats counts ``1/m`` to each."""

    spec: str
    games: int = 0
    wins: float = 0.0
    powered_total: int = 0
    money_total: int = 0
    cities_total: int = 0
    elo: float = ELO_START
    #: per round: (sum of cities, sum of money, number of seats still playing that round)
    by_round: list[list[int]] = field(default_factory=list)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    @property
    def mean_powered(self) -> float:
        return self.powered_total / self.games if self.games else 0.0

    @property
    def mean_money(self) -> float:
        return self.money_total / self.games if self.games else 0.0

    @property
    def mean_cities(self) -> float:
        return self.cities_total / self.games if self.games else 0.0

    def mean_cities_by_round(self) -> list[float]:
        return [c / n for c, _, n in self.by_round if n]

    def mean_money_by_round(self) -> list[float]:
        return [m / n for _, m, n in self.by_round if n]

    def to_dict(self) -> dict[str, Any]:
        low, high = self.interval
        return {"bot": self.spec, "games": self.games, "wins": round(self.wins, 6),
                "win_rate": round(self.win_rate, 6), "win_rate_95": [round(low, 6), round(high, 6)],
                "mean_powered": round(self.mean_powered, 4), "mean_money": round(self.mean_money, 4),
                "mean_cities": round(self.mean_cities, 4), "elo": round(self.elo, 2),
                "mean_cities_by_round": [round(x, 4) for x in self.mean_cities_by_round()],
                "mean_money_by_round": [round(x, 4) for x in self.mean_money_by_round()]}


def summarize(results: Sequence[GameResult], order: Sequence[str] | None = None) -> list[BotSummary]:
    """A summary per bot kind, in ``order`` (default: first appearance), failed games left out."""
    summaries: dict[str, BotSummary] = {spec: BotSummary(spec) for spec in (order or [])}
    for result in sorted(results, key=lambda r: r.index):
        if not result.ok:
            continue
        share = 1 / len(result.winners) if result.winners else 0.0
        for seat in result.seats:
            s = seat.seat
            summary = summaries.setdefault(seat.spec, BotSummary(seat.spec))
            summary.games += 1
            if s in result.winners:
                summary.wins += share
            summary.powered_total += result.powered[s]
            summary.money_total += result.money[s]
            summary.cities_total += result.cities[s]
            for r, (money, cities) in enumerate(zip(result.money_by_round, result.cities_by_round,
                                                    strict=True)):
                if r == len(summary.by_round):
                    summary.by_round.append([0, 0, 0])
                row = summary.by_round[r]
                row[0] += cities[s]
                row[1] += money[s]
                row[2] += 1
    for spec, elo in elo_ratings(results).items():
        summaries[spec].elo = elo
    return list(summaries.values())
