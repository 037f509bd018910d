"""Heuristic play-outs of a position: each seat's share of the games that heuristic bots, playing
every seat, win from it.

The coach's win estimate weighs these shares beside the learned evaluator (``value``, docs/coach.md):
the network reads a position's features, a play-out plays its end (which plant the money-rich
rival buys in the last auction, who can still build and power to the end), and each knows what
the other misses. Only public facts are read: every play-out starts from ``pg.determinize`` of a
view (the hidden deck and removed plants sampled), and the same position always gives the same
shares (the samples are seeded by their number).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from ..rules.view import GameView, determinize
from . import heuristic

#: a play-out still running at this round is stopped and shared out evenly (the heuristic ends
#: its games from round 30 on, docs/bots.md, so this is only a guard)
LAST_ROUND = 60


def playout_shares(s: Any, games: int) -> np.ndarray:
    """Each seat's share of ``games`` play-outs of the position ``s`` (a GameState or a view; a
    shared win counts as a fraction). A finished game gives its result."""
    players = len(s.money)
    shares = np.zeros(players)
    if s.is_over:
        for j in s.winners:
            shares[j] = 1.0 / len(s.winners)
        return shares
    view = s if isinstance(s, GameView) else s.view(0)
    for k in range(games):
        state = determinize(view, random.Random(k))
        while not state.is_over and state.round < LAST_ROUND:
            seat = state.current_player
            assert seat is not None
            state.apply(heuristic.decide(state, seat))
        if state.is_over:
            for j in state.winners:
                shares[j] += 1.0 / len(state.winners)
        else:
            shares += 1.0 / players
    out: np.ndarray = shares / games
    return out
