"""What fits the rest of a researcher's stack: the flat observation, next-step autoreset under
Gymnasium's vector wrappers, the map graph, the opponent pool and the shipped policy."""

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from gymnasium.wrappers.vector import FlattenObservation

import powergrid as pg
import powergrid.rl as rl
from powergrid.bots import Bot, make_bot


def _choice(mask: np.ndarray, rng: np.random.Generator) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))]) if len(legal) else 0


# ---------------------------------------------------------------- flat observation
def test_the_flat_observation_is_the_vector_then_the_mask_in_a_box_of_known_shape() -> None:
    flat = rl.SingleAgentEnv(players=3, seed=2, bids="compact", observation="flat")
    plain = rl.SingleAgentEnv(players=3, seed=2, bids="compact")
    size, actions = plain.encoder.size, plain.codec.size
    assert flat.observation_space.shape == (size + actions,) and flat.observation_size == size
    f, _ = flat.reset()
    d, _ = plain.reset()
    rng = np.random.default_rng(0)
    for _ in range(40):
        assert flat.observation_space.contains(f)
        assert np.array_equal(f[:size], d["observation"]) and np.array_equal(f[size:], d["action_mask"])
        action = _choice(d["action_mask"], rng)
        f, *_ = flat.step(action)
        d, *_ = plain.step(action)
    with pytest.raises(ValueError, match="observation must be one of"):
        rl.SingleAgentEnv(observation="graph")


def test_the_batched_env_gives_flat_batches() -> None:
    vec = rl.vector_env(3, players=2, seed=5, observation="flat", bids="compact")
    obs, _ = vec.reset()
    assert vec.single_observation_space.shape == (vec.observation_size + vec.codec.size,)
    assert obs.shape == (3, vec.observation_size + vec.codec.size) and obs.dtype == np.float32
    assert np.array_equal(obs[:, vec.observation_size:].astype(bool), vec.action_masks())


# ---------------------------------------------------------------- next-step autoreset
def test_next_step_autoreset_passes_gymnasiums_vector_wrappers_and_resets_a_step_later() -> None:
    vec = rl.vector_env(2, players=2, seed=3, max_decisions=40, autoreset_mode="next_step")
    assert vec.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    wrapped = FlattenObservation(vec)  # refuses same-step autoreset
    obs, _ = wrapped.reset()
    rng = np.random.default_rng(1)
    ended_before = np.zeros(2, bool)
    resets = 0
    for _ in range(120):
        masks = vec.action_masks()
        old_games = list(vec.games)
        obs, rewards, terminated, truncated, _ = wrapped.step([_choice(m, rng) for m in masks])
        for i in range(2):
            if ended_before[i]:  # this step started the next game, ignoring the action
                assert vec.games[i] is not old_games[i] and rewards[i] == 0
                assert not terminated[i] and not truncated[i] and masks[i].sum() == 0
                resets += 1
            elif terminated[i] or truncated[i]:  # the batch shows the ended game, mask empty
                assert vec.games[i] is old_games[i] and not vec.action_masks()[i].any()
        ended_before = terminated | truncated
    assert resets >= 2
    with pytest.raises(ValueError, match="autoreset_mode"):
        rl.vector_env(1, autoreset_mode="disabled")


# ---------------------------------------------------------------- map graph
def test_the_map_graph_matches_the_map_in_the_observations_city_order() -> None:
    game_map = pg.load_map("germany")
    graph = rl.map_graph("germany")
    n = len(game_map.cities)
    assert graph.cities == tuple(game_map.cities) == rl.ActionCodec(game_map.cities).cities
    assert graph.adjacency.shape == graph.costs.shape == (n, n)
    assert np.array_equal(graph.adjacency, graph.adjacency.T) and not graph.adjacency.diagonal().any()
    assert len(graph.edges) == len(game_map.connections) == int(graph.adjacency.sum()) // 2
    for a, b, cost in game_map.connections:
        assert graph.costs[a, b] == graph.costs[b, a] == cost and graph.adjacency[a, b] == 1
    assert graph.positions.shape == (n, 2) and 0 <= graph.positions.min() and graph.positions.max() == 1
    assert len({tuple(p) for p in graph.positions}) == n  # every city drawn in its own place
    for i, city in enumerate(game_map.cities):
        assert graph.region_names[graph.regions[i]] == game_map.city_region[i], city
    assert rl.map_graph("usa").cities == tuple(pg.load_map("usa").cities)


# ---------------------------------------------------------------- opponent pool
class _Marked(Bot):
    def __init__(self, mark: str) -> None:
        super().__init__(0)
        self.name = mark
        self.inner = make_bot("random", 1)

    def act(self, view: pg.GameView) -> pg.Action:
        return self.inner.act(view)


def test_the_pool_draws_its_entries_and_sets_them_in_the_env_for_the_next_game() -> None:
    pool = rl.OpponentPool(["random"], capacity=2, seed=4)
    pool.add("snap-1", _Marked("snap-1"))
    pool.add("snap-2", lambda seed: _Marked("snap-2"))
    assert set(pool.weights()) == {"random", "snap-1", "snap-2"}
    assert pytest.approx(sum(pool.weights().values())) == 1.0
    env = rl.SingleAgentEnv(players=4, seed=1)
    seen = set()
    for _ in range(12):
        names = pool.assign(env)
        env.reset()
        assert len(names) == 3
        for seat, name in zip((1, 2, 3), names, strict=True):
            bot = env._bots[seat]
            assert (bot.name == name) if name != "random" else bot.name == "random"
        seen.update(names)
    assert seen == {"random", "snap-1", "snap-2"}
    pool.add("snap-3", _Marked("snap-3"))  # capacity 2: the oldest added one goes, fixed ones stay
    assert set(pool.entries) == {"random", "snap-2", "snap-3"}
    with pytest.raises(ValueError, match="already has"):
        pool.add("snap-3", _Marked("x"))
    with pytest.raises(ValueError, match="unknown bot"):
        rl.OpponentPool(["no-such-bot"])


def test_hard_prioritisation_draws_more_often_what_the_learner_loses_to() -> None:
    pool = rl.OpponentPool(["random", "heuristic"], prioritise="hard", seed=0)
    for _ in range(30):
        pool.record("random", won=True)
        pool.record("heuristic", won=False)
    weights = pool.weights()
    assert weights["heuristic"] > 0.9 and weights["random"] > 0  # the floor keeps it in play
    draws = pool.draw(2000)
    assert draws.count("heuristic") > 1700
    assert rl.OpponentPool(["random", "heuristic"]).weights() == {"random": 0.5, "heuristic": 0.5}


def test_the_pool_sets_a_vector_envs_opponents_for_its_next_games() -> None:
    vec = rl.vector_env(2, players=2, seed=0, max_decisions=30)
    vec.reset()
    pool = rl.OpponentPool([_Marked("snap")], seed=1)
    assert pool.assign(vec) == ["snap"]
    vec.reset()
    assert all(bots[1].name == "snap" for bots in vec._bots)
    with pytest.raises(ValueError, match="self-play"):
        rl.vector_env(1, opponents=None).set_opponents("random")
