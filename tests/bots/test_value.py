"""The learned evaluator: loads, agrees with the golden output written when it was fitted,
reads public facts only, stays small, and sums to 1 over the seats."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

import powergrid as pg
from powergrid.bots import make_bot, value

GOLDEN = Path(__file__).with_name("value_golden.json")


def golden_position() -> pg.GameState:
    """The position the golden output was taken at (benchmarks/train_evaluator.py, golden())."""
    state = pg.new_game(pg.GameConfig(map="germany", players=4, seed=11))
    bots = [make_bot("heuristic", i) for i in range(4)]
    while state.round < 6:
        seat = state.current_player
        assert seat is not None
        state.apply(bots[seat].act(state.view(seat)))
    return state


def test_the_shipped_model_agrees_with_its_golden_output() -> None:
    golden = json.loads(GOLDEN.read_text())
    state = golden_position()
    assert value.table_features(state) == pytest.approx(np.array(golden["features"]), abs=1e-9)
    model = value.value_model()
    assert model.chances(state) == pytest.approx(golden["chances"], abs=1e-6)
    assert model.chances(state, golden["players"]) == pytest.approx(golden["chances_with_players"], abs=1e-6)


def test_the_model_file_is_small() -> None:
    size = len(resources.files("powergrid.bots").joinpath(value.MODEL_FILE).read_bytes())
    assert size <= 1_000_000


def test_the_model_round_trips_and_refuses_other_features() -> None:
    model = value.value_model()
    again = value.ValueModel.from_dict(json.loads(json.dumps(model.to_dict())))
    state = golden_position()
    assert again.chances(state) == pytest.approx(model.chances(state), abs=1e-5)
    with pytest.raises(ValueError, match="features"):
        value.ValueModel.from_dict({**model.to_dict(), "features": ["cities"]})


def test_chances_are_a_distribution_read_from_public_facts() -> None:
    state = golden_position()
    chances = value.win_chances(state)
    assert sum(chances) == pytest.approx(1.0)
    for seat in range(4):
        assert value.win_chances(state.view(seat)) == pytest.approx(chances)
    richer = state.clone()
    richer.money[2] += 150
    assert value.win_chances(richer)[2] > chances[2]
    # a stronger player (by the bots' ratings) is given a better chance from the same position
    assert value.win_chances(state, ["pimc", None, None, None])[0] > chances[0]
