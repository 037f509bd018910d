"""Train MaskablePPO (sb3-contrib) on 4-player Power Grid against random bots, then measure it.

    pip install -e ".[rl,train]"          # see docs/rl.md for a CPU-only torch
    python examples/train_maskable_ppo.py --minutes 25 --out ppo_powergrid.zip
    python examples/train_maskable_ppo.py --evaluate ppo_powergrid.zip --games 400

The learner sits in seat 0 of ``powergrid.rl.SingleAgentEnv`` with random bots in the other
seats; the environment uses the compact bid encoding (``bids="compact"``: a bid is the plant's
number or the current bid plus +0/+1/+2/+3/+5/+8/..., 483 actions instead of 2,205) and the
shaped win reward. MaskablePPO reads the mask from the environment's ``action_masks()``.
Training stops after ``--minutes`` of wall-clock time; the learning rate decays linearly to a
tenth over that time, and the weights with the best recent training win rate are kept.

The evaluation plays seat-rotated tournaments (``powergrid.sim.run_tournament``) of the policy,
acting greedily through :class:`powergrid.rl.PolicyBot` (it sees only its seat's view), against
three random bots and against three heuristic bots, and prints win rates with 95% Wilson
intervals. Results are in docs/rl.md.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

import powergrid as pg
import powergrid.rl as rl
from powergrid.bots import Bot, make_bot
from powergrid.sim import run_tournament

try:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor
except ImportError as missing:  # pragma: no cover - the message is the point
    raise SystemExit(f"{missing}: install the training extra, pip install -e '.[rl,train]' "
                     "(docs/rl.md says how to get a CPU-only torch)") from None

BIDS = "compact"


class VectorObservation(gym.ObservationWrapper):
    """Hands the policy the observation vector alone; the mask goes through ``action_masks``."""

    def __init__(self, env: rl.SingleAgentEnv) -> None:
        super().__init__(env)
        self.observation_space = env.observation_space["observation"]

    def observation(self, observation: dict[str, np.ndarray]) -> np.ndarray:
        return observation["observation"]

    def action_masks(self) -> np.ndarray:
        return self.env.unwrapped.action_masks()


def make_env(players: int, map_name: str, reward: str, seed: int, opponent: str) -> Any:
    def build() -> gym.Env:
        torch.set_num_threads(1)
        env = rl.SingleAgentEnv(map=map_name, players=players, opponents=opponent, seed=seed,
                                reward=reward, bids=BIDS, view_in_info=False)
        return VectorObservation(env)
    return build


class Progress(BaseCallback):
    """Runs the wall-clock budget: decays the learning rate linearly to a tenth by the deadline
    (PPO's late updates otherwise undo what it learned), keeps the weights of the best recent
    training win rate (200 games, like SB3's best-model callback), stops at the deadline and
    prints the learner's (seat 0) recent win rate per opponent."""

    def __init__(self, started: float, minutes: float, lr: float, opponents: list[str],
                 every: int = 20_000) -> None:
        super().__init__()
        self.started = started
        self.budget = minutes * 60
        self.lr = lr
        self.every = every
        self.opponents = opponents
        self.recent: dict[str, list[float]] = {name: [] for name in dict.fromkeys(opponents)}
        self._next = every
        self.best_rate = -1.0
        self.best_at = 0
        self.best: dict[str, Any] | None = None

    def _on_rollout_end(self) -> None:
        left = max(0.0, 1.0 - (time.monotonic() - self.started) / self.budget)
        rate = self.lr * (0.1 + 0.9 * left)
        self.model.lr_schedule = lambda _progress: rate
        scores = [r for r in self.recent.values() if len(r) == 200]
        if scores and len(scores) == len(self.recent):
            score = float(np.mean([np.mean(r) for r in scores]))
            if score >= self.best_rate:
                self.best_rate, self.best_at = score, self.num_timesteps
                self.best = {k: v.detach().clone() for k, v in self.model.policy.state_dict().items()}

    def _on_step(self) -> bool:
        for i, (info, done) in enumerate(zip(self.locals["infos"], self.locals["dones"], strict=True)):
            if done and "winners" in info:
                winners = info["winners"]
                kind = self.opponents[i]
                self.recent[kind] = (self.recent[kind] + [1.0 / len(winners) if 0 in winners else 0.0])[-200:]
        if self.num_timesteps >= self._next:
            self._next += self.every
            rates = ", ".join(f"vs {kind} {np.mean(r):.3f} ({len(r)})"
                              for kind, r in self.recent.items() if r)
            print(f"  {self.num_timesteps:8,d} steps {time.monotonic() - self.started:6.0f} s  "
                  f"recent win rate {rates}", flush=True)
        return time.monotonic() < self.started + self.budget


def train(args: argparse.Namespace) -> MaskablePPO:
    kinds = args.train_against.split(",")
    opponents = [kinds[i % len(kinds)] for i in range(args.envs)]
    factories = [make_env(args.players, args.map, args.reward, args.seed + i, opponents[i])
                 for i in range(args.envs)]
    vec = SubprocVecEnv(factories) if args.subproc else DummyVecEnv(factories)
    vec = VecMonitor(vec)
    model = MaskablePPO(
        "MlpPolicy", vec, learning_rate=args.lr, n_steps=args.n_steps, batch_size=args.batch,
        n_epochs=args.epochs, gamma=args.gamma, gae_lambda=0.95, ent_coef=args.ent_coef,
        policy_kwargs={"net_arch": [256, 256]}, seed=args.seed, device="cpu", verbose=0)
    where = "subprocess" if args.subproc else "in process"
    print(f"training {args.minutes:g} min: {args.envs} envs ({where}), "
          f"{args.players}-player {args.map}, opponents {opponents}, reward {args.reward}, bids {BIDS}, "
          f"{vec.action_space.n} actions, torch threads {torch.get_num_threads()}", flush=True)
    started = time.monotonic()
    progress = Progress(started, args.minutes, args.lr, opponents)
    model.learn(total_timesteps=10**9, callback=progress)
    elapsed = time.monotonic() - started
    if progress.best is not None:
        model.policy.load_state_dict(progress.best)
        print(f"kept the weights at {progress.best_at:,d} steps (recent training win rate "
              f"{progress.best_rate:.3f})", flush=True)
    print(f"trained {model.num_timesteps:,d} steps in {elapsed:.0f} s "
          f"({model.num_timesteps / elapsed:.0f} steps/s); load average now {os.getloadavg()[0]:.2f}",
          flush=True)
    vec.close()
    return model


def evaluate(model: MaskablePPO, players: int, map_name: str, games: int, seed: int,
             opponent: str, deterministic: bool) -> None:
    cities = tuple(pg.load_map(map_name).cities)

    def choose(observation: np.ndarray, mask: np.ndarray) -> int:
        action, _ = model.predict(observation, action_masks=mask, deterministic=deterministic)
        return int(action)

    def factory(spec: str, bot_seed: int) -> Bot:
        if spec == "policy":
            return rl.PolicyBot(choose, players, cities, bids=BIDS, seed=bot_seed)
        return make_bot(spec, bot_seed)

    config = pg.GameConfig(map=map_name, players=players)
    started = time.monotonic()
    result = run_tournament(config, ["policy"] + [opponent] * (players - 1), games, seed, bot_factory=factory)
    print(f"{games} games of {players}-player {map_name} against {opponent} bots, seats rotated, "
          f"{'greedy' if deterministic else 'sampled'} policy ({time.monotonic() - started:.0f} s)"
          + (f", {len(result.failures)} failed" if result.failures else ""))
    for row in result.summary():
        lo, hi = row.interval
        print(f"  {row.spec:<10} seats {row.games:4d}  win rate {row.win_rate:.3f} "
              f"(95% Wilson {lo:.3f}-{hi:.3f})  mean powered {row.powered_total / max(row.games, 1):.1f}",
              flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--map", default="germany")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--minutes", type=float, default=25.0, help="training wall-clock time")
    parser.add_argument("--envs", type=int, default=8)
    parser.add_argument("--subproc", action="store_true", help="one process per env (SubprocVecEnv)")
    parser.add_argument("--reward", default="shaped", choices=rl.REWARDS)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--n-steps", type=int, default=256, help="steps per env per update")
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--gamma", type=float, default=0.995)
    parser.add_argument("--ent-coef", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1, help="torch threads for the updates")
    parser.add_argument("--out", type=Path, default=Path("ppo_powergrid.zip"))
    parser.add_argument("--evaluate", type=Path, help="skip training: evaluate this saved model")
    parser.add_argument("--games", type=int, default=200, help="evaluation games per opponent")
    parser.add_argument("--train-against", default="random",
                        help="training opponents, one kind per env in turn (e.g. random,heuristic)")
    parser.add_argument("--eval-against", default="random,heuristic", help="evaluation opponents")
    parser.add_argument("--sample", action="store_true", help="evaluate the sampled policy, not greedy")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    if args.evaluate:
        model = MaskablePPO.load(args.evaluate, device="cpu")
    else:
        model = train(args)
        model.save(args.out)
        print(f"saved {args.out}")
    for opponent in args.eval_against.split(","):
        if args.games:
            evaluate(model, args.players, args.map, args.games, args.seed + 1000, opponent, not args.sample)


if __name__ == "__main__":
    main()
