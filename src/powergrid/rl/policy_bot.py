"""A trained policy as a :class:`~powergrid.bots.Bot`: it plays in tournaments, the server and
the terminal like any other bot, seeing only its seat's view."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..bots import Bot
from ..rules import Action, GameView
from .codec import DEFAULT_BID_CAP, ActionCodec
from .observation import ObservationEncoder

#: (observation vector, boolean action mask) -> action index
Choose = Callable[[np.ndarray, np.ndarray], int]


class PolicyBot(Bot):
    """Wraps ``choose(observation, mask) -> index`` (e.g. a MaskablePPO ``predict``).

    The observation and mask are exactly what the environments give a learner with the same
    ``players``, map cities, ``bids`` and ``bid_cap``. An index outside the mask raises
    :class:`~powergrid.rl.IllegalEncodedAction`.
    """

    name = "policy"

    def __init__(self, choose: Choose, players: int, cities: tuple[str, ...] | list[str],
                 bids: str = "absolute", bid_cap: int = DEFAULT_BID_CAP, seed: int = 0) -> None:
        super().__init__(seed)
        self.choose = choose
        self.codec = ActionCodec(cities, bid_cap, bids)
        self.encoder = ObservationEncoder(players, len(self.codec.cities))

    def act(self, view: GameView) -> Action:
        legal = self.codec.legal(view)
        index = self.choose(self.encoder.encode(view), legal.mask.astype(bool))
        return self.codec.decode(index, legal)
