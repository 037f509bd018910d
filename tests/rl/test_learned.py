"""The shipped baseline policy: it loads with numpy, plays legal games as ``make_bot("learned")``
and refuses player counts it has no weights for."""

import numpy as np
import pytest

import powergrid as pg
from powergrid.bots import bot_names, make_bot
from powergrid.rl.learned import LearnedBot, MLPPolicy, shipped_policy, weights_path
from powergrid.rl.observation import ObservationEncoder
from powergrid.sim.game import GameSpec, play_game
from powergrid.sim.records import Seat


@pytest.mark.parametrize("players", [2, 4])
def test_the_shipped_policy_plays_a_whole_legal_game_against_heuristic_bots(players: int) -> None:
    assert weights_path(players).exists()
    seats = tuple(Seat(s, "learned" if s == 1 else "heuristic", s) for s in range(players))
    result = play_game(GameSpec(0, pg.GameConfig(map="germany", players=players, seed=5), seats))
    assert result.error is None, result.error
    assert result.winners and len(result.actions) > 50
    # the learned seat acted: the game's decisions replay through the engine as legal actions
    state = pg.new_game(pg.GameConfig(map="germany", players=players, seed=5))
    for text in result.actions:
        assert pg.parse_action(text) in state.legal_actions()
        state.apply(pg.parse_action(text))
    assert state.is_over


def test_the_policy_is_deterministic_and_plays_only_legal_actions() -> None:
    policy = shipped_policy(2)
    assert (policy.players, policy.cities, policy.bids) == (2, 42, "compact")
    state = pg.new_game(pg.GameConfig(map="germany", players=2, seed=8))
    bot, twin = make_bot("learned", 1), make_bot("learned", 2)
    for _ in range(150):
        seat = state.current_player
        view = state.view(seat)
        action = bot.act(view)
        assert action == twin.act(view) and action in state.legal_actions()
        state.apply(action)


def test_a_saved_policy_loads_with_the_same_choices(tmp_path) -> None:
    rng = np.random.default_rng(0)
    layers = [(rng.standard_normal((10, 8)), rng.standard_normal(8)),
              (rng.standard_normal((8, 5)), np.zeros(5))]
    policy = MLPPolicy(layers, players=2, cities=42)
    policy.save(tmp_path / "p.npz")
    loaded = MLPPolicy.load(tmp_path / "p.npz")
    for _ in range(20):
        x = rng.standard_normal(10).astype(np.float32)
        mask = rng.integers(0, 2, 5).astype(bool)
        mask[rng.integers(5)] = True
        choice = loaded.choose(x, mask)
        assert mask[choice] and choice == policy.choose(x, mask)  # float16 keeps the argmax here


def test_a_policy_with_a_prior_starts_from_the_heuristics_action(tmp_path) -> None:
    """Zero weights and a prior: the policy plays what the heuristic bot plays (its bids taken
    down to the compact encoding's steps), and the prior's weight survives a save."""
    from powergrid.bots.heuristic import HeuristicBot
    from powergrid.rl.codec import ActionCodec
    from powergrid.rl.learned import prior_index

    codec = ActionCodec(pg.load_map("germany").cities, bids="compact")
    size = ObservationEncoder(2, 42).size
    layers = [(np.zeros((size + codec.size, 4)), np.zeros(4)),
              (np.zeros((4, codec.size)), np.zeros(codec.size))]
    MLPPolicy(layers, 2, 42, prior_weight=2.5).save(tmp_path / "prior.npz")
    policy = MLPPolicy.load(tmp_path / "prior.npz")
    assert policy.prior_weight == 2.5
    bot, heuristic = LearnedBot(0, policy), HeuristicBot(0)
    state = pg.new_game(pg.GameConfig(map="germany", players=2, seed=3))
    same = 0
    for _ in range(120):
        view = state.view(state.current_player)
        legal = codec.legal(view)
        action = bot.act(view)
        assert action == codec.decode(prior_index(codec, view, legal), legal)
        same += action == heuristic.act(view)
        state.apply(action)
    assert same > 100  # all but the bids between the compact steps


def _zero_policy(players: int, **kw) -> MLPPolicy:
    from powergrid.rl.codec import ActionCodec

    codec = ActionCodec(pg.load_map("germany").cities, bids="compact")
    size = ObservationEncoder(players, 42).size
    layers = [(np.zeros((size + codec.size, 4)), np.zeros(4)),
              (np.zeros((4, codec.size)), np.zeros(codec.size))]
    return MLPPolicy(layers, players, 42, **kw)


def test_the_exact_bid_rule_plays_the_heuristics_own_amount(tmp_path) -> None:
    """With ``exact_bids``, a zero network with a prior is the heuristic bot itself: where it
    picks the heuristic's index, it bids the heuristic's exact amount, between the compact steps
    too; the flag survives a save."""
    from powergrid.bots.heuristic import HeuristicBot
    from powergrid.rl.codec import ActionCodec, ActionNotEncodable

    _zero_policy(4, prior_weight=2.0, exact_bids=True).save(tmp_path / "exact.npz")
    policy = MLPPolicy.load(tmp_path / "exact.npz")
    assert policy.exact_bids
    codec = ActionCodec(pg.load_map("germany").cities, bids="compact")
    bot, heuristic = LearnedBot(0, policy), HeuristicBot(0)
    between = 0
    for seed in range(3):
        state = pg.new_game(pg.GameConfig(map="germany", players=4, seed=seed))
        for _ in range(200):
            view = state.view(state.current_player)
            action = bot.act(view)
            assert action == heuristic.act(view)
            if action.kind in ("open", "bid"):
                try:
                    codec.encode(view, action)
                except ActionNotEncodable:
                    between += 1
            state.apply(action)
    assert between > 0  # the rule fired: amounts the compact encoding cannot express


def test_a_group_boost_moves_only_its_decisions(tmp_path) -> None:
    """``phase_boost`` adds to the prior's weight by decision group: a negative prior weight
    everywhere but the auction, where a boost lifts it, leaves the heuristic's choice elsewhere
    and keeps it in the auction; the boosts survive a save."""
    from powergrid.bots.heuristic import HeuristicBot
    from powergrid.rl.learned import PHASE_GROUPS, phase_group

    boost = [0.0] * len(PHASE_GROUPS)
    boost[PHASE_GROUPS.index("auction")] = 10.0
    _zero_policy(2, prior_weight=-5.0, phase_boost=boost).save(tmp_path / "groups.npz")
    policy = MLPPolicy.load(tmp_path / "groups.npz")
    assert policy.phase_boost.tolist() == boost
    bot, heuristic = LearnedBot(0, policy), HeuristicBot(0)
    state = pg.new_game(pg.GameConfig(map="germany", players=2, seed=4))
    kept = {True: 0, False: 0}
    left = 0
    for _ in range(200):
        view = state.view(state.current_player)
        action = bot.act(view)
        auction = PHASE_GROUPS[phase_group(view)] == "auction"
        if auction:
            kept[True] += action == heuristic.act(view)
        else:
            left += action != heuristic.act(view)
        state.apply(action)
    assert kept[True] > 0 and left > 0


def test_untrained_player_counts_are_refused_by_name_and_the_bot_is_not_listed() -> None:
    state = pg.new_game(pg.GameConfig(map="germany", players=3, seed=1))
    with pytest.raises(ValueError, match="no trained policy for 3 players.*baseline-2p"):
        LearnedBot().act(state.view(state.current_player))
    assert "learned" not in bot_names()
