"""Is the coach's advice good? A bot that always plays the hint, against the heuristic.

    python benchmarks/coach_strength.py --games 20 --level fast --workers 1

Two-player Germany, seats alternating game by game; prints the coach bot's wins with a 95% Wilson
interval (for comparison, docs/bots.md has the search bot against the heuristic).
"""

from __future__ import annotations

import argparse
import math
import time

import powergrid as pg
from powergrid.bots import Bot, make_bot
from powergrid.coach import hint
from powergrid.sim.backends import run_local
from powergrid.sim.game import GameSpec
from powergrid.sim.records import Seat
from powergrid.sim.seeds import bot_seed, game_seed


class CoachBot(Bot):
    """Plays whatever the coach suggests (each hint seeded from the bot's seed and the position)."""

    def __init__(self, seed: int, level: str) -> None:
        super().__init__(seed)
        self.level = level
        self.name = f"coach:{level}"

    def act(self, view: pg.GameView) -> pg.Action:
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return hint(view, seed=self.seed * 1_000_003 + view.decisions, level=self.level).action


def factory(spec: str, seed: int) -> Bot:
    if spec.startswith("coach:"):
        return CoachBot(seed, spec.split(":", 1)[1])
    return make_bot(spec, seed)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--level", default="fast")
    parser.add_argument("--opponent", default="heuristic")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    specs = []
    for i in range(args.games):
        names = [f"coach:{args.level}", args.opponent]
        if i % 2:
            names.reverse()
        config = pg.GameConfig(map="germany", players=2, seed=game_seed(args.seed, i))
        seats = tuple(Seat(s, n, bot_seed(args.seed, i, s)) for s, n in enumerate(names))
        specs.append(GameSpec(i, config, seats))
    started = time.perf_counter()
    results = run_local(specs, workers=args.workers, bot_factory=factory)
    wins = 0.0
    played = 0
    for r in results:
        if not r.ok:
            print("failed:", r.error.splitlines()[0])
            continue
        played += 1
        coach = next(s.seat for s in r.seats if s.spec.startswith("coach:"))
        if coach in r.winners:
            wins += 1 / len(r.winners)
    low, high = wilson(wins, played)
    print(f"coach:{args.level} vs {args.opponent}, 2-player Germany: {wins:g} wins in {played} games "
          f"({wins / max(played, 1):.0%}, 95% interval {low:.0%}-{high:.0%}); "
          f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
