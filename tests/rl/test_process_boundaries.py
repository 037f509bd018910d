"""What crosses a process boundary: small infos by default, and vector envs that give the same
games on either side of a pipe (what SubprocVecEnv and AsyncVectorEnv rely on)."""

import hashlib
import multiprocessing
import pickle

import cloudpickle
import numpy as np
import pytest
from gymnasium.vector import AsyncVectorEnv

import powergrid.rl as rl

#: bytes a step's info may take pickled by default (a finished game's winners, an illegal
#: action's message); the seat's view, when asked for, is tens of kilobytes
INFO_BOUND = 512


def _first_legal(mask: np.ndarray, rng: np.random.Generator) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


def _largest_aec_info(**kwargs) -> int:
    env = rl.raw_env(players=3, seed=21, max_decisions=1500, **kwargs)
    env.reset()
    rng = np.random.default_rng(1)
    largest = 0
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, info = env.last()
        largest = max(largest, len(pickle.dumps(info)), len(pickle.dumps(env.infos)) // 3)
        env.step(None if terminated or truncated else _first_legal(obs["action_mask"], rng))
    return largest


@pytest.mark.long
def test_an_aec_steps_info_pickles_small_unless_the_view_is_asked_for() -> None:
    assert _largest_aec_info() < INFO_BOUND
    assert _largest_aec_info(view_in_info=True) > 20 * INFO_BOUND


def test_a_single_agent_and_a_vector_steps_info_pickle_small() -> None:
    env = rl.SingleAgentEnv(players=2, seed=5, opponents="heuristic", bids="compact")
    obs, info = env.reset()
    rng = np.random.default_rng(2)
    sizes = [len(pickle.dumps(info))]
    done = False
    while not done:
        obs, _, terminated, truncated, info = env.step(_first_legal(obs["action_mask"], rng))
        sizes.append(len(pickle.dumps(info)))
        done = terminated or truncated
    assert "winners" in info and max(sizes) < INFO_BOUND

    vec = rl.vector_env(3, players=2, seed=4, max_decisions=200)
    obs, infos = vec.reset()
    for _ in range(250):  # every game is cut off at 200 decisions and reset at least once
        actions = [_first_legal(m, rng) for m in obs["action_mask"]]
        obs, _, terminated, truncated, infos = vec.step(actions)
        final = infos.get("final_obs")
        extra = 0 if final is None else sum(o["observation"].nbytes + o["action_mask"].nbytes
                                            for o in final if o is not None)
        assert len(pickle.dumps(infos)) - extra < INFO_BOUND * 3


def _play(make: bytes, steps: int) -> tuple[str, list[float]]:
    vec = cloudpickle.loads(make)()
    obs, _ = vec.reset(seed=3)
    digest = hashlib.sha256()
    rewards: list[float] = []
    rng = np.random.default_rng(0)
    for _ in range(steps):
        obs, reward, terminated, truncated, _ = vec.step([_first_legal(m, rng) for m in obs["action_mask"]])
        digest.update(obs["observation"].tobytes())
        digest.update(obs["action_mask"].tobytes())
        rewards += [float(r) for r in reward]
    vec.close()
    return digest.hexdigest(), rewards


def _child(make: bytes, steps: int, conn) -> None:
    conn.send(_play(make, steps))
    conn.close()


def _in_spawned_process(make, steps: int) -> tuple[str, list[float]]:
    context = multiprocessing.get_context("spawn")
    parent, child = context.Pipe()
    process = context.Process(target=_child, args=(cloudpickle.dumps(make), steps, child))
    process.start()
    result = parent.recv()
    process.join(60)
    assert process.exitcode == 0
    return result


def test_the_batched_env_plays_the_same_games_in_a_spawned_process() -> None:
    make = lambda: rl.vector_env(2, players=3, bids="compact", reward="shaped", max_decisions=150)  # noqa: E731
    local = _play(cloudpickle.dumps(make), 200)
    assert any(r != 0 for r in local[1])
    assert _in_spawned_process(make, 200) == local


def test_async_vector_env_over_single_agent_envs_matches_a_local_run() -> None:
    def make(seed: int):
        return lambda: rl.SingleAgentEnv(players=2, seed=seed, bids="compact", max_decisions=120)
    local = [make(1)(), make(2)()]
    batched = AsyncVectorEnv([make(1), make(2)], context="spawn")
    try:
        obs, infos = batched.reset(seed=[1, 2])
        for env, s in zip(local, (1, 2), strict=True):
            env.reset(seed=s)
        rng = np.random.default_rng(9)
        ended = [False, False]
        resets = 0
        for _ in range(150):  # past 120 decisions: both games are cut off and reset (next step)
            actions = np.array([_first_legal(m, rng) if m.any() else 0 for m in obs["action_mask"]])
            obs, rewards, terminated, truncated, infos = batched.step(actions)
            assert len(pickle.dumps(infos)) < INFO_BOUND * 4
            for i, env in enumerate(local):
                if ended[i]:
                    o, _ = env.reset()
                    resets += 1
                    r, term, trunc = 0.0, False, False
                else:
                    o, r, term, trunc, _ = env.step(int(actions[i]))
                assert (r, term, trunc) == (rewards[i], terminated[i], truncated[i])
                assert np.array_equal(o["observation"], obs["observation"][i])
                ended[i] = term or trunc
        assert resets >= 2
    finally:
        batched.close()
