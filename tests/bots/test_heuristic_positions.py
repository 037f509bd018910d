"""The heuristic's building plan kept across a build turn equals the plan worked out afresh.

A position one house on is made from the last one (the other seats keep their greedy choices);
here every seat's build prices and greedy choices, read that way during real games, are compared
with the same read from empty caches.
"""

from __future__ import annotations

import powergrid as pg
from powergrid.bots import heuristic, make_bot
from powergrid.bots.heuristic import cheapest_cities
from powergrid.rules.phase import BUILD


def _plans(s: pg.GameState) -> list[tuple[list[int], list[int]]]:
    # a few cities each, as the bot asks (a network worked out to the end has chosen every
    # city, and nothing is left to carry over)
    return [(list(heuristic._network(s, j).prices), cheapest_cities(s, j, s.money[j], 4))
            for j in range(s.players)]


def test_plans_made_from_the_last_position_equal_fresh_ones() -> None:
    compared = derived = 0
    for g in range(6):
        players = 3 + g % 4
        state = pg.new_game(pg.GameConfig(map="germany" if g % 2 else "usa", players=players, seed=500 + g))
        bots = [make_bot("heuristic", g * 10 + i) for i in range(players)]
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            view = state.view(seat)
            action = bots[seat].act(view)
            if state.phase == BUILD:
                seen = view.public_state
                position = heuristic._position(seen)
                derived += position.origin is not None
                kept = _plans(seen)
                caches = heuristic._caches(seen.scn)
                caches.positions.clear()
                caches.last_position = (None, None)
                assert _plans(seen) == kept
                compared += 1
            state.apply(action)
    assert compared > 200 and derived > 50
