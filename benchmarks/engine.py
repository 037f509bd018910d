"""Speed of the rules engine: random-policy 4-player Germany games on one core.

    python benchmarks/engine.py [--games 200] [--seed 1] [--profile]

Prints games/s and decisions/s for whole games (legal_actions + choice + apply, the
loop a search bot runs), then the mean cost of each engine call measured on its own
over states sampled along real games, and the size of a state's JSON.
Targets (issue 2): at least 20,000 decisions/s, clone under 15 µs.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import platform
import pstats
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import powergrid as pg  # noqa: E402

#: Of every this many states along a game, one is kept for the per-call timings.
SAMPLE_EVERY = 7


def config(seed: int, game: int) -> pg.GameConfig:
    return pg.GameConfig(map="germany", players=4, seed=seed * 100_003 + game)


def play(cfg: pg.GameConfig, rng: random.Random, samples: list[pg.GameState] | None = None) -> pg.GameState:
    state = pg.new_game(cfg)
    choice = rng.choice
    while state.current_player is not None:
        if samples is not None and rng.randrange(SAMPLE_EVERY) == 0:
            samples.append(state.clone())
        state.apply(choice(state.legal_actions()))
    return state


def games_per_second(games: int, seed: int) -> tuple[float, int, int]:
    rng = random.Random(seed)
    decisions = rounds = 0
    started = time.perf_counter()
    for g in range(games):
        state = play(config(seed, g), rng)
        decisions += state.decisions
        rounds += state.round
    return time.perf_counter() - started, decisions, rounds


def bot_games_seconds(games: int, seed: int, through_views: bool) -> tuple[float, int]:
    """The loop `powergrid simulate` runs: each seat's random bot acts on its own view, or
    (``through_views`` False) the same bots choose from the game's legal actions directly."""
    from powergrid.bots import make_bot

    decisions = 0
    started = time.process_time()
    for g in range(games):
        bots = [make_bot("random", seed * 10 + seat) for seat in range(4)]
        rngs = [bot._rng for bot in bots]  # type: ignore[attr-defined]
        state = pg.new_game(config(seed, g))
        if through_views:
            while (seat := state.current_player) is not None:
                state.apply(bots[seat].act(state.view(seat)))
        else:
            while (seat := state.current_player) is not None:
                state.apply(rngs[seat].choice(state.legal_actions()))
        decisions += state.decisions
    return time.process_time() - started, decisions


def interleaved(games: int, seed: int, rounds: int = 5) -> tuple[float, float]:
    """Decisions/s of random bots without and with views, run in alternating slices so that
    the machine's load falls on both alike (the games are the same: same seeds, same choices).
    Timed in CPU seconds of this process, which other processes on the machine disturb less."""
    totals = {False: [0.0, 0], True: [0.0, 0]}
    per = max(1, games // rounds)
    for r in range(rounds):
        for through_views in (False, True):
            seconds, decisions = bot_games_seconds(per, seed * 1000 + r, through_views)
            totals[through_views][0] += seconds
            totals[through_views][1] += decisions
    return (totals[False][1] / totals[False][0], totals[True][1] / totals[True][0])


def mean_us(states: list[pg.GameState], call: Callable[[pg.GameState], object], repeat: int = 3) -> float:
    """Mean µs of ``call`` over the sampled states (best of ``repeat`` passes)."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter_ns()
        for s in states:
            call(s)
        best = min(best, time.perf_counter_ns() - started)
    return best / len(states) / 1000


def apply_us(states: list[pg.GameState], seed: int, repeat: int = 3) -> float:
    """Mean µs of ``apply`` alone: the clones and the chosen actions are made before the clock runs."""
    rng = random.Random(seed)
    actions = [rng.choice(s.legal_actions()) for s in states]
    best = float("inf")
    for _ in range(repeat):
        pairs = [(s.clone(), a) for s, a in zip(states, actions, strict=True)]
        started = time.perf_counter_ns()
        for s, a in pairs:
            s.apply(a)
        best = min(best, time.perf_counter_ns() - started)
    return best / len(states) / 1000


def pin(cpu: int | None) -> str:
    """The engine is single-threaded; pinning only keeps the scheduler from moving it."""
    if cpu is None:
        return "one thread"
    if not hasattr(os, "sched_setaffinity"):
        return "one thread (pinning not supported here)"
    os.sched_setaffinity(0, {cpu})
    return f"one thread pinned to CPU {cpu}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games to play for the throughput figure")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="also profile games and print the top")
    parser.add_argument("--cpu", type=int, default=None, help="pin the process to this CPU")
    parser.add_argument("--top", type=int, default=25, help="profile lines to print")
    args = parser.parse_args()

    print(f"powergrid engine benchmark: 4-player Germany, random policy, {args.games} games, "
          f"seed {args.seed}; Python {platform.python_version()} ({platform.python_implementation()}), "
          f"{pin(args.cpu)}")

    play(config(args.seed, -1), random.Random(0))  # warm the caches (maps, catalog, action tables)
    seconds, decisions, rounds = games_per_second(args.games, args.seed)
    print(f"  games/s            {args.games / seconds:10.1f}   ({args.games} games in {seconds:.2f} s, "
          f"{rounds / args.games:.1f} rounds and {decisions / args.games:.0f} decisions per game)")
    print(f"  decisions/s        {decisions / seconds:10.0f}   (legal_actions + choice + apply)")

    bot_games = max(1, args.games // 2)
    plain, viewed = interleaved(bot_games, args.seed)
    print(f"  random bots        {plain:10.0f}   decisions/s, each choosing from state.legal_actions()")
    print(f"  through views      {viewed:10.0f}   decisions/s, each bot acting on state.view(seat): "
          f"{100 * viewed / plain:.0f}% ({bot_games} games each, interleaved)")

    samples: list[pg.GameState] = []
    rng = random.Random(args.seed + 1)
    for g in range(max(1, min(args.games, 40))):
        play(config(args.seed + 1, g), rng, samples)
    print(f"  per call, mean over {len(samples)} states sampled along {max(1, min(args.games, 40))} games:")
    print(f"    legal_actions    {mean_us(samples, lambda s: s.legal_actions()):10.2f} µs")
    print(f"    apply            {apply_us(samples, args.seed):10.2f} µs")
    print(f"    clone            {mean_us(samples, lambda s: s.clone()):10.2f} µs")
    print(f"    view             {mean_us(samples, lambda s: s.view(s.current_player)):10.2f} µs   "
          f"(taken; legal_actions() is read from the game)")
    print(f"    view, first read {mean_us(samples, lambda s: s.view(s.current_player).money):10.2f} µs   "
          f"(taken and read: builds the masked state)")
    print(f"    to_dict          {mean_us(samples, lambda s: s.to_dict(), repeat=1):10.2f} µs")
    sizes = [len(json.dumps(s.to_dict())) for s in samples]
    print(f"  state JSON bytes   mean {sum(sizes) / len(sizes):,.0f}, max {max(sizes):,}")

    if args.profile:
        profiler = cProfile.Profile()
        profile_rng = random.Random(args.seed)
        profiler.enable()
        for g in range(max(1, args.games // 4)):
            play(config(args.seed, g), profile_rng)
        profiler.disable()
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out)
        stats.sort_stats("tottime").print_stats(args.top)
        print(f"\nprofile of {max(1, args.games // 4)} games, by own time:")
        print(out.getvalue())


if __name__ == "__main__":
    main()
