"""Research API: Power Grid as PettingZoo (multi-agent) and Gymnasium (single-agent) environments.

Needs the ``rl`` extra (``pip install "powergrid[rl]"``: numpy, gymnasium, pettingzoo). See docs/rl.md.

    import powergrid.rl
    aec = powergrid.rl.env(map="germany", players=4, seed=1)          # PettingZoo AEC
    single = powergrid.rl.SingleAgentEnv(opponents="random", seed=1)  # Gymnasium
    gymnasium.make("powergrid/PowerGrid-v0", opponents="random")      # the same, registered
"""

from __future__ import annotations

from .aec import PowerGridAEC, env, parallel_env, raw_env
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
from .single import SingleAgentEnv
from .state_api import decode, legal_mask, observe
from .vector import PowerGridVectorEnv, vector_env

GYM_ID = "powergrid/PowerGrid-v0"


def _register() -> None:
    from gymnasium.envs.registration import register, registry

    if GYM_ID not in registry:
        register(id=GYM_ID, entry_point="powergrid.rl.single:SingleAgentEnv")


_register()

__all__ = [
    "ActionCodec", "ActionNotEncodable", "BID_ENCODINGS", "BID_RAISES", "decode", "DEFAULT_BID_CAP",
    "EncodedLegal", "env", "GYM_ID", "IllegalEncodedAction", "legal_mask", "observation_fields",
    "ObservationEncoder", "observe", "OPEN_OFFSETS", "parallel_env", "PolicyBot", "potentials",
    "PowerGridAEC", "PowerGridVectorEnv", "rank_rewards", "raw_env", "REWARDS", "SingleAgentEnv",
    "terminal_rewards", "vector_env",
]
