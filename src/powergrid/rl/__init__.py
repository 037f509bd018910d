"""Research API: Power Grid as PettingZoo (multi-agent) and Gymnasium (single-agent) environments.

Needs the ``rl`` extra (``pip install "powergrid[rl]"``: numpy, gymnasium, pettingzoo). See docs/rl.md.

    import powergrid.rl
    aec = powergrid.rl.env(map="germany", players=4, seed=1)          # PettingZoo AEC
    single = powergrid.rl.SingleAgentEnv(opponents="random", seed=1)  # Gymnasium
    gymnasium.make("powergrid/PowerGrid-v0", opponents="random")      # the same, registered
"""

from __future__ import annotations

from .aec import PowerGridAEC, env, raw_env
from .codec import DEFAULT_BID_CAP, ActionCodec, ActionNotEncodable, EncodedLegal, IllegalEncodedAction
from .observation import ObservationEncoder, observation_fields
from .rewards import REWARDS, potentials, terminal_rewards
from .single import SingleAgentEnv

GYM_ID = "powergrid/PowerGrid-v0"


def _register() -> None:
    from gymnasium.envs.registration import register, registry

    if GYM_ID not in registry:
        register(id=GYM_ID, entry_point="powergrid.rl.single:SingleAgentEnv")


_register()

__all__ = [
    "ActionCodec", "ActionNotEncodable", "DEFAULT_BID_CAP", "EncodedLegal", "GYM_ID",
    "IllegalEncodedAction", "ObservationEncoder", "PowerGridAEC", "REWARDS", "SingleAgentEnv", "env",
    "observation_fields", "potentials", "raw_env", "terminal_rewards",
]
