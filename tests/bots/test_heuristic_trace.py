"""The heuristic's decisions are pinned: speed work on it must not change what it plays.

Two digests over the same 40 seeded games. ``OUTCOME_DIGEST`` covers every decision outside
the auction, every plant bought (by whom, at what price) and each game's end: it was computed
by the heuristic before its speed work (issue 12), which raised one at a time, and still
holds. ``DECISIONS_DIGEST`` covers every decision, bids included: the fifth speed pass made the
bot bid in one step what raising one at a time comes to (same buyer, same price), which
changed the bids and nothing else, and this digest with them.
"""

from __future__ import annotations

import hashlib

import powergrid as pg
from powergrid.bots import make_bot
from powergrid.rules.phase import AUCTION

#: sha256 of every decision and each game's end, for the games played below
DECISIONS_DIGEST = "df4362045b2ab0b70d4e99ee09153e55c07c76cc270397b1107aca355614e1db"
#: sha256 of every decision outside the auction, every purchase and each game's end
OUTCOME_DIGEST = "6e406373eaf28e584255d9ada70895d38d34c55ac5d8c89541a46591c14c86a8"


def digests(games: int = 40) -> tuple[str, str]:
    """(decisions digest, outcome digest)."""
    decisions = hashlib.sha256()
    outcome = hashlib.sha256()
    for g in range(games):
        players = 2 + g % 5
        board = "germany" if g % 3 else "usa"
        state = pg.new_game(pg.GameConfig(map=board, players=players, seed=1000 + g))
        bots = [make_bot("heuristic", g * 10 + i) for i in range(players)]
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            action = bots[seat].act(state.view(seat))
            decisions.update(repr(action).encode())
            if state.phase != AUCTION or state.discard_seat >= 0:
                outcome.update(repr(action).encode())
            state.apply(action)
        end = repr((state.winners, state.round, state.money)).encode()
        decisions.update(end)
        outcome.update(repr([e for e in state.events if e[0] == "bought"]).encode())
        outcome.update(end)
    return decisions.hexdigest(), outcome.hexdigest()


def test_the_heuristic_plays_exactly_as_before() -> None:
    assert digests() == (DECISIONS_DIGEST, OUTCOME_DIGEST)
