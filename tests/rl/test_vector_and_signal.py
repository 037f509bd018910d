"""The batched environment, the compact bid encoding, the ranking reward, and observation and
mask for any state and seat."""

import random

import numpy as np
import pytest
from gymnasium import spaces

import powergrid as pg
import powergrid.rl as rl
from powergrid.bots import make_bot
from powergrid.rl import BID_RAISES, OPEN_OFFSETS, ActionCodec, ActionNotEncodable, IllegalEncodedAction
from powergrid.rl.auction_ranges import auction_ranges
from powergrid.sim import run_tournament


def _pick(mask: np.ndarray, rng: np.random.Generator) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


def _random_games(count: int = 6):
    for map_name, players, seed in [("germany", 2, 1), ("usa", 3, 2), ("germany", 4, 3), ("usa", 5, 4),
                                    ("germany", 6, 5), ("germany", 4, 6)][:count]:
        state = pg.new_game(pg.GameConfig(map=map_name, players=players, seed=seed))
        rng = random.Random(seed)
        while not state.is_over:
            yield state
            state.apply(rng.choice(state.legal_actions()))


# ---------------------------------------------------------------- auction ranges and compact bids
def test_auction_ranges_are_exactly_the_engines_legal_bids() -> None:
    checked = 0
    for state in _random_games():
        ranges = auction_ranges(state)
        if ranges is None:
            assert state.phase != pg.Phase.AUCTION or state.discard_seat >= 0
            continue
        expected = set(state.legal_actions())
        made = {pg.Action.pass_()} if ranges.can_pass else set()
        for slot, lo, hi in ranges.opens:
            made |= {pg.Action.open(ranges.market[slot], b) for b in range(lo, hi + 1)}
        if ranges.bids is not None:
            made |= {pg.Action.bid(b) for b in range(ranges.bids[0], ranges.bids[1] + 1)}
        assert made == expected
        checked += 1
    assert checked > 200


def _compact_expressible(state: pg.GameState, action: pg.Action) -> bool:
    if action.kind == "open":
        return action.amount - action.plant in OPEN_OFFSETS
    if action.kind == "bid":
        return action.amount - state.auc_bid in BID_RAISES
    return True


def test_compact_bids_mark_exactly_the_expressible_legal_actions() -> None:
    codec = ActionCodec(pg.load_map("germany").cities, bids="compact")
    usa = ActionCodec(pg.load_map("usa").cities, bids="compact")
    assert codec.size == 2205 - 7 * 256 + 7 * len(OPEN_OFFSETS)
    for state in _random_games():
        c = codec if state.scn.map.name.lower().startswith("germany") else usa
        actions = state.legal_actions()
        legal = c.legal(state)
        expressible = [a for a in actions if _compact_expressible(state, a)]
        assert int(legal.mask.sum()) == len(expressible) > 0
        assert legal.unencodable == len(actions) - len(expressible)
        for a in expressible[:40]:
            index = c.encode(state, a)
            assert legal.mask[index] == 1 and c.decode(index, legal) == a
        for a in [a for a in actions if not _compact_expressible(state, a)][:5]:
            with pytest.raises(ActionNotEncodable, match="compact bids"):
                c.encode(state, a)


def test_compact_bids_are_relative_to_the_plant_and_the_current_bid() -> None:
    state = pg.new_game(pg.GameConfig(seed=5))
    codec = ActionCodec(state.scn.map.cities, bids="compact")
    plant = state.current_market()[1]
    opened = codec.decode(codec.OPEN + 1 * len(OPEN_OFFSETS) + 4, codec.legal(state))
    assert opened == pg.Action.open(plant, plant + OPEN_OFFSETS[4])
    state.apply(opened)
    raised = codec.decode(codec.BID + 2, codec.legal(state))
    assert raised == pg.Action.bid(plant + OPEN_OFFSETS[4] + BID_RAISES[2])
    assert codec.describe(codec.BID + 2) == f"raise the bid by {BID_RAISES[2]}"
    assert codec.describe(codec.OPEN + 4) == f"open plant slot 0 bid its number +{OPEN_OFFSETS[4]}"


# ---------------------------------------------------------------- ranking reward
def test_rank_rewards_are_zero_sum_and_ordered() -> None:
    assert rl.rank_rewards([(10, 5, 12), (8, 50, 12), (8, 50, 11), (3, 0, 4)]) == \
        pytest.approx([1.0, 1 / 3, -1 / 3, -1.0])
    tied = rl.rank_rewards([(10, 5, 12), (10, 5, 12), (2, 0, 3)])
    assert tied == pytest.approx([0.5, 0.5, -1.0]) and sum(tied) == pytest.approx(0)
    assert rl.rank_rewards([(1, 1, 1), (2, 0, 0)]) == [-1.0, 1.0]


def test_the_aec_env_pays_the_zero_sum_ranking_at_the_end() -> None:
    env = rl.raw_env(players=5, seed=7, reward="rank")
    env.reset()
    rng = np.random.default_rng(0)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        env.step(None if terminated or truncated else _pick(obs["action_mask"], rng))
    assert sum(totals.values()) == pytest.approx(0)
    scores = rl.rewards.final_scores(env.game)
    best = max(range(5), key=lambda s: scores[s])
    assert totals[f"player_{best}"] == pytest.approx(1.0)
    assert len(set(totals.values())) > 2


# ---------------------------------------------------------------- the batched environment
def test_vector_env_against_random_bots_plays_the_single_agent_envs_games() -> None:
    """The fast random opponents choose exactly as the random bot with the same seed."""
    vec = rl.vector_env(3, seed=40, bids="compact", reward="shaped", opponents="random")
    singles = [rl.SingleAgentEnv(bids="compact", reward="shaped", opponents="random") for _ in range(3)]
    obs, _ = vec.reset()
    single_obs = [env.reset(seed=40 + i)[0] for i, env in enumerate(singles)]
    rng = np.random.default_rng(1)
    for _ in range(80):
        for i in range(3):
            assert np.array_equal(obs["observation"][i], single_obs[i]["observation"])
            assert np.array_equal(obs["action_mask"][i], single_obs[i]["action_mask"])
        actions = [_pick(m, rng) for m in obs["action_mask"]]
        obs, rewards, terminated, truncated, _ = vec.step(actions)
        for i, env in enumerate(singles):
            single_obs[i], reward, *_ = env.step(actions[i])
            assert rewards[i] == pytest.approx(reward)


def test_vector_env_resets_finished_games_in_the_same_step() -> None:
    vec = rl.vector_env(4, seed=41, opponents="random", max_decisions=300)
    assert vec.metadata["autoreset_mode"].value == "SameStep"
    assert isinstance(vec.action_space, spaces.MultiDiscrete)
    obs, _ = vec.reset()
    assert vec.observation_space.contains(obs)
    rng = np.random.default_rng(2)
    ended = 0
    for _ in range(120):
        old = vec.games[:]
        obs, rewards, terminated, truncated, infos = vec.step([_pick(m, rng) for m in obs["action_mask"]])
        assert obs["action_mask"].any(axis=1).all()  # every game has a learner decision ready
        for i in np.flatnonzero(terminated | truncated):
            ended += 1
            assert infos["_final_obs"][i] and vec.games[i] is not old[i]
            assert not infos["final_obs"][i]["action_mask"].any()
            if terminated[i]:
                assert infos["final_info"]["winners"][i] == list(old[i].winners)
                assert rewards[i] == (1 / len(old[i].winners) if 0 in old[i].winners else -1.0)
    assert ended >= 4
    assert np.array_equal(vec.action_masks(), obs["action_mask"].astype(bool))


def test_vector_env_self_play_steps_every_seat_and_pays_every_seat() -> None:
    vec = rl.vector_env(2, seed=42, opponents=None, reward="rank")
    obs, infos = vec.reset()
    rng = np.random.default_rng(3)
    totals = np.zeros((2, 4))
    finished = 0
    while finished < 2:
        seats = infos["seat"].copy()
        assert [g.current_player for g in vec.games] == list(seats)
        old = vec.games[:]
        obs, rewards, terminated, truncated, infos = vec.step([_pick(m, rng) for m in obs["action_mask"]])
        totals += infos["rewards"]
        for i in range(2):
            assert rewards[i] == infos["rewards"][i][seats[i]]
            if terminated[i]:
                finished += 1
                assert totals[i].sum() == pytest.approx(0)
                assert totals[i] == pytest.approx(rl.terminal_rewards(old[i], "rank"))
                totals[i] = 0


def test_vector_env_refuses_a_masked_out_action_by_ending_that_game() -> None:
    vec = rl.vector_env(2, seed=43)
    obs, _ = vec.reset()
    bad = int(np.flatnonzero(obs["action_mask"][0] == 0)[0])
    good = int(np.flatnonzero(obs["action_mask"][1])[0])
    _, rewards, terminated, _, infos = vec.step([bad, good])
    assert terminated.tolist() == [True, False] and rewards[0] == -1.0
    assert "is not legal now" in infos["final_info"]["illegal_action"][0]
    strict = rl.vector_env(1, seed=43, illegal_action="raise")
    strict.reset()
    with pytest.raises(IllegalEncodedAction):
        strict.step([bad])


# ---------------------------------------------------------------- any state, any seat
def test_observe_and_legal_mask_for_any_state_and_seat() -> None:
    for state in _random_games(3):
        if state.decisions % 23:
            continue
        n = state.players
        encoder = rl.ObservationEncoder(n, 42)
        to_act = state.current_player
        for seat in range(n):
            expected = encoder.encode(state.view(seat))
            assert np.array_equal(rl.observe(state, seat), expected)
            # every observation is public: any seat's view gives it too
            assert np.array_equal(rl.observe(state.view((seat + 1) % n), seat), expected)
            mask = rl.legal_mask(state, seat)
            assert mask.any() == (seat == to_act)
        view_mask = rl.legal_mask(state.view(to_act))
        assert int(view_mask.sum()) == len(state.legal_actions())
        index = int(np.flatnonzero(view_mask)[0])
        assert rl.decode(state, index) in state.legal_actions()
    over = pg.new_game(pg.GameConfig(seed=8))
    rng = random.Random(8)
    while not over.is_over:
        over.apply(rng.choice(over.legal_actions()))
    assert not rl.legal_mask(over, 0).any()
    with pytest.raises(ValueError, match="name the seat"):
        rl.observe(over)
    with pytest.raises(ValueError, match="no seat"):
        rl.observe(over, 9)


def test_a_policy_bot_plays_tournament_games_from_its_view() -> None:
    rng = np.random.default_rng(4)

    def choose(observation: np.ndarray, mask: np.ndarray) -> int:
        assert observation.shape == (702,) and mask.dtype == bool
        return int(rng.choice(np.flatnonzero(mask)))

    cities = tuple(pg.load_map("germany").cities)

    def factory(spec: str, seed: int):
        return rl.PolicyBot(choose, 4, cities, bids="compact", seed=seed) if spec == "policy" \
            else make_bot(spec, seed)

    result = run_tournament(pg.GameConfig(players=4), ["policy", "random", "random", "random"], 2, 1,
                            bot_factory=factory)
    assert not result.failures and len(result.results) == 2
