"""Rewards: win/loss at the end, optionally shaped by progress during the game.

``reward="win"`` (default): 0 on every step; when the game ends each winner gets ``+1/k``
(``k`` winners share a tie) and every other player ``-1``. A game cut off by the decision
limit (truncation) ends with 0 for everyone.

``reward="shaped"``: the same terminal reward plus, after every decision, the change of each
player's potential ``phi = 0.05 * powerable + 0.001 * money``, where ``powerable`` is how many of
its own cities the player could power right now with its plants and stored resources and
``money`` its Elektro. Summed over a game the shaping adds ``phi(end) - phi(start)`` (about
0.75 for 15 powerable cities), so it rewards building a working network without swamping the
win/loss signal.
"""

from __future__ import annotations

from ..rules import GameState

REWARDS = ("win", "shaped")
POWERABLE_WEIGHT = 0.05
MONEY_WEIGHT = 0.001


def check_reward(reward: str) -> str:
    if reward not in REWARDS:
        raise ValueError(f"unknown reward {reward!r}; the rewards are {', '.join(REWARDS)}")
    return reward


def terminal_rewards(state: GameState) -> list[float]:
    """Per seat: +1/k for each of k winners, -1 for the others (0 for all if not over)."""
    n = state.players
    if not state.is_over:
        return [0.0] * n
    winners = state.winners
    share = 1.0 / len(winners) if winners else 0.0
    return [share if seat in winners else -1.0 for seat in range(n)]


def potentials(state: GameState) -> list[float]:
    """The shaping potential of every seat."""
    return [POWERABLE_WEIGHT * state.powerable(seat) + MONEY_WEIGHT * state.money[seat]
            for seat in range(state.players)]
