"""The heuristic's decisions are pinned: speed work on it must not change what it plays.

The digest below was computed by the heuristic before its speed work (issue 12) over the same
40 seeded games; a change that alters any decision, or how a game ends, changes it.
"""

from __future__ import annotations

import hashlib

import powergrid as pg
from powergrid.bots import make_bot

#: sha256 of every decision and each game's end, for the games played below
DECISIONS_DIGEST = "0d1be5b1efd78d584fa59897d13de6caebd755226a6c51f74e186628e3941fb9"


def decisions_digest(games: int = 40) -> str:
    digest = hashlib.sha256()
    for g in range(games):
        players = 2 + g % 5
        board = "germany" if g % 3 else "usa"
        state = pg.new_game(pg.GameConfig(map=board, players=players, seed=1000 + g))
        bots = [make_bot("heuristic", g * 10 + i) for i in range(players)]
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            action = bots[seat].act(state.view(seat))
            digest.update(repr(action).encode())
            state.apply(action)
        digest.update(repr((state.winners, state.round, state.money)).encode())
    return digest.hexdigest()


def test_the_heuristic_plays_exactly_as_before() -> None:
    assert decisions_digest() == DECISIONS_DIGEST
