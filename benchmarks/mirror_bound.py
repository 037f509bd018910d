"""How well any win estimate that reads the public position can do on a set of games: the
Brier skill of the true chances, found by playing each position out again and again.

    python benchmarks/mirror_bound.py --set expert-mirror --games 8 --rollouts 16 --seed 9150

For ``--games`` games of a set of ``train_evaluator.py`` (seeds derived from ``--seed`` as that
script's ``data`` derives them), at the start of every round the game is played on to its end
``--rollouts`` times from ``pg.determinize`` of the position (the hidden deck and removed plants
sampled again; the same bots in the seats, with fresh seeds). The share of those games each seat
wins is its chance given the public position and who plays it: no model reading the position can
know more. Its expected Brier score, ``sum_j p_j (1 - p_j) / n`` per position (times
``K / (K - 1)`` for the bias of a share of ``K`` games), against the constant guess's
``(n - 1) / n**2``, is the best skill a win estimate can reach on these positions (up to the
sampling error, given per round by resampling games). The coach's Brier score (the learned
evaluator with its play-outs, ``value.win_chances``) on the same positions against the games' real
results is printed beside it, with the players known.

With ``--shares FILE`` each position's shares are added to FILE (one JSON line) as soon as they
are played, and a run with the same file plays only the positions not in it yet: a long run can
be stopped and taken up again, and a larger one extends a smaller one.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

import powergrid as pg
from powergrid.bots import value
from powergrid.rules.phase import AUCTION
from powergrid.sim.game import play_game
from powergrid.sim.seeds import derive_seed

sys.path.insert(0, str(Path(__file__).resolve().parent))
from erring import bot_factory  # noqa: E402
from train_evaluator import ROUND_BUCKETS, game_spec  # noqa: E402


def round_starts(job: tuple[str, int, int]) -> list[dict[str, Any]]:
    """Play one game; the state at the start of every round with the game's real result."""
    set_name, master, index = job
    spec = game_spec(set_name, master, index)
    result = play_game(spec, bot_factory)
    if not result.ok:
        return []
    state = pg.new_game(spec.config)
    out = []
    for text in result.actions:
        if state.phase == AUCTION and (not out or out[-1]["round"] != state.round):
            out.append({"round": state.round, "state": state.clone()})
        state.apply(pg.parse_action(text))
    won = [1.0 / len(state.winners) if j in state.winners else 0.0 for j in range(state.players)]
    bots = [s.spec for s in spec.seats]
    return [{**o, "won": won, "bots": bots, "game": index, "set": set_name} for o in out]


def play_out(job: tuple[dict[str, Any], int, int]) -> list[float]:
    """Each seat's share of ``K`` games played on from the position (hidden cards resampled)."""
    position, master, rollouts = job
    start: pg.GameState = position["state"]
    shares = np.zeros(start.players)
    for k in range(rollouts):
        key = (master, position["set"], position["game"], position["round"], k)
        state = pg.determinize(start.view(0), random.Random(derive_seed(*key, "deck")))
        bots = [bot_factory(b, derive_seed(*key, "bot", j)) for j, b in enumerate(position["bots"])]
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            state.apply(bots[seat].act(state.view(seat)))
        for j in state.winners:
            shares[j] += 1.0 / len(state.winners)
    return (shares / rollouts).tolist()


def share_key(position: dict[str, Any], master: int, rollouts: int) -> str:
    """What makes a position's shares the same in another run."""
    return json.dumps([position["set"], master, rollouts, position["game"], position["round"]])


def stored_shares(path: Path | None) -> dict[str, list[float]]:
    """The shares already played into ``path`` (none if it does not exist)."""
    if path is None or not path.exists():
        return {}
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            entry = json.loads(line)
            out[entry["key"]] = entry["chances"]
    return out


def play_all(rows: list[dict[str, Any]], master: int, rollouts: int, pool: Any,
             path: Path | None = None) -> None:
    """Set every position's ``chances``: from ``path`` where it holds them, else played (and
    added to ``path`` as each one finishes)."""
    known = stored_shares(path)
    todo = []
    for r in rows:
        key = share_key(r, master, rollouts)
        if key in known:
            r["chances"] = known[key]
        else:
            todo.append(r)
    if todo:
        print(f"{len(rows) - len(todo)} positions from {path}, {len(todo)} to play", file=sys.stderr)
    played = pool.imap(play_out, [(r, master, rollouts) for r in todo], chunksize=1)
    for r, chances in zip(todo, played, strict=True):
        r["chances"] = chances
        if path is not None:
            with path.open("a", encoding="utf-8") as f:
                f.write(json.dumps({"key": share_key(r, master, rollouts), "chances": chances}) + "\n")


def summary(rows: list[dict[str, Any]], rollouts: int, seed: int) -> dict[str, Any]:
    """Per round bucket and overall: constant, evaluator's and the true chances' Brier scores."""
    model = value.value_model()
    rng = np.random.default_rng(seed)
    for r in rows:
        n = len(r["won"])
        p = np.array(r["chances"])
        r["best"] = float((p * (1 - p)).sum() / n * rollouts / (rollouts - 1))
        r["constant"] = (n - 1) / n**2
        q = np.array(model.chances(r["state"], r["bots"]))
        r["model"] = float(((q - np.array(r["won"])) ** 2).sum() / n)
    out: dict[str, Any] = {}
    for low, high in (*ROUND_BUCKETS, (1, 99)):
        part = [r for r in rows if low <= r["round"] <= high]
        if not part:
            continue
        games = sorted({r["game"] for r in part})

        def skills(chosen: list[dict[str, Any]]) -> tuple[float, float]:
            const = sum(r["constant"] for r in chosen)
            return (1 - sum(r["best"] for r in chosen) / const, 1 - sum(r["model"] for r in chosen) / const)

        best, fitted = skills(part)
        spread = []
        for _ in range(200):  # resample whole games: a game's positions share its players and deck
            pick = rng.choice(games, size=len(games))
            chosen = [r for g in pick for r in part if r["game"] == g]
            spread.append(skills(chosen)[0])
        name = "all rounds" if (low, high) == (1, 99) else f"rounds {low}-{min(high, 20)}"
        out[name] = {"positions": len(part), "games": len(games), "best_skill": round(best, 4),
                     "best_low": round(float(np.percentile(spread, 2.5)), 4),
                     "best_high": round(float(np.percentile(spread, 97.5)), 4),
                     "evaluator_skill": round(fitted, 4)}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", default="expert-mirror", help="a set of benchmarks/train_evaluator.py")
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--rollouts", type=int, default=16, help="games played on from each position")
    ap.add_argument("--seed", type=int, default=9150)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--json", help="write the figures to this file")
    ap.add_argument("--shares", help="keep each position's shares in this JSONL file as they are "
                                     "played, and take up the ones already in it")
    args = ap.parse_args(argv)
    started = time.perf_counter()
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(args.workers) as pool:
        rows = [r for game in pool.map(round_starts, [(args.set, args.seed, i) for i in range(args.games)])
                for r in game]
        print(f"{len(rows)} positions of {args.games} games, {time.perf_counter() - started:.0f} s",
              file=sys.stderr)
        play_all(rows, args.seed, args.rollouts, pool, Path(args.shares) if args.shares else None)
    figures = summary(rows, args.rollouts, args.seed)
    print(f"{args.set}: {args.games} games, seed {args.seed}, {args.rollouts} games played on from each "
          f"round start ({time.perf_counter() - started:.0f} s)")
    print(f"{'':14} {'positions':>9} {'best skill':>10} {'95% (games resampled)':>22} {'evaluator':>10}")
    for name, f in figures.items():
        print(f"{name:14} {f['positions']:>9} {f['best_skill']:>10.1%} "
              f"{f['best_low']:>10.1%} – {f['best_high']:<9.1%} {f['evaluator_skill']:>10.1%}")
    if args.json:
        Path(args.json).write_text(json.dumps({"set": args.set, "games": args.games, "seed": args.seed,
                                               "rollouts": args.rollouts, "figures": figures}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
