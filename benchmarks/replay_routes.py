"""What the replay viewer and the log pages cost on the server: a position, the index, a log page.

    PYTHONPATH=src python benchmarks/replay_routes.py [--players 4] [--seed 3] [--runs 5]

Plays one game between heuristic bots, then times (best of --runs) the work behind
GET /api/games/{id}/replay/{step} at the last step, GET /api/games/{id}/replay and
GET /api/games/{id}/log.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable

import powergrid as pg
from powergrid.bots import make_bot
from powergrid.server.api.replays import log_page, replay_to, step_index


def best_ms(work: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    config = pg.GameConfig(map="germany", players=args.players, seed=args.seed)
    state = pg.new_game(config)
    bots = [make_bot("heuristic", seat) for seat in range(args.players)]
    while not state.is_over:
        seat = state.current_player
        state.apply(bots[seat].act(state.view(seat)))
    actions = state.actions_taken()
    print(f"{len(actions)} actions, {state.round} rounds, {len(state.events)} events")
    end = len(actions)
    cases = {
        "position at the end (replay + JSON)": lambda: json.dumps(replay_to(config, actions, end).payload()),
        "position in the middle": lambda: json.dumps(replay_to(config, actions, end // 2).payload()),
        "index of every step": lambda: step_index(config, actions),
        "a page of the whole log": lambda: log_page(state, None, 200),
    }
    for name, work in cases.items():
        print(f"{name:38s} {best_ms(work, args.runs):7.1f} ms")

if __name__ == "__main__":
    main()
