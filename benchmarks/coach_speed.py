"""How long the coach takes: hints at the default level, and the analysis of a whole game.

    python benchmarks/coach_speed.py --games 3 --level default

Hints are asked at every 7th decision with a choice of heuristic games (4-player Germany, 3-player
USA); prints the mean, the 95th percentile and the slowest. Then one 4-player game is analysed.
With ``--players NAME`` the coach is told that bot NAME plays every seat but the first (a person):
with ``expert:fast``, small searches play its seats out late in the game (docs/coach.md).

    python benchmarks/coach_speed.py --games 2 --players expert:fast
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import powergrid as pg
from powergrid.bots import heuristic
from powergrid.coach import analyse, hint


def play(config: pg.GameConfig) -> pg.GameState:
    state = pg.new_game(config)
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        state.apply(heuristic.decide(state, seat, state.legal_actions()))
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--level", default="default")
    parser.add_argument("--no-analysis", action="store_true")
    parser.add_argument("--players", help="the bot the coach is told plays every seat but the first")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    times: dict[str, list[float]] = {}
    for g in range(args.games):
        config = pg.GameConfig(map="germany" if g % 2 == 0 else "usa", players=4 if g % 2 == 0 else 3,
                               seed=100 + g)
        final = play(config)
        players = [None] + [args.players] * (config.players - 1) if args.players else None
        state = pg.new_game(config)
        for i, action in enumerate(final.actions_taken()):
            if i % 7 == 0 and len(state.legal_actions()) > 1:
                seat = state.current_player
                assert seat is not None
                start = time.perf_counter()
                hint(state.view(seat), seed=i, level=args.level, players=players)
                times.setdefault(state.phase_name, []).append(time.perf_counter() - start)
            state.apply(action)
    every = sorted(t for ts in times.values() for t in ts)
    print(f"hints at level {args.level}: {len(every)}; mean {statistics.mean(every):.2f} s, "
          f"95th percentile {every[int(0.95 * (len(every) - 1))]:.2f} s, slowest {every[-1]:.2f} s")
    for phase, ts in sorted(times.items()):
        print(f"  {phase:12s} {len(ts):4d} hints, mean {statistics.mean(ts):.2f} s, slowest {max(ts):.2f} s")
    if not args.no_analysis:
        config = pg.GameConfig(map="germany", players=4, seed=7)
        final = play(config)
        start = time.perf_counter()
        players = [None] + [args.players] * 3 if args.players else None
        report = analyse(config, final.actions_taken(), seed=1, players=players)
        print(f"analysis of a {final.round}-round 4-player game: {len(report.decisions)} decisions judged "
              f"in {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
