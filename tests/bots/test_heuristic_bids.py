"""The heuristic bids in one step what raising one at a time would come to."""

from __future__ import annotations

from typing import Any

import pytest

import powergrid as pg
from powergrid.bots import heuristic
from powergrid.bots.heuristic import HeuristicBot


def _play(players: int, seed: int, board: str) -> tuple[list[Any], list[Any]]:
    """(every event but the auction's bids, opens and passes; the bids made)."""
    state = pg.new_game(pg.GameConfig(map=board, players=players, seed=seed))
    bots = [HeuristicBot(seed * 10 + i) for i in range(players)]
    bids = []
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        action = bots[seat].act(state.view(seat))
        if action.kind in ("bid", "open"):
            bids.append(action)
        state.apply(action)
    rest = [e for e in state.events if not (e[0] == "act" and e[2].kind in ("bid", "open", "pass"))]
    return rest, bids


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_auctions_end_as_raising_one_at_a_time_would(players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    for g in range(4):
        board = "usa" if g % 2 else "germany"
        seed = 700 + 10 * players + g
        jumping, jumps = _play(players, seed, board)
        with monkeypatch.context() as m:
            # the bot before: open at the minimum, raise by one
            m.setattr(heuristic, "_amount", lambda s, seat, plant, least, limit, bidders: least)
            stepping, steps = _play(players, seed, board)
        # every plant goes to the same seat at the same price, so the games are the same
        assert jumping == stepping
        assert len(jumps) < len(steps)
