"""The learned evaluator: loads, agrees with the golden output written when it was fitted,
reads public facts only, stays small, and sums to 1 over the seats."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

import powergrid as pg
from powergrid.bots import make_bot, value

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from train_evaluator import late_position  # noqa: E402  (the golden output's late position)

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
    assert model.chances(state, golden["searches"]) == pytest.approx(golden["chances_with_searches"],
                                                                      abs=1e-6)
    # the evaluator alone, as the search reads it (without the coach's play-outs)
    assert model.chances(state, golden["searches"], playouts=False) == pytest.approx(
        golden["evaluator_alone"], abs=1e-6)
    # late at a table with searches: small searches play the play-outs (test_playouts.py)
    late = late_position()
    assert value.table_features(late) == pytest.approx(np.array(golden["late_features"]), abs=1e-9)
    assert model.searched_playouts(late, golden["late_searches"])
    assert model.chances(late, golden["late_searches"]) == pytest.approx(
        golden["late_chances_with_searches"], abs=1e-6)


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


def test_a_table_of_soft_players_spreads_its_chances_and_unknown_players_are_not_soft() -> None:
    state = golden_position()
    # the evaluator alone (no play-outs: tests/bots/test_playouts.py)
    model = replace(value.value_model(), softness={"expert:fast": 0.5, "expert:deep": 0.3},
                    softness_fade={}, softness_pair={}, style={}, playout_games=0)
    sharp = model.chances(state, [None] * 4)
    soft = model.chances(state, ["expert:fast"] * 4)
    assert sum(soft) == pytest.approx(1.0)
    # the same order of the seats, nearer to even: a lead holds less between these players
    assert np.argsort(soft).tolist() == np.argsort(sharp).tolist()
    assert max(soft) < max(sharp) and min(soft) > min(sharp)
    # scores divided by exp(mean softness): exactly the position's scores at that temperature
    scores = model.scores(value.table_features(state), np.zeros(4)) / np.exp(0.5)
    assert soft == pytest.approx((np.exp(scores) / np.exp(scores).sum()).tolist(), abs=1e-9)
    # a level it does not know takes its kind's mean; people and unknown names are not soft
    assert model.soft("expert") == pytest.approx(0.4)
    assert model.soft(None) == model.soft("someone") == 0.0
    assert model.chances(state, ["someone"] * 4) == pytest.approx(sharp)
    again = value.ValueModel.from_dict(json.loads(json.dumps(model.to_dict())))
    assert again.chances(state, ["expert:fast"] * 4) == pytest.approx(soft, abs=1e-5)


def test_a_former_name_is_weighed_as_the_bot_it_plays_today() -> None:
    model = replace(value.value_model(), ratings={"heuristic": 0.0, "pimc:fast": 2.0, "expert": 5.0,
                                                  "expert:fast": 4.0},
                    softness={"expert": 0.6, "expert:fast": 0.2})
    # expert:strong plays the default expert: its entries, not its kind's mean
    assert (model.rating("expert:strong"), model.soft("expert:strong")) == (5.0, 0.6)
    assert model.rating("mcts:fast") == 2.0
    assert model.rating("expert:default") == 5.0


def test_a_softness_that_fades_spreads_the_chances_early_and_not_at_the_end() -> None:
    state = golden_position()
    model = replace(value.value_model(), softness={"expert:fast": 0.6},
                    softness_fade={"expert:fast": -0.6}, softness_pair={}, style={})
    x = value.table_features(state)
    sharp = model.scores(x, np.zeros(4))
    # softness at this point of the game: 0.6 - 0.6 * progress
    now = model.scores(x, np.zeros(4), soft=0.6, soft_fade=-0.6)
    assert now == pytest.approx(sharp / np.exp(0.6 - 0.6 * value.progress(state)))
    end = model.scores(x, np.zeros(4), progress_now=1.0, soft=0.6, soft_fade=-0.6)
    assert end == pytest.approx(model.scores(x, np.zeros(4), progress_now=1.0))
    # the coach's chances weigh the table's mean entries; the file keeps them; an older file
    # without them loads with none
    assert model.weighing(["expert:fast", None])[1:3] == (0.3, -0.3)
    again = value.ValueModel.from_dict(json.loads(json.dumps(model.to_dict())))
    assert again.chances(state, ["expert:fast"] * 4) == pytest.approx(
        model.chances(state, ["expert:fast"] * 4), abs=1e-5)
    older = {k: v for k, v in model.to_dict().items() if k != "softness_fade"}
    assert value.ValueModel.from_dict(older).softness_fade == {}


def test_a_bot_softer_at_two_players_is_weighed_so_only_at_a_two_player_table() -> None:
    model = replace(value.value_model(), softness={"expert:fast": 0.2},
                    softness_pair={"expert:fast": 0.5})
    assert model.weighing(["expert:fast", "expert:fast"])[1] == pytest.approx(0.7)
    assert model.weighing(["expert:fast", None])[1] == pytest.approx(0.35)
    assert model.weighing(["expert:fast"] * 3)[1] == pytest.approx(0.2)
    assert model.weighing(["expert:fast"] * 4)[1] == pytest.approx(0.2)
    again = value.ValueModel.from_dict(json.loads(json.dumps(model.to_dict())))
    assert again.softness_pair == {"expert:fast": 0.5}


def test_a_bots_style_weighs_its_seats_lead_more_as_the_game_goes_on() -> None:
    state = golden_position()
    x = value.table_features(state)
    leader = int(np.argmax(x[:, value.FEATURES.index("money-rival")]))
    weights = [0.0] * len(value.SEAT_FEATURES)
    weights[value.SEAT_FEATURES.index("money")] = 2.0
    model = replace(value.value_model(), softness={}, softness_fade={}, softness_pair={},
                    style={"expert:fast": weights}, playout_games=0)
    plain = replace(model, style={}).chances(state, ["expert:fast"] * 4)
    styled = model.chances(state, ["expert:fast"] * 4)
    # money counts for more: the richest seat (by its lead over the best rival) gains
    assert styled[leader] > plain[leader] and sum(styled) == pytest.approx(1.0)
    z = (x[:, value.RIVAL] - model.mean[value.RIVAL]) / model.scale[value.RIVAL]
    added = value.progress(state) * 2.0 * z[:, value.SEAT_FEATURES.index("money")]
    expected = model.scores(x, np.full(4, model.rating("expert:fast"))) + added / model.temperature
    assert styled == pytest.approx((np.exp(expected) / np.exp(expected).sum()).tolist(), abs=1e-9)
    # a style grows with the game: none at its start; a level without its own takes its kind's
    assert model.scores(x, None, progress_now=0.0, styles=np.tile(weights, (4, 1))) == pytest.approx(
        model.scores(x, None, progress_now=0.0))
    assert model.style_of("expert:default").tolist() == weights
    assert model.style_of(None).tolist() == model.style_of("heuristic").tolist() == [0.0] * 12
    again = value.ValueModel.from_dict(json.loads(json.dumps(model.to_dict())))
    assert again.chances(state, ["expert:fast"] * 4) == pytest.approx(styled, abs=1e-6)
