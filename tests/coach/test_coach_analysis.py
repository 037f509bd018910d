"""The analysis of a game: chances after every round, costliest decisions, exact replay."""

from __future__ import annotations

import random

import pytest

import powergrid as pg
from powergrid.bots import heuristic
from powergrid.coach import Analyser, Analysis, analyse
from powergrid.coach.analysis import plan_of, split_turns

BUDGET = 150


@pytest.fixture(scope="module")
def game() -> tuple[pg.GameConfig, list[pg.Action]]:
    """The first three rounds of a 2-player game: a heuristic against a careless player."""
    config = pg.GameConfig(map="germany", players=2, seed=17)
    state = pg.new_game(config)
    rng = random.Random(5)
    while state.round < 4:
        seat = state.current_player
        assert seat is not None
        legal = state.legal_actions()
        state.apply(heuristic.decide(state, seat, legal) if seat == 0 or rng.random() < 0.6
                    else rng.choice(legal))
    return config, state.actions_taken()


@pytest.fixture(scope="module")
def analysis(game: tuple[pg.GameConfig, list[pg.Action]]) -> Analysis:
    config, actions = game
    return analyse(config, actions, seed=3, budget=BUDGET)


def test_analysis_replays_exactly(game: tuple[pg.GameConfig, list[pg.Action]], analysis: Analysis) -> None:
    config, actions = game
    again = analyse(config, [str(a) for a in actions], seed=3, budget=BUDGET)
    assert again.to_dict() == analysis.to_dict()
    assert Analysis.from_dict(analysis.to_dict()).to_dict() == analysis.to_dict()


def test_chances_after_every_round(analysis: Analysis) -> None:
    assert [r for r, _ in analysis.chances] == [1, 2, 3, 4]
    for _, chances in analysis.chances:
        assert sum(chances) == pytest.approx(1.0)


def test_costliest_decisions(analysis: Analysis) -> None:
    assert {d.seat for d in analysis.decisions} == {0, 1}
    for seat in (0, 1):
        worst = analysis.costliest(seat)
        assert len(worst) <= 3
        assert all(d.seat == seat and d.cost > 2 * d.noise for d in worst)
        assert [d.cost for d in worst] == sorted((d.cost for d in worst), reverse=True)
        for d in worst:
            assert d.done != d.preferred and d.chance_preferred > d.chance_done
    # the careless player gave away more than the heuristic
    total = [sum(d.cost for d in analysis.decisions if d.seat == s and d.clear) for s in (0, 1)]
    assert total[1] > total[0]


def test_what_was_done_is_one_plan_per_turn(game: tuple[pg.GameConfig, list[pg.Action]]) -> None:
    config, actions = game
    turns, chances, final = split_turns(config, actions)
    assert sum(len(t.actions) for t in turns) == len(actions)
    for turn in turns:
        plan = plan_of(turn)
        if turn.start.phase_name == "auction" and turn.start.discard_seat < 0:
            assert plan[0] in ("limit", "pass")
        if turn.start.phase_name == "build":
            assert plan == ("seq", tuple(turn.actions))
    assert final.round == 4


def test_progress_is_reported(game: tuple[pg.GameConfig, list[pg.Action]]) -> None:
    config, actions = game
    seen: list[tuple[int, int]] = []
    analyse(config, actions[:40], seed=1, budget=50, progress=lambda done, total: seen.append((done, total)))
    assert seen[0][0] == 0 and seen[-1][0] == seen[-1][1] > 0


def test_every_decision_is_said_in_every_language(analysis: Analysis) -> None:
    from powergrid.coach.analysis import in_language
    from powergrid.i18n import LANGUAGES, translator

    data = analysis.to_dict()
    others = [lang for lang in LANGUAGES if lang != "en"]
    for d in analysis.decisions:
        assert sorted(d.words) == sorted(others)
    polish = in_language(data, "pl")
    english = in_language(data, "en")
    assert [(d["done"], d["preferred"]) for d in english["decisions"]] == \
        [(d.done, d.preferred) for d in analysis.decisions]
    assert all("words" not in d for d in polish["decisions"] + polish["costliest"]["0"])
    assert [(d["done"], d["preferred"]) for d in polish["decisions"]] == \
        [d.words["pl"] for d in analysis.decisions]
    # where the catalogue has the plan's words, the Polish differs from the English
    if translator("pl").gettext("let plant {plant} go", plant=1) != "let plant 1 go":
        assert any(p["preferred"] != e["preferred"]
                   for p, e in zip(polish["decisions"], english["decisions"], strict=True))


def test_the_chances_by_round_weigh_the_players_where_known(
        game: tuple[pg.GameConfig, list[pg.Action]]) -> None:
    """Who plays counts (docs/coach.md): the same game read with a strong bot in seat 0 gives
    it more from the second round on; a person (None) counts as the heuristic."""
    config, actions = game
    _, blind, _ = split_turns(config, actions)
    _, named, _ = split_turns(config, actions, ["expert", None])
    assert [r for r, _ in named] == [r for r, _ in blind]
    assert all(n[0] > b[0] for (_, n), (_, b) in zip(named[1:], blind[1:], strict=True))
    assert split_turns(config, actions, [None, None])[1] == blind
    with pytest.raises(ValueError, match="seats"):
        analyse(config, actions, budget=BUDGET, players=["expert"])
    # a bot's former name counts as the bot it names (a server game may have been made with it)
    former = Analyser(config, actions, budget=0, players=["mcts", None]).chances
    assert former == Analyser(config, actions, budget=0, players=["pimc", None]).chances != blind


def test_an_analyser_takes_the_chances_only_for_the_result(
        game: tuple[pg.GameConfig, list[pg.Action]], monkeypatch: pytest.MonkeyPatch) -> None:
    """The server builds an analyser for every slice of decisions it judges; the chances, which
    cost seconds where small searches play them out, are taken once, for the result."""
    from powergrid.coach import analysis as module

    config, actions = game
    expected = split_turns(config, actions, ["expert", None])[1]
    calls: list[int] = []
    chances = module.win_chances

    def counted(s: pg.GameState, players: object = None) -> list[float]:
        calls.append(s.round)
        return chances(s, players)  # type: ignore[arg-type]

    monkeypatch.setattr(module, "win_chances", counted)
    analyser = Analyser(config, actions, seed=3, budget=BUDGET, players=["expert", None])
    analyser.judge(0)
    assert calls == []
    result = analyser.result([analyser.judge(0)])
    assert len(calls) == len(result.chances) > 0
    assert result.chances == expected
    analyser.result([])
    assert len(calls) == len(result.chances)  # taken once
