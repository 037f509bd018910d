"""The plan search now against the same level of the code before issue 12, at the same budget in
seconds: what the speed bought.

    nice -n 10 python benchmarks/search_versus.py --level fast --seconds 0.06 --games 200 --workers 2 \
        [--before REV]

Two-player games (Germany by default), seats rotated game by game: the new bot sits first in
even games, the old one (git revision ``--before``, by default the code before issue 12, loaded from
history by benchmarks/revisions.py) in odd ones. Both think for the
same CPU seconds per searched decision (the process's CPU clock, so other jobs on the machine
do not shift the balance), so the figure shows what more forward-model calls per second buy;
results are not replay-exact (the budget is in seconds). Prints the new
bot's win rate with a 95% Wilson interval, and each side's forward-model calls per search.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from revisions import BEFORE_ISSUE_12, load  # noqa: E402
from strength import wilson  # noqa: E402

import powergrid as pg  # noqa: E402
from powergrid.bots.search import SearchBot  # noqa: E402

#: a game still running after this many rounds counts as a draw (the bot from before issue 12
#: never ends a game it would lose, so two searching bots could hold forever; the bot now ends
#: long games from round 30 on, as the heuristic does)
ROUND_CAP = 60


class _CPU_CLOCK:
    perf_counter = staticmethod(time.process_time)


def play_one(job: tuple[str, str, float, str, int, int]) -> tuple[int, float, float, int, int, int, int]:
    """One game: (game, new bot's win share, its powered cities minus the old one's, new calls,
    new searches, old calls, old searches)."""
    import powergrid.bots.search

    before, level, seconds, map_name, seed, game = job
    old_search = load(before, ["bots.heuristic", "bots.search"])["bots.search"]
    # Both bots read their deadline from this process's CPU clock, not the wall clock: on a
    # shared machine the wall clock would hand each of them whatever the other jobs leave over.
    for module in (old_search, powergrid.bots.search):
        module.time = _CPU_CLOCK  # type: ignore[attr-defined]
    SearchBefore = old_search.SearchBot

    new_seat = game % 2
    state = pg.new_game(pg.GameConfig(map=map_name, players=2, seed=seed + game))
    new = SearchBot((seed + game) * 100 + new_seat, level=level, seconds=seconds)
    old = SearchBefore((seed + game) * 100 + 1 - new_seat, level=level, seconds=seconds)
    bots = [new, old] if new_seat == 0 else [old, new]
    while not state.is_over and state.round <= ROUND_CAP:
        seat = state.current_player
        assert seat is not None
        state.apply(bots[seat].act(state.view(seat)))
    if not state.is_over:
        return game, 0.5, 0.0, new.calls, new.searches, old.calls, old.searches  # a draw
    share = (1.0 / len(state.winners)) if new_seat in state.winners else 0.0
    margin = state.powerable(new_seat) - state.powerable(1 - new_seat)
    return game, share, margin, new.calls, new.searches, old.calls, old.searches


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--level", default="fast", choices=["fast", "default", "strong"])
    ap.add_argument("--seconds", type=float, required=True, help="per searched decision, both bots")
    ap.add_argument("--map", default="germany")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--before", default=BEFORE_ISSUE_12, metavar="REV",
                    help="git revision of the old search (default: before issue 12)")
    args = ap.parse_args()
    load(args.before, ["bots.heuristic", "bots.search"])  # fail early on a bad revision
    jobs = [(args.before, args.level, args.seconds, args.map, args.seed, g) for g in range(args.games)]
    wins = margin = 0.0
    calls = [0, 0]
    searches = [0, 0]
    done = 0
    start = time.perf_counter()
    with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
        for result in pool.imap_unordered(play_one, jobs):
            _g, share, diff, new_calls, new_searches, old_calls, old_searches = result
            done += 1
            wins += share
            margin += diff
            calls[0] += new_calls
            calls[1] += old_calls
            searches[0] += new_searches
            searches[1] += old_searches
            if done % 10 == 0 or done == args.games:
                lo, hi = wilson(wins, done)
                print(f"  {done}/{args.games} games, {time.perf_counter() - start:.0f} s: new wins "
                      f"{wins:.1f} ({wins / done:.1%}, [{lo:.1%}, {hi:.1%}]), powered {margin / done:+.2f}, "
                      f"calls per search new {calls[0] / max(1, searches[0]):,.0f} before "
                      f"{calls[1] / max(1, searches[1]):,.0f}", file=sys.stderr, flush=True)
    lo, hi = wilson(wins, done)
    print(f"{args.level} at {args.seconds} s per searched decision, 2-player {args.map}, {done} games, "
          f"seed {args.seed}, before: revision {args.before}")
    print(f"new vs before: {wins:.1f} wins, {wins / done:.1%}, 95% interval [{lo:.1%}, {hi:.1%}]; "
          f"powered cities at the end, new minus before: {margin / done:+.2f} a game")
    print(f"forward-model calls per search: new {calls[0] / max(1, searches[0]):,.0f}, "
          f"before {calls[1] / max(1, searches[1]):,.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
