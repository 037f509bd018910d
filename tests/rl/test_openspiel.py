"""The OpenSpiel game (optional extra ``openspiel``): skipped where pyspiel is not installed."""

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import powergrid.rl as rl  # noqa: E402
import powergrid.rl.openspiel  # noqa: E402, F401  (registers the game)
from powergrid.rl.openspiel import _hidden_slots  # noqa: E402


def _through_setup(state, removals) -> None:
    """Apply the seed's setup: the removals chosen from ``removals`` (an index into the
    remaining choices each time)."""
    for pick in removals:
        assert state.is_chance_node()
        outcomes = [o for o, _ in state.chance_outcomes()]
        state.apply_action(outcomes[pick % len(outcomes)])


def _play(state, rng: np.random.Generator, decisions: int, draw_pick=None) -> None:
    """Random decisions; chance draws by ``draw_pick(outcomes)`` (default: random)."""
    made = 0
    while made < decisions and not state.is_terminal():
        if state.is_chance_node():
            outcomes = [o for o, _ in state.chance_outcomes()]
            state.apply_action(draw_pick(outcomes) if draw_pick else int(rng.choice(outcomes)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
            made += 1


def test_random_simulation_passes_openspiels_checks() -> None:
    game = pyspiel.load_game("python_powergrid", {"players": 2, "max_decisions": 150, "seeds": 7})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_setup_is_a_seed_then_one_chance_node_per_removed_plant_and_leaves_no_deck_order() -> None:
    game = pyspiel.load_game("python_powergrid", {"players": 3, "seeds": 4})
    state = game.new_initial_state()
    assert state.is_chance_node() and state.chance_outcomes() == [(s, 0.25) for s in range(4)]
    state.apply_action(2)
    engine = state.game_state
    assert engine.config.seed == 2
    removals = len(engine.removed)
    assert removals == 8  # 3 players remove 8 plants unseen (docs/rules.md, Setup)
    first = state.chance_outcomes()
    assert len(first) == len(_hidden_slots(engine, engine.deck)) + removals
    assert all(p == pytest.approx(1 / len(first)) for _, p in first)
    _through_setup(state, [5] * removals)
    assert not state.is_chance_node()
    engine = state.game_state
    unseen = [engine.deck[i] for i in _hidden_slots(engine, engine.deck)]
    assert unseen == sorted(unseen)  # the seed's order is gone: draws are chance nodes
    assert not set(unseen) & set(engine.removed)


def test_each_unseen_plant_drawn_is_a_chance_node_whose_outcome_comes_out() -> None:
    game = pyspiel.load_game("python_powergrid", {"players": 2, "seeds": 3})
    state = game.new_initial_state()
    state.apply_action(1)
    _through_setup(state, [0] * 8)
    rng = np.random.default_rng(2)
    while not state.is_chance_node():
        state.apply_action(int(rng.choice(state.legal_actions())))
    outcomes = [o for o, _ in state.chance_outcomes()]
    assert outcomes == sorted(outcomes) and len(outcomes) > 10
    low, high = state.clone(), state.clone()
    low.apply_action(outcomes[0])
    high.apply_action(outcomes[-1])
    for child, plant in ((low, outcomes[0]), (high, outcomes[-1])):
        while child.is_chance_node():  # (a refill may draw more than one card)
            child.apply_action(child.chance_outcomes()[0][0])
        assert plant in child.game_state.market or plant in child.game_state.boxed
        assert f"drew {plant}" in child.information_state_string(0)


def test_information_states_equal_under_different_hidden_cards_differ_with_the_public_history() -> None:
    game = pyspiel.load_game("python_powergrid", {"players": 2, "seeds": 5, "max_decisions": 400})
    one, two = game.new_initial_state(), game.new_initial_state()
    for state, removals in ((one, [0] * 8), (two, [3, 9, 1, 7, 2, 4, 11, 6])):
        state.apply_action(4)
        _through_setup(state, removals)
    assert one.game_state.removed != two.game_state.removed  # different hidden cards
    # the same public history: the same decisions and, for each draw, the lowest plant both could draw
    rng = np.random.default_rng(7)
    for _ in range(120):
        if one.is_terminal():
            break
        if one.is_chance_node():
            common = sorted({o for o, _ in one.chance_outcomes()} & {o for o, _ in two.chance_outcomes()})
            one.apply_action(common[0])
            two.apply_action(common[0])
        else:
            assert one.legal_actions() == two.legal_actions()
            action = int(rng.choice(one.legal_actions()))
            one.apply_action(action)
            two.apply_action(action)
        for player in range(2):
            assert one.information_state_string(player) == two.information_state_string(player)
            assert one.information_state_tensor(player) == two.information_state_tensor(player)
            assert one.observation_tensor(player) == two.observation_tensor(player)
    assert "drew" in one.information_state_string(0)
    assert one.information_state_string(0) != one.information_state_string(1)  # the seat
    if not one.is_chance_node() and len(one.legal_actions()) > 1:
        a, b = one.legal_actions()[:2]
        other = one.clone()
        one.apply_action(a)
        other.apply_action(b)
        assert one.information_state_string(0) != other.information_state_string(0)
        assert one.information_state_tensor(0) != other.information_state_tensor(0)


def test_decisions_use_the_environments_spaces() -> None:
    game = pyspiel.load_game("python_powergrid", {"players": 3, "seeds": 4})
    state = game.new_initial_state()
    state.apply_action(2)
    _through_setup(state, [1] * 8)
    engine = state.game_state
    assert game.num_distinct_actions() == rl.legal_mask(engine, bids="compact").size
    rng = np.random.default_rng(0)
    for _ in range(60):
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
            continue
        engine = state.game_state
        assert state.current_player() == engine.current_player
        legal = state.legal_actions()
        assert legal == list(np.flatnonzero(rl.legal_mask(engine, bids="compact")))
        for player in range(3):  # any player's observation is the environments' vector
            assert np.array_equal(np.asarray(state.observation_tensor(player), dtype=np.float32),
                                  rl.observe(engine, seat=player))
        state.apply_action(int(rng.choice(legal)))
    assert not state.is_terminal() and state.returns() == [0.0, 0.0, 0.0]


def test_resampling_keeps_the_information_state_and_draws_the_removals_again() -> None:
    game = pyspiel.load_game("python_powergrid", {"players": 2, "seeds": 3})
    state = game.new_initial_state()
    state.apply_action(0)
    _through_setup(state, [0] * 8)
    _play(state, np.random.default_rng(1), 30)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    seen = set()
    for _ in range(5):
        world = state.resample_from_infostate(state.current_player(), sampler)
        assert world.information_state_string(0) == state.information_state_string(0)
        assert world.legal_actions() == state.legal_actions()
        seen.add(world.game_state.removed)
    assert len(seen) > 1


def test_openspiels_search_and_regret_algorithms_run() -> None:
    from open_spiel.python.algorithms import external_sampling_mccfr, ismcts, mcts, outcome_sampling_mccfr

    small = pyspiel.load_game("python_powergrid", {"players": 2, "max_decisions": 4, "seeds": 2})
    external = external_sampling_mccfr.ExternalSamplingSolver(small)
    for _ in range(2):
        external.iteration()
    outcome = outcome_sampling_mccfr.OutcomeSamplingSolver(small)
    for _ in range(10):
        outcome.iteration()
    policy = external.average_policy()
    state = small.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    probabilities = policy.action_probabilities(state)
    assert set(probabilities) == set(state.legal_actions())
    assert pytest.approx(sum(probabilities.values())) == 1.0

    game = pyspiel.load_game("python_powergrid", {"players": 2, "max_decisions": 40, "seeds": 2})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    for bot in (mcts.MCTSBot(game, 2.0, 8, evaluator, random_state=rng),
                ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=rng)):
        assert bot.step(state) in state.legal_actions()
