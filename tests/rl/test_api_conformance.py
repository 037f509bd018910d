"""The environments pass the official PettingZoo and Gymnasium checkers."""

import warnings

import gymnasium as gym
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import powergrid.rl as rl


@pytest.mark.parametrize(("map_name", "players"), [("germany", 4), ("usa", 3)])
def test_pettingzoo_api_test(map_name: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dict observations warn, as in PettingZoo's classic envs
        api_test(rl.env(map=map_name, players=players, seed=5), num_cycles=150)


def test_pettingzoo_seed_test() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seed_test(lambda: rl.env(map="germany", players=4), num_cycles=60)


def test_gymnasium_check_env() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(rl.SingleAgentEnv(players=4, seed=2, opponents="random"))


def test_registered_gymnasium_id() -> None:
    env = gym.make(rl.GYM_ID, map="usa", players=3, opponents=["random", "heuristic"], view_in_info=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env.unwrapped)
    obs, info = env.reset(seed=4)
    assert env.observation_space.contains(obs)
    assert info["view"].seat == 0


def test_the_checkers_pass_with_compact_bids_and_ranking_rewards() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(rl.env(seed=3, bids="compact", reward="rank_shaped"), num_cycles=100)
        seed_test(lambda: rl.env(bids="compact", reward="rank"), num_cycles=60)
        check_env(rl.SingleAgentEnv(seed=2, bids="compact", reward="rank_shaped", view_in_info=False))
