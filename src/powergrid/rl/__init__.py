"""Research API: Power Grid as PettingZoo (multi-agent) and Gymnasium (single-agent) environments.

Needs the ``rl`` extra (``pip install "powergrid[rl]"``: numpy, gymnasium, pettingzoo). See docs/rl.md.
The environments load on first use, so the encoder, the codec and the shipped policy
(``powergrid.rl.learned``) work with numpy alone.

    import powergrid.rl
    aec = powergrid.rl.env(map="germany", players=4, seed=1)          # PettingZoo AEC
    single = powergrid.rl.SingleAgentEnv(opponents="random", seed=1)  # Gymnasium
    gymnasium.make("powergrid/PowerGrid-v0", opponents="random")      # the same, registered
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from .codec import (
    BID_ENCODINGS,
    BID_RAISES,
    DEFAULT_BID_CAP,
    OPEN_OFFSETS,
    ActionCodec,
    ActionNotEncodable,
    EncodedLegal,
    IllegalEncodedAction,
)
from .observation import ObservationEncoder, observation_fields
from .policy_bot import PolicyBot
from .rewards import REWARDS, potentials, rank_rewards, terminal_rewards
from .state_api import decode, legal_mask, observe

GYM_ID = "powergrid/PowerGrid-v0"

#: names that need gymnasium and pettingzoo, loaded on first use: module of each
_ENVIRONMENTS = {"PowerGridAEC": "aec", "env": "aec", "parallel_env": "aec", "raw_env": "aec",
                 "SingleAgentEnv": "single", "PowerGridVectorEnv": "vector", "vector_env": "vector",
                 "OpponentPool": "league", "map_graph": "graph", "MapGraph": "graph"}


def __getattr__(name: str) -> Any:
    module = _ENVIRONMENTS.get(name)
    if module is None:
        raise AttributeError(f"module 'powergrid.rl' has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def _register() -> None:
    try:
        from gymnasium.envs.registration import register, registry
    except ImportError:  # numpy alone: the encoder, codec and shipped policy still work
        return
    if GYM_ID not in registry:
        register(id=GYM_ID, entry_point="powergrid.rl.single:SingleAgentEnv")


_register()

__all__ = [
    "ActionCodec", "ActionNotEncodable", "BID_ENCODINGS", "BID_RAISES", "decode", "DEFAULT_BID_CAP",
    "EncodedLegal", "env", "GYM_ID", "IllegalEncodedAction", "legal_mask", "MapGraph", "map_graph",
    "observation_fields", "ObservationEncoder", "observe", "OPEN_OFFSETS", "OpponentPool", "parallel_env",
    "PolicyBot", "potentials", "PowerGridAEC", "PowerGridVectorEnv", "rank_rewards", "raw_env", "REWARDS",
    "SingleAgentEnv", "terminal_rewards", "vector_env",
]
