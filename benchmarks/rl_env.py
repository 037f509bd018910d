"""Speed of the research environment: env steps/s for 4-player Germany, random masked actions.

    .venv/bin/python benchmarks/rl_env.py [--games 20] [--map germany] [--players 4] [--profile]
    .venv/bin/python benchmarks/rl_env.py --cap-stats heuristic --games 20   # how often the bid cap binds

Times are CPU time of this process (a busy machine disturbs them less than wall time).
A step here is what a learner pays per decision: ``last()`` (observation vector and action
mask for the agent to act) and ``step()`` (decode, engine apply, the next agent's view).
The same games are also played by the bare engine (``legal_actions`` + ``apply``) so the
env's own cost can be read off on a busy machine; a per-part breakdown follows.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import time

import numpy as np

import powergrid as pg
import powergrid.rl as rl
from powergrid.bots import make_bot


def engine_only(map_name: str, players: int, seeds: list[int]) -> tuple[int, float]:
    steps = 0
    start = time.process_time()
    for seed in seeds:
        rng = random.Random(seed)
        state = pg.new_game(pg.GameConfig(map=map_name, players=players, seed=seed))
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
            steps += 1
    return steps, time.process_time() - start


def env_steps(map_name: str, players: int, seeds: list[int]) -> tuple[int, float]:
    env = rl.raw_env(map=map_name, players=players)
    steps = 0
    start = time.process_time()
    for seed in seeds:
        rng = np.random.default_rng(seed)
        env.reset(seed=seed)
        while not env.game.is_over:
            obs, _, _, _, _ = env.last()
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
    return steps, time.process_time() - start


def breakdown(map_name: str, players: int, seed: int) -> dict[str, float]:
    """Mean microseconds per decision of each part, over one random game."""
    env = rl.raw_env(map=map_name, players=players)
    env.reset(seed=seed)
    state = env.game
    codec, encoder = env.codec, env.encoder
    rng = random.Random(seed)
    parts = {"view": 0.0, "observation": 0.0, "mask": 0.0, "decode": 0.0, "engine legal+apply": 0.0}
    n = 0
    clock = time.process_time
    while not state.is_over:
        t0 = clock()
        view = state.view(state.current_player)
        t1 = clock()
        encoder.encode(view)
        t2 = clock()
        legal = codec.legal(view)
        t3 = clock()
        index = rng.choice(legal.indices)
        codec.decode(index, legal)
        t4 = clock()
        actions = state.legal_actions()
        state.apply(actions[actions.index(legal.actions[legal.indices.index(index)])])
        t5 = clock()
        for key, dt in zip(parts, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4), strict=True):
            parts[key] += dt
        n += 1
    return {k: v / n * 1e6 for k, v in parts.items()}


def cap_stats(map_name: str, players: int, bot: str, games: int, caps: tuple[int, ...]) -> None:
    """How often the bid cap binds when bots of one kind play each other."""
    decisions = 0
    money_peak = 0
    restricted = dict.fromkeys(caps, 0)
    chosen_over = dict.fromkeys(caps, 0)
    for seed in range(games):
        state = pg.new_game(pg.GameConfig(map=map_name, players=players, seed=seed))
        bots = [make_bot(bot, seed * 10 + s) for s in range(players)]
        while not state.is_over:
            seat = state.current_player
            action = bots[seat].act(state.view(seat))
            if state.phase == pg.Phase.AUCTION:
                top = max((a.amount for a in state.legal_actions() if a.kind in ("open", "bid")), default=0)
                for cap in caps:
                    restricted[cap] += top > cap
                    chosen_over[cap] += action.kind in ("open", "bid") and action.amount > cap
            money_peak = max(money_peak, max(state.money))
            decisions += 1
            state.apply(action)
    print(f"bid cap, {games} {bot} games ({decisions} decisions, richest player held {money_peak}):")
    for cap in caps:
        print(f"  cap {cap:>3}: legal bids above it in {restricted[cap]} decisions "
              f"({restricted[cap] / decisions:.3%}); "
              f"a bot bid above it {chosen_over[cap]} times")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--map", default="germany")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--profile", action="store_true", help="print the top functions by own time")
    parser.add_argument("--cap-stats", metavar="BOT", help="instead: how often the bid cap binds "
                        "in games of this bot (random, heuristic...)")
    args = parser.parse_args()
    if args.cap_stats:
        cap_stats(args.map, args.players, args.cap_stats, args.games, (100, 150, 200, rl.DEFAULT_BID_CAP))
        return
    seeds = list(range(args.games))
    env_steps(args.map, args.players, seeds[:2])  # warm the memo tables and imports
    e_steps, e_time = engine_only(args.map, args.players, seeds)
    r_steps, r_time = env_steps(args.map, args.players, seeds)
    print(f"{args.players}-player {args.map}, {args.games} random games, one core")
    print(f"  bare engine : {e_steps / e_time:9,.0f} decisions/s")
    print(f"  rl env      : {r_steps / r_time:9,.0f} steps/s (observation + mask + step)")
    print(f"  env cost    : {(r_time / r_steps - e_time / e_steps) * 1e6:9.1f} us per step above the engine")
    print("  breakdown (us per decision):")
    for key, us in breakdown(args.map, args.players, 1).items():
        print(f"    {key:<20} {us:7.1f}")
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        env_steps(args.map, args.players, seeds[:5])
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
