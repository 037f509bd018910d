"""Bot speed: heuristic games/s (4-player Germany, one core), ms per decision, search calls/s.

    python benchmarks/bots_speed.py [--games 20] [--search-games 1]
"""

from __future__ import annotations

import argparse
import time

import powergrid as pg
from powergrid.bots import SearchBot, make_bot


def timed_game(specs: list[str], seed: int) -> tuple[float, dict[str, list[float]], list[object]]:
    """Play one game; returns its seconds and the decision times of each bot kind."""
    state = pg.new_game(pg.GameConfig(map="germany", players=len(specs), seed=seed))
    bots = [make_bot(spec, seed * 10 + i) for i, spec in enumerate(specs)]
    per_kind: dict[str, list[float]] = {spec: [] for spec in specs}
    start = time.perf_counter()
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        view = state.view(seat)
        t = time.perf_counter()
        action = bots[seat].act(view)
        per_kind[specs[seat]].append(time.perf_counter() - t)
        state.apply(action)
    return time.perf_counter() - start, per_kind, bots


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20, help="heuristic-only games")
    ap.add_argument("--search-games", type=int, default=1, help="games per search level")
    args = ap.parse_args()

    total = 0.0
    decisions = 0
    times: list[float] = []
    for g in range(args.games):
        took, per_kind, _ = timed_game(["heuristic"] * 4, g)
        total += took
        times += per_kind["heuristic"]
        decisions += len(per_kind["heuristic"])
    print(f"heuristic, 4-player Germany, one core: {args.games / total:.1f} games/s, "
          f"{decisions / args.games:.0f} decisions a game, "
          f"{1000 * sum(times) / len(times):.3f} ms per decision (view included: "
          f"{1e6 * total / decisions:.0f} us per decision overall), max {1000 * max(times):.2f} ms")

    took, per_kind, _ = timed_game(["random"] * 4, 0)
    rt = per_kind["random"]
    print(f"random: {1000 * sum(rt) / len(rt):.3f} ms per decision")

    for level in ("mcts:fast", "mcts", "mcts:strong"):
        search_times: list[float] = []
        calls = searches = 0
        search_seconds = 0.0
        for g in range(args.search_games):
            specs = [level, "heuristic", "heuristic", "heuristic"]
            took, per_kind, bots = timed_game(specs, 100 + g)
            search_times += per_kind[level]
            bot = bots[0]
            assert isinstance(bot, SearchBot)
            calls += bot.calls
            searches += bot.searches
            search_seconds += sum(per_kind[level])
        mean = 1000 * sum(search_times) / len(search_times)
        print(f"{level}: {mean:.1f} ms per decision (all decisions), "
              f"{1000 * search_seconds / max(1, searches):.0f} ms per searched decision, "
              f"max {1000 * max(search_times):.0f} ms, {searches / args.search_games:.0f} searches a game, "
              f"{calls / max(search_seconds, 1e-9):,.0f} forward-model calls/s inside the search")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
