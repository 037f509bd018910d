"""Observation and mask for any state or view and any seat, without an environment.

For search agents (AlphaZero-style, MCTS with a learned prior) that walk engine states
themselves::

    state = powergrid.new_game(powergrid.GameConfig(seed=1))
    x = powergrid.rl.observe(state, seat=2)        # what seat 2 sees, as the environments give it
    m = powergrid.rl.legal_mask(state)              # the player to act's mask
    child = state.clone(); child.apply(powergrid.rl.decode(state, index))

Encoders and codecs are made once per layout and reused.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..rules import Action, GameState, GameView
from .codec import DEFAULT_BID_CAP, ActionCodec, _state_and_seat
from .observation import ObservationEncoder


@lru_cache(maxsize=32)
def encoder_for(players: int, cities: int) -> ObservationEncoder:
    return ObservationEncoder(players, cities)


@lru_cache(maxsize=32)
def codec_for(cities: tuple[str, ...], bids: str = "absolute", bid_cap: int = DEFAULT_BID_CAP) -> ActionCodec:
    return ActionCodec(cities, bid_cap, bids)


def _cities(state: GameState) -> tuple[str, ...]:
    return tuple(state.scn.map.cities)


def observe(state_or_view: GameState | GameView, seat: int | None = None) -> np.ndarray:
    """The observation vector of ``seat`` (default: the view's seat, or the player to act).

    Any seat may be observed from a full state or from any seat's view: the observation holds
    only what every player sees, so it never depends on the hidden deck order.
    """
    state, seat = _state_and_seat(state_or_view, seat)
    return encoder_for(state.players, len(state.scn.map.cities)).encode(state, seat)


def legal_mask(state_or_view: GameState | GameView, seat: int | None = None, *, bids: str = "absolute",
               bid_cap: int = DEFAULT_BID_CAP) -> np.ndarray:
    """The ``np.int8`` action mask of ``seat`` (default: the view's seat, or the player to act);
    all zeros for a seat that is not to act, or once the game is over."""
    state, seat = _state_and_seat(state_or_view, seat)
    return codec_for(_cities(state), bids, bid_cap).legal(state, seat).mask


def decode(state_or_view: GameState | GameView, index: int, *, bids: str = "absolute",
           bid_cap: int = DEFAULT_BID_CAP) -> Action:
    """The engine action behind ``index`` for the player to act.

    :raises IllegalEncodedAction: the index is masked out.
    """
    state, seat = _state_and_seat(state_or_view, None)
    codec = codec_for(_cities(state), bids, bid_cap)
    return codec.decode(index, codec.legal(state, seat))
