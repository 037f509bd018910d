"""The common bot interface: a bot sees only its seat's view and answers one action."""

from __future__ import annotations

from abc import ABC, abstractmethod

from ..rules import Action, GameView


class Bot(ABC):
    """A player program. Deterministic given its seed, so bot games replay exactly.

    ``budget`` is the bot's thinking allowance where it has one (search bots: forward-model
    calls per decision); bots without search ignore it.
    """

    #: the name used to choose it (``random``, ``heuristic``, ``mcts:fast``...)
    name: str = "bot"
    #: False for bots whose choices depend on the clock (a budget in seconds): their games
    #: do not replay exactly from config and seeds.
    replay_exact: bool = True

    def __init__(self, seed: int = 0, budget: int | None = None) -> None:
        self.seed = seed
        self.budget = budget

    @abstractmethod
    def act(self, view: GameView) -> Action:
        """Choose one of ``view.legal_actions()`` for ``view.seat``."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} seed={self.seed}>"
