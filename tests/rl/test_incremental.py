"""The environments' fast paths against their oracles: observations kept per seat against the
encoder's ``encode``, masks written from each phase's structure against the engine's
``legal_actions()`` encoded one by one."""

import pickle
import random

import numpy as np
import pytest

import powergrid as pg
import powergrid.rl as rl
from powergrid.rl.incremental import IncrementalEncoder


def _oracle(players: int, cities: int) -> rl.ObservationEncoder:
    return rl.ObservationEncoder(players, cities)


@pytest.mark.parametrize(("map_name", "players"), [("germany", 2), ("usa", 3), ("germany", 4),
                                                   ("usa", 5), ("germany", 6)])
def test_kept_observations_equal_the_encoder_byte_for_byte(map_name: str, players: int) -> None:
    """Any seat, observed at random moments (so its kept parts are many decisions stale),
    gives the encoder's vector exactly; the oracle is a fresh encoder with nothing memoised."""
    fast = IncrementalEncoder(_oracle(players, 42))
    kept = [fast.seat_observation(s) for s in range(players)]
    rng = random.Random(players)
    for seed in (players, players + 10):
        state = pg.new_game(pg.GameConfig(map=map_name, players=players, seed=seed))
        while True:
            if rng.random() < 0.5:
                seat = rng.randrange(players)
                expected = _oracle(players, 42).encode(state, seat)
                got = fast.encode(state, kept[seat])
                assert got.dtype == np.float32
                assert got.tobytes() == expected.tobytes(), (seed, state.decisions)
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))


def test_kept_observations_follow_a_new_board_copies_and_unpickled_games() -> None:
    fast = IncrementalEncoder(_oracle(4, 42))
    seat_obs = fast.seat_observation(2)
    rng = random.Random(3)
    for seed, map_name in ((1, "germany"), (2, "usa"), (3, "usa")):  # a new game reuses the kept parts
        state = pg.new_game(pg.GameConfig(map=map_name, players=4, seed=seed))
        for _ in range(rng.randrange(100, 400)):
            state.apply(rng.choice(state.legal_actions()))
            if rng.random() < 0.1:
                state = pickle.loads(pickle.dumps(state)) if rng.random() < 0.5 else state.clone()
            assert fast.encode(state, seat_obs).tobytes() == _oracle(4, 42).encode(state, 2).tobytes()
    # the kept parts survive pickling too
    copy = pickle.loads(pickle.dumps(seat_obs))
    assert fast.encode(state, copy).tobytes() == _oracle(4, 42).encode(state, 2).tobytes()


def test_a_batch_of_kept_observations_equals_the_encoder_row_by_row() -> None:
    players = 3
    fast = IncrementalEncoder(_oracle(players, 42))
    games = [pg.new_game(pg.GameConfig(players=players, seed=i)) for i in range(6)]
    kept: dict[tuple[int, int], object] = {}
    rng = random.Random(5)
    out = np.empty((len(games), fast.size), dtype=np.float32)
    for step in range(250):
        seats = [rng.randrange(players) for _ in games] if step % 2 else [1] * len(games)
        rows = [kept.setdefault((i, s), fast.seat_observation(s)) for i, s in enumerate(seats)]
        fast.encode_batch(games, rows, out)
        for i, game in enumerate(games):
            assert out[i].tobytes() == _oracle(players, 42).encode(game, seats[i]).tobytes()
        for game in games:
            if not game.is_over:
                game.apply(rng.choice(game.legal_actions()))


def test_the_environments_observations_are_the_encoders() -> None:
    env = rl.raw_env(players=4, seed=8, view_in_info=False)
    env.reset()
    oracle = _oracle(4, 42)
    rng = np.random.default_rng(0)
    while not env.game.is_over:
        seat = env.game.current_player
        for agent in env.agents:  # every seat, acting or not
            expected = oracle.encode(env.game, env._seat[agent])
            assert env.observe(agent)["observation"].tobytes() == expected.tobytes()
        mask = env.observe(env.agent_selection)["action_mask"]
        assert np.array_equal(mask, rl.legal_mask(env.game))
        env.step(int(rng.choice(np.flatnonzero(mask))))
        assert seat is not None


@pytest.mark.parametrize("bids", ["absolute", "compact"])
@pytest.mark.parametrize("players", [2, 4, 6])
def test_masks_from_the_phase_structure_equal_the_listed_actions(bids: str, players: int) -> None:
    """Building, buying, powering and the auction's ranges give the mask, the unencodable count
    and, index by index, the action that encoding every ``legal_actions()`` entry gives."""
    codec = rl.ActionCodec(tuple(pg.load_map("germany").cities), bids=bids)
    rng = random.Random(players)
    kinds: set[str] = set()
    for seed in range(2):
        state = pg.new_game(pg.GameConfig(players=players, seed=seed))
        while not state.is_over:
            seat = state.current_player
            fast = codec.legal_in(state, seat)
            listed = codec.legal_listed(state, seat)
            assert np.array_equal(fast.mask, listed.mask), (seed, state.decisions, state.phase_name)
            assert fast.unencodable == listed.unencodable
            assert fast.actions == listed.actions
            kinds.update(a.kind for a in fast.actions)
            other = (seat + 1) % players  # a seat not to act: all zeros
            assert not codec.legal_in(state, other).mask.any()
            state.apply(rng.choice(state.legal_actions()))
    assert {"open", "bid", "pass", "buy", "build", "done", "power"} <= kinds


def test_a_pickled_vector_env_steps_on_exactly_as_the_original() -> None:
    """Its masks live in one buffer and its observations in per-seat caches: both survive pickling."""
    vec = rl.vector_env(4, seed=1, opponents=None)
    obs, _ = vec.reset()
    for _ in range(30):
        obs, *_ = vec.step([int(np.flatnonzero(m)[0]) for m in obs["action_mask"]])
    copy = pickle.loads(pickle.dumps(vec))
    for _ in range(80):
        actions = [int(np.flatnonzero(m)[-1]) for m in obs["action_mask"]]
        obs, rewards, terminated, truncated, _ = vec.step(actions)
        again, rewards2, terminated2, truncated2, _ = copy.step(actions)
        assert np.array_equal(obs["action_mask"], again["action_mask"])
        assert obs["observation"].tobytes() == again["observation"].tobytes()
        assert np.array_equal(rewards, rewards2) and np.array_equal(terminated, terminated2)
        assert np.array_equal(vec.action_masks(), obs["action_mask"].astype(bool))


def test_numbers_past_the_tables_are_the_encoders() -> None:
    """Money and resources beyond the kept tables of scaled values (a very long game) grow
    the tables and still give the encoder's values."""
    fast = IncrementalEncoder(_oracle(4, 42))
    kept = fast.seat_observation(1)
    state = pg.new_game(pg.GameConfig(players=4, seed=4))
    fast.encode(state, kept)
    state.money[0] = 5_000
    state.money[2] = 1_024
    state.supply[0] = 3_000
    assert fast.encode(state, kept).tobytes() == _oracle(4, 42).encode(state, 1).tobytes()
