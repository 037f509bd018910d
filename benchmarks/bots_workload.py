"""A fixed, seeded bot workload for counting instructions (load-independent speed comparisons).

    python benchmarks/bots_workload.py heuristic [--games 10] [--before [REV]] [--setup-only]
    python benchmarks/bots_workload.py search [--searches 12] [--before [REV]] [--setup-only]
    python benchmarks/bots_workload.py random [--games 10] [--direct] [--setup-only]

``heuristic``: heuristic bots on all four seats of 4-player Germany, seeds 0..games-1.
``search``: ``pimc:fast`` in seat 0 of 4-player Germany (seed 100) against three heuristics,
until it has searched ``--searches`` times; prints its forward-model calls. ``random``: random
bots acting on views on all four seats of 4-player Germany, seeds 0..games-1, or with
``--direct`` the same choices made from ``state.legal_actions()`` without views (the share
of the two counts is "random play through views"). ``--before`` plays
the bots and views of git revision REV (by default those before issue 12, loaded from history by
benchmarks/revisions.py) on the current engine.
``--setup-only`` does everything but play (imports, new games), so that the difference of two
instruction counts is the playing alone::

    valgrind --tool=callgrind --callgrind-out-file=/tmp/a \
        python benchmarks/bots_workload.py heuristic --setup-only
    valgrind --tool=callgrind --callgrind-out-file=/tmp/b python benchmarks/bots_workload.py heuristic

(read "Collected" of each; run the command once without valgrind first, so that neither run
pays for compiling the sources). The machine's load changes the time, not the count. Subtract
the ``--setup-only`` count of the same command (with ``--before`` for ``--before``: it imports
other modules, and where ``PYTHONDONTWRITEBYTECODE`` is set every run compiles what it
imports), and set ``PYTHONHASHSEED=0`` in both so that the setup counts repeat exactly.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from revisions import BEFORE_ISSUE_12, old_bots  # noqa: E402

import powergrid as pg  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kind", choices=("heuristic", "search", "random"))
    ap.add_argument("--games", type=int, default=10, help="heuristic games")
    ap.add_argument("--searches", type=int, default=12, help="searches the search bot makes")
    ap.add_argument("--before", nargs="?", const=BEFORE_ISSUE_12, metavar="REV",
                    help="the bots and views of git revision REV (default: before issue 12)")
    ap.add_argument("--setup-only", action="store_true", help="everything but playing")
    ap.add_argument("--direct", action="store_true", help="random: choose from the state, no views")
    args = ap.parse_args()
    view: Any
    if args.before:
        old = old_bots(args.before)
        Heuristic, Search, view = old.HeuristicBot, old.SearchBot, old.view
    else:
        from powergrid.bots import HeuristicBot as Heuristic
        from powergrid.bots import SearchBot as Search

        def view(state: pg.GameState, seat: int) -> pg.GameView:
            return state.view(seat)
    if args.kind == "random":
        from powergrid.bots import RandomBot
        games = [pg.new_game(pg.GameConfig(map="germany", players=4, seed=g)) for g in range(args.games)]
        if not args.setup_only:
            for g, state in enumerate(games):
                if args.direct:
                    rngs = [random.Random(g * 10 + i) for i in range(4)]
                    while (seat := state.current_player) is not None:
                        state.apply(rngs[seat].choice(state.legal_actions()))
                else:
                    bots = [RandomBot(g * 10 + i) for i in range(4)]
                    while (seat := state.current_player) is not None:
                        state.apply(bots[seat].act(state.view(seat)))
        print(f"{args.games} random games")
        return 0
    if args.kind == "heuristic":
        games = [pg.new_game(pg.GameConfig(map="germany", players=4, seed=g)) for g in range(args.games)]
        if not args.setup_only:
            for g, state in enumerate(games):
                bots = [Heuristic(g * 10 + i) for i in range(4)]
                while (seat := state.current_player) is not None:
                    state.apply(bots[seat].act(view(state, seat)))
        print(f"{args.games} heuristic games")
        return 0
    state = pg.new_game(pg.GameConfig(map="germany", players=4, seed=100))
    bot = Search(0, level="fast")
    players = [bot] + [Heuristic(i) for i in range(1, 4)]
    while (not args.setup_only and (seat := state.current_player) is not None
           and bot.searches < args.searches):
        state.apply(players[seat].act(view(state, seat)))
    print(f"forward-model calls {bot.calls}, searches {bot.searches}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
