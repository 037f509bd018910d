"""Heuristic play-outs of a position (powergrid.bots.playouts) and the coach's blend of them with
the learned evaluator (value.ValueModel.blend): public facts only, the same shares every time."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import numpy as np
import pytest
from test_bots import shuffled_hidden_deck
from test_value import golden_position, late_position

import powergrid as pg
from powergrid.bots import make_bot, value
from powergrid.bots.playouts import playout_shares


def test_shares_are_a_distribution_and_the_same_every_time() -> None:
    state = golden_position()
    shares = playout_shares(state, 6)
    assert shares.sum() == pytest.approx(1.0)
    assert (shares >= 0).all() and len(shares) == 4
    assert np.array_equal(playout_shares(state, 6), shares)
    # only six games: each share is a multiple of a sixth (a shared win splits one)
    assert np.allclose((shares * 6 * 12) % 1, 0)


def test_shares_read_only_what_every_seat_sees() -> None:
    state = golden_position()
    shares = playout_shares(state, 4)
    for seat in range(4):
        assert np.array_equal(playout_shares(state.view(seat), 4), shares)
    rng = random.Random(3)
    for _ in range(3):
        other = shuffled_hidden_deck(state, rng)
        assert np.array_equal(playout_shares(other, 4), shares)
    # and they read the position: a seat given a fortune wins more of them
    richer = state.clone()
    richer.money[1] += 200
    assert playout_shares(richer, 4)[1] > shares[1]


def test_a_finished_game_gives_its_result() -> None:
    state = pg.new_game(pg.GameConfig(map="usa", players=2, seed=4))
    bots = [make_bot("heuristic", i) for i in range(2)]
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        state.apply(bots[seat].act(state.view(seat)))
    expected = [1.0 / len(state.winners) if j in state.winners else 0.0 for j in range(2)]
    assert playout_shares(state, 8).tolist() == expected


def _blended(weights: dict[str, list[float]]) -> value.ValueModel:
    return replace(value.value_model(), playout_games=4, playout_prior=2.0, playout_weights=weights)


def test_the_evaluator_alone_is_the_blend_that_weighs_no_playout() -> None:
    state = golden_position()
    alone = value.value_model().chances(state, ["pimc", None, None, None], playouts=False)
    model = _blended({"heuristic": [1.0, 0.0, 0.0, 0.0], "pimc": [1.0, 0.0, 0.0, 0.0]})
    assert model.chances(state, ["pimc", None, None, None]) == pytest.approx(alone, abs=1e-12)
    # a model without a blend ignores ``playouts``
    plain = replace(value.value_model(), playout_games=0, playout_weights={})
    assert plain.chances(state) == pytest.approx(plain.chances(state, playouts=False), abs=1e-12)


def test_the_blend_moves_the_chances_toward_the_playouts_by_its_players_weights() -> None:
    state = golden_position()
    won = playout_shares(state, 4) > 0
    assert won.any() and not won.all()
    base = np.array(value.value_model().chances(state, playouts=False))
    heavy = _blended({"heuristic": [1.0, 0.0, 2.0, 0.0]})
    # the seats that won play-outs gain chance together, those that won none lose it
    assert np.array(heavy.chances(state))[won].sum() > base[won].sum() + 0.05
    # people and unknown names weigh as the heuristic; a bot of its own weights as itself
    assert heavy.chances(state, [None, "someone", None, None]) == pytest.approx(heavy.chances(state))
    mixed = _blended({"heuristic": [1.0, 0.0, 2.0, 0.0], "expert": [1.0, 0.0, 0.0, 0.0]})
    table = ["expert"] * 4
    assert mixed.chances(state, table) == pytest.approx(
        value.value_model().chances(state, table, playouts=False), abs=1e-12)
    # a level without weights of its own takes its kind's
    assert mixed.blend_weights(["expert:fast"]).tolist() == [1.0, 0.0, 0.0, 0.0, 0.0]


def test_the_blend_round_trips_through_the_model_file() -> None:
    model = _blended({"heuristic": [0.9, -0.5, 0.3, 1.1]})
    again = value.ValueModel.from_dict(json.loads(json.dumps(model.to_dict())))
    assert (again.playout_games, again.playout_prior, again.playout_weights) == (
        4, 2.0, {"heuristic": [0.9, -0.5, 0.3, 1.1]})
    state = golden_position()
    assert again.chances(state) == pytest.approx(model.chances(state), abs=1e-9)


SEARCH_TABLE = ["expert:fast", "heuristic", "expert"]


def test_small_searches_play_the_searches_seats_from_the_view_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    from powergrid.bots import expert

    state = late_position()
    played: list[int] = []
    act = expert.ExpertBot.act

    def counted(self: expert.ExpertBot, view: pg.GameView) -> pg.Action:
        played.append(view.seat)
        return act(self, view)

    monkeypatch.setattr(expert.ExpertBot, "act", counted)
    shares = playout_shares(state, 2, SEARCH_TABLE, search_budget=40)
    assert shares.sum() == pytest.approx(1.0)
    # the two searches' seats are played by small searches, the heuristic's is not
    assert set(played) == {0, 2}
    played.clear()
    # the same shares every time, from every seat's view, whatever the hidden deck holds
    assert np.array_equal(playout_shares(state.view(1), 2, SEARCH_TABLE, search_budget=40), shares)
    other = shuffled_hidden_deck(state, random.Random(5))
    assert np.array_equal(playout_shares(other, 2, SEARCH_TABLE, search_budget=40), shares)
    # without a budget, or without a search at the table, every seat is the heuristic's
    played.clear()
    heuristic_only = playout_shares(state, 2)
    assert np.array_equal(playout_shares(state, 2, SEARCH_TABLE), heuristic_only)
    assert np.array_equal(playout_shares(state, 2, ["heuristic", None, "pimc"], search_budget=40),
                          heuristic_only)
    assert played == []


def _searching(weights: dict[str, list[float]], start: float) -> value.ValueModel:
    return replace(value.value_model(), playout_games=2, search_playout_budget=40,
                   search_playout_from=start, search_weights=weights)


def test_the_coach_plays_searches_out_late_at_tables_with_searches_with_their_own_weights() -> None:
    state = late_position()
    alone = value.value_model().chances(state, SEARCH_TABLE, playouts=False)
    late = _searching({"heuristic": [1.0, 0.0, 0.0, 0.0], "expert": [1.0, 0.0, 0.0, 0.0]}, 0.6)
    assert late.searched_playouts(state, SEARCH_TABLE)
    # weights of the evaluator alone: the small searches' shares change nothing
    assert late.chances(state, SEARCH_TABLE) == pytest.approx(alone, abs=1e-12)
    # weights on the shares: they move the chances toward them, apart from the heuristic's weights
    heavy = _searching({"heuristic": [1.0, 0.0, 3.0, 0.0], "expert": [1.0, 0.0, 3.0, 0.0]}, 0.6)
    searched = playout_shares(state, 2, SEARCH_TABLE, 40)
    chances = np.array(heavy.chances(state, SEARCH_TABLE))
    best = int(np.argmax(searched))
    assert chances[best] > alone[best] + 0.05
    assert heavy.blend_weights(SEARCH_TABLE, searched=True).tolist() == [1.0, 0.0, 3.0, 0.0, 0.0]
    assert heavy.blend_weights(SEARCH_TABLE).tolist() == pytest.approx(
        value.value_model().blend_weights(SEARCH_TABLE).tolist())
    # not before the start, not without a search at the table, not without a budget
    assert not _searching({}, 0.95).searched_playouts(state, SEARCH_TABLE)
    assert not heavy.searched_playouts(state, ["heuristic", None, "pimc"])
    assert not replace(heavy, search_playout_budget=0).searched_playouts(state, SEARCH_TABLE)


def test_the_small_searches_round_trip_through_the_model_file() -> None:
    model = _searching({"expert:fast": [0.5, 0.1, 0.7, 0.2]}, 0.65)
    again = value.ValueModel.from_dict(json.loads(json.dumps(model.to_dict())))
    assert (again.search_playout_budget, again.search_playout_from, again.search_weights) == (
        40, 0.65, {"expert:fast": [0.5, 0.1, 0.7, 0.2]})
    # a file from before them: none
    old = {k: v for k, v in model.to_dict().items() if not k.startswith("search_")}
    plain = value.ValueModel.from_dict(old)
    assert (plain.search_playout_budget, plain.search_weights) == (0, {})
    assert not plain.searched_playouts(late_position(), SEARCH_TABLE)


def test_a_clean_sweep_adds_its_weight_to_the_seat_that_won_every_playout() -> None:
    model = _blended({})
    scores = np.array([0.3, -0.1, 0.2])
    swept = np.array([1.0, 0.0, 0.0])
    split = np.array([0.5, 0.5, 0.0])
    plain = np.array([0.9, -0.2, 0.4, 0.6])
    for shares in (swept, split):
        without = model.blend(scores, shares, 0.8, plain)
        with_sweep = model.blend(scores, shares, 0.8, np.append(plain, 1.5))
        assert with_sweep - without == pytest.approx(1.5 * (shares == 1.0))
    # four weights (a model file from before the sweep) weigh it 0
    assert model.blend(scores, swept, 0.8, plain) == pytest.approx(
        model.blend(scores, swept, 0.8, np.append(plain, 0.0)))
