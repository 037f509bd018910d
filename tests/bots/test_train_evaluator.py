"""benchmarks/train_evaluator.py: refitting one level's part of the shipped evaluator."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import powergrid as pg
from powergrid.bots import value

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import train_evaluator  # noqa: E402


@pytest.fixture(scope="module")
def mirror_games(tmp_path_factory: pytest.TempPathFactory) -> dict[str, np.ndarray]:
    """Positions of a few heuristic mirrors, saved and loaded as the script does."""
    games = train_evaluator.collect(["heuristic-mirror"], 6, master=77, workers=1)
    path = tmp_path_factory.mktemp("evaluator") / "mirror.npz"
    train_evaluator.save(games, path)
    return train_evaluator.load([str(path)])


def _as_level(data: dict[str, np.ndarray], name: str, winners: np.ndarray) -> dict[str, np.ndarray]:
    """The same positions, every seat played by ``name``, each game won by ``winners[game]``."""
    out = dict(data)
    out["names"] = np.array([name])
    out["bots"] = np.where(data["mask"], 0, -1).astype(np.int16)
    games = np.unique(data["meta"][:, 1], return_inverse=True)[1]
    y = np.zeros(data["y"].shape)
    y[np.arange(len(y)), winners[games]] = 1.0
    out["y"] = y
    return out


def _softness(model: value.ValueModel, data: dict[str, np.ndarray], name: str) -> float:
    """The level's softness over the positions of ``data``, as the coach weighs it (at the start,
    its change with the game's progress, and at two players)."""
    t = data["x"][:, 0, value.FEATURES.index("progress")].astype(np.float64)
    pair = data["mask"].sum(axis=1) == 2
    return float(np.mean(model.soft(name) + model.soft_fade(name) * t + model.soft_pair(name) * pair))


def test_a_level_refitted_alone_leaves_every_other_entry_as_it_was(mirror_games) -> None:
    model = value.value_model()
    # a mirror whose winner is the seat the network rates lowest at the end of the game: the
    # leads the network reads do not hold, so the level must come out softer than it borrowed
    last = np.unique(mirror_games["meta"][:, 1], return_index=True)[1][1:] - 1
    last = np.append(last, len(mirror_games["x"]) - 1)
    scores = train_evaluator.network_scores(model, mirror_games)
    losers = np.where(mirror_games["mask"][last], scores[last], np.inf).argmin(axis=1)
    data = _as_level(mirror_games, "expert:test", losers)
    fitted = train_evaluator.rerate(model, data, steps=200, only=frozenset({"expert:test"}))
    assert _softness(fitted, data, "expert:test") > _softness(model, data, "expert:test") + 0.1
    assert {k: v for k, v in fitted.ratings.items() if k != "expert:test"} == model.ratings
    assert {k: v for k, v in fitted.softness.items() if k != "expert:test"} == model.softness
    assert {k: v for k, v in fitted.softness_fade.items() if k != "expert:test"} == model.softness_fade
    assert {k: v for k, v in fitted.softness_pair.items() if k != "expert:test"} == model.softness_pair
    assert (fitted.skill, fitted.skill_fade, fitted.temperature) == (
        model.skill, model.skill_fade, model.temperature)
    assert np.array_equal(fitted.w1, model.w1)
    again = train_evaluator.rerate(model, data, steps=200, only=frozenset({"expert:test"}))
    assert again.softness == fitted.softness and again.ratings == fitted.ratings


def test_a_mirror_won_by_its_leaders_makes_the_level_harder(mirror_games) -> None:
    model = value.value_model()
    last = np.unique(mirror_games["meta"][:, 1], return_index=True)[1][1:] - 1
    last = np.append(last, len(mirror_games["x"]) - 1)
    scores = train_evaluator.network_scores(model, mirror_games)
    leaders = np.where(mirror_games["mask"][last], scores[last], -np.inf).argmax(axis=1)
    data = _as_level(mirror_games, "expert:test", leaders)
    fitted = train_evaluator.rerate(model, data, steps=200, only=frozenset({"expert:test"}))
    assert _softness(fitted, data, "expert:test") < _softness(model, data, "expert:test") - 0.1


def _three_bots(data: dict[str, np.ndarray], rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Every seat given one of three bots at random: (onehot, each bot's part of the table)."""
    rows, seats = data["mask"].shape
    onehot = np.zeros((rows, seats, 3))
    onehot[np.arange(rows)[:, None], np.arange(seats), rng.integers(0, 3, (rows, seats))] = 1.0
    onehot *= data["mask"][:, :, None]
    return onehot, onehot.sum(axis=1) / data["mask"].sum(axis=1, keepdims=True)


def _assert_gradient(loss_and_grad, params: np.ndarray) -> None:
    """The gradient agrees with central finite differences in every parameter."""
    _, grad = loss_and_grad(params)
    for i in range(len(params)):
        step = np.zeros_like(params)
        step[i] = 1e-6
        numeric = (loss_and_grad(params + step)[0] - loss_and_grad(params - step)[0]) / 2e-6
        assert grad[i] == pytest.approx(numeric, rel=1e-4, abs=1e-8)


def test_the_players_fit_follows_the_gradient_of_its_loss(mirror_games) -> None:
    rng = np.random.default_rng(5)
    data = mirror_games
    rows, seats = data["mask"].shape
    onehot, share = _three_bots(data, rng)
    t = data["x"][:, 0, value.FEATURES.index("progress")].astype(np.float64)
    net = train_evaluator.network_scores(value.value_model(), data)
    rival = rng.normal(0, 1, (rows, seats, len(value.SEAT_FEATURES))) * data["mask"][:, :, None]
    fitting = train_evaluator.PlayersFit(net, data["y"].astype(np.float64), data["mask"], t, onehot,
                                         share, 0.9, 1.04, 3.0, rival)
    assert fitting.size() == 3 * (4 + len(value.SEAT_FEATURES)) + 1
    _assert_gradient(fitting.loss_and_grad, rng.normal(0, 0.5, fitting.size()))


def test_a_level_whose_leads_hold_only_late_gets_a_softness_that_fades(mirror_games) -> None:
    model = value.value_model()
    t = mirror_games["x"][:, 0, value.FEATURES.index("progress")].astype(np.float64)
    data = _as_level(mirror_games, "expert:test", np.zeros(len(np.unique(mirror_games["meta"][:, 1])),
                                                             int))
    # each position's outcome as chances: the network's own softened in the first half of the
    # game (as if softness 0.7) and as they are after it
    scores = train_evaluator.network_scores(model, mirror_games) / model.temperature
    spread = np.where(t < 0.5, np.exp(0.7), 1.0)
    s = np.where(mirror_games["mask"], scores / spread[:, None], -np.inf)
    chances = np.exp(s - s.max(axis=1, keepdims=True))
    data["y"] = chances / chances.sum(axis=1, keepdims=True)
    fitted = train_evaluator.rerate(model, data, steps=400, only=frozenset({"expert:test"}))
    assert fitted.softness["expert:test"] > 0.3
    assert fitted.softness_fade["expert:test"] < -0.3


@pytest.fixture(scope="module")
def played_out(tmp_path_factory: pytest.TempPathFactory) -> dict[str, np.ndarray]:
    """A few heuristic mirrors with two play-outs of every position, saved and loaded."""
    games = train_evaluator.collect(["heuristic-mirror"], 3, master=78, workers=1, playouts=2)
    path = tmp_path_factory.mktemp("evaluator") / "played.npz"
    train_evaluator.save(games, path)
    return train_evaluator.load([str(path)])


def test_the_data_keeps_each_positions_playout_shares(played_out) -> None:
    share, mask = played_out["share"], played_out["mask"]
    assert int(played_out["playouts"]) == 2
    assert share.shape == mask.shape
    assert np.allclose(share.sum(axis=1), 1.0)
    assert (share[~mask] == 0).all()


def test_the_blend_fit_follows_the_gradient_of_its_loss(played_out) -> None:
    rng = np.random.default_rng(6)
    data = played_out
    _, share = _three_bots(data, rng)
    t = data["x"][:, 0, value.FEATURES.index("progress")].astype(np.float64)
    scores = train_evaluator.seat_scores(value.value_model(), data, with_ratings=False)
    swept = data["share"] >= 1.0
    assert swept.any()
    fitting = train_evaluator.BlendFit(scores, np.log(data["share"] + 0.1), data["y"].astype(np.float64),
                                       data["mask"], t, share, swept, ridge=1e-3)
    params = rng.normal(0, 0.5, 15) + np.tile(train_evaluator.BlendFit.CENTER, 3)
    _assert_gradient(fitting.loss_and_grad, params)


def test_a_blend_fitted_where_the_playouts_call_the_winner_weighs_them(played_out) -> None:
    # every game won by the seat its play-outs favoured at its last position: the fitted blend
    # must give the play-outs weight and predict those games better than the evaluator alone
    data = dict(played_out)
    games = np.unique(data["meta"][:, 1], return_inverse=True)[1]
    last = np.array([np.nonzero(games == g)[0][-1] for g in range(games.max() + 1)])
    favoured = np.where(data["mask"][last], data["share"][last], -1).argmax(axis=1)
    y = np.zeros(data["y"].shape)
    y[np.arange(len(y)), favoured[games]] = 1.0
    data["y"] = y
    fitted = train_evaluator.fit_blend(value.value_model(), data, steps=300)
    assert fitted.playout_games == 2
    assert fitted.playout_weights["heuristic"][2] + fitted.playout_weights["heuristic"][3] > 0.3

    def loss(model: value.ValueModel, playouts: bool) -> float:
        p = train_evaluator.predictions(model, data, with_ratings=True, playouts=playouts)
        return float(-(y * np.log(np.maximum(p, 1e-12))).sum())

    assert loss(fitted, True) < loss(fitted, False)
    assert np.array_equal(fitted.w1, value.value_model().w1) and fitted.ratings == value.value_model().ratings


def test_the_data_keeps_each_games_moves_and_they_replay_to_its_result(tmp_path) -> None:
    games = train_evaluator.collect(["random"], 2, master=79, workers=1)
    path = tmp_path / "moves.npz"
    train_evaluator.save(games, path)
    stored = np.load(path)
    assert stored["games"].tolist() == ["random/0", "random/1"]
    for key, moves, game in zip(stored["games"], stored["actions"], games, strict=True):
        spec = train_evaluator.game_spec("random", 79, int(str(key).split("/")[1]))
        state = pg.new_game(spec.config)
        for text in str(moves).split(" | "):
            state.apply(pg.parse_action(text))
        assert state.is_over
        won = [1.0 / len(state.winners) if j in state.winners else 0.0 for j in range(state.players)]
        assert won == game["y"].tolist()


def test_small_searches_play_out_the_late_positions_of_tables_with_searches(tmp_path) -> None:
    games = train_evaluator.collect(["expert-heuristic"], 1, master=80, workers=1, playouts=1,
                                    search_budget=20, search_from=0.7)
    path = tmp_path / "searched.npz"
    train_evaluator.save(games, path)
    data = train_evaluator.load([str(path)])
    late = data["x"][:, 0, value.FEATURES.index("progress")] >= 0.7
    assert late.any() and not late.all()
    assert data["searched"].tolist() == late.tolist()
    assert (int(data["search_budget"]), float(data["search_from"])) == (20, 0.7)
    # replayed from its moves with heuristic play-outs only: the same positions, the early shares
    # as they were, none searched
    again_path = tmp_path / "again.npz"
    train_evaluator.main(["shares", "--data", str(path), "--playouts", "1", "--workers", "1",
                          "--out", str(again_path)])
    again = train_evaluator.load([str(again_path)])
    assert np.array_equal(again["x"], data["x"]) and np.array_equal(again["y"], data["y"])
    assert not again["searched"].any()
    assert np.array_equal(again["share"][~late], data["share"][~late])
    # files whose small searches differ are not merged
    other = tmp_path / "other.npz"
    train_evaluator.main(["shares", "--data", str(path), "--playouts", "1", "--workers", "1",
                          "--search-budget", "30", "--search-from", "0.7", "--out", str(other)])
    with pytest.raises(SystemExit, match="small searches differ"):
        train_evaluator.load([str(path), str(other)])


def test_the_searched_positions_blend_is_fitted_apart_and_only_for_the_bots_asked(played_out) -> None:
    data = dict(played_out)
    games = np.unique(data["meta"][:, 1], return_inverse=True)[1]
    # the last game's positions taken as played out by small searches, won where they said
    searched = games == games.max()
    data["searched"] = searched
    data["search_budget"], data["search_from"] = np.array(50), np.array(0.0)
    favoured = np.where(data["mask"], data["share"], -1).argmax(axis=1)
    winner = favoured[np.nonzero(searched)[0][-1]]
    data["y"] = np.where(searched[:, None], np.eye(data["y"].shape[1])[winner], data["y"])
    fitted = train_evaluator.fit_blend(value.value_model(), data, steps=300)
    assert (fitted.search_playout_budget, fitted.search_playout_from) == (50, 0.0)
    assert set(fitted.search_weights) == {"heuristic"}
    assert fitted.search_weights["heuristic"] != fitted.playout_weights["heuristic"]
    # only the bots asked for: the others' weights for heuristic play-outs as the model had them;
    # the small searches' weights are fitted all the same
    shipped = value.value_model()
    alone = train_evaluator.fit_blend(shipped, data, steps=300, only=frozenset({"expert:fast"}))
    assert alone.playout_weights == shipped.playout_weights
    assert alone.search_weights == fitted.search_weights
