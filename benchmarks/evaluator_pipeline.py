"""The evaluator's whole pipeline in one timed run, for a many-core machine.

    OUT=/tmp/out PYTHONPATH=src python3 benchmarks/evaluator_pipeline.py --workers 16 --minutes 8

1. training games of every set (seed 1), features per seat (train_evaluator ``data``);
2. fits ratings and the network (seed 1) and stores the model in the package and in $OUT;
3. held-out games of every set and of the new search in mirror (seed 9001, never used for fitting
   or tuning), the search playing with the new model;
4. the calibration per set on the held-out games, with the new model;
5. with the new model: ``expert`` against ``pimc`` (2-player Germany), ``expert`` against three
   ``pimc`` (4-player Germany), seats rotated, seeds 7001/7002 (never used for tuning).
Each stage has its share of the time; games not finished in it are dropped (the counts say so).
Writes under $OUT: train.npz, test.npz, value_model.json, value_golden.json, calibration.json,
matches.json, log.txt.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import ladder  # noqa: E402
import train_evaluator as te  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--minutes", type=float, default=8.0)
    ap.add_argument("--scale", type=float, default=1.0, help="games per set, relative to the full run")
    args = ap.parse_args()
    out = Path(os.environ.get("OUT", "/tmp/evaluator-pipeline"))
    out.mkdir(parents=True, exist_ok=True)
    log = open(out / "log.txt", "w")  # noqa: SIM115
    start = time.monotonic()
    budget = args.minutes * 60

    def say(text: str) -> None:
        line = f"[{time.monotonic() - start:5.0f} s] {text}"
        print(line, flush=True)
        log.write(line + "\n")
        log.flush()

    def n(count: int) -> int:
        return max(1, int(count * args.scale))

    with contextlib.redirect_stderr(sys.stdout):
        train_counts = {"heuristic-mirror": n(1500), "erring": n(1500), "random": n(1000),
                        "pimc-heuristic": n(700), "mixed": n(700)}
        games = te.collect(list(train_counts), train_counts, 1, args.workers,
                           deadline=start + 0.28 * budget)
        te.save(games, out / "train.npz")
        say(f"training games: {len(games)} of {sum(train_counts.values())} "
            f"({(out / 'train.npz').stat().st_size >> 20} MiB)")
        data = te.load([str(out / "train.npz")])
        model = te.fit(data, 1, epochs=int(os.environ.get("EPOCHS", "24")))
        text = json.dumps(model.to_dict()) + "\n"
        te.MODEL_PATH.write_text(text, encoding="utf-8")
        (out / "value_model.json").write_text(text, encoding="utf-8")
        gold = json.dumps(te.golden(te.value.ValueModel.from_dict(json.loads(text)))) + "\n"
        te.GOLDEN_PATH.write_text(gold, encoding="utf-8")
        (out / "value_golden.json").write_text(gold, encoding="utf-8")
        say(f"fitted: ratings {json.dumps(model.ratings)}; skill {model.skill:.3f} + "
            f"{model.skill_fade:.3f} * progress")
        te.value.value_model.cache_clear()
        test_counts = {"heuristic-mirror": n(300), "erring": n(300), "random": n(300),
                       "pimc-heuristic": n(300), "mixed": n(300), "expert-mirror": n(200)}
        games = te.collect(list(test_counts), test_counts, 9001, args.workers,
                           deadline=start + 0.50 * budget)
        te.save(games, out / "test.npz")
        say(f"held-out games: {len(games)} of {sum(test_counts.values())}")
        test = te.load([str(out / "test.npz")])
        reports = {"ratings": te.report(model, test, True), "position": te.report(model, test, False)}
        for key, rep in reports.items():
            te.print_report(f"calibration ({key}):", rep)
        (out / "calibration.json").write_text(json.dumps(
            {k: {s: {a: b for a, b in r.items() if a not in ("pred", "truth")} for s, r in rep.items()}
             for k, rep in reports.items()}, indent=1))
        say("calibration written")
        matches = {}
        for bots, games_n, seed, share in ((["expert", "pimc"], 300, 7001, 0.75),
                                           (["expert", "pimc", "pimc", "pimc"], 200, 7002, 0.97)):
            left = start + share * budget - time.monotonic()
            results = ladder.play(ladder.match_specs(bots, games_n, seed, "germany"), args.workers,
                                  max(1.0, left))
            rep = ladder.match_report(bots, results)
            ladder.print_match(rep, "germany")
            matches[",".join(bots)] = rep
            say(f"match {','.join(bots)}: {rep['games']} games")
        (out / "matches.json").write_text(json.dumps(matches, indent=1))
    say("done")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
