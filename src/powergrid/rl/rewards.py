"""Rewards: win/loss or ranking at the end, optionally shaped by progress during the game.

``reward="win"`` (default): 0 on every step; when the game ends each winner gets ``+1/k``
(``k`` winners share a tie) and every other player ``-1``. A game cut off by the decision
limit (truncation) ends with 0 for everyone.

``reward="rank"``: zero-sum for any player count. At the end each player gets
``(players it beat - players that beat it) / (n - 1)``, ranked as the game ranks them
(cities powered, then money, then cities: docs/rules.md, Winning); ties count as neither.
The sole winner of a 4-player game gets +1, the last -1, the others +1/3 and -1/3, and
the rewards of a game always sum to 0, so finishing second is worth more than finishing last.

``reward="shaped"`` / ``"rank_shaped"``: the win (or rank) reward plus, after every decision,
the change of each player's potential ``phi = 0.05 * powerable + 0.001 * money``, where
``powerable`` is how many of its own cities the player could power right now with its plants
and stored resources and ``money`` its Elektro. Summed over a game the shaping adds
``phi(end) - phi(start)`` (about 0.75 for 15 powerable cities), so it rewards building a
working network without swamping the terminal signal.
"""

from __future__ import annotations

from ..rules import GameState

REWARDS = ("win", "rank", "shaped", "rank_shaped")
POWERABLE_WEIGHT = 0.05
MONEY_WEIGHT = 0.001


def check_reward(reward: str) -> str:
    if reward not in REWARDS:
        raise ValueError(f"unknown reward {reward!r}; the rewards are {', '.join(REWARDS)}")
    return reward


def is_shaped(reward: str) -> bool:
    return reward in ("shaped", "rank_shaped")


def final_scores(state: GameState) -> list[tuple[int, int, int]]:
    """Per seat, what ranks a finished game: (cities powered, money, cities)."""
    return [(state.powered[s], state.money[s], len(state.cities[s])) for s in range(state.players)]


def terminal_rewards(state: GameState, kind: str = "win") -> list[float]:
    """Per seat, the reward at the end (0 for all if the game is not over).

    ``kind="win"``: +1/k for each of k winners, -1 for the others. ``kind="rank"``: the
    zero-sum ranking reward.
    """
    n = state.players
    if not state.is_over:
        return [0.0] * n
    if kind in ("rank", "rank_shaped"):
        return rank_rewards(final_scores(state))
    winners = state.winners
    share = 1.0 / len(winners) if winners else 0.0
    return [share if seat in winners else -1.0 for seat in range(n)]


def rank_rewards(scores: list[tuple[int, int, int]]) -> list[float]:
    """(beaten - beaten by) / (n - 1) for each score; sums to 0."""
    n = len(scores)
    if n < 2:
        return [0.0] * n
    return [(sum(mine > other for other in scores) - sum(mine < other for other in scores)) / (n - 1)
            for mine in scores]


def potentials(state: GameState) -> list[float]:
    """The shaping potential of every seat."""
    return [POWERABLE_WEIGHT * state.powerable(seat) + MONEY_WEIGHT * state.money[seat]
            for seat in range(state.players)]
