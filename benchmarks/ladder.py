"""The bots' ladder: round-robin games, ratings fitted over every table, with intervals.

    python benchmarks/ladder.py --bots random,greedy,bold,heuristic,pimc:fast,pimc,expert:fast,expert \\
        --pair-games 40 --tables 200 --workers 2 --seed 5000

Every pair of bots plays ``--pair-games`` 2-player games (seats alternating), and ``--tables``
4-player tables of four different bots (drawn from the seed, seats rotated) are played on
Germany or USA. Ratings are the first-place Plackett-Luce fit of ``powergrid.sim.ratings``
(Bradley-Terry for two players; ``heuristic`` is 0, 95% intervals by resampling games), shown
also on the Elo scale; each pair's 2-player win rate comes with its 95% Wilson interval.

``--match A,B,...`` plays one table instead (the bots in seat order, rotated game by game) and
prints each bot's win rate: e.g. ``--match expert,pimc --games 200`` or
``--match expert,pimc,pimc,pimc --games 200``. ``--seconds`` stops at a wall-clock limit (the
games finished by then are reported, and the count says so); with ``--games-file`` a ladder or a
match keeps its finished games and a later run plays only the rest.
"""

from __future__ import annotations

import argparse
import itertools
import json
import multiprocessing
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import powergrid as pg
from powergrid.sim import ratings
from powergrid.sim.game import GameResult, GameSpec, play_game
from powergrid.sim.seeds import derive_seed
from powergrid.sim.stats import wilson_interval
from powergrid.sim.tournament import plan_tournament

sys.path.insert(0, str(Path(__file__).resolve().parent))
from erring import bot_factory  # noqa: E402  (erring:rate bots too)


def _play(spec: GameSpec) -> GameResult:
    result = play_game(spec, bot_factory)
    result.actions = []  # not needed here, and heavy to send back
    return result


def play(specs: Sequence[GameSpec], workers: int, seconds: float | None,
         keep: Path | None = None) -> list[GameResult]:
    """The games, on ``workers`` processes; at ``seconds`` the unfinished ones are dropped. With
    ``keep``, each finished game is appended to that file (``saved_games`` reads it back)."""
    deadline = None if seconds is None else time.monotonic() + seconds
    out: list[GameResult] = []
    sink = keep.open("a") if keep is not None else None
    pool = multiprocessing.get_context("spawn").Pool(workers) if workers > 1 or deadline else None
    try:
        pending = pool.imap_unordered(_play, specs) if pool else map(_play, specs)
        for _ in specs:
            wait = None if deadline is None else deadline - time.monotonic()
            if wait is not None and wait <= 0:
                break
            try:
                result = pending.next(timeout=wait) if pool else next(pending)  # type: ignore[attr-defined]
            except multiprocessing.TimeoutError:
                break
            out.append(result)
            if sink is not None and result.ok:
                sink.write(json.dumps(_saved(result)) + "\n")
                sink.flush()
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
        if sink is not None:
            sink.close()
    for r in out:
        if not r.ok:
            print("failed game:", (r.error or "").splitlines()[0], file=sys.stderr)
    return sorted(out, key=lambda r: r.index)


def _saved(result: GameResult) -> dict[str, Any]:
    """A finished game as one line of a games file: its record less the moves and the per-round
    figures (what the ratings read: seats, winners, powered cities, money, cities)."""
    data = result.to_dict()
    for heavy in ("actions", "money_by_round", "cities_by_round"):
        data[heavy] = []
    return data


def saved_games(path: Path, specs: Sequence[GameSpec]) -> dict[int, GameResult]:
    """The games of this plan already in a games file, by index (a run cut off by ``--seconds``
    goes on where it stopped: budgets count calls, so a game replays the same whenever it is
    played). A line that names another game than the plan's at its index is an error."""
    planned = {spec.index: spec for spec in specs}
    found: dict[int, GameResult] = {}
    if not path.exists():
        return found
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        result = GameResult.from_dict(json.loads(line))
        spec = planned.get(result.index)
        if spec is None or spec.config != result.config or spec.seats != result.seats:
            raise SystemExit(f"{path}:{number}: game {result.index} is not this plan's "
                             "(other bots, pairs, tables or seed): use another --games-file")
        found[result.index] = result
    return found


def match_specs(bots: Sequence[str], games: int, seed: int, map_name: str) -> list[GameSpec]:
    return plan_tournament(pg.GameConfig(map=map_name, players=len(bots)), list(bots), games, seed)


def match_report(bots: Sequence[str], results: Sequence[GameResult]) -> dict[str, Any]:
    """Each listed bot's wins (shared wins split), over the games where all rotated seats ran."""
    done = [r for r in results if r.ok]
    wins: dict[str, float] = dict.fromkeys(bots, 0.0)
    for r in done:
        for seat in r.winners:
            wins[r.seats[seat].spec] += 1.0 / len(r.winners)
    out: dict[str, Any] = {"bots": list(bots), "games": len(done), "bot": {}}
    for b in dict.fromkeys(bots):
        lo, hi = wilson_interval(wins[b], len(done))
        seats = bots.count(b)
        out["bot"][b] = {"seats": seats, "wins": wins[b], "rate": wins[b] / max(1, len(done)),
                         "low": lo, "high": hi}
    return out


def print_match(rep: dict[str, Any], map_name: str) -> None:
    print(f"{', '.join(rep['bots'])} on {map_name}: {rep['games']} games, seats rotated")
    for b, r in rep["bot"].items():
        print(f"  {b:14s} ({r['seats']} seat{'s' if r['seats'] > 1 else ''}) wins {r['wins']:.1f} = "
              f"{r['rate']:.1%}  [{r['low']:.1%}, {r['high']:.1%}]")


def ladder_specs(bots: Sequence[str], pair_games: int, tables: int, seed: int) -> list[GameSpec]:
    specs: list[GameSpec] = []
    index = 0
    for a, b in itertools.combinations(bots, 2):
        for g in range(pair_games):
            map_name = "germany" if g % 4 < 2 else "usa"
            pair = (a, b) if g % 2 == 0 else (b, a)
            for spec in plan_tournament(pg.GameConfig(map=map_name, players=2), list(pair), 1,
                                        derive_seed(seed, "pair", a, b, g)):
                specs.append(GameSpec(index, spec.config, spec.seats))
                index += 1
    rng = random.Random(derive_seed(seed, "tables"))
    for t in range(tables):
        four = rng.sample(list(bots), 4)
        shift = t % 4
        four = four[shift:] + four[:shift]
        map_name = rng.choice(("germany", "usa"))
        for spec in plan_tournament(pg.GameConfig(map=map_name, players=4), four, 1,
                                    derive_seed(seed, "table", t)):
            specs.append(GameSpec(index, spec.config, spec.seats))
            index += 1
    # played in a shuffled order, so that a run cut off by --seconds is a fair sample of all
    return sorted(specs, key=lambda spec: derive_seed(seed, "order", spec.index))


def publish(rated: Sequence[ratings.Rating], games: int, seed: int, argv: Sequence[str]) -> None:
    """The ratings as the package ships them (``powergrid.bots.levels``): Elo scale, rounded."""
    elo = ratings.ELO_PER_UNIT
    out = {"seed": seed, "games": games,
           "command": "python benchmarks/ladder.py " + " ".join(a for a in argv if a != "--write"),
           "ratings": {r.bot: {"elo": round(r.elo), "low": round(1500 + elo * r.low),
                               "high": round(1500 + elo * r.high)} for r in rated}}
    path = Path(__file__).resolve().parents[1] / "src" / "powergrid" / "bots" / "ladder.json"
    path.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {path}")


def _played(specs: Sequence[GameSpec], args: argparse.Namespace) -> list[GameResult]:
    """The plan's games: those in ``--games-file`` already, then the rest (appended to it)."""
    before = saved_games(args.games_file, specs) if args.games_file else {}
    if before:
        print(f"{len(before)} games already played ({args.games_file})")
    results = play([s for s in specs if s.index not in before], args.workers, args.seconds,
                   args.games_file)
    return sorted([*before.values(), *results], key=lambda r: r.index)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bots", default="random,greedy,bold,heuristic,pimc:fast,pimc,expert:fast,expert")
    ap.add_argument("--pair-games", type=int, default=40, help="2-player games per pair of bots")
    ap.add_argument("--tables", type=int, default=200, help="4-player tables")
    ap.add_argument("--match", help="one table of bots instead of the ladder, e.g. expert,pimc")
    ap.add_argument("--games", type=int, default=200, help="games of --match")
    ap.add_argument("--map", default="germany", help="map of --match")
    ap.add_argument("--seed", type=int, default=5000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seconds", type=float, help="stop at this wall-clock limit")
    ap.add_argument("--json", help="write the figures to this file")
    ap.add_argument("--games-file", type=Path,
                    help="keep every finished game of the ladder or match in this file (JSON lines) and "
                         "play only the games not in it yet: it grows over several runs")
    ap.add_argument("--write", action="store_true",
                    help="publish the ratings in the package (src/powergrid/bots/ladder.json): the lobby "
                         "and the command line show them")
    args = ap.parse_args(argv)
    started = time.perf_counter()
    if args.match:
        bots = [b.strip() for b in args.match.split(",")]
        specs = match_specs(bots, args.games, args.seed, args.map)
        results = _played(specs, args)
        rep = match_report(bots, results)
        print_match(rep, args.map)
        if args.json:
            Path(args.json).write_text(json.dumps(rep, indent=1))
    else:
        bots = [b.strip() for b in args.bots.split(",")]
        specs = ladder_specs(bots, args.pair_games, args.tables, args.seed)
        results = _played(specs, args)
        tables = ratings.tables_of(results)
        anchor = "heuristic" if "heuristic" in bots else bots[0]
        rated = ratings.ratings(tables, bots, anchor=anchor)
        done = [r for r in results if r.ok]
        played = {b: sum(1 for r in done if b in (s.spec for s in r.seats)) for b in bots}
        print(f"{len(done)} games ({sum(1 for r in done if len(r.seats) == 2)} 2-player, "
              f"{sum(1 for r in done if len(r.seats) == 4)} 4-player) of {len(specs)} planned, seed "
              f"{args.seed}; ratings with 95% intervals, {anchor} = 0 (Elo 1500)")
        print(f"{'bot':14s}{'rating':>8s}   95% interval    {'Elo':>6s}  games")
        for r in rated:
            interval = f"[{r.low:5.2f}, {r.high:5.2f}]"
            print(f"{r.bot:14s}{r.rating:8.2f}   {interval}  {r.elo:6.0f}  {played[r.bot]}")
        print("2-player win rates (row beats column):")
        pair_wins: dict[tuple[str, str], list[float]] = {}
        for r in results:
            if r.ok and len(r.seats) == 2:
                a, b = r.seats[0].spec, r.seats[1].spec
                for x, y, seat in ((a, b, 0), (b, a, 1)):
                    share = 1.0 / len(r.winners) if seat in r.winners else 0.0
                    pair_wins.setdefault((x, y), []).append(share)
        for (x, y), w in sorted(pair_wins.items()):
            if bots.index(x) > bots.index(y):
                lo, hi = wilson_interval(sum(w), len(w))
                print(f"  {x:12s} vs {y:12s} {sum(w) / len(w):6.1%} [{lo:.1%}, {hi:.1%}] of {len(w)}")
        if args.json:
            Path(args.json).write_text(json.dumps({
                "games": len(done), "seed": args.seed,
                "ratings": [{"bot": r.bot, "rating": r.rating, "low": r.low, "high": r.high, "elo": r.elo,
                             "games": played[r.bot]} for r in rated]}, indent=1))
        if args.write:
            publish(rated, len(done), args.seed, argv if argv is not None else sys.argv[1:])
    print(f"{time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
