"""Bot speed, now against the code before issue 12 in the same run (interleaved, so the machine's
load falls on both alike): views, random play, the heuristic at 2, 4 and 6 players, and the
plan search (``pimc``) at each level.

    nice -n 10 python benchmarks/bots_speed.py [--games 20] [--search-games 1] [--before REV]

"before" is the heuristic and search bots and the view at git revision ``--before`` (by default
:data:`revisions.BEFORE_ISSUE_12`: the bots as they were, and a view that copies and masks the
whole state on every call), loaded from git history by benchmarks/revisions.py onto today's
engine. Times are CPU seconds of this
process (``time.process_time``), which other processes disturb less than the wall clock.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import argparse  # noqa: E402

from revisions import BEFORE_ISSUE_12, OldBots, old_bots  # noqa: E402

import powergrid as pg  # noqa: E402
from powergrid.bots import HeuristicBot, RandomBot, SearchBot  # noqa: E402

cpu = time.process_time

ViewMaker = Callable[[pg.GameState, int], pg.GameView]


def new_view(state: pg.GameState, seat: int) -> pg.GameView:
    return state.view(seat)


def game(config: pg.GameConfig, bots: list[Any], make_view: ViewMaker | None) -> tuple[float, pg.GameState]:
    """CPU seconds of one game; ``make_view`` None: random bots choose from the state directly."""
    state = pg.new_game(config)
    started = cpu()
    if make_view is None:
        rngs = [random.Random(i) for i in range(len(bots))]
        while (seat := state.current_player) is not None:
            state.apply(rngs[seat].choice(state.legal_actions()))
    else:
        while (seat := state.current_player) is not None:
            state.apply(bots[seat].act(make_view(state, seat)))
    return cpu() - started, state


def random_play(games: int, old: OldBots) -> None:
    seconds = {"direct": 0.0, "views now": 0.0, "views before": 0.0}
    decisions = dict.fromkeys(seconds, 0)
    makers: dict[str, ViewMaker | None] = {"direct": None, "views now": new_view, "views before": old.view}
    for g in range(games):
        config = pg.GameConfig(map="germany", players=4, seed=g)
        for name, maker in makers.items():
            took, state = game(config, [RandomBot(i) for i in range(4)], maker)
            seconds[name] += took
            decisions[name] += state.decisions
    print(f"random play, 4-player Germany, {games} games each:")
    base = decisions["direct"] / seconds["direct"]
    for name in makers:
        rate = decisions[name] / seconds[name]
        print(f"  {name:<13} {rate:9,.0f} decisions/s  {games / seconds[name]:7.1f} games/s  "
              f"({rate / base:.0%} of direct)")


def view_cost(games: int, old: OldBots) -> None:
    samples: list[pg.GameState] = []
    rng = random.Random(1)
    for g in range(games):
        state = pg.new_game(pg.GameConfig(map="germany", players=4, seed=1000 + g))
        while state.current_player is not None:
            if rng.random() < 0.2:
                samples.append(state.clone())
            state.apply(rng.choice(state.legal_actions()))

    def mean_us(call: Callable[[pg.GameState], object]) -> float:
        best = float("inf")
        for _ in range(5):
            started = time.perf_counter_ns()
            for s in samples:
                call(s)
            best = min(best, time.perf_counter_ns() - started)
        return best / len(samples) / 1000

    print(f"a view, mean over {len(samples)} states (best of 5 passes):")
    print(f"  now, taken            {mean_us(lambda s: s.view(s.current_player)):6.2f} µs")
    print(f"  now, taken and read   {mean_us(lambda s: s.view(s.current_player).money):6.2f} µs")
    print(f"  before                {mean_us(lambda s: old.view(s, s.current_player)):6.2f} µs")


def heuristic_speed(games: int, old: OldBots) -> None:
    print(f"heuristic bots on every seat, Germany, one core, {games} games each "
          "(before: old bot, old views):")
    for players in (2, 4, 6):
        seconds = {"now": 0.0, "before": 0.0}
        decisions = 0
        for g in range(games):
            config = pg.GameConfig(map="germany", players=players, seed=g)
            took, state = game(config, [HeuristicBot(g * 10 + i) for i in range(players)], new_view)
            seconds["now"] += took
            decisions += state.decisions
            took, _ = game(config, [old.HeuristicBot(g * 10 + i) for i in range(players)], old.view)
            seconds["before"] += took
        now, before = games / seconds["now"], games / seconds["before"]
        print(f"  {players} players: now {now:6.1f} games/s, before {before:6.1f} games/s "
              f"({now / before:.2f}x); "
              f"{1e6 * seconds['now'] / decisions:.0f} µs a decision now, view included")


def search_speed(games: int, old: OldBots) -> None:
    print(f"plan search in seat 0 of 4-player Germany against 3 heuristics, {games} game(s) a level "
          f"(before: old search, old heuristic, old views):")
    for level in ("fast", "default", "strong"):
        row = {}
        for label, bot_class, heuristic_class, maker in (
                ("now", SearchBot, HeuristicBot, new_view),
                ("before", old.SearchBot, old.HeuristicBot, old.view)):
            thinking = 0.0
            calls = searches = 0
            for g in range(games):
                state = pg.new_game(pg.GameConfig(map="germany", players=4, seed=100 + g))
                bot = bot_class(g, level=level)
                bots = [bot] + [heuristic_class(g * 10 + i) for i in range(1, 4)]
                while (seat := state.current_player) is not None:
                    view = maker(state, seat)
                    started = cpu()
                    action = bots[seat].act(view)
                    if seat == 0:
                        thinking += cpu() - started
                    state.apply(action)
                calls += bot.calls
                searches += bot.searches
            row[label] = (calls / thinking, thinking / max(1, searches), searches / games)
        now, before = row["now"], row["before"]
        print(f"  pimc:{level:<8} now {now[0]:7,.0f} calls/s, {now[1]:.3f} s a searched decision "
              f"({now[2]:.0f} searches a game); before {before[0]:7,.0f} calls/s, {before[1]:.3f} s "
              f"({now[0] / before[0]:.2f}x calls/s)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20, help="games per figure (random and heuristic)")
    ap.add_argument("--search-games", type=int, default=1, help="games per search level and version")
    ap.add_argument("--before", default=BEFORE_ISSUE_12, metavar="REV",
                    help="git revision of the code to compare with (default: before issue 12)")
    args = ap.parse_args()
    old = old_bots(args.before)
    with open("/proc/loadavg") as f:
        load = f.read().split()[:3]
    print(f"Python {sys.version.split()[0]}, load average {' '.join(load)} at the start")
    print(f"before: revision {args.before}")
    view_cost(max(2, args.games // 4), old)
    random_play(args.games, old)
    heuristic_speed(args.games, old)
    if args.search_games > 0:
        search_speed(args.search_games, old)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
