"""The win-chance model: a distribution over the seats, the result once the game is over, and
it favours the seat that is ahead."""

from __future__ import annotations

import random

import pytest

import powergrid as pg
from powergrid.bots import heuristic
from powergrid.coach import win_chances, win_model
from powergrid.coach.winchance import FEATURES, WinModel, seat_features


def test_chances_sum_to_one_at_every_round_start() -> None:
    state = pg.new_game(pg.GameConfig(map="usa", players=5, seed=3))
    last = 0
    while not state.is_over:
        if state.round != last:
            last = state.round
            chances = win_chances(state)
            assert len(chances) == 5
            assert sum(chances) == pytest.approx(1.0)
            assert all(0.0 <= c <= 1.0 for c in chances)
            seat = state.current_player
            assert seat is not None
            assert win_chances(state.view(seat)) == pytest.approx(chances)  # public facts only
        seat = state.current_player
        assert seat is not None
        state.apply(heuristic.decide(state, seat, state.legal_actions()))
    assert win_chances(state) == [1.0 / len(state.winners) if j in state.winners else 0.0 for j in range(5)]


def test_the_seat_that_is_ahead_is_favoured() -> None:
    state = pg.new_game(pg.GameConfig(map="germany", players=3, seed=4))
    rng = random.Random(2)
    while state.round < 5:
        seat = state.current_player
        assert seat is not None
        state.apply(heuristic.decide(state, seat, state.legal_actions()) if seat != 1
                    else rng.choice(state.legal_actions()))
    chances = win_chances(state)
    assert chances[1] < min(chances[0], chances[2])  # the random player is behind
    richer = state.clone()
    richer.money[1] += 200
    assert win_chances(richer)[1] > chances[1]


def test_model_file_matches_the_features() -> None:
    model = win_model()
    assert len(model.weights) == len(FEATURES)
    state = pg.new_game(pg.GameConfig(map="germany", players=2, seed=1))
    assert len(seat_features(state, 0)) == len(FEATURES)
    assert WinModel.from_dict(model.to_dict()) == model
    with pytest.raises(ValueError, match="features"):
        WinModel.from_dict({"features": ["cities"], "weights": [1.0]})


def test_the_chances_weigh_who_is_playing() -> None:
    """The same position: a seat played by a strong bot is given more than by a person; two
    searches in a two-player mirror are given less certain chances than two unknown players (a
    lead holds less far between them: their softness, larger at two players)."""
    state = pg.new_game(pg.GameConfig(map="usa", players=4, seed=6))
    while state.round < 6:
        state.apply(heuristic.decide(state, state.current_player, state.legal_actions()))  # type: ignore[arg-type]
    blind = win_chances(state)
    assert win_chances(state, ["expert", None, None, None])[0] > blind[0]
    assert win_chances(state, [None, None, None, "random"])[3] < blind[3]
    pair = pg.new_game(pg.GameConfig(map="germany", players=2, seed=7))
    while pair.round < 6:
        pair.apply(heuristic.decide(pair, pair.current_player, pair.legal_actions()))  # type: ignore[arg-type]
    blind = win_chances(pair)
    assert max(blind) > 0.7  # a clear lead, by the position alone
    for search in ("expert", "expert:fast"):
        mirror = win_chances(pair, [search] * 2)
        assert max(mirror) < max(blind) - 0.1 and min(mirror) > min(blind) + 0.1
