"""The observation: built from the seat's view only, laid out as documented."""

import random

import numpy as np
import pytest

import powergrid as pg
from powergrid.rl import ObservationEncoder, observation_fields
from powergrid.rl.observation import MARKET_SLOTS, PLANT_FEATURES


def _play(seed: int, decisions: int, players: int = 4, map_name: str = "germany") -> pg.GameState:
    state = pg.new_game(pg.GameConfig(map=map_name, players=players, seed=seed))
    rng = random.Random(seed)
    while not state.is_over and state.decisions < decisions:
        state.apply(rng.choice(state.legal_actions()))
    return state


def _field(encoder: ObservationEncoder, obs: np.ndarray, name: str) -> np.ndarray:
    (field,) = [f for f in encoder.fields if f.name == name]
    return obs[field.slice]


@pytest.mark.parametrize(("players", "cities"), [(2, 42), (4, 42), (6, 42), (3, 30)])
def test_layout_is_contiguous_named_and_complete(players: int, cities: int) -> None:
    fields = observation_fields(players, cities)
    names = [name for name, _ in fields]
    assert len(set(names)) == len(names)
    at = 0
    for _, part in fields:
        assert part.start == at and part.stop > part.start
        at = part.stop
    assert at == ObservationEncoder(players, cities).size
    for required in ("p0_money", f"p{players - 1}_plants", "city_houses", "market", "resource_market",
                     "auction_bid", "auction_leader", "phase", "step", "round", "to_act"):
        assert required in names


def test_fields_hold_what_the_layout_says() -> None:
    state = _play(3, 400)
    seat = state.current_player
    n = state.players
    encoder = ObservationEncoder(n, len(state.scn.map.cities))
    obs = encoder.encode(state.view(seat))
    assert obs.dtype == np.float32 and obs.shape == (encoder.size,)
    assert np.all(obs >= 0) and np.all(obs <= encoder.high)
    for k in range(n):
        other = (seat + k) % n
        assert _field(encoder, obs, f"p{k}_money")[0] == pytest.approx(min(state.money[other], 500) / 100)
        assert _field(encoder, obs, f"p{k}_cities")[0] == pytest.approx(len(state.cities[other]) / 22)
        held = _field(encoder, obs, f"p{k}_resources")
        assert held == pytest.approx(np.array(state.resources_of(other)) / [24, 24, 24, 12])
        plants = _field(encoder, obs, f"p{k}_plants").reshape(-1, len(PLANT_FEATURES))
        for slot, number in enumerate(state.plants[other]):
            assert plants[slot][0] == 1 and plants[slot][1] == pytest.approx(number / 50)
        assert plants[len(state.plants[other]):].sum() == 0
        order = _field(encoder, obs, f"p{k}_order")
        assert order.argmax() == state.order.index(other) and order.sum() == 1
    assert _field(encoder, obs, "to_act")[0] == 1
    assert _field(encoder, obs, "step")[state.step - 1] == 1
    houses = _field(encoder, obs, "city_houses").reshape(-1, n)
    for city in range(len(state.scn.map.cities)):
        expected = sorted((s - seat) % n for s in state.houses[city])
        assert list(np.flatnonzero(houses[city])) == expected
    market = _field(encoder, obs, "market").reshape(MARKET_SLOTS, -1)
    for slot, number in enumerate(state.market):
        if number != pg.STEP3:
            assert market[slot][1] == pytest.approx(number / 50)
    assert _field(encoder, obs, "resource_market") == pytest.approx(
        np.array(state.market_res) / [24, 24, 24, 12])


def test_auction_fields_follow_a_running_auction() -> None:
    state = pg.new_game(pg.GameConfig(seed=5))
    seat = state.current_player
    state.apply(pg.parse_action("open 4 7"))
    viewer = state.current_player
    encoder = ObservationEncoder(4, 42)
    obs = encoder.encode(state.view(viewer))
    assert _field(encoder, obs, "auction_running")[0] == 1
    assert _field(encoder, obs, "auction_plant")[1] == pytest.approx(4 / 50)
    assert _field(encoder, obs, "auction_bid")[0] == pytest.approx(0.07)
    assert _field(encoder, obs, "auction_leader")[(seat - viewer) % 4] == 1


def test_hidden_deck_order_never_changes_the_observation() -> None:
    """States that differ only in what the seat cannot see give the same observation."""
    for seed in (1, 2, 3):
        state = _play(seed, 150 * seed)
        seat = state.current_player
        view = state.view(seat)
        encoder = ObservationEncoder(4, 42)
        expected = encoder.encode(view)
        for k in range(3):
            other = pg.determinize(view, random.Random(k))
            assert np.array_equal(ObservationEncoder(4, 42).encode(other.view(seat)), expected)


def test_memoised_parts_match_a_fresh_encoder_over_a_game() -> None:
    state = pg.new_game(pg.GameConfig(map="usa", players=5, seed=8))
    shared = ObservationEncoder(5, 42)
    rng = random.Random(8)
    while not state.is_over:
        if state.decisions % 7 == 0:
            view = state.view(state.current_player)
            assert np.array_equal(shared.encode(view), ObservationEncoder(5, 42).encode(view))
        state.apply(rng.choice(state.legal_actions()))


def test_my_powerable_agrees_with_the_engine() -> None:
    for map_name, players, seed in (("germany", 2, 31), ("usa", 4, 32), ("germany", 3, 33)):
        state = pg.new_game(pg.GameConfig(map=map_name, players=players, seed=seed))
        encoder = ObservationEncoder(players, 42)
        rng = random.Random(seed)
        while not state.is_over:
            seat = state.current_player
            obs = encoder.encode(state.view(seat))
            expected = min(state.powerable(seat), 20) / 20
            assert _field(encoder, obs, "my_powerable")[0] == pytest.approx(expected)
            state.apply(rng.choice(state.legal_actions()))
