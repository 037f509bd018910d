"""Train the baseline policy that plays ``make_bot("learned")``: behaviour cloning of the plan-search
bot, then DAgger against heuristic bots, with numpy alone, from a seed.

    python examples/train_baseline.py --players 2 --seed 0 --logdir runs/bc-2p-s0 --out bc-2p-s0.npz
    python examples/train_baseline.py --evaluate bc-2p-s0.npz --players 2 --eval-games 400

Steps (every count and seed is an argument; the defaults are the shipped policy's):

1. **Teacher games.** ``--games`` games of ``--players``-player Germany; in even games the
   teacher (``--teacher``, default ``pimc:fast``) plays every seat, in odd ones one seat (rotated)
   against heuristic bots. Every teacher decision becomes a sample: the seat's observation
   (``powergrid.rl.observe``), its legal mask in the compact encoding, and the teacher's action
   as an index (a bid the compact encoding cannot express is replaced by the highest expressible
   legal bid below it; other inexpressible choices are left out).
2. **Cloning.** A multilayer perceptron (observation and the heuristic bot's action as a one-hot
   -> 256 -> 256 ReLU -> one logit per action, plus a learned weight on the heuristic's action;
   illegal actions masked) fitted by cross-entropy with Adam, ``--epochs`` passes
   (``--prior none``: the observation alone, no prior).
3. **DAgger** (``--dagger`` rounds): the student plays ``--dagger-games`` games in one seat
   against heuristic bots; at each of its decisions the teacher says what it would play there
   (the student's own choice is played); the new samples join the data and the network trains on.
   The student's wins in these games are a learning curve against the heuristic.
4. **Calibration.** The prior's weight, by decision group: the student plays
   ``--validation-games`` against heuristic bots on validation seeds with each of ``--boosts``
   added to the prior's weight everywhere, then with each of ``--group-boosts`` added on top in
   the auction, then in the other decisions together (``--calibrate-groups``); the best setting
   is kept in the saved weights (more weight: the student leaves the heuristic's choice only where
   it is surer of the teacher's).
   The saved policy also bids the heuristic's exact amount where it picks the heuristic's
   (rounded-down) index (``--exact-bids``).
5. **Evaluation.** A seat-rotated tournament (``powergrid.sim.run_tournament``) of the student,
   greedy, against heuristic bots, ``--eval-games`` games, with the 95% Wilson interval.

Learning curves go to ``--logdir``: ``progress.csv`` always, TensorBoard event files where
``torch.utils.tensorboard`` or ``tensorboardX`` imports; the final figures to ``result.json``.
Runs on CPU with ``--workers`` processes; all randomness comes from ``--seed``.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import time
from concurrent import futures
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

import powergrid as pg
from powergrid.bots import Bot, make_bot
from powergrid.rl.codec import ActionCodec
from powergrid.rl.learned import BIDS, PHASE_GROUPS, LearnedBot, MLPPolicy, action_index, prior_index
from powergrid.rl.observation import ObservationEncoder
from powergrid.sim import run_tournament
from powergrid.sim.seeds import derive_seed
from powergrid.sim.stats import wilson_interval

MAP = "germany"


# ----------------------------------------------------------------------------- samples
Data = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]  # observations, masks, actions, priors


class Recorder:
    def __init__(self, players: int) -> None:
        cities = tuple(pg.load_map(MAP).cities)
        self.codec = ActionCodec(cities, bids=BIDS)
        self.encoder = ObservationEncoder(players, len(cities))
        self.obs: list[np.ndarray] = []
        self.masks: list[np.ndarray] = []
        self.actions: list[int] = []
        self.priors: list[int] = []

    def record(self, view: pg.GameView, action: pg.Action) -> None:
        legal = self.codec.legal(view)
        index = action_index(self.codec, view, legal, action)
        if index is not None:
            self.obs.append(self.encoder.encode(view).astype(np.float16))
            self.masks.append(legal.mask.astype(bool))
            self.actions.append(index)
            prior = prior_index(self.codec, view, legal)
            self.priors.append(-1 if prior is None else prior)

    def arrays(self) -> Data:
        size = self.encoder.size
        return (np.array(self.obs, np.float16).reshape(-1, size),
                np.array(self.masks, bool).reshape(-1, self.codec.size), np.array(self.actions, np.int16),
                np.array(self.priors, np.int16))


def play(players: int, seed: int, game: int, teacher: str, policy: MLPPolicy | None,
         ) -> tuple[Data, int]:
    """One game; returns the teacher's samples and 1 if the student (or the watched seat) won.

    Without a policy: teacher games (even ``game``: the teacher everywhere). With one: the student
    in one seat against heuristic bots, the teacher labelling the student's decisions."""
    config = pg.GameConfig(map=MAP, players=players, seed=derive_seed(seed, "game", game))
    state = pg.new_game(config)
    watched = game % players
    everywhere = policy is None and game % 2 == 0
    bots: list[Bot] = []
    for s in range(players):
        bot_seed = derive_seed(seed, "bot", game, s)
        if s == watched:
            bots.append(LearnedBot(bot_seed, policy) if policy is not None else make_bot(teacher, bot_seed))
        else:
            bots.append(make_bot(teacher if everywhere else "heuristic", bot_seed))
    recorder = Recorder(players)
    labeller = make_bot(teacher, derive_seed(seed, "labeller", game)) if policy is not None else None
    while not state.is_over and state.decisions < 5000:
        seat = state.current_player
        assert seat is not None
        view = state.view(seat)
        action = bots[seat].act(view)
        if seat == watched or everywhere:
            if labeller is not None:
                # a fresh search each time: the search bot follows a plan once chosen, and the
                # student's moves are not that plan
                labeller = make_bot(teacher, derive_seed(seed, "label", game, state.decisions))
                recorder.record(view, labeller.act(view))
            else:
                recorder.record(view, action)
        state.apply(action)
    return recorder.arrays(), int(watched in state.winners)


def collect(players: int, seed: int, games: range, teacher: str, policy: MLPPolicy | None,
            workers: int) -> tuple[Data, float]:
    job = partial(play, players, seed, teacher=teacher, policy=policy)
    if workers > 1:
        with futures.ProcessPoolExecutor(workers) as pool:
            results = list(pool.map(job, games, chunksize=max(1, len(games) // (4 * workers))))
    else:
        results = [job(g) for g in games]
    parts = [r[0] for r in results]
    joined = tuple(np.concatenate([p[k] for p in parts]) for k in range(4))
    return joined, float(np.mean([r[1] for r in results])) if results else 0.0  # type: ignore[return-value]


# ----------------------------------------------------------------------------- the network
class Trainer:
    """The MLP with Adam, in numpy: masked softmax cross-entropy on the teacher's index. With a
    prior, the input ends with the heuristic's action as a one-hot and that action's logit gets
    a learned weight more (``MLPPolicy``'s prior)."""

    def __init__(self, sizes: list[int], seed: int, lr: float, prior: bool, prior_start: float = 3.0) -> None:
        rng = np.random.default_rng(seed)
        self.prior = prior
        self.actions = sizes[-1]
        if prior:
            sizes = [sizes[0] + self.actions, *sizes[1:]]
        self.params = []
        for i, (a, b) in enumerate(zip(sizes[:-1], sizes[1:], strict=True)):
            scale = np.sqrt(2.0 / a) if i < len(sizes) - 2 else 0.01 / np.sqrt(a)
            self.params += [(rng.standard_normal((a, b)) * scale).astype(np.float32), np.zeros(b, np.float32)]
        self.layers = len(self.params) // 2
        if prior:
            self.params.append(np.array([prior_start], np.float32))
        self.m = [np.zeros_like(p) for p in self.params]
        self.v = [np.zeros_like(p) for p in self.params]
        self.t = 0
        self.lr = lr
        self.rng = rng

    def _hint(self, priors: np.ndarray) -> np.ndarray:
        hint = np.zeros((len(priors), self.actions), np.float32)
        rows = np.flatnonzero(priors >= 0)
        hint[rows, priors[rows]] = 1.0
        return hint

    def forward(self, x: np.ndarray, priors: np.ndarray) -> tuple[list[np.ndarray], np.ndarray, np.ndarray]:
        hint = self._hint(priors) if self.prior else np.zeros((len(x), 0), np.float32)
        x = np.concatenate([x, hint], axis=1) if self.prior else x
        acts = [x]
        for i in range(self.layers):
            x = x @ self.params[2 * i] + self.params[2 * i + 1]
            if i < self.layers - 1:
                x = np.maximum(x, 0.0)
            acts.append(x)
        if self.prior:
            x = x + self.params[-1][0] * hint
        return acts, x, hint

    def step(self, x: np.ndarray, mask: np.ndarray, y: np.ndarray, priors: np.ndarray) -> tuple[float, float]:
        acts, logits, hint = self.forward(x, priors)
        logits = np.where(mask, logits, -1e9)
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        rows = np.arange(len(y))
        loss = float(-np.log(p[rows, y] + 1e-12).mean())
        accuracy = float((p.argmax(axis=1) == y).mean())
        grad = p
        grad[rows, y] -= 1.0
        grad /= len(y)
        grads: list[np.ndarray] = [np.empty(0)] * len(self.params)
        if self.prior:
            grads[-1] = np.array([(grad * hint).sum()], np.float32)
        for i in reversed(range(self.layers)):
            grads[2 * i] = acts[i].T @ grad
            grads[2 * i + 1] = grad.sum(axis=0)
            if i:
                grad = (grad @ self.params[2 * i].T) * (acts[i] > 0)
        self.t += 1
        b1, b2 = 0.9, 0.999
        for k, g in enumerate(grads):
            self.m[k] = b1 * self.m[k] + (1 - b1) * g
            self.v[k] = b2 * self.v[k] + (1 - b2) * g * g
            m_hat = self.m[k] / (1 - b1 ** self.t)
            v_hat = self.v[k] / (1 - b2 ** self.t)
            self.params[k] -= (self.lr * m_hat / (np.sqrt(v_hat) + 1e-8)).astype(np.float32)
        return loss, accuracy

    def accuracy(self, data: Data, rows: np.ndarray) -> float:
        hits = 0
        for start in range(0, len(rows), 4096):
            part = rows[start:start + 4096]
            _, logits, _ = self.forward(data[0][part].astype(np.float32), data[3][part].astype(np.int64))
            logits = np.where(data[1][part], logits, -np.inf)
            hits += int((logits.argmax(axis=1) == data[2][part]).sum())
        return hits / max(1, len(rows))

    def policy(self, players: int, cities: int) -> MLPPolicy:
        layers = [(self.params[2 * i].copy(), self.params[2 * i + 1].copy()) for i in range(self.layers)]
        weight = float(self.params[-1][0]) if self.prior else None
        return MLPPolicy(layers, players, cities, prior_weight=weight)


class Log:
    """progress.csv, and TensorBoard where it imports."""

    def __init__(self, logdir: Path, tensorboard: bool = True) -> None:
        logdir.mkdir(parents=True, exist_ok=True)
        self.file = (logdir / "progress.csv").open("w", newline="")
        self.csv = csv.writer(self.file)
        self.csv.writerow(["phase", "step", "metric", "value", "seconds"])
        self.start = time.time()
        self.tb: Any = None
        for module in ("torch.utils.tensorboard", "tensorboardX") if tensorboard else ():
            try:
                self.tb = __import__(module, fromlist=["SummaryWriter"]).SummaryWriter(str(logdir))
                break
            except ImportError:
                continue

    def __call__(self, phase: str, step: int, **values: float) -> None:
        for name, value in values.items():
            self.csv.writerow([phase, step, name, f"{value:.6g}", f"{time.time() - self.start:.1f}"])
            if self.tb is not None:
                self.tb.add_scalar(f"{phase}/{name}", value, step)
        self.file.flush()
        print(f"[{time.time() - self.start:7.1f}s] {phase} {step}: "
              + ", ".join(f"{k} {v:.4g}" for k, v in values.items()), flush=True)


def fit(trainer: Trainer, data: Data, epochs: int, batch: int, log: Log, phase: str,
        held_out: float = 0.05) -> None:
    x, mask, y, priors = data
    order = trainer.rng.permutation(len(y))
    cut = max(1, int(len(y) * held_out))
    test, train = order[:cut], order[cut:]
    agree = float((priors[test] == y[test]).mean())
    for epoch in range(epochs):
        trainer.rng.shuffle(train)
        losses, accs = [], []
        for start in range(0, len(train), batch):
            rows = train[start:start + batch]
            loss, acc = trainer.step(x[rows].astype(np.float32), mask[rows], y[rows].astype(np.int64),
                                     priors[rows].astype(np.int64))
            losses.append(loss)
            accs.append(acc)
        log(phase, epoch, loss=float(np.mean(losses)), train_accuracy=float(np.mean(accs)),
            held_out_accuracy=trainer.accuracy(data, test), heuristic_agreement=agree, samples=len(y))


# ----------------------------------------------------------------------------- evaluation
def learned_factory(path: str, boost: float, exact: bool | None, phase_boost: Any, spec: str,
                    seed: int) -> Bot:
    if spec == "learned":
        policy = MLPPolicy.load(path)
        if phase_boost is not None:
            policy.phase_boost = np.asarray(phase_boost, np.float32)
        if boost and policy.prior_weight is not None:
            policy.prior_weight += boost
        if exact is not None:
            policy.exact_bids = exact
        return LearnedBot(seed, policy)
    return make_bot(spec, seed)


def evaluate(path: str, players: int, games: int, seed: int, workers: int, boost: float = 0.0,
             purpose: str = "evaluation", exact: bool | None = None, phase_boost: Any = None,
             ) -> dict[str, Any]:
    bots = ["learned"] + ["heuristic"] * (players - 1)
    config = pg.GameConfig(map=MAP, players=players)
    result = run_tournament(config, bots, games, derive_seed(seed, purpose), workers=workers,
                            bot_factory=partial(learned_factory, path, boost, exact, phase_boost))
    played = [r for r in result.results if r.error is None]
    wins = sum(1.0 / len(r.winners) for r in played
               for s in r.seats if s.spec == "learned" and s.seat in r.winners)
    low, high = wilson_interval(wins, len(played))
    powered = [r.powered[s.seat] for r in played for s in r.seats if s.spec == "learned"]
    others = [r.powered[s.seat] for r in played for s in r.seats if s.spec != "learned"]
    return {"players": players, "games": len(played), "errors": len(result.results) - len(played),
            "wins": wins, "win_rate": wins / max(1, len(played)), "wilson95": [low, high],
            "powered": float(np.mean(powered)), "opponents_powered": float(np.mean(others))}


def calibrate(path: Path, args: argparse.Namespace, log: Log) -> dict[str, Any]:
    """Step 4: the prior's weight, by decision group. The student plays ``--validation-games``
    against heuristic bots on validation seeds (not the evaluation's) with each setting tried:
    first each of ``--boosts`` added to the prior's weight everywhere, then, group by group
    (``--calibrate-groups`` of ``PHASE_GROUPS``: the auction, resources, building, powering),
    each of ``--group-boosts``
    added to that group's weight on top; a setting is kept where it wins more validation games
    than the best so far. The weights are rewritten with the best setting (and the exact-bid rule
    on, ``--exact-bids``)."""
    policy = MLPPolicy.load(path)
    policy.exact_bids = args.exact_bids == "on"
    if not args.validation_games or policy.prior_weight is None:
        policy.save(path)
        return {"prior_boost": 0.0, "phase_boost": [0.0] * len(PHASE_GROUPS)}
    tried: dict[tuple[float, ...], float] = {}
    step = 0

    def score(boost: float, groups: tuple[float, ...]) -> float:
        nonlocal step
        key = (boost, *groups)
        if key not in tried:
            r = evaluate(str(path), args.players, args.validation_games, args.seed, args.workers, boost,
                         "validation", policy.exact_bids, list(groups))
            tried[key] = r["win_rate"]
            log("calibration", step, prior_boost=boost,
                **{f"boost_{name}": g for name, g in zip(PHASE_GROUPS, groups, strict=True)},
                validation_win_rate=r["win_rate"])
            step += 1
        return tried[key]

    zero = (0.0,) * len(PHASE_GROUPS)
    boosts = [float(b) for b in args.boosts.split(",")]
    best_boost = max(boosts, key=lambda b: (score(b, zero), -abs(b)))
    best_groups, best = zero, score(best_boost, zero)
    # each item: groups that move together ("resources+build+bureaucracy")
    searched = [{PHASE_GROUPS.index(name) for name in item.split("+")}
                for item in args.calibrate_groups.split(",") if item]
    for together in searched if args.group_boosts else ():
        for extra in (float(b) for b in args.group_boosts.split(",")):
            groups = tuple(extra if i in together else v for i, v in enumerate(best_groups))
            rate = score(best_boost, groups)
            if rate > best:
                best, best_groups = rate, groups
    policy.prior_weight += best_boost
    policy.phase_boost = np.array(best_groups, np.float32)
    policy.save(path)
    return {"prior_boost": best_boost, "phase_boost": list(best_groups), "validation_win_rate": best}


# ----------------------------------------------------------------------------- main
def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--teacher", default="pimc:fast")
    parser.add_argument("--games", type=int, default=500, help="teacher games")
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--dagger", type=int, default=3, help="DAgger rounds")
    parser.add_argument("--dagger-games", type=int, default=150)
    parser.add_argument("--dagger-epochs", type=int, default=4)
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--prior", choices=("heuristic", "none"), default="heuristic",
                        help="heuristic: the network sees the heuristic's action and starts from it")
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--batch", type=int, default=512)
    parser.add_argument("--eval-games", type=int, default=400)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--logdir", type=Path, default=Path("runs/baseline"))
    parser.add_argument("--out", type=Path, default=Path("baseline.npz"))
    parser.add_argument("--evaluate", type=Path, help="only evaluate these weights")
    parser.add_argument("--no-tensorboard", action="store_true", help="progress.csv only")
    parser.add_argument("--prior-boost", type=float, default=0.0,
                        help="with --evaluate: add this to the prior's weight (fewer departures "
                        "from the heuristic)")
    parser.add_argument("--boosts", default="0,2,5", help="prior-weight boosts tried on validation games")
    parser.add_argument("--group-boosts", default="-3,-1,1,3",
                        help="then, per decision group, these added to that group's prior weight ('': none)")
    parser.add_argument("--calibrate-groups", default="auction,resources+build+bureaucracy",
                        help="the decision groups whose boosts are searched in turn (a+b: together), of "
                        + ",".join(PHASE_GROUPS))
    parser.add_argument("--validation-games", type=int, default=600,
                        help="games per setting tried (0: no calibration)")
    parser.add_argument("--exact-bids", choices=("on", "off"), default="on",
                        help="where the policy picks the heuristic's index, bid the heuristic's exact amount")
    parser.add_argument("--calibrate", type=Path, help="only calibrate these weights (rewritten in place)")
    parser.add_argument("--validation", action="store_true",
                        help="with --evaluate: play the validation games (other seeds than the evaluation's)")
    parser.add_argument("--exact-bids-override", choices=("on", "off"),
                        help="with --evaluate: force the exact-bid rule on or off")
    args = parser.parse_args()

    if args.evaluate is not None:
        exact = {"on": True, "off": False}.get(args.exact_bids_override or "")
        result = evaluate(str(args.evaluate), args.players, args.eval_games, args.seed, args.workers,
                          args.prior_boost, "validation" if args.validation else "evaluation", exact)
        result["prior_boost"] = args.prior_boost
        result["exact_bids"] = MLPPolicy.load(args.evaluate).exact_bids if exact is None else exact
        print(json.dumps(result))
        return
    log = Log(args.logdir, tensorboard=not args.no_tensorboard)
    if args.calibrate is not None:
        print(json.dumps(calibrate(args.calibrate, args, log)))
        return
    started = time.time()
    data, _ = collect(args.players, args.seed, range(args.games), args.teacher, None, args.workers)
    log("teacher", 0, samples=len(data[2]), seconds=time.time() - started)
    cities = len(pg.load_map(MAP).cities)
    sizes = [data[0].shape[1], args.hidden, args.hidden, data[1].shape[1]]
    trainer = Trainer(sizes, derive_seed(args.seed, "network"), args.lr, prior=args.prior == "heuristic")
    fit(trainer, data, args.epochs, args.batch, log, "clone")
    trainer.policy(args.players, cities).save(args.out)
    next_game = args.games
    for round_ in range(args.dagger):
        policy = trainer.policy(args.players, cities)
        games = range(next_game, next_game + args.dagger_games)
        next_game += args.dagger_games
        new, win_rate = collect(args.players, args.seed, games, args.teacher, policy, args.workers)
        log("dagger", round_, student_win_rate_vs_heuristic=win_rate, new_samples=len(new[2]))
        data = tuple(np.concatenate([a, b]) for a, b in zip(data, new, strict=True))  # type: ignore[assignment]
        fit(trainer, data, args.dagger_epochs, args.batch, log, f"dagger{round_}")
        trainer.policy(args.players, cities).save(args.out)
    calibration = calibrate(args.out, args, log)
    train_seconds = time.time() - started
    result: dict[str, Any] = {}
    if args.eval_games:
        result = evaluate(str(args.out), args.players, args.eval_games, args.seed, args.workers)
    result.update({"seed": args.seed, "teacher": args.teacher, "train_seconds": train_seconds,
                   **calibration,
                   "samples": int(len(data[2])), "weights": str(args.out),
                   "args": {k: str(v) for k, v in vars(args).items()}})
    if args.eval_games:
        log("evaluation", 0, win_rate=result["win_rate"], wilson_low=result["wilson95"][0],
            wilson_high=result["wilson95"][1])
    (args.logdir / "result.json").write_text(json.dumps(result, indent=2))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
