"""The random bot: uniform over the legal actions."""

from __future__ import annotations

import random

from ..rules import Action, GameView
from .base import Bot


class RandomBot(Bot):
    name = "random"

    def __init__(self, seed: int = 0, budget: int | None = None) -> None:
        super().__init__(seed, budget)
        self._rng = random.Random(seed)

    def act(self, view: GameView) -> Action:
        legal: list[Action] = view.legal_actions()
        return self._rng.choice(legal)
