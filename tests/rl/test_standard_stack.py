"""The environments work with the tools researchers use: copies and pickles, Gymnasium's vector
envs, the contract Stable-Baselines3's vec envs and env checker rely on (without torch), and
PettingZoo's state test and parallel conversion."""

import copy
import multiprocessing
import pickle
import warnings

import cloudpickle
import gymnasium as gym
import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.vector import AsyncVectorEnv, SyncVectorEnv
from pettingzoo.test import parallel_api_test, state_test
from pettingzoo.utils.conversions import aec_to_parallel

import powergrid as pg
import powergrid.rl as rl


def _masked_choice(mask: np.ndarray, rng: np.random.Generator) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


def _advance_aec(env, decisions: int, rng: np.random.Generator) -> None:
    for _ in range(decisions):
        env.step(_masked_choice(env.observe(env.agent_selection)["action_mask"], rng))


def _aec_trace(env, decisions: int, seed: int) -> list[tuple[str, bytes, float]]:
    rng = np.random.default_rng(seed)
    trace = []
    for _ in range(decisions):
        agent = env.agent_selection
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            break
        trace.append((agent, obs["observation"].tobytes(), reward))
        env.step(_masked_choice(obs["action_mask"], rng))
    return trace


# ---------------------------------------------------------------- copies and pickles
@pytest.mark.parametrize("duplicate", [copy.deepcopy, lambda e: pickle.loads(pickle.dumps(e)),
                                       lambda e: cloudpickle.loads(cloudpickle.dumps(e))],
                         ids=["deepcopy", "pickle", "cloudpickle"])
def test_an_aec_env_mid_game_copies_and_carries_on_identically(duplicate) -> None:
    env = rl.env(seed=3)
    env.reset()
    _advance_aec(env, 120, np.random.default_rng(0))
    twin = duplicate(env)
    assert twin.unwrapped.game is not env.unwrapped.game
    assert twin.unwrapped.game.to_dict() == env.unwrapped.game.to_dict()
    assert _aec_trace(twin, 200, 9) == _aec_trace(env, 200, 9)


@pytest.mark.parametrize("duplicate", [copy.deepcopy, lambda e: pickle.loads(pickle.dumps(e))],
                         ids=["deepcopy", "pickle"])
def test_a_single_agent_env_with_bots_copies_and_carries_on_identically(duplicate) -> None:
    env = rl.SingleAgentEnv(seed=4, opponents=["random", "heuristic", "random"])
    obs, _ = env.reset()
    rng = np.random.default_rng(1)
    for _ in range(40):
        obs, *_ = env.step(_masked_choice(obs["action_mask"], rng))
    twin = duplicate(env)
    runs = []
    for e in (twin, env):
        rng = np.random.default_rng(2)
        o = obs
        seen = []
        for _ in range(60):
            o, reward, terminated, truncated, _ = e.step(_masked_choice(o["action_mask"], rng))
            seen.append((o["observation"].tobytes(), reward))
            if terminated or truncated:
                break
        runs.append(seen)
    assert runs[0] == runs[1]


def test_infos_and_their_views_survive_deepcopy_and_pickle() -> None:
    env = rl.raw_env(seed=5, view_in_info=True)
    env.reset()
    _advance_aec(env, 50, np.random.default_rng(3))
    infos = env.infos
    view = infos[env.agent_selection]["view"]
    for twin in (copy.deepcopy(infos), pickle.loads(pickle.dumps(infos))):
        copied = twin[env.agent_selection]["view"]
        assert isinstance(copied, pg.GameView) and copied == view
        assert copied.legal_actions() == view.legal_actions()
        with pytest.raises(AttributeError, match="does not reveal"):
            _ = copied.deck


def test_a_copied_view_hides_the_deck_and_gives_the_same_observation_and_mask() -> None:
    state = pg.new_game(pg.GameConfig(seed=6))
    view = state.view(state.current_player)
    for twin in (copy.deepcopy(view), pickle.loads(pickle.dumps(view))):
        assert np.array_equal(rl.observe(twin), rl.observe(view))
        assert np.array_equal(rl.legal_mask(twin), rl.legal_mask(view))
        assert all(card == -1 for card in twin.public_state.removed)


# ---------------------------------------------------------------- render modes
def test_an_unknown_render_mode_warns_and_renders_nothing() -> None:
    with pytest.warns(UserWarning, match="render_mode 'rgb_array' is not supported"):
        env = gym.make(rl.GYM_ID, render_mode="rgb_array")
    env.reset(seed=1)
    assert env.render() is None and env.unwrapped.render_mode is None
    with pytest.warns(UserWarning, match="not supported"):
        aec = rl.env(render_mode="rgb_array")
    aec.reset(seed=1)
    assert aec.render() is None
    text = rl.SingleAgentEnv(render_mode="ansi")
    text.reset(seed=1)
    assert "player_0" in text.render()


# ---------------------------------------------------------------- Gymnasium vector envs
def _vector_run(vec, steps: int, seed: int) -> list[float]:
    obs, infos = vec.reset(seed=seed)
    assert obs["observation"].shape == (vec.num_envs, 702)
    assert obs["action_mask"].shape == (vec.num_envs, vec.single_action_space.n)
    assert obs["action_mask"].dtype == np.int8
    rng = np.random.default_rng(seed)
    rewards = []
    for _ in range(steps):
        actions = np.array([_masked_choice(m, rng) if m.any() else 0 for m in obs["action_mask"]])
        obs, reward, terminated, truncated, infos = vec.step(actions)
        assert vec.single_observation_space.contains(
            {"observation": obs["observation"][0], "action_mask": obs["action_mask"][0]})
        rewards += list(reward)
    return rewards


def _factory(seed: int, **kwargs):
    return lambda: rl.SingleAgentEnv(seed=seed, reward="shaped", max_decisions=400, **kwargs)


def test_sync_vector_env_steps_games_to_their_end_and_resets() -> None:
    vec = SyncVectorEnv([_factory(1, bids="compact"), _factory(2, bids="compact")])
    rewards = _vector_run(vec, 260, 7)  # max_decisions=400 truncates: every game resets at least once
    assert any(r != 0 for r in rewards)
    vec.close()


def test_async_vector_env_runs_in_subprocesses_like_the_sync_one() -> None:
    factories = [_factory(1), _factory(2)]
    sync = SyncVectorEnv(factories)
    asynchronous = AsyncVectorEnv(factories, context="spawn")
    try:
        assert _vector_run(asynchronous, 150, 8) == _vector_run(sync, 150, 8)
    finally:
        asynchronous.close()
        sync.close()


# ---------------------------------------------------------------- the Stable-Baselines3 contract
def _worker(payload: bytes, conn) -> None:
    """What SB3's SubprocVecEnv does: unpickle the factory with cloudpickle, build the env, and
    answer over a pipe (which pickles observations and infos)."""
    env = cloudpickle.loads(payload)()
    obs, info = env.reset(seed=11)
    mask = env.get_wrapper_attr("action_masks")()
    obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(mask)[0]))
    conn.send((obs, float(reward), terminated, truncated, info, env.get_wrapper_attr("action_masks")()))
    conn.close()


def test_cloudpickled_env_factories_work_across_processes() -> None:
    factory = _factory(3, bids="compact", view_in_info=True)
    context = multiprocessing.get_context("spawn")
    parent, child = context.Pipe()
    process = context.Process(target=_worker, args=(cloudpickle.dumps(factory), child))
    process.start()
    obs, reward, terminated, truncated, info, mask = parent.recv()
    process.join(60)
    assert process.exitcode == 0
    local = factory()
    local.reset(seed=11)
    expected = local.step(int(np.flatnonzero(local.action_masks())[0]))
    assert np.array_equal(obs["observation"], expected[0]["observation"])
    assert reward == expected[1] and info["view"] == expected[4]["view"]
    assert np.array_equal(mask, local.action_masks())


def test_infos_survive_what_dummy_vec_env_does_to_them() -> None:
    """SB3's DummyVecEnv deep-copies its infos list every step, and stores the final
    observation in the info of an episode that ended."""
    env = gym.make(rl.GYM_ID, seed=12, max_decisions=300, view_in_info=True)
    obs, info = env.reset()
    rng = np.random.default_rng(4)
    done = False
    while not done:
        obs, reward, terminated, truncated, info = env.step(_masked_choice(obs["action_mask"], rng))
        done = terminated or truncated
        buffered = copy.deepcopy([dict(info)])
        assert buffered[0].keys() == info.keys()
    info["terminal_observation"] = obs
    assert copy.deepcopy(info)["view"] == info["view"]


@pytest.mark.parametrize("kwargs", [{}, {"bids": "compact", "reward": "rank_shaped"}])
def test_what_sb3s_env_checker_checks(kwargs) -> None:
    """SB3's env_checker needs torch; these are its checks, re-created."""
    env = rl.SingleAgentEnv(seed=13, **kwargs)
    # spaces: a Dict of Boxes (no nesting), a Discrete action space starting at 0
    assert isinstance(env.observation_space, spaces.Dict)
    for sub in env.observation_space.spaces.values():
        assert isinstance(sub, spaces.Box)
        assert np.all(np.isfinite(sub.low)) and np.all(np.isfinite(sub.high))
        assert np.all(sub.low < sub.high)
    assert env.observation_space["observation"].dtype == np.float32
    assert isinstance(env.action_space, spaces.Discrete) and env.action_space.start == 0
    assert env.metadata["render_modes"] and "render_fps" in env.metadata
    # reset: (obs, info), seeding reproduces, obs of the space's dtypes
    obs, info = env.reset(seed=0)
    assert isinstance(info, dict) and env.observation_space.contains(obs)
    again, _ = env.reset(seed=0)
    assert all(np.array_equal(obs[k], again[k]) for k in obs)
    for key, sub in env.observation_space.spaces.items():
        assert obs[key].dtype == sub.dtype and obs[key].shape == sub.shape
    # step: 5-tuple of the right types; the mask method SB3-contrib calls
    assert env.action_masks().dtype == bool and env.action_masks().shape == (env.action_space.n,)
    result = env.step(np.int64(np.flatnonzero(env.action_masks())[0]))  # numpy ints, as SB3 sends
    assert len(result) == 5
    obs, reward, terminated, truncated, info = result
    assert env.observation_space.contains(obs)
    assert isinstance(reward, float) and isinstance(terminated, bool) and isinstance(truncated, bool)
    assert isinstance(info, dict)
    # every action of the space may be sent (sampled ones included): no crash
    env.step(env.action_space.sample())
    env.close()


# ---------------------------------------------------------------- PettingZoo
def test_pettingzoo_state_test_and_the_state_hides_the_deck() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        state_test(rl.env(seed=14), rl.parallel_env(seed=14), num_cycles=30)  # the defaults
    env = rl.raw_env(seed=15)
    env.reset()
    _advance_aec(env, 200, np.random.default_rng(5))
    state = env.state()
    assert env.state_space.contains(state)
    assert state.shape == (4 * 702,)
    for seat in range(4):
        assert np.array_equal(state[seat * 702:(seat + 1) * 702], env.encoder.encode(env.game.view(seat)))
    # a state that differs only in the hidden deck gives the same public state
    other = pg.determinize(env.game.view(0), 99)
    assert other.deck != env.game.deck
    assert np.array_equal(rl.aec.public_state_vector(env.encoder, other), state)


def test_parallel_conversion_turn_based_works_and_simultaneous_is_refused() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parallel_api_test(rl.parallel_env(seed=16), num_cycles=40)
    par = rl.parallel_env(seed=17)
    observations, infos = par.reset()
    rng = np.random.default_rng(6)
    for _ in range(300):
        actions = {}
        for agent, obs in observations.items():
            mask = obs["action_mask"]
            actions[agent] = _masked_choice(mask, rng) if mask.any() else 0
        assert sum(o["action_mask"].any() for o in observations.values()) == 1
        observations, rewards, terminations, truncations, infos = par.step(actions)
        if not par.agents:
            break
    with pytest.raises(AssertionError, match="parallelizable"):
        aec_to_parallel(rl.env())


def test_states_and_views_of_a_finished_game_pickle_and_deepcopy() -> None:
    """The engine's log is a chain as deep as the game is long; copies must not recurse on it."""
    state = pg.new_game(pg.GameConfig(seed=18))
    rng = np.random.default_rng(7)
    while not state.is_over:
        actions = state.legal_actions()
        state.apply(actions[rng.integers(len(actions))])
    view = state.view(1)
    for twin in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state)):
        assert twin.to_dict() == state.to_dict() and twin.events == state.events
        assert twin is not state and twin.money is not state.money
    for twin in (pickle.loads(pickle.dumps(view)), copy.deepcopy(view)):
        assert twin == view and twin.log == view.log
