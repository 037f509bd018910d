"""Play-outs of a position: each seat's share of the games that bots, playing every seat, win
from it.

The coach's win estimate weighs these shares beside the learned evaluator (``value``, docs/coach.md):
the network reads a position's features, a play-out plays its end (which plant the money-rich
rival buys in the last auction, who can still build and power to the end), and each knows what
the other misses. A seat is played by the heuristic, except that a seat of a search (the kinds in
``SEARCH_KINDS``) is played by a small search of its kind when ``search_budget`` is given:
searches end a game otherwise than the heuristic does (they buy the fuel a rival needs, bid up
the last plants), and a heuristic's play-out of their end game is often confidently wrong.

Only public facts are read: every play-out starts from ``pg.determinize`` of a view (the hidden
deck and removed plants sampled), and the same position always gives the same shares (the samples
and the small searches are seeded by their number).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..rules.view import GameView, determinize
from . import heuristic, names

#: a play-out still running at this round is stopped and shared out evenly (the heuristic ends
#: its games from round 30 on, docs/bots.md, so this is only a guard)
LAST_ROUND = 60

#: bot kinds whose seats a play-out with a ``search_budget`` gives to a small search of theirs
SEARCH_KINDS = frozenset({"expert"})


def searches(players: Sequence[str | None] | None) -> list[bool]:
    """Which seats are played by a search kind (``SEARCH_KINDS``); people and unknown: none."""
    if players is None:
        return []
    return [p is not None and names.split(p)[0] in SEARCH_KINDS for p in players]


def playout_shares(s: Any, games: int, players: Sequence[str | None] | None = None,
                   search_budget: int = 0) -> np.ndarray:
    """Each seat's share of ``games`` play-outs of the position ``s`` (a GameState or a view; a
    shared win counts as a fraction). With ``search_budget``, the seats of searches (``players``,
    ``SEARCH_KINDS``) are played by ``expert:fast`` at that many calls a search; the others by the
    heuristic. A finished game gives its result."""
    players_n = len(s.money)
    shares = np.zeros(players_n)
    if s.is_over:
        for j in s.winners:
            shares[j] = 1.0 / len(s.winners)
        return shares
    view = s if isinstance(s, GameView) else s.view(0)
    searched = searches(players) if search_budget > 0 else []
    for k in range(games):
        state = determinize(view, random.Random(k))
        bots = _small_searches(searched, search_budget, k)
        while not state.is_over and state.round < LAST_ROUND:
            seat = state.current_player
            assert seat is not None
            bot = bots.get(seat)
            state.apply(heuristic.decide(state, seat) if bot is None else bot.act(state.view(seat)))
        if state.is_over:
            for j in state.winners:
                shares[j] += 1.0 / len(state.winners)
        else:
            shares += 1.0 / players_n
    out: np.ndarray = shares / games
    return out


def _small_searches(searched: list[bool], budget: int, game: int) -> dict[int, Any]:
    # imported here: expert reads the evaluator (value), which imports this module
    from .expert import ExpertBot

    return {seat: ExpertBot(seed=1009 * game + seat, budget=budget, level="fast")
            for seat, yes in enumerate(searched) if yes}
