"""The OpenSpiel game (optional extra ``openspiel``): skipped where pyspiel is not installed."""

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import powergrid.rl as rl  # noqa: E402
import powergrid.rl.openspiel  # noqa: E402, F401  (registers the game)


def test_random_simulation_passes_openspiels_checks() -> None:
    game = pyspiel.load_game("python_powergrid", {"players": 2, "max_decisions": 150, "seeds": 7})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_chance_picks_the_seed_then_the_engine_plays_with_the_environments_spaces() -> None:
    game = pyspiel.load_game("python_powergrid", {"players": 3, "seeds": 4})
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(s, 0.25) for s in range(4)]
    state.apply_action(2)
    engine = state.game_state
    assert engine.config.seed == 2 and state.current_player() == engine.current_player
    assert game.num_distinct_actions() == rl.legal_mask(engine, bids="compact").size
    rng = np.random.default_rng(0)
    for _ in range(60):
        seat = state.current_player()
        legal = state.legal_actions()
        assert legal == list(np.flatnonzero(rl.legal_mask(engine, bids="compact")))
        for player in range(3):  # any player's observation is the environments' vector
            assert np.array_equal(np.asarray(state.observation_tensor(player), dtype=np.float32),
                                  rl.observe(engine, seat=player))
        state.apply_action(int(rng.choice(legal)))
        assert seat is not None
    assert not state.is_terminal() and state.returns() == [0.0, 0.0, 0.0]
