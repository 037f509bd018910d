"""Observations, masks and views of seeded random games, pinned by digest.

The environments' fast paths (kept observations, masks written from each phase's structure,
views that copy late) must give exactly what they gave before a speed change: these digests
were taken before such changes and must not move with them. Only a deliberate change of what
an environment shows (the encoding, the rules, the maps) may change them; then say so in the
commit and take the new digests from the code before the speed work.
"""

from __future__ import annotations

import hashlib
import json

import numpy as np

import powergrid.rl as rl

#: (map, players, bids, seed) -> sha256 of every step's observations, masks, rewards and views
AEC_DIGESTS = {
    ("germany", 4, "absolute", 3):
        "895cc9c0ec5a206dd51b42686bd69f5cb5b09841210b795a7b928afd6eef109d",
    ("usa", 3, "compact", 8):
        "0f6111572c858c4636ec4199b925c92927cd38313fdc688d031ebc0b6fed66c3",
    ("germany", 6, "absolute", 11):
        "7e832384502523e0d9061668e40557633d3a19c148d431020da5f6dcb1d6c30e",
    ("usa", 2, "absolute", 4):
        "05911888019c054af380c239679947936340db69a12125da9a5fe7129f785b7c",
}
VECTOR_DIGEST = "8faf85b27f8b72a86531ffcee00524c02fde93cb3b6ce13380f11f7c9005b788"


def _pick(mask: np.ndarray, rng: np.random.Generator) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


def _view_bytes(info: dict) -> bytes:
    return json.dumps(info["view"].to_dict(include_log=False), sort_keys=True).encode()


def aec_digest(map_name: str, players: int, bids: str, seed: int) -> str:
    """One game of PettingZoo's loop (``last()``'s info kept over ``step()``): every step's
    observation and mask of the agent to act, now and then another seat's, the rewards, and
    the views handed out, read some at once, some only after the game moved on."""
    env = rl.raw_env(map=map_name, players=players, bids=bids, seed=seed, view_in_info=True)
    env.reset()
    rng = np.random.default_rng(seed)
    digest = hashlib.sha256()
    held = []
    for i, agent in enumerate(env.agent_iter()):
        obs, reward, terminated, truncated, info = env.last()
        digest.update(obs["observation"].tobytes())
        digest.update(obs["action_mask"].tobytes())
        digest.update(repr((agent, reward, terminated, truncated)).encode())
        if terminated or truncated:
            digest.update(_view_bytes(info))
            env.step(None)
            continue
        if i % 7 == 0:
            other = env.possible_agents[(env.possible_agents.index(agent) + 1) % players]
            seen = env.observe(other)
            digest.update(seen["observation"].tobytes())
            digest.update(seen["action_mask"].tobytes())
        if i % 5 == 0:
            digest.update(_view_bytes(info))  # read now
        elif i % 5 == 1:
            held.append(info)  # read once the game has moved on
        env.step(_pick(obs["action_mask"], rng))
    for info in held:
        digest.update(_view_bytes(info))
    return digest.hexdigest()


def vector_digest() -> str:
    vec = rl.vector_env(4, opponents=None, seed=2)
    obs, _ = vec.reset()
    rng = np.random.default_rng(2)
    digest = hashlib.sha256()
    for _ in range(400):
        digest.update(obs["observation"].tobytes())
        digest.update(obs["action_mask"].tobytes())
        obs, rewards, terminated, truncated, _ = vec.step([_pick(m, rng) for m in obs["action_mask"]])
        digest.update(rewards.tobytes() + terminated.tobytes() + truncated.tobytes())
    return digest.hexdigest()


def test_aec_games_show_what_they_showed() -> None:
    got = {key: aec_digest(*key) for key in AEC_DIGESTS}
    assert got == AEC_DIGESTS


def test_vector_env_shows_what_it_showed() -> None:
    assert vector_digest() == VECTOR_DIGEST
