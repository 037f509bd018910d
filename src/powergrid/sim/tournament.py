"""Tournaments: many bot games with seats rotated and seeds derived from one master seed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..bots import make_bot
from ..rules import GameConfig
from .backends import BACKENDS, OnResult, run_local, run_ray
from .game import BotFactory, GameResult, GameSpec
from .records import Seat
from .seeds import bot_seed, game_seed
from .stats import BotSummary, summarize

FORMAT = "powergrid.tournament"
VERSION = 1


def plan_tournament(config: GameConfig, bots: Sequence[str], games: int, seed: int) -> list[GameSpec]:
    """The games of a tournament: game ``i`` rotates the bot list by ``i`` seats and gets its own
    game and bot seeds derived from ``seed`` and ``i`` (``config.seed`` is replaced).

    :raises ValueError: the bot list does not fill the seats.
    """
    if len(bots) != config.players:
        raise ValueError(f"{len(bots)} bots for {config.players} seats: name one bot per seat")
    if games < 0:
        raise ValueError("the number of games cannot be negative")
    n = len(bots)
    specs = []
    for i in range(games):
        rotated = [bots[(seat + i) % n] for seat in range(n)]
        seats = tuple(Seat(s, rotated[s], bot_seed(seed, i, s)) for s in range(n))
        specs.append(GameSpec(i, replace(config, seed=game_seed(seed, i)), seats))
    return specs


@dataclass
class Tournament:
    """A finished tournament: its settings, every game (by index) and the summary per bot."""

    config: GameConfig
    bots: list[str]
    seed: int
    results: list[GameResult]

    @property
    def failures(self) -> list[GameResult]:
        return [r for r in self.results if not r.ok]

    def summary(self) -> list[BotSummary]:
        order = list(dict.fromkeys(self.bots))
        return summarize(self.results, order)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT, "version": VERSION,
            "settings": {"config": self.config.to_dict(), "bots": list(self.bots), "seed": self.seed,
                         "games": len(self.results)},
            "summary": [s.to_dict() for s in self.summary()],
            "failures": [{"index": r.index, "error": r.error} for r in self.failures],
            "games": [r.to_dict() for r in self.results],
        }


def run_tournament(config: GameConfig, bots: Sequence[str], games: int, seed: int, *,
                   backend: str = "local", workers: int = 1, address: str | None = None,
                   bot_factory: BotFactory = make_bot, on_result: OnResult | None = None) -> Tournament:
    """Play a tournament; the results are the same for the same seed whatever the backend or workers.

    :raises ValueError: unknown backend or a bad bot list.
    """
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; the backends are {', '.join(BACKENDS)}")
    specs = plan_tournament(config, bots, games, seed)
    if backend == "ray":
        results = run_ray(specs, address=address, bot_factory=bot_factory, on_result=on_result,
                          workers=workers)
    else:
        results = run_local(specs, workers=workers, bot_factory=bot_factory, on_result=on_result)
    results.sort(key=lambda r: r.index)
    return Tournament(config, list(bots), seed, results)
