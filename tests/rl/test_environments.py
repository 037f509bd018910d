"""Behaviour of the AEC and single-agent environments: turns, rewards, infos, seeding, bots."""

from types import SimpleNamespace

import numpy as np
import pytest

import powergrid as pg
import powergrid.rl as rl
from powergrid.bots import make_bot
from powergrid.rl import IllegalEncodedAction, terminal_rewards


def _random_index(obs: dict, rng: np.random.Generator) -> int:
    legal = np.flatnonzero(obs["action_mask"])
    return int(legal[rng.integers(len(legal))])


def test_aec_follows_the_engine_and_pays_the_winners() -> None:
    env = rl.raw_env(map="germany", players=4, seed=12, view_in_info=True)
    env.reset()
    rng = np.random.default_rng(0)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        assert agent == f"player_{env.game.current_player}"
        assert info["view"].seat == env.game.current_player
        for other in env.possible_agents:
            if other != agent:
                assert env.observe(other)["action_mask"].sum() == 0
                assert "view" not in env.infos[other]
        env.step(_random_index(obs, rng))
    winners = env.game.winners
    assert winners
    for seat, agent in enumerate(env.possible_agents):
        assert totals[agent] == pytest.approx(1 / len(winners) if seat in winners else -1.0)


def test_aec_info_views_held_across_steps_keep_their_moment() -> None:
    """PettingZoo's usual loop keeps last()'s info while it steps: each view still shows the
    game as it was when handed out, and the env keeps a view only in the acting agent's info."""
    env = rl.raw_env(map="germany", players=4, seed=5, view_in_info=True)
    env.reset()
    rng = np.random.default_rng(5)
    held = []
    for _ in range(80):
        obs, _, _, _, info = env.last()
        seat = env.game.current_player
        then = pg.GameState.from_dict(env.game.to_dict()).view(seat).to_dict(include_log=False)
        held.append((info, then))
        env.step(_random_index(obs, rng))
        assert [a for a, i in env.infos.items() if "view" in i] == [env.agent_selection]
    for info, then in held:
        assert info["view"].to_dict(include_log=False) == then


def test_aec_observations_and_masks_held_keep_their_values() -> None:
    """A returned observation or mask is the caller's: held as the dict, as the arrays, as a
    slice or memoryview of them, or through encoded_legal(), each keeps the values it was
    handed out with, and what a caller does to arrays it lets go changes no later one."""
    env = rl.raw_env(map="germany", players=3, seed=8)
    env.reset()
    rng = np.random.default_rng(8)
    held: list[tuple[object, np.ndarray, np.ndarray]] = []
    for step in range(300):
        if env.terminations[env.agent_selection]:
            break
        obs = env.observe(env.agent_selection)
        # right, whatever was done to the arrays let go before
        assert np.array_equal(obs["observation"], env.encoder.encode(env.game, env.game.current_player))
        assert np.array_equal(obs["action_mask"], rl.legal_mask(env.game))
        copies = (obs["observation"].copy(), obs["action_mask"].copy())
        kind = step % 7
        if kind == 0:
            held.append((obs, *copies))
        elif kind == 1:
            held.append((obs["observation"], copies[0], copies[0]))
        elif kind == 2:
            held.append((obs["action_mask"][3:], copies[1][3:], copies[1][3:]))
        elif kind == 3:
            held.append((memoryview(obs["observation"]), copies[0], copies[0]))
        elif kind == 4:
            held.append((env.encoded_legal(), copies[1], copies[1]))
        index = _random_index(obs, rng)
        # what a caller may do to arrays it then lets go
        obs["observation"][:] = -1.0
        if kind in (0, 1, 3):
            obs["observation"][:] = copies[0]
        if kind in (5, 6):
            obs["action_mask"][:] = 1
        del obs
        env.step(index)
    for kept, value, other in held:
        if isinstance(kept, dict):
            assert np.array_equal(kept["observation"], value)
            assert np.array_equal(kept["action_mask"], other)
        elif isinstance(kept, rl.EncodedLegal):
            assert np.array_equal(kept.mask, value)
        else:
            assert np.array_equal(np.asarray(kept), value)


def test_aec_illegal_action_terminates_by_default_or_raises_by_name() -> None:
    env = rl.raw_env(seed=3, illegal_action="raise")
    env.reset()
    mask = env.observe(env.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[-1])
    with pytest.raises(IllegalEncodedAction, match=rf"action {bad} \(.*\) is not legal now"):
        env.step(bad)
    soft = rl.raw_env(seed=3)  # PettingZoo's classic games' convention: the offender loses
    soft.reset()
    offender = soft.agent_selection
    soft.step(bad)
    assert all(soft.terminations.values())
    assert soft._cumulative_rewards[offender] == -1.0
    assert "is not legal now" in soft.infos[offender]["illegal_action"]


def test_aec_truncates_at_the_decision_limit() -> None:
    env = rl.raw_env(seed=4, max_decisions=50)
    env.reset()
    rng = np.random.default_rng(1)
    steps = 0
    while not any(env.truncations.values()):
        env.step(_random_index(env.observe(env.agent_selection), rng))
        steps += 1
    assert steps == 50 and not any(env.terminations.values())
    assert all(r == 0 for r in env._cumulative_rewards.values())


def test_terminal_rewards_split_a_shared_win() -> None:
    tied = SimpleNamespace(players=4, is_over=True, winners=(0, 2))
    assert terminal_rewards(tied) == [0.5, -1.0, 0.5, -1.0]
    running = SimpleNamespace(players=3, is_over=False, winners=())
    assert terminal_rewards(running) == [0.0, 0.0, 0.0]


def test_shaped_reward_adds_the_change_of_potential() -> None:
    env = rl.SingleAgentEnv(players=3, seed=6, reward="shaped", opponents="random")
    obs, _ = env.reset()
    start = rl.potentials(env.game)[0]
    rng = np.random.default_rng(2)
    total, done = 0.0, False
    while not done:
        obs, reward, terminated, truncated, _ = env.step(_random_index(obs, rng))
        total += reward
        done = terminated or truncated
    end = rl.potentials(env.game)[0]
    assert total == pytest.approx(end - start + terminal_rewards(env.game)[0])


def test_single_agent_plays_its_seat_against_bots_to_the_end() -> None:
    env = rl.SingleAgentEnv(map="usa", players=4, seat=2, seed=7, opponents=["random", "heuristic", "random"],
                            view_in_info=True)
    obs, info = env.reset()
    rng = np.random.default_rng(3)
    done = False
    reward = 0.0
    while not done:
        assert env.game.current_player == 2 and info["view"].seat == 2
        assert env.observation_space.contains(obs)
        assert np.array_equal(env.action_masks(), obs["action_mask"].astype(bool))
        obs, reward, terminated, truncated, info = env.step(_random_index(obs, rng))
        done = terminated or truncated
    assert env.game.is_over
    assert reward == pytest.approx(terminal_rewards(env.game)[2])
    assert info["winners"] == list(env.game.winners)
    assert obs["action_mask"].sum() == 0


def test_single_agent_episode_replays_from_its_seed() -> None:
    def run(env: rl.SingleAgentEnv) -> list[np.ndarray]:
        obs, _ = env.reset(seed=21)
        rng = np.random.default_rng(5)
        seen = [obs["observation"]]
        for _ in range(120):
            obs, _, terminated, truncated, _ = env.step(_random_index(obs, rng))
            seen.append(obs["observation"])
            if terminated or truncated:
                break
        return seen

    first = run(rl.SingleAgentEnv(opponents="heuristic"))
    second = run(rl.SingleAgentEnv(opponents="heuristic"))
    assert len(first) == len(second)
    assert all(np.array_equal(a, b) for a, b in zip(first, second, strict=True))


def test_same_seed_same_game_as_the_engine() -> None:
    env = rl.raw_env(seed=99)
    env.reset()
    assert env.game.to_dict() == pg.new_game(pg.GameConfig(seed=99)).to_dict()


def test_opponents_accept_bot_objects_and_check_their_number() -> None:
    bots = [make_bot("random", 1), make_bot("random", 2)]
    env = rl.SingleAgentEnv(players=3, opponents=bots, seed=1)
    env.reset()
    assert env.game.current_player == 0
    with pytest.raises(ValueError, match="need 2 opponents"):
        rl.SingleAgentEnv(players=3, opponents=["random"])
    with pytest.raises(ValueError, match="unknown bot"):
        rl.SingleAgentEnv(players=3, opponents="nobody")
    with pytest.raises(pg.InvalidConfig):
        rl.env(players=7)


def test_single_agent_unmasked_action_terminates_or_raises() -> None:
    env = rl.SingleAgentEnv(seed=3)
    obs, _ = env.reset()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(bad)
    assert terminated and reward == -1.0 and "is not legal now" in info["illegal_action"]
    strict = rl.SingleAgentEnv(seed=3, illegal_action="raise")
    strict.reset()
    with pytest.raises(IllegalEncodedAction):
        strict.step(bad)
