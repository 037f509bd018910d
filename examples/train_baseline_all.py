"""Run the baseline recipe (examples/train_baseline.py) for several player counts and seeds at
once, sharing the machine's cores, and gather the evaluations in one table.

    python examples/train_baseline_all.py --players 2,4 --seeds 0,1,2 --out runs/baseline
    OUT=/tmp/out python examples/train_baseline_all.py --players 2,4 --seeds 0 --time-limit 450

Each run writes ``<out>/<n>p-s<seed>/``: ``progress.csv`` (the learning curves),
``baseline-<n>p.npz`` (the weights, rewritten after cloning and after each DAgger round),
``result.json`` (the evaluation) and ``log.txt``. Recipe arguments after ``--`` go to every run
(e.g. ``-- --games 300``); ``--sizes`` holds the per-player-count defaults used here.
``--time-limit`` stops every run after that many seconds (its last weights stay).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

#: recipe sizes per player count (teacher games, DAgger games per round); a 4-player teacher
#: game holds about twice the search decisions of a 2-player one
SIZES = {2: ("500", "150"), 3: ("350", "110"), 4: ("250", "80"), 5: ("200", "70"), 6: ("160", "60")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", default="2,4")
    parser.add_argument("--seeds", default="0,1,2")
    parser.add_argument("--out", type=Path, default=Path(os.environ.get("OUT", "runs/baseline")))
    parser.add_argument("--cores", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--time-limit", type=float, default=None, help="seconds per run")
    args, extra = parser.parse_known_args()
    extra = [a for a in extra if a != "--"]
    runs = [(int(n), int(s)) for n in args.players.split(",") for s in args.seeds.split(",")]
    workers = max(1, args.cores // len(runs))
    procs = []
    for players, seed in runs:
        where = args.out / f"{players}p-s{seed}"
        where.mkdir(parents=True, exist_ok=True)
        games, dagger_games = SIZES[players]
        command = [sys.executable, str(Path(__file__).with_name("train_baseline.py")),
                   "--players", str(players), "--seed", str(seed), "--games", games,
                   "--dagger-games", dagger_games, "--workers", str(workers), "--logdir", str(where),
                   "--out", str(where / f"baseline-{players}p.npz"), "--no-tensorboard", *extra]
        if args.time_limit:
            command = ["timeout", str(int(args.time_limit)), *command]
        env = {**os.environ, "OPENBLAS_NUM_THREADS": str(workers), "OMP_NUM_THREADS": str(workers),
               "MKL_NUM_THREADS": str(workers)}
        log = (where / "log.txt").open("w")
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
        procs.append((players, seed, where, process))
    print(f"{'players':>7} {'seed':>4} {'games':>5} {'win rate':>8}  95% Wilson       powered (them)")
    for players, seed, where, proc in procs:
        proc.wait()
        result_file = where / "result.json"
        if not result_file.exists():
            print(f"{players:>7} {seed:>4}  no evaluation (exit {proc.returncode}; see {where / 'log.txt'})")
            continue
        r = json.loads(result_file.read_text())
        low, high = r["wilson95"]
        print(f"{players:>7} {seed:>4} {r['games']:>5} {r['win_rate']:>8.3f}  [{low:.3f}, {high:.3f}]  "
              f"{r['powered']:.1f} ({r['opponents_powered']:.1f})")


if __name__ == "__main__":
    main()
