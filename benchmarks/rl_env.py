"""Speed of the research environments against the bare engine (4-player Germany, random play).

    python benchmarks/rl_env.py [--games 10] [--rounds 3] [--envs 16,64] [--profile]
    python benchmarks/rl_env.py --cap-stats heuristic --games 20   # how often the bid cap binds
    python benchmarks/rl_env.py --loops-only [--loop-steps 2000]    # only the users' loops below

Prints, on one core, CPU time of this process (a busy machine disturbs it less than wall time),
with the engine and the environments measured in alternation so they share the load:

* the bare engine, the baseline "engine's own decision": decisions/s of
  ``state.legal_actions()`` + ``random.choice`` of one + ``state.apply()``, over the same games
  (same seeds) the AEC env plays;
* the AEC env's random-play steps/s: ``last()`` (observation, mask) + ``step()``, with the
  seat's view in ``infos`` (``view_in_info=True``) and without (the default), and the cost of
  a step as a multiple of the engine's decision (the issue's target: at most 3x); with the
  view also when the loop keeps ``last()``'s result over ``step()`` (PettingZoo's usual loop);
* ``powergrid.rl.vector_env``: steps/s of N games in one process, self-play (every decision
  is a step) and against random bots (a step is one learner decision; the bots' decisions
  in between are counted too);
* a per-part breakdown of one env step;
* **the loops users write**, in wall-clock time, the policy's choice included (``rng.choice``
  of a legal index): the AEC loop exactly as README.md writes it, ``gym.make`` against random
  bots, Gymnasium's ``SyncVectorEnv`` and ``AsyncVectorEnv`` (2 subprocesses) and, where
  Stable-Baselines3 is installed, its ``DummyVecEnv`` and ``SubprocVecEnv``, each with the
  default small infos and with ``view_in_info=True``; and ``vector_env`` at 2 and 16 games.
  These are the figures a user sees.

The policy's own choice (sampling a legal index from the mask) is not timed: the envs replay
indices drawn in a first run of the same games. The AEC figure of the earlier benchmark (the
choice made in the loop and its separately measured time taken off) is printed beside it; it
reads slower, as the NumPy choice between env calls evicts the env's code and data from the
caches (docs/rl.md, Speed).
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import os
import pstats
import random
import time

import numpy as np

import powergrid as pg
import powergrid.rl as rl
from powergrid.bots import make_bot

clock = time.process_time


def engine_only(map_name: str, players: int, seeds: list[int]) -> tuple[int, float]:
    steps = 0
    spent = 0.0
    for seed in seeds:
        rng = random.Random(seed)
        state = pg.new_game(pg.GameConfig(map=map_name, players=players, seed=seed))
        start = clock()
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
            steps += 1
        spent += clock() - start
    return steps, spent


def _pick(mask: np.ndarray, rng: np.random.Generator) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


def aec_steps(map_name: str, players: int, seeds: list[int], hold: bool = False,
              **kwargs: object) -> tuple[int, float]:
    """(steps, CPU seconds in last() and step()): the env replays games whose action indices
    were drawn beforehand (random legal indices, a first run of the same games), so that only
    the env is timed, as the engine baseline times only the engine. ``hold``: keep what last()
    returns until the next last(), as PettingZoo's usual loop does (the info's view is then
    still alive when the game moves on)."""
    env = rl.raw_env(map=map_name, players=players, **kwargs)
    games = []
    for seed in seeds:
        rng = np.random.default_rng(seed)
        env.reset(seed=seed)
        chosen = []
        while not env.game.is_over:
            chosen.append(_pick(env.observe(env.agent_selection)["action_mask"], rng))
            env.step(chosen[-1])
        games.append(chosen)
    steps = 0
    spent = 0.0
    for seed, chosen in zip(seeds, games, strict=True):
        env.reset(seed=seed)
        start = clock()
        for index in chosen:
            last = env.last()
            if not hold:
                del last
            env.step(index)
        spent += clock() - start
        steps += len(chosen)
    return steps, spent


def aec_steps_choosing(map_name: str, players: int, seeds: list[int], **kwargs: object) -> tuple[int, float]:
    """The earlier measure: the random choice made in the loop, its time measured apart (on
    the same masks, in a loop of its own) and taken off. Between env calls the NumPy choice
    displaces the env's code and data from the caches, so the env reads slower here than
    replayed; the figure is printed for comparison with the earlier ones."""
    env = rl.raw_env(map=map_name, players=players, **kwargs)
    steps = 0
    spent = 0.0
    masks = []
    for seed in seeds:
        rng = np.random.default_rng(seed)
        env.reset(seed=seed)
        start = clock()
        while not env.game.is_over:
            obs, _, _, _, _ = env.last()
            mask = obs["action_mask"]
            masks.append(mask)
            env.step(_pick(mask, rng))
            steps += 1
        spent += clock() - start
    rng = np.random.default_rng(0)
    start = clock()
    for mask in masks:
        _pick(mask, rng)
    return steps, spent - (clock() - start)


def vector_steps(map_name: str, players: int, envs: int, steps: int, seed: int,
                 **kwargs: object) -> tuple[int, int, float]:
    """(learner steps, engine decisions, CPU seconds in reset/step). The action batches are
    drawn in a first run and replayed on a second env with the same seed (only the env is
    timed, as in ``aec_steps``)."""
    vec = rl.vector_env(envs, map=map_name, players=players, seed=seed, **kwargs)
    rng = np.random.default_rng(seed)
    obs, _ = vec.reset()
    batches = []
    for _ in range(steps):
        batches.append([_pick(m, rng) for m in obs["action_mask"]])
        obs, _, _, _, _ = vec.step(batches[-1])
    vec = rl.vector_env(envs, map=map_name, players=players, seed=seed, **kwargs)
    start = clock()
    vec.reset()
    spent = clock() - start
    before = sum(game.decisions for game in vec.games)
    finished = 0
    for actions in batches:
        old = vec.games[:]
        start = clock()
        vec.step(actions)
        spent += clock() - start
        finished += sum(g.decisions for g, new in zip(old, vec.games, strict=True) if g is not new)
    decisions = finished + sum(game.decisions for game in vec.games) - before
    return steps * envs, decisions, spent


def breakdown(map_name: str, players: int, seeds: list[int]) -> dict[str, float]:
    """Mean microseconds per decision of each part of an env step over random games: each part
    runs over all the recorded decisions in one timed loop (fresh encoder and codec)."""
    states: list[tuple[pg.GameState, int, pg.Action]] = []
    for seed in seeds:
        state = pg.new_game(pg.GameConfig(map=map_name, players=players, seed=seed))
        rng = random.Random(seed)
        while not state.is_over:
            action = rng.choice(state.legal_actions())
            states.append((state.clone(), state.current_player, action))
            state.apply(action)
    cities = tuple(pg.load_map(map_name).cities)
    codec, encoder = rl.ActionCodec(cities), rl.ObservationEncoder(players, len(cities))
    legals = [codec.legal(s, seat) for s, seat, _ in states]
    indices = [codec.encode(s, a) for s, _, a in states]
    copies = [s.clone() for s, _, _ in states]
    parts: dict[str, float] = {}
    # Thousands of recorded states are alive here: keep the collector's full scans of them
    # (set off by the views' allocations) out of the timings, as in a running env.
    gc.collect()
    gc.disable()
    start = clock()
    for s, seat, _ in states:
        encoder.encode(s, seat)
    parts["observation, encoder from the state"] = clock() - start
    try:
        from powergrid.rl.incremental import IncrementalEncoder
    except ImportError:  # older sources (comparing against main)
        pass
    else:
        kept = IncrementalEncoder(encoder)
        seats = [kept.seat_observation(seat) for seat in range(players)]
        start = clock()
        for s, seat, _ in states:
            kept.encode(s, seats[seat])
        parts["observation, kept per seat (the envs')"] = clock() - start
    start = clock()
    for s, seat, _ in states:
        codec.legal(s, seat)
    parts["mask (engine's legal_actions included)"] = clock() - start
    start = clock()
    for s, _, _ in states:
        s.legal_actions()
    parts["  of which the engine's legal_actions"] = clock() - start
    start = clock()
    for legal, index in zip(legals, indices, strict=True):
        codec.decode(index, legal)
    parts["decode"] = clock() - start
    start = clock()
    for s, seat, _ in states:
        s.view(seat)
    parts["the seat's view (info)"] = clock() - start
    start = clock()
    for s, (_, _, action) in zip(copies, states, strict=True):
        s.apply(action)
    parts["engine apply"] = clock() - start
    gc.enable()
    return {k: v / len(states) * 1e6 for k, v in parts.items()}


def readme_loop(steps: int) -> float:
    """README.md's ten-line AEC loop as written (wrapped env, ``agent_iter``, ``last()``, a
    NumPy choice), steps per wall-clock second."""
    env = rl.env(map="germany", players=4, seed=1)
    env.reset()
    rng = np.random.default_rng(0)
    done = 0
    start = time.perf_counter()
    while done < steps:
        for _agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            action = None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"])))
            env.step(action)
            done += 1
            if done >= steps:
                break
        else:
            env.reset()
    return steps / (time.perf_counter() - start)


def _single(seed: int, view: bool) -> object:
    return rl.SingleAgentEnv(players=4, seed=seed, bids="compact", opponents="random", view_in_info=view)


def batched_loop(kind: str, envs: int, steps: int, view: bool) -> float:
    """Vector env steps (each: one learner decision in every env) per wall-clock second."""
    from functools import partial

    makers = [partial(_single, seed, view) for seed in range(envs)]
    rng = np.random.default_rng(0)
    if kind in ("dummy", "subproc"):
        from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv
        vec = (DummyVecEnv(makers) if kind == "dummy"
               else SubprocVecEnv(makers, start_method="spawn"))
        vec.reset()
        step = vec.step
        masks = lambda: np.stack(vec.env_method("action_masks"))  # noqa: E731
    else:
        from gymnasium.vector import AsyncVectorEnv, SyncVectorEnv
        if kind == "native":
            vec = rl.vector_env(envs, players=4, seed=0, bids="compact", opponents="random")
        else:
            vec = SyncVectorEnv(makers) if kind == "sync" else AsyncVectorEnv(makers, context="spawn")
        obs, _ = vec.reset(seed=0)
        state = {"obs": obs}

        def step(actions: np.ndarray) -> object:
            state["obs"] = vec.step(actions)[0]
            return state["obs"]
        masks = lambda: state["obs"]["action_mask"]  # noqa: E731
    for _ in range(20):  # warm the workers
        step(np.array([_pick(m, rng) if m.any() else 0 for m in masks()]))
    start = time.perf_counter()
    for _ in range(steps):
        step(np.array([_pick(m, rng) if m.any() else 0 for m in masks()]))
    rate = steps / (time.perf_counter() - start)
    vec.close()
    return rate


def users_loops(steps: int) -> None:
    print(f"the loops users write: wall clock, the choice included; load average {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores")
    print(f"  README's AEC loop (4 players)            : {readme_loop(steps):9,.0f} steps/s")
    gym_env = __import__("gymnasium").make(rl.GYM_ID, players=4, bids="compact")
    obs, _ = gym_env.reset(seed=0)
    rng = np.random.default_rng(0)
    start = time.perf_counter()
    for _ in range(steps):
        obs, _, terminated, truncated, _ = gym_env.step(_pick(obs["action_mask"], rng))
        if terminated or truncated:
            obs, _ = gym_env.reset()
    print(f"  gym.make, 3 random bots                  : {steps / (time.perf_counter() - start):9,.0f} "
          "learner steps/s")
    kinds = ["sync", "async"]
    try:
        import stable_baselines3  # noqa: F401
        kinds += ["dummy", "subproc"]
    except ImportError:
        print("  (Stable-Baselines3 not installed: DummyVecEnv and SubprocVecEnv skipped)")
    names = {"sync": "SyncVectorEnv", "async": "AsyncVectorEnv", "dummy": "DummyVecEnv",
             "subproc": "SubprocVecEnv"}
    for kind in kinds:
        small = batched_loop(kind, 2, steps // 4, view=False)
        big = batched_loop(kind, 2, steps // 8, view=True)
        print(f"  {names[kind]:<15} (2 envs)                 : {small:9,.0f} vec-steps/s "
              f"({big:,.0f} with view_in_info=True)")
    for envs in (2, 16):
        rate = batched_loop("native", envs, max(20, steps // envs), view=False)
        print(f"  vector_env({envs}), random bots            : {rate:9,.0f} vec-steps/s "
              f"({rate * envs:,.0f} learner steps/s)")


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
    parser.add_argument("--games", type=int, default=10, help="games per round for the engine and AEC env")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds (best of them is shown)")
    parser.add_argument("--envs", default="16,64", help="games in the vector env (comma-separated sizes)")
    parser.add_argument("--vector-steps", type=int, default=300, help="vector env steps per round")
    parser.add_argument("--map", default="germany")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--profile", action="store_true", help="print the top functions of the vector env")
    parser.add_argument("--cap-stats", metavar="BOT", help="instead: how often the bid cap binds "
                        "in games of this bot (random, heuristic...)")
    parser.add_argument("--loop-steps", type=int, default=2000, help="steps of each user's loop")
    parser.add_argument("--loops-only", action="store_true", help="only the loops users write")
    args = parser.parse_args()
    if args.loops_only:
        users_loops(args.loop_steps)
        return
    if args.cap_stats:
        cap_stats(args.map, args.players, args.cap_stats, args.games, (100, 150, 200, rl.DEFAULT_BID_CAP))
        return
    m, p = args.map, args.players
    sizes = [int(x) for x in str(args.envs).split(",")]
    aec_steps(m, p, [1000])  # warm the caches and imports
    rates: dict[str, list[float]] = {}

    def keep(name: str, value: float) -> None:
        rates.setdefault(name, []).append(value)

    for r in range(args.rounds):
        seeds = list(range(r * args.games, (r + 1) * args.games))
        steps, spent = engine_only(m, p, seeds)
        keep("engine", steps / spent)
        steps, spent = aec_steps(m, p, seeds, view_in_info=True)
        keep("aec", steps / spent)
        steps, spent = aec_steps(m, p, seeds, hold=True, view_in_info=True)
        keep("aec_held", steps / spent)
        steps, spent = aec_steps(m, p, seeds, view_in_info=False)
        keep("aec_noview", steps / spent)
        steps, spent = aec_steps_choosing(m, p, seeds, view_in_info=False)
        keep("aec_noview_choosing", steps / spent)
        for envs in sizes:
            steps, decisions, spent = vector_steps(m, p, envs, args.vector_steps, r, opponents=None)
            keep(f"vector_self_{envs}", steps / spent)
            steps, decisions, spent = vector_steps(m, p, envs, args.vector_steps, r, opponents="random")
            keep(f"vector_random_{envs}", steps / spent)
            keep(f"vector_random_decisions_{envs}", decisions / spent)

    best = {k: max(v) for k, v in rates.items()}
    print(f"{p}-player {m}, random play, one core, CPU time; best of {args.rounds} alternating rounds; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"  bare engine           : {best['engine']:9,.0f} decisions/s")
    print(f"  AEC env (view_in_info=True)  : {best['aec']:9,.0f} steps/s   "
          f"{best['engine'] / best['aec']:.2f}x the engine's decision")
    print(f"    (info held over step, PettingZoo's usual loop: {best['aec_held']:,.0f} steps/s, "
          f"{best['engine'] / best['aec_held']:.2f}x)")
    print(f"  AEC env (no view, the default): {best['aec_noview']:9,.0f} steps/s   "
          f"{best['engine'] / best['aec_noview']:.2f}x the engine's decision")
    print(f"    (choosing in the loop, the choice's own time taken off: {best['aec_noview_choosing']:,.0f} "
          f"steps/s, {best['engine'] / best['aec_noview_choosing']:.2f}x)")
    for envs in sizes:
        print(f"  vector_env({envs}), self-play      : {best[f'vector_self_{envs}']:9,.0f} steps/s")
        print(f"  vector_env({envs}), vs random bots : {best[f'vector_random_{envs}']:9,.0f} learner steps/s "
              f"({best[f'vector_random_decisions_{envs}']:,.0f} decisions/s with the bots')")
    print("  per round: " + "; ".join(f"{k} " + "/".join(f"{x:,.0f}" for x in v) for k, v in rates.items()))
    print("  one env step, microseconds per decision:")
    for key, us in breakdown(m, p, [1, 2, 3]).items():
        print(f"    {key:<40} {us:7.1f}")
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        vector_steps(m, p, sizes[-1], args.vector_steps, 99, opponents=None)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)
    users_loops(args.loop_steps)


if __name__ == "__main__":
    main()
