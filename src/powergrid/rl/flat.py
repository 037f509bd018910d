"""The flat observation (``observation="flat"``): the observation vector and the action mask in
one ``Box``, for code that reads ``observation_space.shape`` (CleanRL's loops, plain MLPs).

The vector is ``[observation (D values), action mask (N values, 0.0 or 1.0)]``, so a policy
splits it at ``D`` (``env.observation_size``) to mask its logits.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

OBSERVATION_KINDS = ("dict", "flat")


def check_observation(kind: str) -> bool:
    """Whether ``kind`` asks for the flat observation (refuses unknown kinds)."""
    if kind not in OBSERVATION_KINDS:
        raise ValueError(f"observation must be one of {OBSERVATION_KINDS}, not {kind!r}")
    return kind == "flat"


def flat_space(dict_space: spaces.Dict) -> spaces.Box:
    observation, mask = dict_space["observation"], dict_space["action_mask"]
    high = np.concatenate([observation.high, np.ones(mask.shape[0], np.float32)]).astype(np.float32)
    return spaces.Box(0.0, high, high.shape, np.float32)


def flatten(obs: dict[str, np.ndarray]) -> np.ndarray:
    """``[observation, mask]`` along the last axis (one observation or a batch)."""
    return np.concatenate([obs["observation"], obs["action_mask"].astype(np.float32)], axis=-1)
