"""Fit and check the coach's win-chance model (powergrid.coach.winchance) on self-play games.

Plays games with ``powergrid.sim`` between heuristic bots that err now and then (each seat a
different error rate, so the seats differ in strength), replays every game, takes each seat's
features at the start of every round, fits the conditional logit by Newton's method (numpy) on
the training games, then measures calibration on held-out games: Brier score against the
constant 1/players, and a calibration curve plotted to docs/coach_calibration.png.

    python benchmarks/coach_calibration.py --train 2400 --test 600 --workers 2 --write

``--write`` stores the fitted weights in src/powergrid/coach/win_model.json; without it the
shipped model is only evaluated on the held-out games (and the plot redrawn).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np

import powergrid as pg
from powergrid.coach import winchance
from powergrid.sim.backends import run_local
from powergrid.sim.game import GameSpec
from powergrid.sim.records import Seat
from powergrid.sim.seeds import bot_seed, game_seed

sys.path.insert(0, str(Path(__file__).resolve().parent))
from erring import ERROR_RATES  # noqa: E402
from erring import bot_factory as erring_bot  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
MODEL_FILE = ROOT / "src/powergrid/coach/win_model.json"
PLOT_FILE = ROOT / "docs/coach_calibration.png"
SETUPS = [("germany", n) for n in (2, 3, 4, 5, 6)] + [("usa", n) for n in (2, 3, 4, 5, 6)]


def search_specs(master: int, count: int) -> list[GameSpec]:
    """Games with one search bot (``mcts:fast``) among erring heuristics: a stronger player than
    any in the training games, to see how the model holds up off its training distribution."""
    out = []
    for spec in specs(master, 2_000_000, count):
        seats = list(spec.seats)
        strong = spec.index % len(seats)
        seats[strong] = Seat(strong, "mcts:fast", seats[strong].seed)
        out.append(GameSpec(spec.index, spec.config, tuple(seats)))
    return out


def specs(master: int, first: int, count: int) -> list[GameSpec]:
    out = []
    for index in range(first, first + count):
        rng = random.Random(game_seed(master, index))
        map_name, players = SETUPS[index % len(SETUPS)]
        config = pg.GameConfig(map=map_name, players=players, seed=game_seed(master, index))
        seats = tuple(Seat(s, f"erring:{rng.choice(ERROR_RATES)}", bot_seed(master, index, s))
                      for s in range(players))
        out.append(GameSpec(index, config, seats))
    return out


def round_positions(config: pg.GameConfig,
                    actions: list[str]) -> tuple[list[np.ndarray], list[int], pg.GameState]:
    """Each seat's features at the start of every round, the rounds, and the final state."""
    state = pg.new_game(config)
    feats, rounds = [], []
    last = 0
    for text in actions:
        if state.round != last:
            last = state.round
            t = winchance.progress(state)
            feats.append(np.array([winchance.seat_features(state, j, t) for j in range(state.players)]))
            rounds.append(state.round)
        state.apply(pg.parse_action(text))
    return feats, rounds, state


def dataset(results: list) -> list[tuple[np.ndarray, np.ndarray, int, int]]:
    """(features per seat, win share per seat, game index, round) for every round start."""
    rows = []
    for result in results:
        if not result.ok:
            print("skipped a failed game:", result.error.splitlines()[0], file=sys.stderr)
            continue
        feats, rounds, final = round_positions(result.config, result.actions)
        share = np.array([1.0 / len(final.winners) if j in final.winners else 0.0
                          for j in range(final.players)])
        rows += [(x, share, result.index, r) for x, r in zip(feats, rounds, strict=True)]
    return rows


def softmax(scores: np.ndarray) -> np.ndarray:
    e = np.exp(scores - scores.max())
    return e / e.sum()


def fit(rows: list, l2: float = 1e-3, steps: int = 40) -> np.ndarray:
    """Newton's method on the conditional-logit log loss with a small ridge."""
    k = rows[0][0].shape[1]
    w = np.zeros(k)
    n = len(rows)
    for _ in range(steps):
        grad = l2 * w * n
        hess = l2 * n * np.eye(k)
        for x, y, _, _ in rows:
            p = softmax(x @ w)
            grad += x.T @ (p - y)
            hess += x.T @ (np.diag(p) - np.outer(p, p)) @ x
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-7:
            break
    return w


def evaluate(model: winchance.WinModel, rows: list) -> dict:
    w = np.array(model.weights)
    preds, truth, base = [], [], []
    for x, y, _, _ in rows:
        p = softmax(x @ w)
        preds += list(p)
        truth += list(y)
        base += [1.0 / len(y)] * len(y)
    preds_a, truth_a, base_a = np.array(preds), np.array(truth), np.array(base)
    return {"preds": preds_a, "truth": truth_a, "brier": float(np.mean((preds_a - truth_a) ** 2)),
            "brier_constant": float(np.mean((base_a - truth_a) ** 2)),
            "predictions": len(preds_a), "positions": len(rows),
            "games": len({g for _, _, g, _ in rows})}


def by_round(model: winchance.WinModel, rows: list) -> list[tuple[str, float, float, int]]:
    w = np.array(model.weights)
    groups = {"rounds 1-3": (1, 3), "rounds 4-7": (4, 7), "rounds 8-11": (8, 11), "round 12+": (12, 99)}
    out = []
    for label, (lo, hi) in groups.items():
        err, err0, count = 0.0, 0.0, 0
        for x, y, _, r in rows:
            if lo <= r <= hi:
                p = softmax(x @ w)
                err += float(np.sum((p - y) ** 2))
                err0 += float(np.sum((1.0 / len(y) - y) ** 2))
                count += len(y)
        if count:
            out.append((label, err / count, err0 / count, count))
    return out


def plot(report: dict, path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    preds, truth = report["preds"], report["truth"]
    edges = np.linspace(0.0, 1.0, 11)
    idx = np.clip(np.digitize(preds, edges) - 1, 0, 9)
    mids, rates, counts = [], [], []
    for b in range(10):
        mask = idx == b
        if mask.sum() >= 20:
            mids.append(preds[mask].mean())
            rates.append(truth[mask].mean())
            counts.append(int(mask.sum()))
    fig, ax = plt.subplots(figsize=(5.5, 5))
    ax.plot([0, 1], [0, 1], color="grey", linestyle="--", label="perfect calibration")
    ax.plot(mids, rates, marker="o", label="win-chance model")
    for m, r, c in zip(mids, rates, counts, strict=True):
        ax.annotate(str(c), (m, r), textcoords="offset points", xytext=(4, -12), fontsize=7, color="dimgray")
    ax.set_xlabel("estimated chance to win")
    ax.set_ylabel("share of those seats that won")
    ax.set_title(f"Held-out: {report['games']} games, {report['predictions']} seat-rounds\n"
                 f"Brier {report['brier']:.4f} (constant 1/players: {report['brier_constant']:.4f})",
                 fontsize=10)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.legend(loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--train", type=int, default=2400, help="training games")
    parser.add_argument("--test", type=int, default=600, help="held-out games (never trained on)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--write", action="store_true", help="store the fitted weights in the package")
    parser.add_argument("--search-games", type=int, default=0,
                        help="also check the model on this many games with one mcts:fast seat")
    args = parser.parse_args()
    if args.search_games:
        rows = dataset(run_local(search_specs(args.seed, args.search_games), workers=args.workers,
                                 bot_factory=erring_bot))
        report = evaluate(winchance.win_model(), rows)
        print(f"games with one mcts:fast seat: {report['games']} games, {report['predictions']} predictions; "
              f"Brier {report['brier']:.4f}, constant 1/players {report['brier_constant']:.4f}")
        for label, b, b0, count in by_round(winchance.win_model(), rows):
            print(f"  {label:12s} Brier {b:.4f} vs constant {b0:.4f} ({count} predictions)")
        return

    started = time.perf_counter()
    test_specs = specs(args.seed, 0, args.test)
    test_rows = dataset(run_local(test_specs, workers=args.workers, bot_factory=erring_bot))
    if args.write:
        train_specs = specs(args.seed, 1_000_000, args.train)
        train_rows = dataset(run_local(train_specs, workers=args.workers, bot_factory=erring_bot))
        weights = fit(train_rows)
        model = winchance.WinModel(tuple(float(x) for x in weights), {})
        report = evaluate(model, test_rows)
        model = winchance.WinModel(model.weights, {
            "trained_on": f"{len({g for _, _, g, _ in train_rows})} self-play games "
                          f"({len(train_rows)} round starts), erring heuristic bots, "
                          "Germany and USA, 2-6 players",
            "held_out_games": report["games"], "brier": round(report["brier"], 5),
            "brier_constant": round(report["brier_constant"], 5)})
        MODEL_FILE.write_text(json.dumps(model.to_dict(), indent=1) + "\n", encoding="utf-8")
        print(f"wrote {MODEL_FILE.relative_to(ROOT)}")
    else:
        model = winchance.win_model()
        report = evaluate(model, test_rows)
    plot(report, PLOT_FILE)
    print(f"held-out: {report['games']} games, {report['positions']} round starts, "
          f"{report['predictions']} seat predictions")
    print(f"Brier score {report['brier']:.4f}; constant 1/players {report['brier_constant']:.4f}; "
          f"skill {1 - report['brier'] / report['brier_constant']:.1%}")
    for label, b, b0, count in by_round(model, test_rows):
        print(f"  {label:12s} Brier {b:.4f} vs constant {b0:.4f} ({count} predictions)")
    for name, wt in zip(winchance.FEATURES, model.weights, strict=True):
        print(f"  weight {name:24s} {wt:+.3f}")
    print(f"plot: {PLOT_FILE.relative_to(ROOT)}; {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
