"""A fixed, seeded RL-environment workload for counting instructions (load-independent).

    python benchmarks/rl_workload.py engine|aec|aec-view|aec-view-held|vector [--games 4] [--setup-only]

``engine``: the bare engine's decisions (``legal_actions()`` + ``random.choice`` + ``apply``)
over 4-player Germany games, seeds 0..games-1. ``aec`` / ``aec-view``: the AEC env
(``view_in_info`` False / True) replaying games whose action indices were chosen at random
beforehand, so only ``last()`` + ``step()`` are counted; ``aec-view-held`` keeps what
``last()`` returns until the next ``last()``, as PettingZoo's usual loop does (the info's view
is still alive when the game moves on). ``vector``: ``vector_env(envs)``
self-play replaying recorded action batches (``--steps`` of them). ``--setup-only`` does
everything but the counted part (imports, warm-up, recording), so the difference of two
instruction counts is the counted part alone::

    valgrind --tool=callgrind --callgrind-out-file=/tmp/a python benchmarks/rl_workload.py aec --setup-only
    valgrind --tool=callgrind --callgrind-out-file=/tmp/b python benchmarks/rl_workload.py aec

(read "Collected" of each and divide by the decisions printed; run it once without valgrind
first, so neither run pays for compiling the sources). Set ``PYTHONHASHSEED=0`` and
``OPENBLAS_NUM_THREADS=1``: string hashing moves the counts by up to 10% from run to run, and
OpenBLAS's idle threads add their spinning to them.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import numpy as np  # noqa: E402

import powergrid as pg  # noqa: E402
import powergrid.rl as rl  # noqa: E402


def pick(mask: np.ndarray, rng: random.Random) -> int:
    return rng.choice(np.flatnonzero(mask).tolist())


def record_aec(env: rl.PowerGridAEC, seeds: list[int]) -> list[list[int]]:
    games = []
    for seed in seeds:
        rng = random.Random(seed)
        env.reset(seed=seed)
        chosen = []
        while not env.game.is_over:
            obs = env.observe(env.agent_selection)
            chosen.append(pick(obs["action_mask"], rng))
            env.step(chosen[-1])
        games.append(chosen)
    return games


def record_vector(vec: rl.PowerGridVectorEnv, steps: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    obs, _ = vec.reset(seed=seed)
    batches = []
    for _ in range(steps):
        batches.append([pick(m, rng) for m in obs["action_mask"]])
        obs, *_ = vec.step(batches[-1])
    return batches


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kind", choices=("engine", "aec", "aec-view", "aec-view-held", "vector"))
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--envs", type=int, default=16)
    ap.add_argument("--steps", type=int, default=150)
    ap.add_argument("--setup-only", action="store_true")
    args = ap.parse_args()
    seeds = list(range(args.games))
    decisions = 0
    spent = 0.0
    if args.kind == "engine":
        warm = pg.new_game(pg.GameConfig(map="germany", players=4, seed=1000))
        rng = random.Random(1000)
        while not warm.is_over:
            warm.apply(rng.choice(warm.legal_actions()))
        states = [pg.new_game(pg.GameConfig(map="germany", players=4, seed=s)) for s in seeds]
        if not args.setup_only:
            start = time.process_time()
            for seed, state in zip(seeds, states, strict=True):
                rng = random.Random(seed)
                while not state.is_over:
                    state.apply(rng.choice(state.legal_actions()))
                    decisions += 1
            spent = time.process_time() - start
    elif args.kind in ("aec", "aec-view", "aec-view-held"):
        env = rl.raw_env(view_in_info=args.kind != "aec")
        held = args.kind == "aec-view-held"
        record_aec(env, [1000])  # warm-up
        games = record_aec(env, seeds)
        if not args.setup_only:
            start = time.process_time()
            for seed, chosen in zip(seeds, games, strict=True):
                env.reset(seed=seed)
                for index in chosen:
                    last = env.last()
                    if not held:
                        del last
                    env.step(index)
                    decisions += 1
            spent = time.process_time() - start
            assert env.game.is_over
    else:
        vec = rl.vector_env(args.envs, opponents=None)
        record_vector(vec, args.steps, 1000)  # warm-up, other games
        batches = record_vector(vec, args.steps, 0)
        vec.reset(seed=0)
        if not args.setup_only:
            start = time.process_time()
            for batch in batches:
                vec.step(batch)
                decisions += args.envs
            spent = time.process_time() - start
    print(f"{args.kind}: {decisions} decisions ({spent / max(decisions, 1) * 1e6:.2f} µs each, "
          "CPU time, new games included)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
