"""Train the learned evaluator (powergrid.bots.value) on self-play games, and check it.

    python benchmarks/train_evaluator.py data --seed 1 --games 200 --workers 2 --out /tmp/train.npz
    python benchmarks/train_evaluator.py data --seed 9001 --games 100 --workers 2 --out /tmp/test.npz
    python benchmarks/train_evaluator.py fit --data /tmp/train.npz --seed 1 --write
    python benchmarks/train_evaluator.py check --data /tmp/test.npz

``data`` plays ``--games`` games of every set below with ``powergrid.sim`` (seeds derived from
``--seed``), replays each one and keeps every seat's features (only what that seat sees: the
features read public facts alone) at the start of every round and of every build phase, with
who won; the file also keeps each game's moves (``games``, ``actions``), so that a later run can
tell which games it played differently, and with ``--playouts K`` each position's shares of K
heuristic play-outs (for the coach's blend, ``blend``). ``fit`` fits the bots' ratings (the
first-place Plackett-Luce model: a seat's chance to win a table is ``exp(r)`` over the table's
sum; ``heuristic`` is 0) and then the network by
Adam on the log loss of the softmax over seats, numpy only, deterministic from ``--seed``;
``--write`` stores it in ``src/powergrid/bots/value_model.json``. ``check`` measures the
shipped (or ``--model``) evaluator on other games, per set, at the start of every round: Brier
score against the constant 1/players, and the calibration table by tenths of the predicted
chance (the gap between the mean prediction and the observed win rate in each tenth, with the
rate's standard error counted by games), with and without the players' ratings; ``--plot`` draws
one calibration curve per set.

Sets: ``heuristic-mirror`` (heuristic bots only, 2-6 players), ``erring`` (heuristics that choose
a random action now and then, at different rates), ``pimc-heuristic`` (one ``pimc:fast`` among
heuristics, 2-4 players), ``mixed`` (4 players drawn from random, greedy, bold, heuristic,
pimc:fast), ``random`` (random bots with heuristic and greedy ones, 2-4 players),
``expert-mirror`` (the evaluator-guided search, ``expert:fast``, in mirror),
``expert-heuristic`` (one ``expert:fast`` among heuristics, 2-4 players) and
``expert-default-mirror`` (its default level, ``expert``, in mirror; about four times slower) and
``expert-default-heuristic`` (one ``expert`` among heuristics), only with ``--sets``.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

import powergrid as pg
from powergrid.bots import make_bot, value
from powergrid.bots.playouts import playout_shares
from powergrid.rules.phase import AUCTION, BUILD
from powergrid.sim.game import GameSpec, play_game
from powergrid.sim.records import Seat
from powergrid.sim.seeds import derive_seed

sys.path.insert(0, str(Path(__file__).resolve().parent))
from erring import ERROR_RATES, bot_factory  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
MODEL_PATH = ROOT / "src/powergrid/bots" / value.MODEL_FILE
GOLDEN_PATH = ROOT / "tests/bots/value_golden.json"
MAX_SEATS = 6


def _heuristic_mirror(rng: random.Random) -> list[str]:
    return ["heuristic"] * rng.randint(2, 6)


def _erring(rng: random.Random) -> list[str]:
    rates = [rng.choice(ERROR_RATES) for _ in range(rng.randint(2, 6))]
    return [f"erring:{r}" if r else "heuristic" for r in rates]


def _pimc_heuristic(rng: random.Random) -> list[str]:
    seats = ["heuristic"] * rng.randint(2, 4)
    seats[rng.randrange(len(seats))] = "pimc:fast"
    return seats


def _mixed(rng: random.Random) -> list[str]:
    return [rng.choice(("random", "greedy", "bold", "heuristic", "pimc:fast")) for _ in range(4)]


def _random(rng: random.Random) -> list[str]:
    n = rng.randint(2, 4)
    seats = [rng.choice(("random", "heuristic", "greedy")) for _ in range(n)]
    seats[rng.randrange(n)] = "random"
    return seats


def _expert_mirror(rng: random.Random) -> list[str]:
    return ["expert:fast"] * rng.randint(2, 4)


def _expert_heuristic(rng: random.Random) -> list[str]:
    seats = ["heuristic"] * rng.randint(2, 4)
    seats[rng.randrange(len(seats))] = "expert:fast"
    return seats


def _expert_default_mirror(rng: random.Random) -> list[str]:
    return ["expert"] * rng.randint(2, 4)


def _expert_default_heuristic(rng: random.Random) -> list[str]:
    seats = ["heuristic"] * rng.randint(2, 4)
    seats[rng.randrange(len(seats))] = "expert"
    return seats


SETS: dict[str, Callable[[random.Random], list[str]]] = {
    "heuristic-mirror": _heuristic_mirror, "erring": _erring, "pimc-heuristic": _pimc_heuristic,
    "mixed": _mixed, "random": _random, "expert-mirror": _expert_mirror,
    "expert-default-mirror": _expert_default_mirror, "expert-heuristic": _expert_heuristic,
    "expert-default-heuristic": _expert_default_heuristic,
}
DEFAULT_SETS = ("heuristic-mirror", "erring", "pimc-heuristic", "mixed", "random")


def game_spec(set_name: str, master: int, index: int) -> GameSpec:
    rng = random.Random(derive_seed(master, set_name, index))
    bots = SETS[set_name](rng)
    config = pg.GameConfig(map=rng.choice(("germany", "usa")), players=len(bots),
                           seed=derive_seed(master, set_name, index, "game"))
    seats = tuple(Seat(s, b, derive_seed(master, set_name, index, "bot", s)) for s, b in enumerate(bots))
    return GameSpec(index, config, seats)


class Job(NamedTuple):
    """One game to record: its set, master seed and number; play-outs per position, and the small
    searches' budget and start for tables with searches (``value.ValueModel.search_playout_budget``,
    ``search_playout_from``; budget 0: heuristic play-outs only); the game's moves where it was
    played before (replayed, not played again)."""

    set_name: str
    master: int
    number: int
    playouts: int = 0
    search_budget: int = 0
    search_from: float = 1.0
    actions: tuple[str, ...] | None = None


def positions(job: Job) -> dict[str, Any] | None:
    """Play one game (or replay ``job.actions``) and return its positions: features per seat,
    winners, round, phase, and with ``job.playouts`` each seat's share of that many play-outs
    (``powergrid.bots.playouts``, played as the coach plays them: ``value.ValueModel.chances``)
    and whether small searches played them."""
    spec = game_spec(job.set_name, job.master, job.number)
    if job.actions is None:
        result = play_game(spec, bot_factory)
        if not result.ok:
            print("skipped a failed game:", (result.error or "").splitlines()[0], file=sys.stderr)
            return None
        actions = list(result.actions)
    else:
        actions = list(job.actions)
    bots = [s.spec for s in spec.seats]
    coach = replace(value.value_model(), search_playout_budget=job.search_budget,
                    search_playout_from=job.search_from)
    state = pg.new_game(spec.config)
    rows, rounds, phases, shares, searched = [], [], [], [], []
    last = None
    for text in actions:
        key = (state.round, state.phase)
        if key != last and state.phase in (AUCTION, BUILD):
            last = key
            rows.append(value.table_features(state).astype(np.float32))
            if job.playouts:
                by_searches = coach.searched_playouts(state, bots)
                shares.append(playout_shares(state, job.playouts, bots,
                                             job.search_budget if by_searches else 0))
                searched.append(by_searches)
            rounds.append(state.round)
            phases.append(state.phase)
        elif key != last:
            last = key
        state.apply(pg.parse_action(text))
    share = [1.0 / len(state.winners) if j in state.winners else 0.0 for j in range(state.players)]
    out = {"set": job.set_name, "game": job.number, "bots": bots, "x": np.stack(rows),
           "y": np.array(share), "round": np.array(rounds), "phase": np.array(phases),
           "actions": actions, "seed": job.master}
    if job.playouts:
        out["share"], out["playouts"] = np.stack(shares), job.playouts
        out["searched"] = np.array(searched, bool)
        out["search_budget"], out["search_from"] = job.search_budget, job.search_from
    return out


def collect(sets: list[str], games: int | dict[str, int], master: int, workers: int,
            deadline: float | None = None, playouts: int = 0, search_budget: int = 0,
            search_from: float = 1.0) -> list[dict[str, Any]]:
    """The positions of ``games`` games of each set (a count per set, or one for all), played
    on ``workers`` processes, with ``playouts`` play-outs of each position (small searches of
    ``search_budget`` calls for searches' seats from ``search_from`` on); at ``deadline`` (a
    ``time.monotonic()`` time) the games not yet finished are dropped."""
    counts = games if isinstance(games, dict) else dict.fromkeys(sets, games)
    jobs = sorted((Job(name, master, i, playouts, search_budget, search_from)
                   for name in sets for i in range(counts.get(name, 0))),
                  key=lambda job: (job.number, sets.index(job.set_name)))
    return run_jobs(jobs, workers, deadline)


def run_jobs(jobs: list[Job], workers: int, deadline: float | None = None) -> list[dict[str, Any]]:
    """``positions`` of every job, on ``workers`` processes, sorted by set and game."""
    out: list[dict[str, Any]] = []
    started = time.perf_counter()
    if workers <= 1 and deadline is None:
        out = [r for r in map(positions, jobs) if r is not None]
    else:
        pool = multiprocessing.get_context("spawn").Pool(workers)
        try:
            pending = pool.imap_unordered(positions, jobs)
            for n in range(1, len(jobs) + 1):
                wait = None if deadline is None else deadline - time.monotonic()
                if wait is not None and wait <= 0:
                    break
                try:
                    r = pending.next(timeout=wait)
                except multiprocessing.TimeoutError:
                    break
                if r is not None:
                    out.append(r)
                if n % max(1, len(jobs) // 10) == 0:
                    print(f"  {n}/{len(jobs)} games, {time.perf_counter() - started:.0f} s", file=sys.stderr)
        finally:
            pool.terminate()
            pool.join()
    out.sort(key=lambda g: (g["set"], g["game"]))
    return out


def save(games: list[dict[str, Any]], path: Path) -> None:
    """One npz: the tables padded to six seats (float16 features); the play-out shares where
    every game has them."""
    xs, ys, masks, bots, meta, shares, searched = [], [], [], [], [], [], []
    names = sorted({b for g in games for b in g["bots"]})
    sets = sorted({g["set"] for g in games})
    for g in games:
        x = g["x"]
        k, n, f = x.shape
        pad = np.zeros((k, MAX_SEATS, f), np.float16)
        pad[:, :n] = x
        xs.append(pad)
        y = np.zeros(MAX_SEATS)
        y[:n] = g["y"]
        ys.append(np.tile(y, (k, 1)))
        if "share" in g:
            q = np.zeros((k, MAX_SEATS), np.float32)
            q[:, :n] = g["share"]
            shares.append(q)
            searched.append(g["searched"])
        m = np.zeros(MAX_SEATS, bool)
        m[:n] = True
        masks.append(np.tile(m, (k, 1)))
        b = np.full(MAX_SEATS, -1, np.int16)
        b[:n] = [names.index(s) for s in g["bots"]]
        bots.append(np.tile(b, (k, 1)))
        meta.append(np.stack([np.full(k, sets.index(g["set"])), np.full(k, g["game"]), g["round"],
                              g["phase"]], axis=1))
    extra = ({"share": np.concatenate(shares), "playouts": np.array(games[0]["playouts"]),
              "searched": np.concatenate(searched), "search_budget": np.array(games[0]["search_budget"]),
              "search_from": np.array(games[0]["search_from"])}
             if shares and len(shares) == len(games) else {})
    if games and "seed" in games[0]:
        extra["seed"] = np.array(games[0]["seed"])
    if all("actions" in g for g in games):
        # each game's moves, so that a later run can tell which games it played differently
        extra["games"] = np.array([f"{g['set']}/{g['game']}" for g in games])
        extra["actions"] = np.array([" | ".join(g["actions"]) for g in games])
    np.savez_compressed(path, x=np.concatenate(xs), y=np.concatenate(ys).astype(np.float32),
                        mask=np.concatenate(masks), bots=np.concatenate(bots), meta=np.concatenate(meta),
                        names=np.array(names), sets=np.array(sets), features=np.array(value.FEATURES),
                        **extra)


def load(paths: list[str]) -> dict[str, np.ndarray]:
    """Datasets merged (bot and set indices remapped to the merged name lists)."""
    parts = [dict(np.load(p)) for p in paths]
    names = sorted({str(n) for p in parts for n in p["names"]})
    sets = sorted({str(n) for p in parts for n in p["sets"]})
    for number, p in enumerate(parts):
        if list(p["features"]) != list(value.FEATURES):
            raise SystemExit("the data was made with other features: make it again")
        remap = np.array([names.index(str(n)) for n in p["names"]] + [-1])
        p["bots"] = np.where(p["bots"] >= 0, remap[p["bots"]], -1)
        smap = np.array([sets.index(str(n)) for n in p["sets"]])
        p["meta"] = p["meta"].copy()
        p["meta"][:, 0] = smap[p["meta"][:, 0]]
        # one key per game: sets and files apart
        p["meta"][:, 1] += 1_000_000 * p["meta"][:, 0] + 100_000_000 * number
    keys = ["x", "y", "mask", "bots", "meta"] + (["share"] if all("share" in p for p in parts) else [])
    out = {k: np.concatenate([p[k] for p in parts]) for k in keys}
    if "share" in out:
        counts = {int(p["playouts"]) for p in parts}
        if len(counts) > 1:
            raise SystemExit(f"the data files have play-outs of different counts: {sorted(counts)}")
        out["playouts"] = np.array(counts.pop())
        # files made before small searches played out searches' seats: none did
        out["searched"] = np.concatenate([p.get("searched", np.zeros(len(p["x"]), bool)) for p in parts])
        plays = {(int(p["search_budget"]), round(float(p["search_from"]), 6)) for p in parts
                 if "searched" in p and p["searched"].any()}
        if len(plays) > 1:
            raise SystemExit(f"the data files' small searches differ (budget, from): {sorted(plays)}")
        budget, start = plays.pop() if plays else (0, 1.0)
        out["search_budget"], out["search_from"] = np.array(budget), np.array(start)
    out["names"], out["sets"] = np.array(names), np.array(sets)
    return out


def subset(data: dict[str, np.ndarray], rows: np.ndarray) -> dict[str, np.ndarray]:
    """The data of these rows (a mask or indices); what describes the whole file stays."""
    return {k: v if v.ndim == 0 or k in ("names", "sets") else v[rows] for k, v in data.items()}


# ---------------------------------------------------------------- fitting
def bot_onehot(bots: np.ndarray, names: int) -> np.ndarray:
    """(rows × seats × names): 1 where the seat is played by that bot (-1 in ``bots``: no seat)."""
    onehot = np.zeros((*bots.shape, names))
    rows, seats = np.nonzero(bots >= 0)
    onehot[rows, seats, bots[rows, seats]] = 1.0
    return onehot


def network_scores(model: value.ValueModel, data: dict[str, np.ndarray],
                   ratings: np.ndarray | None = None) -> np.ndarray:
    """Each row's seat scores before the temperature and softness (0 where there is no seat)."""
    base = replace(model, temperature=1.0)
    out = np.zeros(data["y"].shape)
    for i in range(len(data["x"])):
        n = int(data["mask"][i].sum())
        out[i, :n] = base.scores(data["x"][i, :n].astype(np.float64),
                                 None if ratings is None else ratings[i, :n])
    return out


def fit_ratings(data: dict[str, np.ndarray], prior: float = 3.0) -> dict[str, float]:
    """Bot ratings from who won each game (one row per game), heuristic fixed at 0."""
    names = [str(n) for n in data["names"]]
    first = np.unique(data["meta"][:, 1], return_index=True)[1]
    bots, y, mask = data["bots"][first], data["y"][first], data["mask"][first]
    r = np.zeros(len(names))
    fixed = names.index("heuristic") if "heuristic" in names else None
    onehot = bot_onehot(bots, len(names))
    for _ in range(3000):
        s = onehot @ r
        s = np.where(mask, s, -1e9)
        p = np.exp(s - s.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        grad = np.einsum("gj,gjk->k", p - y, onehot) + r / prior**2
        r -= 0.5 * grad / len(first) * 20
        if fixed is not None:
            r -= r[fixed]
    return {n: round(float(v), 4) for n, v in zip(names, r, strict=True)}


def rating_table(data: dict[str, np.ndarray], ratings: dict[str, float]) -> np.ndarray:
    table = np.array([ratings.get(str(n), 0.0) for n in data["names"]] + [0.0])
    return np.where(data["bots"] >= 0, table[data["bots"]], 0.0)


def table_softness(data: dict[str, np.ndarray], softness: dict[str, float]) -> np.ndarray:
    """Each position's table softness: the mean of its players' (value.ValueModel.softness)."""
    table = np.array([softness.get(str(n), 0.0) for n in data["names"]] + [0.0])
    per_seat = np.where(data["bots"] >= 0, table[data["bots"]], 0.0)
    result: np.ndarray = per_seat.sum(axis=1) / np.maximum(data["mask"].sum(axis=1), 1)
    return result


class Net:
    """The evaluator's network during training (forward and backward, numpy)."""

    def __init__(self, f: int, h1: int, h2: int, rng: np.random.Generator) -> None:
        self.p = {"w1": rng.normal(0, 1 / math.sqrt(f), (f, h1)), "b1": np.zeros(h1),
                  "w2": rng.normal(0, 1 / math.sqrt(h1), (h1, h2)), "b2": np.zeros(h2),
                  "w3": rng.normal(0, 0.1 / math.sqrt(h2), h2), "skip": np.zeros(f),
                  "skill": np.array(1.0), "fade": np.array(0.0)}

    def loss(self, z: np.ndarray, y: np.ndarray, mask: np.ndarray, r: np.ndarray,
             t: np.ndarray, grads: bool = True) -> tuple[float, dict[str, np.ndarray]]:
        p = self.p
        a1 = z @ p["w1"] + p["b1"]
        h1 = np.maximum(a1, 0)
        a2 = h1 @ p["w2"] + p["b2"]
        h2 = np.maximum(a2, 0)
        k = p["skill"] + p["fade"] * t[:, None]
        s = h2 @ p["w3"] + z @ p["skip"] + k * r
        s = np.where(mask, s, -1e9)
        s = s - s.max(axis=1, keepdims=True)
        e = np.exp(s)
        q = e / e.sum(axis=1, keepdims=True)
        n = len(z)
        loss = float(-(y * np.log(np.maximum(q, 1e-12))).sum() / n)
        if not grads:
            return loss, {}
        ds = (q - y) * mask / n
        g: dict[str, np.ndarray] = {"w3": np.einsum("bj,bjh->h", ds, h2),
                                    "skip": np.einsum("bj,bjf->f", ds, z),
                                    "skill": np.array((ds * r).sum()),
                                    "fade": np.array((ds * r * t[:, None]).sum())}
        dh2 = ds[:, :, None] * p["w3"] * (a2 > 0)
        g["w2"] = np.einsum("bjh,bjk->hk", h1, dh2)
        g["b2"] = dh2.sum(axis=(0, 1))
        dh1 = (dh2 @ p["w2"].T) * (a1 > 0)
        g["w1"] = np.einsum("bjf,bjh->fh", z, dh1)
        g["b1"] = dh1.sum(axis=(0, 1))
        return loss, g


def fit(data: dict[str, np.ndarray], seed: int, epochs: int, hidden: tuple[int, int] = (48, 24),
        l2: float = 1e-4, batch: int = 256) -> value.ValueModel:
    ratings = fit_ratings(data)
    x = data["x"].astype(np.float64)
    mask = data["mask"]
    flat = x[mask]
    mean = flat.mean(axis=0)
    scale = flat.std(axis=0) + 1e-3
    z = np.where(mask[:, :, None], (x - mean) / scale, 0.0)
    y = data["y"].astype(np.float64)
    r = rating_table(data, ratings)
    t = x[:, 0, value.FEATURES.index("progress")]
    games = np.unique(data["meta"][:, 1])
    rng = np.random.default_rng(seed)
    valid_games = set(rng.choice(games, size=max(1, len(games) // 10), replace=False).tolist())
    valid = np.array([g in valid_games for g in data["meta"][:, 1]])
    train_idx = np.nonzero(~valid)[0]
    net = Net(z.shape[2], hidden[0], hidden[1], rng)
    m = {k: np.zeros_like(v) for k, v in net.p.items()}
    v2 = {k: np.zeros_like(v) for k, v in net.p.items()}
    step, lr = 0, 3e-3
    best = (1e9, {k: a.copy() for k, a in net.p.items()})
    for epoch in range(epochs):
        order = rng.permutation(train_idx)
        for i in range(0, len(order), batch):
            b = order[i:i + batch]
            _, g = net.loss(z[b], y[b], mask[b], r[b], t[b])
            step += 1
            for k in net.p:
                if k in ("w1", "w2", "skip"):
                    g[k] = g[k] + l2 * net.p[k]
                m[k] = 0.9 * m[k] + 0.1 * g[k]
                v2[k] = 0.999 * v2[k] + 0.001 * g[k] ** 2
                mh = m[k] / (1 - 0.9 ** step)
                vh = v2[k] / (1 - 0.999 ** step)
                net.p[k] = net.p[k] - lr * mh / (np.sqrt(vh) + 1e-8)
        vl, _ = net.loss(z[valid], y[valid], mask[valid], r[valid], t[valid], grads=False)
        tl, _ = net.loss(z[train_idx[:20000]], y[train_idx[:20000]], mask[train_idx[:20000]],
                         r[train_idx[:20000]], t[train_idx[:20000]], grads=False)
        print(f"  epoch {epoch + 1}: train loss {tl:.4f}, validation loss {vl:.4f}", file=sys.stderr)
        if vl < best[0]:
            best = (vl, {k: a.copy() for k, a in net.p.items()})
        if epoch >= 8 and epoch % 8 == 0:
            lr *= 0.6
    p = best[1]
    model = value.ValueModel(mean, scale, p["w1"], p["b1"], p["w2"], p["b2"], p["w3"], p["skip"],
                             float(p["skill"]), float(p["fade"]), ratings,
                             {"trained_on": f"{len(games)} self-play games ({len(x)} positions), sets "
                                            + ", ".join(str(s) for s in data["sets"]),
                              "seed": seed, "epochs": epochs, "hidden": list(hidden)})
    return temper(model, data, seed)


def validation_games(data: dict[str, np.ndarray], seed: int) -> np.ndarray:
    """The rows of the tenth of the games that ``fit`` keeps apart (the same draw)."""
    games = np.unique(data["meta"][:, 1])
    rng = np.random.default_rng(seed)
    chosen = set(rng.choice(games, size=max(1, len(games) // 10), replace=False).tolist())
    return np.array([g in chosen for g in data["meta"][:, 1]])


def temper(model: value.ValueModel, data: dict[str, np.ndarray], seed: int) -> value.ValueModel:
    """The model with the temperature that fits the held-out training games best (log loss)."""
    valid = validation_games(data, seed)
    part = subset(data, valid)
    scores = np.where(part["mask"], network_scores(model, part, rating_table(part, model.ratings)), -1e9)
    best = (1e9, 1.0)
    for temperature in np.arange(0.7, 1.61, 0.02):
        z = scores / temperature
        z = z - z.max(axis=1, keepdims=True)
        logq = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
        loss = float(-(part["y"] * np.where(part["mask"], logq, 0.0)).sum() / len(z))
        if loss < best[0]:
            best = (loss, float(round(temperature, 2)))
    print(f"  temperature {best[1]} (validation log loss {best[0]:.4f})", file=sys.stderr)
    return replace(model, temperature=best[1])


STYLE_RIDGE = 1e-3  # the style weights' penalty, per position (each bot has a dozen of them)


class PlayersFit:
    """The log loss of the players' part (``rerate``) and its gradient, the network's scores fixed.

    The parameters, in order: each bot's rating; its softness at the start, the softness's change
    by the end (progress 1) and how much softer it is at a two-player table; each bot's style (a
    weight per seat feature, on the seat's lead over the best rival, times progress); and the
    rating factor's fade. Each bot's softness acts in proportion to its part of the table
    (``share``); its rating and style on its own seats (``onehot``)."""

    def __init__(self, net: np.ndarray, y: np.ndarray, mask: np.ndarray, t: np.ndarray,
                 onehot: np.ndarray, share: np.ndarray, skill: float, temperature: float,
                 prior: float, rival: np.ndarray | None = None) -> None:
        self.net, self.y, self.mask, self.t = net, y, mask, t
        self.onehot, self.share = onehot, share
        self.skill, self.temperature, self.prior = skill, temperature, prior
        # the scaled rival features of every seat (rows × seats × features), as the model reads them
        self.rival = np.zeros((*mask.shape, len(value.SEAT_FEATURES))) if rival is None else rival
        # what each block of softness entries is multiplied by at each position
        self.soft_terms = (np.ones(len(t)), t, (mask.sum(axis=1) == 2).astype(np.float64))

    def size(self) -> int:
        k_names = self.share.shape[1]
        return k_names * (1 + len(self.soft_terms) + self.rival.shape[2]) + 1

    def loss_and_grad(self, params: np.ndarray) -> tuple[float, np.ndarray]:
        k_names, features = self.share.shape[1], self.rival.shape[2]
        mask, t, y, share, count = self.mask, self.t, self.y, self.share, len(self.y)
        ridge = self.prior**2 * count
        rho, fade = params[:k_names], params[-1]
        blocks = [params[k_names * (1 + i):k_names * (2 + i)] for i in range(len(self.soft_terms))]
        start = k_names * (1 + len(self.soft_terms))
        style = params[start:-1].reshape(k_names, features)
        k = self.skill + fade * t
        r = self.onehot @ rho
        seat_style = np.einsum("bjk,kf->bjf", self.onehot, style)
        raw = self.net + k[:, None] * r + t[:, None] * (self.rival * seat_style).sum(axis=2)
        log_soft = sum((share @ tau) * term for tau, term in zip(blocks, self.soft_terms, strict=True))
        spread = self.temperature * np.exp(log_soft)
        s = np.where(mask, raw / spread[:, None], -1e9)
        s = s - s.max(axis=1, keepdims=True)
        q = np.exp(s)
        q /= q.sum(axis=1, keepdims=True)
        penalty = ((params[:start] ** 2).sum()) / (2 * ridge) + STYLE_RIDGE * (style**2).sum()
        loss = float(-(y * np.log(np.maximum(q, 1e-12))).sum() / count + penalty)
        ds = (q - y) * mask / count  # d loss / d s
        draw = ds / spread[:, None]
        g_rho = np.einsum("bj,bjk->k", draw * k[:, None], self.onehot) + rho / ridge
        du = -(ds * np.where(mask, raw / spread[:, None], 0.0)).sum(axis=1)  # d loss / d log spread
        g_soft = [share.T @ (du * term) + tau / ridge for tau, term in zip(blocks, self.soft_terms,
                                                                          strict=True)]
        g_style = (np.einsum("bj,bjf,bjk->kf", draw * t[:, None], self.rival, self.onehot)
                   + 2 * STYLE_RIDGE * style)
        g_fade = float((draw * r * t[:, None]).sum())
        return loss, np.concatenate([g_rho, *g_soft, g_style.ravel(), [g_fade]])


def rerate(model: value.ValueModel, data: dict[str, np.ndarray], prior: float = 3.0,
           steps: int = 800, only: frozenset[str] = frozenset()) -> value.ValueModel:
    """The model with its players' part refitted, the network frozen: each bot's rating,
    softness (at the start, its change by the end, and at two players), and the rating factor's
    fade, by full-batch Adam on the log loss of every position (``PlayersFit``), given what the
    network already reads from the position (the rating factor at the start stays, fixing the
    scale; ``heuristic`` stays at 0 in all). First-place ratings fitted on whole games
    (``fit_ratings``) tell the strengths apart but not how much the position already says (greedy
    beat random in 62% of their 2-player games where those ratings, added to the position, said
    81%), nor how far a lead holds between strong players (in `expert` mirrors, leaders given 74%
    won 58%). The network, and so the search's judgement (it reads positions alone), is unchanged.

    With ``only`` (bot names), just those bots' rating and softness entries are fitted,
    from what the model says of them now (a level it has not seen borrows its kind's); every other
    entry and the rating's fade stay as they are: a new level is added without touching the
    figures of the others."""
    names = [str(n) for n in data["names"]]
    x = data["x"].astype(np.float64)
    mask, y = data["mask"], data["y"].astype(np.float64)
    t = x[:, 0, value.FEATURES.index("progress")]
    net = network_scores(model, data)
    onehot = bot_onehot(data["bots"], len(names))
    share = onehot.sum(axis=1) / mask.sum(axis=1, keepdims=True)  # each bot's part of the table
    fixed = names.index("heuristic") if "heuristic" in names else None
    k_names, features = len(names), len(value.SEAT_FEATURES)
    rival = (x[:, :, value.RIVAL] - model.mean[value.RIVAL]) / model.scale[value.RIVAL]
    fitting = PlayersFit(net, y, mask, t, onehot, share, model.skill, model.temperature, prior,
                         np.where(mask[:, :, None], rival, 0.0))
    loss_and_grad = fitting.loss_and_grad
    if only:  # from what the model says now; only those bots' entries move
        params = np.concatenate([[model.rating(n) for n in names], [model.soft(n) for n in names],
                                 [model.soft_fade(n) for n in names],
                                 [model.soft_pair(n) for n in names],
                                 np.concatenate([model.style_of(n) for n in names]), [model.skill_fade]])
        chosen = [n in only for n in names]
        free = np.array(chosen * 4 + [c for c in chosen for _ in range(features)] + [False])
    else:
        # from the first-place ratings, no softness, style or fade, whatever the model held: the
        # result depends on the network and the games alone, so a rerun gives the same model
        start = fit_ratings(data)
        params = np.concatenate([[start[n] for n in names], np.zeros(fitting.size() - k_names)])
        free = np.ones(len(params), dtype=bool)
    styles = 4 * k_names  # where the style weights start

    start, _ = loss_and_grad(params)
    m1, m2 = np.zeros_like(params), np.zeros_like(params)
    for step in range(1, steps + 1):
        _, g = loss_and_grad(params)
        g = np.where(free, g, 0.0)
        m1 = 0.9 * m1 + 0.1 * g
        m2 = 0.999 * m2 + 0.001 * g**2
        params -= 0.02 * (m1 / (1 - 0.9**step)) / (np.sqrt(m2 / (1 - 0.999**step)) + 1e-9)
        if fixed is not None and not only:
            params[:k_names] -= params[fixed]
            params[[k_names * block + fixed for block in (1, 2, 3)]] = 0.0  # nor any softness
            params[styles + features * fixed:styles + features * (fixed + 1)] = 0.0  # nor style
    end, _ = loss_and_grad(params)
    print(f"  players' part refitted: log loss {start:.4f} -> {end:.4f}", file=sys.stderr)
    games = len(np.unique(data["meta"][:, 1]))
    sets = ", ".join(str(n) for n in data["sets"])
    def entries(start: int, keep: dict[str, float], who: frozenset[str] | None) -> dict[str, float]:
        fitted = {n: round(float(params[start + i]), 4) for i, n in enumerate(names)
                  if (n in who if who is not None else n != "heuristic")}
        return {**keep, **fitted}

    def style(keep: dict[str, list[float]], who: frozenset[str] | None) -> dict[str, list[float]]:
        fitted = {n: [round(float(w), 4) for w in params[styles + features * i:styles + features * (i + 1)]]
                  for i, n in enumerate(names) if (n in who if who is not None else n != "heuristic")}
        return {**keep, **fitted}

    if only:
        added = (f"{', '.join(sorted(only))}: rating, softness and style fitted with everything else "
                 f"frozen (train_evaluator.py rerate --only) on {games} games, sets {sets}")
        earlier = model.about.get("added")
        about = {**model.about, "added": f"{earlier}; then {added}" if earlier else added}
        return replace(model, ratings=entries(0, model.ratings, only),
                       softness=entries(k_names, model.softness, only),
                       softness_fade=entries(2 * k_names, model.softness_fade, only),
                       softness_pair=entries(3 * k_names, model.softness_pair, only),
                       style=style(model.style, only), about=about)
    ratings = {n: round(float(v), 4) for n, v in zip(names, params[:k_names], strict=True)}
    about = {**model.about, "players": f"ratings, softness and fades refitted with the network "
                                       f"frozen (train_evaluator.py rerate) on {games} games, sets "
                                       f"{sets}"}
    return replace(model, ratings=ratings, softness=entries(k_names, {}, None),
                   softness_fade=entries(2 * k_names, {}, None),
                   softness_pair=entries(3 * k_names, {}, None), style=style({}, None),
                   skill_fade=round(float(params[-1]), 6), about=about)


def golden(model: value.ValueModel) -> dict[str, Any]:
    """The model's output at a fixed position (tests/bots/test_value.py checks it)."""
    state = pg.new_game(pg.GameConfig(map="germany", players=4, seed=11))
    bots = [make_bot("heuristic", i) for i in range(4)]
    while state.round < 6:
        seat = state.current_player
        assert seat is not None
        state.apply(bots[seat].act(state.view(seat)))
    players = ["pimc", None, None, None]
    searches = ["expert:fast", "expert", "expert:fast", "heuristic"]  # ratings and softness
    late = late_position()
    late_table = ["expert:fast", "heuristic", "expert"]  # small searches play the play-outs
    return {"features": value.table_features(state).tolist(), "chances": model.chances(state),
            "players": players, "chances_with_players": model.chances(state, players),
            "searches": searches, "chances_with_searches": model.chances(state, searches),
            "evaluator_alone": model.chances(state, searches, playouts=False),
            "late_features": value.table_features(late).tolist(), "late_searches": late_table,
            "late_chances_with_searches": model.chances(late, late_table)}


def late_position() -> pg.GameState:
    """A 3-player game played by heuristics until its leader holds 12 of the 17 cities, at an
    auction's start (the golden output's late position)."""
    state = pg.new_game(pg.GameConfig(map="germany", players=3, seed=5))
    bots = [make_bot("heuristic", i) for i in range(3)]
    while value.progress(state) < 12 / 17 or state.phase != AUCTION:
        seat = state.current_player
        assert seat is not None
        state.apply(bots[seat].act(state.view(seat)))
    return state


# ---------------------------------------------------------------- checking
def seat_scores(model: value.ValueModel, data: dict[str, np.ndarray], with_ratings: bool) -> np.ndarray:
    """Each row's seat scores as the model gives them before the softmax (0 where there is no
    seat), with the players' part where ``with_ratings``; without the play-out blend."""
    out = np.zeros_like(data["y"], dtype=np.float64)
    # looked up as the coach does: a level the model was not fitted on takes its kind's entries
    names = [str(n) for n in data["names"]]
    r = rating_table(data, {n: model.rating(n) for n in names}) if with_ratings else None
    none = np.zeros(len(data["x"]))
    pair = data["mask"].sum(axis=1) == 2
    soft = (table_softness(data, {n: model.soft(n) for n in names})
            + pair * table_softness(data, {n: model.soft_pair(n) for n in names})
            if with_ratings else none)
    soft_fade = table_softness(data, {n: model.soft_fade(n) for n in names}) if with_ratings else none
    table = np.array([model.style_of(n) for n in names] + [np.zeros(len(value.SEAT_FEATURES))])
    styles = table[data["bots"]] if with_ratings else None  # -1 (no seat): the zeros at the end
    for i in range(len(data["x"])):
        n = int(data["mask"][i].sum())
        out[i, :n] = model.scores(data["x"][i, :n].astype(np.float64), None if r is None else r[i, :n],
                                  None, float(soft[i]), float(soft_fade[i]),
                                  None if styles is None else styles[i, :n])
    return out


def softmax_rows(scores: np.ndarray, mask: np.ndarray) -> np.ndarray:
    s = np.where(mask, scores, -np.inf)
    e = np.exp(s - s.max(axis=1, keepdims=True))
    out: np.ndarray = e / e.sum(axis=1, keepdims=True)
    return out


def predictions(model: value.ValueModel, data: dict[str, np.ndarray], with_ratings: bool,
                playouts: bool = False) -> np.ndarray:
    """Each row's chances; with ``playouts`` blended with the data's play-out shares as the coach
    blends them (``value.ValueModel.blend``, with the players' blend weights where
    ``with_ratings``, else the heuristic's)."""
    scores = seat_scores(model, data, with_ratings)
    if playouts:
        t = data["x"][:, 0, value.FEATURES.index("progress")].astype(np.float64)
        names = [str(n) for n in data["names"]]
        for i in range(len(scores)):
            n = int(data["mask"][i].sum())
            seats = [names[b] if with_ratings else None for b in data["bots"][i, :n]]
            scores[i, :n] = model.blend(scores[i, :n], data["share"][i, :n].astype(np.float64),
                                        float(t[i]), model.blend_weights(seats, bool(data["searched"][i])))
    return softmax_rows(scores, data["mask"])


def log_smoothed(model: value.ValueModel, data: dict[str, np.ndarray], scores: np.ndarray) -> np.ndarray:
    """The log of each seat's play-out share smoothed toward the chance of ``scores``, as
    the coach takes it (``value.ValueModel.smoothed``; 0 where there is no seat)."""
    out = np.zeros_like(scores)
    for i in range(len(scores)):
        n = int(data["mask"][i].sum())
        out[i, :n] = np.log(model.smoothed(data["share"][i, :n].astype(np.float64), scores[i, :n]))
    return out


class BlendFit:
    """The log loss of the coach's blend (``value.ValueModel.blend``) and its gradient, the
    evaluator's scores fixed: five weights per bot (the evaluator's score's at the start and its
    change by the end, the log play-out share's at the start and its change, a clean sweep's),
    a table weighed by its players' mean; a ridge toward the evaluator alone (1, 0, 0, 0, 0)."""

    CENTER = np.array([1.0, 0.0, 0.0, 0.0, 0.0])

    def __init__(self, scores: np.ndarray, log_share: np.ndarray, y: np.ndarray, mask: np.ndarray,
                 t: np.ndarray, share: np.ndarray, swept: np.ndarray | None = None,
                 ridge: float = 1e-4) -> None:
        self.scores, self.log_share = np.where(mask, scores, 0.0), np.where(mask, log_share, 0.0)
        self.swept = np.zeros_like(self.scores) if swept is None else np.where(mask, swept, 0.0)
        self.y, self.mask, self.t, self.share, self.ridge = y, mask, t, share, ridge

    def loss_and_grad(self, params: np.ndarray) -> tuple[float, np.ndarray]:
        w = params.reshape(-1, 5)
        tw = self.share @ w
        t, count = self.t, len(self.y)
        a = tw[:, 0] + tw[:, 1] * t
        b = tw[:, 2] + tw[:, 3] * t
        z = a[:, None] * self.scores + b[:, None] * self.log_share + tw[:, 4:5] * self.swept
        z = np.where(self.mask, z, -np.inf)
        z = z - z.max(axis=1, keepdims=True)
        q = np.exp(z)
        q /= q.sum(axis=1, keepdims=True)
        off = w - self.CENTER
        loss = float(-(self.y * np.log(np.maximum(q, 1e-12))).sum() / count + self.ridge * (off**2).sum())
        dz = (q - self.y) * self.mask / count
        da = (dz * self.scores).sum(axis=1)
        db = (dz * self.log_share).sum(axis=1)
        dc = (dz * self.swept).sum(axis=1)
        g = self.share.T @ np.stack([da, da * t, db, db * t, dc], axis=1) + 2 * self.ridge * off
        return loss, g.ravel()


def fit_blend(model: value.ValueModel, data: dict[str, np.ndarray], steps: int = 1500,
              prior: float = 2.0, only: frozenset[str] = frozenset(),
              searched_only: bool = False) -> value.ValueModel:
    """The model with the coach's blend fitted on ``data`` (which holds play-out shares): every
    bot's weights at once, by full-batch Adam on the log loss of every position, everything
    else frozen (the network, the players' part); the weights of the positions that small
    searches played out (``searched``) apart, as ``search_weights``, with the data's small
    searches (budget, start) stored in the model. With ``only``, just those bots' weights for
    heuristic play-outs are fitted, the others' kept as the model has them (the small searches'
    weights are fitted for every bot: they sit only at tables with searches, and have a clean
    sweep's weight too); with ``searched_only`` the heuristic play-outs' weights are all kept.
    The search never reads the blend. ``prior``: what the evaluator's own chance is worth in
    play-outs when a seat's share is smoothed (2 had the least log loss on the second half of the
    training games, fitted on the first, among 0, 1, 2, 4 and 8)."""
    if "share" not in data:
        raise SystemExit("the data has no play-out shares: make it with data --playouts K")
    names = [str(n) for n in data["names"]]
    model = replace(model, playout_games=int(data["playouts"]), playout_prior=prior)
    if data["searched"].any():
        model = replace(model, search_playout_budget=int(data["search_budget"]),
                        search_playout_from=float(data["search_from"]))
    fitted = {}
    for searched in (False, True):
        rows = data["searched"] == searched
        kept = model.search_weights if searched else model.playout_weights
        if not rows.any():
            fitted[searched] = kept
            continue
        part = subset(data, rows)
        if searched_only and not searched:
            fitted[searched] = kept
            continue
        # a clean sweep's weight for the small searches' play-outs alone: a heuristic's sweep of a
        # heuristic table is no surer than its share says (its weights stay as they were fitted)
        fitted[searched] = _fit_weights(model, part, names, kept, frozenset() if searched else only,
                                        steps, sweep=searched)
    games = len(np.unique(data["meta"][:, 1]))
    sets = ", ".join(str(n) for n in data["sets"])
    said = (f"fitted (train_evaluator.py blend) on {games} games, sets {sets}"
            + (f", bots {', '.join(sorted(only))} only" if only else ""))
    about = dict(model.about)
    if not searched_only:
        about["playouts"] = f"blend with {int(data['playouts'])} play-outs a position {said}"
    if data["searched"].any():
        about["search_playouts"] = (f"small searches of {model.search_playout_budget} calls play the "
                                    f"searches' seats from progress {model.search_playout_from}; "
                                    f"their weights {said}")
    return replace(model, playout_weights=fitted[False], search_weights=fitted[True], about=about)


def _fit_weights(model: value.ValueModel, data: dict[str, np.ndarray], names: list[str],
                 kept: dict[str, list[float]], only: frozenset[str], steps: int,
                 sweep: bool) -> dict[str, list[float]]:
    """Every bot's blend weights fitted on these rows (``only``: just those bots'; the others as
    ``kept``, else the evaluator alone); a clean sweep's weight too where ``sweep``."""
    mask, y = data["mask"], data["y"].astype(np.float64)
    t = data["x"][:, 0, value.FEATURES.index("progress")].astype(np.float64)
    onehot = bot_onehot(data["bots"], len(names))
    share = onehot.sum(axis=1) / mask.sum(axis=1, keepdims=True)
    scores = seat_scores(model, data, with_ratings=True)
    swept = data["share"] >= 1.0 - 1e-9
    fitting = BlendFit(scores, log_smoothed(model, data, scores), y, mask, t, share, swept)
    params = np.concatenate([value._five(kept.get(n, BlendFit.CENTER))
                             if only and n not in only else BlendFit.CENTER for n in names])
    free = np.repeat([not only or n in only for n in names], 5)
    if not sweep:
        free = free & np.tile([True, True, True, True, False], len(names))
    start, _ = fitting.loss_and_grad(params)
    m1, m2 = np.zeros_like(params), np.zeros_like(params)
    for step in range(1, steps + 1):
        _, g = fitting.loss_and_grad(params)
        g = np.where(free, g, 0.0)
        m1 = 0.9 * m1 + 0.1 * g
        m2 = 0.999 * m2 + 0.001 * g**2
        params -= 0.01 * (m1 / (1 - 0.9**step)) / (np.sqrt(m2 / (1 - 0.999**step)) + 1e-9)
    end, _ = fitting.loss_and_grad(params)
    print(f"  blend fitted ({len(y)} positions): log loss {start:.4f} -> {end:.4f}", file=sys.stderr)
    out = {n: list(w) for n, w in kept.items()} if only else {}
    present = set(names)
    width = 5 if sweep else 4
    out.update({n: [round(float(v), 4) for v in params[5 * i:5 * i + width]] for i, n in enumerate(names)
                if (not only or n in only) and n in present})
    return out


def calibration(pred: np.ndarray, truth: np.ndarray, games: np.ndarray | None = None,
                ) -> list[tuple[int, float, float, int, float]]:
    """(tenth, mean prediction, observed win rate, count, standard error of the observed rate)
    for each tenth of the predictions. The error counts each game as one draw (the positions of a
    game share its result, so they are not independent): the cluster-robust standard error over
    ``games`` (one game id per prediction), or the binomial one without them."""
    idx = np.clip((pred * 10).astype(int), 0, 9)
    rows = []
    for b in range(10):
        sel = idx == b
        if sel.any():
            observed = float(truth[sel].mean())
            n = int(sel.sum())
            if games is None:
                se = math.sqrt(max(observed * (1 - observed), 1e-12) / n)
            else:
                _, inverse = np.unique(games[sel], return_inverse=True)
                per_game = np.bincount(inverse, weights=truth[sel] - observed)
                se = float(math.sqrt((per_game ** 2).sum()) / n)
            rows.append((b, float(pred[sel].mean()), observed, n, se))
    return rows


ROUND_BUCKETS = ((1, 3), (4, 6), (7, 9), (10, 12), (13, 99))


def report(model: value.ValueModel, data: dict[str, np.ndarray], with_ratings: bool,
           rounds_only: bool = True, playouts: bool = False) -> dict[str, Any]:
    sel = data["meta"][:, 3] == AUCTION if rounds_only else np.ones(len(data["x"]), bool)
    pred = predictions(model, subset(data, sel), with_ratings, playouts)
    out = {}
    for si, name in enumerate(data["sets"]):
        rows = data["meta"][sel][:, 0] == si
        mask = data["mask"][sel][rows]
        p = pred[rows][mask]
        y = data["y"][sel][rows][mask]
        games = np.repeat(data["meta"][sel][rows][:, 1], mask.sum(axis=1))
        rounds = np.repeat(data["meta"][sel][rows][:, 2], mask.sum(axis=1))
        const = np.repeat(1.0 / mask.sum(axis=1), mask.sum(axis=1))
        brier = float(np.mean((p - y) ** 2))
        brier0 = float(np.mean((const - y) ** 2))
        by_round = {}
        for low, high in ROUND_BUCKETS:
            part = (rounds >= low) & (rounds <= high)
            if part.any():
                by_round[f"{low}-{high}" if high < 99 else f"{low}+"] = (
                    1 - float(np.sum((p[part] - y[part]) ** 2) / np.sum((const[part] - y[part]) ** 2)))
        table = calibration(p, y, games)
        worst = max((abs(m - o) for _, m, o, c, _ in table if c >= 100), default=float("nan"))
        # the worst gap less twice its standard error: above 0, more than the luck of the games
        beyond = max((abs(m - o) - 2 * e for _, m, o, c, e in table if c >= 100), default=float("nan"))
        out[str(name)] = {"games": int(len(np.unique(data["meta"][sel][rows][:, 1]))),
                          "predictions": int(len(p)), "brier": brier, "brier_constant": brier0,
                          "skill": 1 - brier / brier0, "worst_tenth_gap": worst,
                          "worst_gap_beyond_noise": beyond, "tenths": table, "skill_by_round": by_round,
                          "pred": p, "truth": y}
    return out


def print_report(title: str, rep: dict[str, Any]) -> None:
    print(title)
    for name, r in rep.items():
        print(f"  {name:17s} {r['games']:5d} games {r['predictions']:6d} predictions  Brier {r['brier']:.4f}"
              f" (constant {r['brier_constant']:.4f}, skill {r['skill']:+.1%}); worst tenth with >=100:"
              f" {r['worst_tenth_gap']:.3f} (less twice its error: {r['worst_gap_beyond_noise']:+.3f})")
        print("      " + "  ".join(f"{b / 10:.1f}: {m:.2f}->{o:.2f}±{e:.2f} ({c})"
                                  for b, m, o, c, e in r["tenths"]))
        print("      skill by round: " + "  ".join(f"{k}: {v:+.1%}" for k, v in r["skill_by_round"].items()))


def plot(rep: dict[str, Any], path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(rep)
    cols = min(4, len(names))
    rows = -(-len(names) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(3.2 * cols, 3.4 * rows), squeeze=False)
    for ax in axes.flat[len(names):]:
        ax.set_visible(False)
    for ax, name in zip(axes.flat, names, strict=False):
        r = rep[name]
        ax.plot([0, 1], [0, 1], color="grey", linestyle="--")
        ax.plot([t[1] for t in r["tenths"]], [t[2] for t in r["tenths"]], color="C0")
        # tenths of at least 100 predictions (the bar's) filled, the thinner ones hollow
        for hollow in (False, True):
            pts = [(m, o) for _, m, o, c, _ in r["tenths"] if (c < 100) == hollow]
            ax.plot([p[0] for p in pts], [p[1] for p in pts], "o", color="C0",
                    markerfacecolor="white" if hollow else "C0")
        ax.set_title(f"{name}\nBrier skill {r['skill']:.0%}, {r['games']} games", fontsize=9)
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        ax.set_xlabel("predicted chance", fontsize=8)
    for row in axes:
        row[0].set_ylabel("observed win rate", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def _store(model: value.ValueModel, args: argparse.Namespace) -> None:
    """Print a fitted model's players' part; write it where ``--write``/``--model-out`` say (with
    ``--write``, the golden output of the model as stored, rounded, too)."""
    print("ratings:", json.dumps(model.ratings))
    print("softness:", json.dumps(model.softness))
    print("softness's change by the end:", json.dumps(model.softness_fade))
    print("softer at two players by:", json.dumps(model.softness_pair))
    for name, weights in model.style.items():
        print(f"style of {name}:", ", ".join(f"{f} {w:+.2f}" for f, w in zip(value.SEAT_FEATURES, weights,
                                                                           strict=True)))
    print(f"skill factor {model.skill:.3f} + {model.skill_fade:.3f} * progress")
    for name, weights in model.playout_weights.items():
        print(f"blend of {name}: evaluator {weights[0]:+.2f} {weights[1]:+.2f}*t, log play-out share "
              f"{weights[2]:+.2f} {weights[3]:+.2f}*t")
    target = MODEL_PATH if args.write else Path(args.model_out) if args.model_out else None
    if target is not None:
        target.write_text(json.dumps(model.to_dict()) + "\n", encoding="utf-8")
        print(f"wrote {target} ({target.stat().st_size // 1024} KiB)")
    if args.write:
        stored = value.ValueModel.from_dict(json.loads(MODEL_PATH.read_text()))
        GOLDEN_PATH.write_text(json.dumps(golden(stored)) + "\n", encoding="utf-8")
        print(f"wrote {GOLDEN_PATH}")


def _playout_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--playouts", type=int, default=0,
                        help="play-outs of each position, for the coach's blend (0: none)")
    parser.add_argument("--search-budget", type=int, default=0,
                        help="calls a search of the small searches that play searches' seats in "
                             "the play-outs (0: the heuristic plays every seat)")
    parser.add_argument("--search-from", type=float, default=1.0,
                        help="the game's progress from which they do")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    d = sub.add_parser("data", help="play and record games")
    d.add_argument("--games", type=int, default=100, help="games per set")
    d.add_argument("--sets", default=",".join(DEFAULT_SETS))
    d.add_argument("--seed", type=int, default=1)
    d.add_argument("--workers", type=int, default=2)
    d.add_argument("--out", required=True)
    _playout_options(d)
    f = sub.add_parser("fit", help="fit ratings and the network")
    f.add_argument("--data", required=True, nargs="+")
    f.add_argument("--seed", type=int, default=1)
    f.add_argument("--epochs", type=int, default=30)
    f.add_argument("--write", action="store_true", help="store the model in the package")
    f.add_argument("--model-out", help="store the model in this file instead")
    c = sub.add_parser("check", help="calibration on held-out games")
    c.add_argument("--data", required=True, nargs="+")
    c.add_argument("--model", help="a model file (default: the shipped one)")
    c.add_argument("--plot", help="draw one calibration curve per set to this PNG")
    c.add_argument("--json", help="write the figures to this file")
    sub.add_parser("golden", help="rewrite the golden output of the shipped model (tests/bots)")
    rr = sub.add_parser("rerate", help="refit the shipped model's players' part (ratings, fade), "
                                       "the network frozen")
    rr.add_argument("--data", required=True, nargs="+", help="training games")
    rr.add_argument("--write", action="store_true", help="store the model in the package")
    rr.add_argument("--model-out", help="store the model in this file instead")
    rr.add_argument("--only", help="fit just these bots (comma-separated), everything else frozen")
    b = sub.add_parser("blend", help="fit the coach's blend of the evaluator with heuristic play-outs "
                                     "(everything else frozen)")
    b.add_argument("--data", required=True, nargs="+", help="training games made with --playouts")
    b.add_argument("--write", action="store_true", help="store the model in the package")
    b.add_argument("--model-out", help="store the model in this file instead")
    b.add_argument("--searched-only", action="store_true",
                   help="fit only the weights of the play-outs that small searches played")
    b.add_argument("--only", help="fit just these bots' weights for heuristic play-outs (comma-separated), "
                                  "the others kept")
    sh = sub.add_parser("shares", help="replay a data file's games and play their positions out again "
                                       "(other play-outs, the same games)")
    sh.add_argument("--data", required=True, help="a data file made by data (it keeps the moves)")
    sh.add_argument("--seed", type=int, help="the seed it was made with (files made before they "
                                             "kept it)")
    sh.add_argument("--workers", type=int, default=2)
    sh.add_argument("--out", required=True)
    _playout_options(sh)
    t = sub.add_parser("temper", help="refit the shipped model's temperature on its training data")
    t.add_argument("--data", required=True, nargs="+", help="the data it was fitted on")
    t.add_argument("--seed", type=int, default=1, help="the seed it was fitted with")
    args = ap.parse_args(argv)
    started = time.perf_counter()
    if args.command == "temper":
        model = temper(value.value_model(), load(args.data), args.seed)
        MODEL_PATH.write_text(json.dumps(model.to_dict()) + "\n", encoding="utf-8")
        GOLDEN_PATH.write_text(json.dumps(golden(model)) + "\n", encoding="utf-8")
        print(f"wrote {MODEL_PATH} and {GOLDEN_PATH}")
    elif args.command == "rerate":
        only = frozenset(args.only.split(",")) if args.only else frozenset()
        _store(rerate(value.value_model(), load(args.data), only=only), args)
    elif args.command == "blend":
        only = frozenset(args.only.split(",")) if args.only else frozenset()
        _store(fit_blend(value.value_model(), load(args.data), only=only,
                         searched_only=args.searched_only), args)
    elif args.command == "shares":
        data = dict(np.load(args.data))
        if "actions" not in data:
            raise SystemExit("the data file keeps no moves: make it again with data")
        seed = int(data["seed"]) if "seed" in data else args.seed
        if seed is None:
            raise SystemExit("the data file does not say its seed: give --seed")
        jobs = [Job(str(g).split("/")[0], seed, int(str(g).split("/")[1]), args.playouts,
                    args.search_budget, args.search_from, tuple(str(a).split(" | ")))
                for g, a in zip(data["games"], data["actions"], strict=True)]
        games = run_jobs(jobs, args.workers)
        if len(games) != len(jobs):
            raise SystemExit("some games could not be replayed")
        save(games, Path(args.out))
        print(f"{len(games)} games replayed with new play-outs -> {args.out}, "
              f"{time.perf_counter() - started:.0f} s")
    elif args.command == "golden":
        GOLDEN_PATH.write_text(json.dumps(golden(value.value_model())) + "\n", encoding="utf-8")
        print(f"wrote {GOLDEN_PATH}")
    elif args.command == "data":
        games = collect(args.sets.split(","), args.games, args.seed, args.workers, playouts=args.playouts,
                        search_budget=args.search_budget, search_from=args.search_from)
        save(games, Path(args.out))
        print(f"{len(games)} games -> {args.out}, {time.perf_counter() - started:.0f} s")
    elif args.command == "fit":
        data = load(args.data)
        _store(fit(data, args.seed, args.epochs), args)
        print(f"{time.perf_counter() - started:.0f} s")
    else:
        data = load(args.data)
        model = (value.ValueModel.from_dict(json.loads(Path(args.model).read_text()))
                 if args.model else value.value_model())
        blended = "share" in data and model.playout_games > 0
        if blended and int(data["playouts"]) != model.playout_games:
            raise SystemExit(f"the data has {int(data['playouts'])} play-outs a position, the model "
                             f"blends {model.playout_games}")
        known = report(model, data, with_ratings=True, playouts=blended)
        blind = report(model, data, with_ratings=False, playouts=blended)
        reports = [("ratings", known), ("position", blind)]
        what = " and play-outs" if blended else ""
        print_report(f"players' ratings known{what} (the coach in a game with bots):", known)
        print_report(f"position{what} only (ratings unknown):", blind)
        if blended:
            alone = report(model, data, with_ratings=True)
            reports.append(("evaluator", alone))
            print_report("the evaluator alone, players known (no play-outs; what the search reads "
                         "and the players' part):", alone)
        if args.plot:
            plot(known, Path(args.plot))
        if args.json:
            strip = {k: {n: {a: b for a, b in r.items() if a not in ("pred", "truth")}
                         for n, r in rep.items()}
                     for k, rep in reports}
            Path(args.json).write_text(json.dumps(strip, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
