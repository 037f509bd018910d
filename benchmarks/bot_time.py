"""Each bot's thinking time in whole games: CPU seconds a game and a searched decision.

    nice -n 5 python benchmarks/bot_time.py --bots pimc:strong,expert [--opponent pimc] [--games 6]
        [--players 2] [--map germany] [--seed 9100]

Every bot plays the same games (the same configurations and seeds, its seat alternating) against
``--opponent``, the bots interleaved game by game so that the machine's load falls on all alike.
Only the measured bot's ``act`` calls are timed (``time.process_time``: this process's CPU, which
other processes disturb less than the wall clock). A decision is searched when the bot ran its
search for it (its forward-model call count grew). Names as in ``benchmarks/ladder.py``
(``expert:strong@10000`` tries a level at another budget).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from erring import bot_factory as make_player  # noqa: E402

from powergrid.bots.base import Bot  # noqa: E402
from powergrid.rules import GameConfig, GameView, new_game  # noqa: E402


class Timed(Bot):
    """A bot whose decisions are timed."""

    def __init__(self, inner: Bot) -> None:
        super().__init__(inner.seed)
        self.inner = inner
        self.name = inner.name
        self.seconds = 0.0
        self.searched = 0

    def act(self, view: GameView) -> Any:
        calls = getattr(self.inner, "calls", 0)
        start = time.process_time()
        action = self.inner.act(view)
        self.seconds += time.process_time() - start
        self.searched += getattr(self.inner, "calls", 0) > calls
        return action


def one_game(spec: str, opponent: str, players: int, board: str, seed: int, seat: int) -> Timed:
    state = new_game(GameConfig(map=board, players=players, seed=seed))
    timed = Timed(make_player(spec, seed * 10 + seat))
    bots: list[Bot] = [make_player(opponent, seed * 10 + s) for s in range(players)]
    bots[seat] = timed
    while not state.is_over:
        who = state.current_player
        assert who is not None
        state.apply(bots[who].act(state.view(who)))
    return timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", required=True, help="comma-separated bot names to time")
    parser.add_argument("--opponent", default="pimc")
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--map", default="germany")
    parser.add_argument("--seed", type=int, default=9100)
    args = parser.parse_args()
    names = [b.strip() for b in args.bots.split(",") if b.strip()]
    per_game: dict[str, list[float]] = {n: [] for n in names}
    decisions: dict[str, list[int]] = {n: [] for n in names}
    for g in range(args.games):
        for name in names:
            timed = one_game(name, args.opponent, args.players, args.map, args.seed + g, g % args.players)
            per_game[name].append(timed.seconds)
            decisions[name].append(timed.searched)
    print(f"{args.games} games each, {args.players} players, {args.map}, against {args.opponent}, "
          f"seed {args.seed}; CPU seconds")
    print(f"{'bot':<24} {'a game':>8} {'min':>7} {'max':>7} {'a searched decision':>20}")
    for name in names:
        secs = per_game[name]
        per_decision = sum(secs) / max(1, sum(decisions[name]))
        print(f"{name:<24} {statistics.mean(secs):8.2f} {min(secs):7.2f} {max(secs):7.2f} "
              f"{per_decision:20.3f}")


if __name__ == "__main__":
    main()
