"""Hypothesis over random games, and determinism: same config and actions, same game."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import powergrid as pg

from .invariants import check_state, play_checked
from .positions import random_game

configs = st.builds(
    pg.GameConfig,
    map=st.sampled_from(["germany", "usa"]),
    players=st.integers(2, 6),
    seed=st.integers(0, 2**32),
    variant=st.sampled_from(["standard", "standard", "standard", "first_game"]),
)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cfg=configs, policy_seed=st.integers(0, 2**16))
def test_random_games_keep_every_invariant(cfg: pg.GameConfig, policy_seed: int) -> None:
    s = play_checked(cfg, policy_seed, every=60)
    assert s.is_over and s.winners


@settings(max_examples=10, deadline=None)
@given(cfg=configs, policy_seed=st.integers(0, 2**16), stop=st.integers(0, 400))
def test_replay_and_json_reproduce_any_point_of_a_game(cfg: pg.GameConfig, policy_seed: int,
                                                       stop: int) -> None:
    s = random_game(cfg, policy_seed, stop=stop)
    again = pg.replay(cfg, s.actions_taken())
    assert again.to_dict() == s.to_dict()
    loaded = pg.GameState.from_dict(s.to_dict())
    # the loaded game and the original go on identically
    rng_a, rng_b = random.Random(policy_seed), random.Random(policy_seed)
    for _ in range(60):
        if s.is_over:
            break
        s.apply(rng_a.choice(s.legal_actions()))
        loaded.apply(rng_b.choice(loaded.legal_actions()))
    assert loaded.to_dict() == s.to_dict()
    check_state(loaded)


@settings(max_examples=10, deadline=None)
@given(cfg=configs, policy_seed=st.integers(0, 2**16), stop=st.integers(0, 400))
def test_determinized_views_keep_the_invariants(cfg: pg.GameConfig, policy_seed: int,
                                                stop: int) -> None:
    s = random_game(cfg, policy_seed, stop=stop)
    if s.is_over:
        return
    d = pg.determinize(s.view(s.current_player or 0), random.Random(policy_seed))
    check_state(d)
    assert d.legal_actions() == s.legal_actions()


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["open", "bid", "pass", "done", "buy", "build", "discard", "power"]),
       st.integers(0, 60), st.integers(0, 200), st.tuples(*[st.integers(0, 12)] * 4),
       st.lists(st.sampled_from([3, 5, 10, 13, 29, 46, 50]), unique=True, max_size=3),
       st.sampled_from(["Essen", "Frankfurt-M", "New York", "Köln", "Salt Lake City"]))
def test_action_notation_round_trips(kind: str, plant: int, amount: int, fuel: tuple[int, ...],
                                     plants: list[int], city: str) -> None:
    action = {
        "open": pg.Action.open(plant, amount), "bid": pg.Action.bid(amount),
        "pass": pg.Action.pass_(), "done": pg.Action.done(),
        "buy": pg.Action.buy(plant % 4, amount + 1), "build": pg.Action.build(city),
        "discard": pg.Action.discard(plant, fuel),  # type: ignore[arg-type]
        "power": pg.Action.power(tuple(plants), fuel if plants else (0, 0, 0, 0)),  # type: ignore[arg-type]
    }[kind]
    assert pg.parse_action(str(action)) == action
    assert pg.parse_action(str(action).upper() if kind not in ("build",) else str(action)) == action


def test_same_config_and_actions_give_identical_states() -> None:
    cfg = pg.GameConfig(map="usa", players=5, seed=31)
    a = random_game(cfg, 4)
    b = random_game(cfg, 4)
    assert a.to_dict() == b.to_dict()
    assert a.log == b.log
    assert pg.new_game(cfg).to_dict() == pg.new_game(cfg).to_dict()


def test_replay_reproduces_a_finished_game_from_text() -> None:
    cfg = pg.GameConfig(map="germany", players=4, seed=12)
    s = random_game(cfg, 12)
    assert s.is_over
    again = pg.replay(cfg, [str(a) for a in s.actions_taken()])
    assert again.to_dict() == s.to_dict()
    assert again.winners == s.winners and again.is_over


def test_different_seeds_give_different_games() -> None:
    a = pg.new_game(pg.GameConfig(players=4, seed=1))
    b = pg.new_game(pg.GameConfig(players=4, seed=2))
    assert a.deck != b.deck


def test_replay_refuses_an_action_that_does_not_fit() -> None:
    cfg = pg.GameConfig(players=3, seed=3)
    try:
        pg.replay(cfg, ["open 3 3", "build Essen"])
    except pg.IllegalAction as err:
        assert err.phase == "auction"
    else:
        raise AssertionError("replay accepted an illegal action")
