"""Bot strength: N games between given bots, seats rotated, on a process pool.

    python benchmarks/strength.py --bots pimc,heuristic --map germany --games 200 --workers 2

A bot named ``NAME@REV`` (``heuristic@6ec1397``, ``pimc@cd1fcb8``) is that bot's module as it
was at git revision REV, loaded from history by benchmarks/revisions.py onto today's engine, to
play a changed bot against the code it replaced; ``heuristic-v4`` is short for the heuristic
before its fifth speed pass (see :data:`EARLIER`).

Prints each bot's wins (a shared win counts as a fraction), win rate with a 95% Wilson
interval, mean powered cities and the time per game. Game g uses config seed ``seed + g`` and
the bot in seat i the seed ``(seed + g) * 100 + i``; seats are rotated game by game, so every
bot sits in every seat equally often. The same seeds give the same games whatever the workers.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import multiprocessing
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from revisions import HEURISTIC_V4, load  # noqa: E402

import powergrid as pg  # noqa: E402
from powergrid.bots import Bot, make_bot  # noqa: E402

#: bots that --bots may name with @REV: their module and class
AT_REVISION = {"heuristic": ("bots.heuristic", "HeuristicBot"), "pimc": ("bots.search", "SearchBot"),
               "mcts": ("bots.search", "SearchBot")}
#: short names of earlier bots
EARLIER = {"heuristic-v4": f"heuristic@{HEURISTIC_V4}"}


def make(spec: str, seed: int = 0) -> Bot:
    """make_bot, or ``NAME@REV``: the bot NAME (options after a colon, as make_bot reads
    them) as it was at git revision REV."""
    spec = EARLIER.get(spec, spec)
    if "@" not in spec:
        return make_bot(spec, seed)
    name, _, rev = spec.partition("@")
    base, _, options = name.partition(":")
    if base not in AT_REVISION:
        raise ValueError(f"{base!r} at a revision: choose from {', '.join(AT_REVISION)}")
    module, class_name = AT_REVISION[base]
    modules = ["bots.heuristic", module] if module != "bots.heuristic" else [module]
    bot_class = getattr(load(rev, modules)[module], class_name)
    bot: Bot = bot_class(seed, level=options) if options else bot_class(seed)
    return bot


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def play_one(job: tuple[Sequence[str], str, int, int]) -> tuple[int, list[float], list[int], float]:
    """One game; returns (game index, win share per bot index, powered cities per bot, seconds)."""
    specs, map_name, seed, game = job
    n = len(specs)
    shift = game % n
    seat_bot = [(seat + shift) % n for seat in range(n)]  # which listed bot sits in each seat
    state = pg.new_game(pg.GameConfig(map=map_name, players=n, seed=seed + game))
    bots = [make(specs[seat_bot[seat]], (seed + game) * 100 + seat) for seat in range(n)]
    start = time.perf_counter()
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        state.apply(bots[seat].act(state.view(seat)))
    share = [0.0] * n
    powered = [0] * n
    for seat in range(n):
        powered[seat_bot[seat]] = state.powerable(seat)
    for seat in state.winners:
        share[seat_bot[seat]] += 1.0 / len(state.winners)
    return game, share, powered, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bots", required=True, help="comma-separated, one per seat, e.g. pimc,heuristic")
    ap.add_argument("--map", default="germany")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    specs = [b.strip() for b in args.bots.split(",")]
    for spec in specs:
        make(spec)  # fail early on a bad name
    jobs = [(specs, args.map, args.seed, g) for g in range(args.games)]
    wins = [0.0] * len(specs)
    powered = [0] * len(specs)
    seconds = 0.0
    done = 0
    start = time.perf_counter()
    with contextlib.ExitStack() as stack:
        if args.workers > 1:
            pool = stack.enter_context(multiprocessing.get_context("spawn").Pool(args.workers))
            results: Iterable[tuple[int, list[float], list[int], float]] = pool.imap_unordered(play_one, jobs)
        else:
            results = map(play_one, jobs)  # one worker: in this process
        for _game, share, cities, took in results:
            done += 1
            seconds += took
            for i in range(len(specs)):
                wins[i] += share[i]
                powered[i] += cities[i]
            if done % max(1, args.games // 20) == 0 or done == args.games:
                print(f"  {done}/{args.games} games, {time.perf_counter() - start:.0f} s", file=sys.stderr)
    print(f"{len(specs)} players, {args.map}, {done} games, seed {args.seed}, "
          f"{seconds / max(1, done):.2f} s per game")
    print(f"{'seat bot':<14}{'wins':>8}{'rate':>8}   95% interval   powered")
    for i, spec in enumerate(specs):
        lo, hi = wilson(wins[i], done)
        print(f"{i}:{spec:<12}{wins[i]:>8.1f}{wins[i] / done:>8.1%}   [{lo:.1%}, {hi:.1%}]"
              f"   {powered[i] / done:.1f}")
    print(f"par (one seat of {len(specs)}): {1 / len(specs):.1%}")
    for spec in dict.fromkeys(specs):
        seats = [i for i, other in enumerate(specs) if other == spec]
        if len(seats) > 1:
            total = sum(wins[i] for i in seats)
            print(f"{spec} in {len(seats)} seats together: {total:.1f} wins, {total / done:.1%} of games")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
