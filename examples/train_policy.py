"""Train a small policy against random bots with plain numpy, then measure it in a tournament.

    .venv/bin/python examples/train_policy.py --minutes 4                 # train, save, evaluate
    .venv/bin/python examples/train_policy.py --evaluate policy.npz       # evaluate a saved one

The policy is a one-hidden-layer network (observation -> 64 tanh -> one logit per action)
with the action mask applied before the softmax, trained by REINFORCE (reward-to-go of the
shaped reward, normalised per batch, a small entropy bonus, Adam) in
``powergrid.rl.SingleAgentEnv`` against random bots. The evaluation plays a tournament with
seats rotated (``powergrid.sim.run_tournament``) between the trained policy, acting greedily
through the :class:`~powergrid.bots.Bot` interface (it sees only its seat's view), and
random bots; a uniformly random policy in the same place would win ``1/players`` of games.

Measured (4-player Germany, 200 evaluation games, on a shared 2-core machine, so the
wall-clock budget bought different numbers of episodes):

* ``--minutes 4 --lr 3e-3``: 1,400 episodes; the policy won 167 of 200 games, win rate 0.835
  (95% CI 0.777-0.880), against 0.055 for each random seat; it powered 6.7 cities on average
  at the end against 3.0.
* ``--minutes 4`` (defaults, lr 2e-3): 904 episodes; win rate 0.675 (95% CI 0.607-0.736)
  against 0.108 per random seat.
* The same first policy acting greedily (``--greedy``, always the most likely action) won only
  0.180: it had learned a stochastic policy, and its argmax gets stuck (it barely builds).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

import powergrid as pg
import powergrid.rl as rl
from powergrid.bots import Bot, make_bot
from powergrid.sim import run_tournament


class Policy:
    """obs -> tanh hidden -> masked logits."""

    def __init__(self, obs_size: int, actions: int, hidden: int = 64, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        self.params = {
            "w1": rng.normal(0, 1 / np.sqrt(obs_size), (obs_size, hidden)).astype(np.float32),
            "b1": np.zeros(hidden, np.float32),
            "w2": np.zeros((hidden, actions), np.float32),
            "b2": np.zeros(actions, np.float32),
        }

    def logits(self, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        p = self.params
        hidden = np.tanh(obs @ p["w1"] + p["b1"])
        return hidden, hidden @ p["w2"] + p["b2"]

    def probabilities(self, obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        hidden, logits = self.logits(obs)
        logits = np.where(mask > 0, logits, -1e9)
        logits -= logits.max(axis=-1, keepdims=True)
        e = np.exp(logits) * (mask > 0)
        return hidden, e / e.sum(axis=-1, keepdims=True)

    def save(self, path: Path, **meta: object) -> None:
        np.savez(path, **self.params, **{f"meta_{k}": np.array(v) for k, v in meta.items()})

    @classmethod
    def load(cls, path: Path) -> tuple[Policy, dict[str, object]]:
        data = np.load(path)
        policy = cls(data["w1"].shape[0], data["w2"].shape[1], data["w1"].shape[1])
        policy.params = {k: data[k] for k in ("w1", "b1", "w2", "b2")}
        meta = {k[5:]: data[k].item() for k in data.files if k.startswith("meta_")}
        return policy, meta


class Adam:
    def __init__(self, params: dict[str, np.ndarray], lr: float) -> None:
        self.lr, self.t = lr, 0
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}

    def ascend(self, params: dict[str, np.ndarray], grads: dict[str, np.ndarray]) -> None:
        self.t += 1
        for k, g in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            m_hat = self.m[k] / (1 - 0.9 ** self.t)
            v_hat = self.v[k] / (1 - 0.999 ** self.t)
            params[k] += (self.lr * m_hat / (np.sqrt(v_hat) + 1e-8)).astype(np.float32)


def play_episode(env: rl.SingleAgentEnv, policy: Policy, rng: np.random.Generator,
                 gamma: float) -> tuple[list[np.ndarray], list[np.ndarray], list[int], list[float], float]:
    obs, _ = env.reset(seed=int(rng.integers(2**31)))
    observations, masks, actions, rewards = [], [], [], []
    done = False
    while not done:
        _, probs = policy.probabilities(obs["observation"], obs["action_mask"])
        action = int(rng.choice(len(probs), p=probs / probs.sum()))
        observations.append(obs["observation"])
        masks.append(obs["action_mask"])
        actions.append(action)
        obs, reward, terminated, truncated, _ = env.step(action)
        rewards.append(reward)
        done = terminated or truncated
    returns = []
    running = 0.0
    for r in reversed(rewards):
        running = r + gamma * running
        returns.append(running)
    returns.reverse()
    won = 1.0 if env.game is not None and env.seat in env.game.winners else 0.0
    return observations, masks, actions, returns, won


def reinforce_gradients(policy: Policy, obs: np.ndarray, masks: np.ndarray, actions: np.ndarray,
                        advantages: np.ndarray, entropy: float) -> dict[str, np.ndarray]:
    p = policy.params
    hidden, probs = policy.probabilities(obs, masks)
    # d/dlogits of  A * log pi(a)  +  entropy * H(pi)
    d_logits = -probs * advantages[:, None]
    d_logits[np.arange(len(actions)), actions] += advantages
    log_p = np.log(np.where(probs > 0, probs, 1.0))
    h = -(probs * log_p).sum(axis=1, keepdims=True)
    d_logits += entropy * (-probs * (log_p + h))
    d_logits /= len(actions)
    d_hidden = (d_logits @ p["w2"].T) * (1 - hidden * hidden)
    return {"w2": hidden.T @ d_logits, "b2": d_logits.sum(0),
            "w1": obs.T @ d_hidden, "b1": d_hidden.sum(0)}


def train(args: argparse.Namespace) -> Policy:
    env = rl.SingleAgentEnv(map=args.map, players=args.players, opponents="random", reward="shaped")
    policy = Policy(env.encoder.size, env.codec.size, seed=args.seed)
    optimiser = Adam(policy.params, args.lr)
    rng = np.random.default_rng(args.seed)
    deadline = time.monotonic() + args.minutes * 60
    episodes, batch_no = 0, 0
    recent: list[float] = []
    while time.monotonic() < deadline and (args.episodes is None or episodes < args.episodes):
        batch = [play_episode(env, policy, rng, args.gamma) for _ in range(args.batch)]
        episodes += len(batch)
        recent = (recent + [b[4] for b in batch])[-200:]
        obs = np.stack([o for b in batch for o in b[0]])
        masks = np.stack([m for b in batch for m in b[1]])
        actions = np.array([a for b in batch for a in b[2]])
        returns = np.array([g for b in batch for g in b[3]], dtype=np.float32)
        advantages = (returns - returns.mean()) / (returns.std() + 1e-6)
        optimiser.ascend(policy.params, reinforce_gradients(policy, obs, masks, actions, advantages,
                                                            args.entropy))
        batch_no += 1
        if batch_no % 5 == 0:
            print(f"  {episodes:5d} episodes, win rate over the last {len(recent)}: {np.mean(recent):.2f}",
                  flush=True)
    print(f"trained on {episodes} episodes")
    return policy


class PolicyBot(Bot):
    """The trained policy as a bot, from the seat's view only: it samples its masked softmax as
    in training (seeded, so games replay), or takes the most likely action with ``greedy``."""

    name = "policy"

    def __init__(self, policy: Policy, players: int, cities: tuple[str, ...], seed: int = 0,
                 greedy: bool = False) -> None:
        super().__init__(seed)
        self.policy = policy
        self.greedy = greedy
        self.rng = np.random.default_rng(seed)
        self.encoder = rl.ObservationEncoder(players, len(cities))
        self.codec = rl.ActionCodec(cities)

    def act(self, view: pg.GameView) -> pg.Action:
        legal = self.codec.legal(view)
        _, probs = self.policy.probabilities(self.encoder.encode(view), legal.mask)
        if self.greedy:
            index = int(np.argmax(probs))
        else:
            index = int(self.rng.choice(len(probs), p=probs / probs.sum()))
        return self.codec.decode(index, legal)


def evaluate(policy: Policy, map_name: str, players: int, games: int, seed: int, greedy: bool) -> None:
    cities = tuple(pg.load_map(map_name).cities)

    def factory(spec: str, bot_seed: int) -> Bot:
        if spec == "policy":
            return PolicyBot(policy, players, cities, bot_seed, greedy)
        return make_bot(spec, bot_seed)

    config = pg.GameConfig(map=map_name, players=players)
    bots = ["policy"] + ["random"] * (players - 1)
    started = time.monotonic()
    result = run_tournament(config, bots, games, seed, bot_factory=factory)
    print(f"tournament: {games} games of {players}-player {map_name}, seats rotated, "
          f"{'greedy' if greedy else 'sampling'} policy "
          f"({time.monotonic() - started:.0f} s)")
    for row in result.summary():
        lo, hi = row.interval
        print(f"  {row.spec:<8} seats {row.games:4d}  win rate {row.win_rate:.3f} "
              f"(95% CI {lo:.3f}-{hi:.3f})  mean powered cities {row.powered_total / row.games:.1f}")
    print(f"  a uniformly random policy would win {1 / players:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--map", default="germany")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--minutes", type=float, default=4.0, help="training time")
    parser.add_argument("--episodes", type=int, help="stop after this many episodes (if sooner)")
    parser.add_argument("--batch", type=int, default=8, help="episodes per update")
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--gamma", type=float, default=0.99)
    parser.add_argument("--entropy", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("policy.npz"))
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--evaluate", type=Path, help="skip training: evaluate this saved policy")
    parser.add_argument("--greedy", action="store_true", help="evaluate the most likely action "
                        "instead of sampling the policy")
    args = parser.parse_args()
    if args.evaluate:
        policy, meta = Policy.load(args.evaluate)
        evaluate(policy, str(meta.get("map", args.map)), int(meta.get("players", args.players)),
                 args.eval_games, args.seed + 1, args.greedy)
        return
    policy = train(args)
    policy.save(args.out, map=args.map, players=args.players)
    print(f"saved {args.out}")
    evaluate(policy, args.map, args.players, args.eval_games, args.seed + 1, args.greedy)


if __name__ == "__main__":
    main()
