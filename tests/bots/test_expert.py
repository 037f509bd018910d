"""The evaluator-guided search (``expert``): legal, deterministic from seed and budget, reads the
view alone (hidden deck shuffled: same choices), searches the purchase of resources, levels."""

from __future__ import annotations

import math
import random

import pytest
from test_bots import play, shuffled_hidden_deck

import powergrid as pg
from powergrid.bots import Bot, ExpertBot, bot_names, expert, make_bot
from powergrid.rules.catalog import UNKNOWN


def small_expert(seed: int) -> ExpertBot:
    return ExpertBot(seed, budget=60, level="fast")


@pytest.mark.parametrize(("map_name", "players"), [("germany", 2), ("usa", 4)])
def test_expert_plays_complete_legal_games(map_name: str, players: int) -> None:
    bots: list[Bot] = [small_expert(1)] + [make_bot("heuristic", i) for i in range(1, players)]
    state = play(pg.GameConfig(map=map_name, players=players, seed=3 + players), bots)
    assert state.winners
    assert isinstance(bots[0], ExpertBot) and bots[0].searches > 0


def actions_with(budget: int, seed: int, limit: int, replan: bool = False,
                 settle: float = 0.0) -> list[pg.Action]:
    state = pg.new_game(pg.GameConfig(map="usa", players=3, seed=seed))
    bots: list[Bot] = [ExpertBot(seed, budget=budget, replan=replan, settle=settle), make_bot("heuristic", 1),
                       make_bot("heuristic", 2)]
    while not state.is_over and state.decisions < limit:
        seat = state.current_player
        assert seat is not None
        state.apply(bots[seat].act(state.view(seat)))
    return state.actions_taken()


@pytest.mark.parametrize(("replan", "settle"), [(False, 0.0), (True, 0.0), (True, 1.0)])
def test_expert_is_deterministic_given_seed_and_budget(replan: bool, settle: float) -> None:
    first = actions_with(200, 5, 120, replan, settle)
    assert len(first) == 120
    assert first == actions_with(200, 5, 120, replan, settle)


def a_searched_view() -> tuple[pg.GameView, int, list[tuple[object, ...]]]:
    state = pg.new_game(pg.GameConfig(map="germany", players=3, seed=8))
    seat = state.current_player
    assert seat is not None
    plans = expert.candidate_plans(state, seat, state.legal_actions())
    assert len(plans) >= 2
    return state.view(seat), seat, plans


@pytest.mark.parametrize(("gap", "settle", "spends_all"),
                         [(0.5, 2.5, False), (0.0, 2.5, True), (0.5, 0.0, True)])
def test_a_settled_search_stops_once_its_choice_is_clear(monkeypatch: pytest.MonkeyPatch, gap: float,
                                                         settle: float, spends_all: bool) -> None:
    """With ``settle`` the search stops after a fifth of its budget once the leader is that many
    standard errors ahead of the next best; plans it cannot tell apart get the whole budget."""
    noise = random.Random(1)
    played: dict[int, object] = {}  # which plan each rolled-out world played, for the leaf

    def leaf(w: pg.GameState, me: int, anchor_scale: float = 0.0) -> float:
        return noise.random() + (gap if played[id(w)] == first else 0.0)

    def rollout(w: pg.GameState, me: int, plan: tuple[object, ...] | None, stop_round: int) -> int:
        played[id(w)] = plan
        return 9

    monkeypatch.setattr(expert, "leaf_value", leaf)
    monkeypatch.setattr(expert, "rollout", rollout)
    view, seat, plans = a_searched_view()
    first = plans[0]
    tally = expert.compare(view, seat, plans, 4000, 2, random.Random(3), settle=settle)
    assert (tally.calls >= 4000) is spends_all
    if not spends_all:
        assert 0.2 * 4000 <= tally.calls < 0.3 * 4000
        best = max(tally.alive, key=lambda i: tally.total[i] / tally.count[i])
        assert plans[best] == first


def test_the_lead_counts_only_the_samples_both_plans_played() -> None:
    assert expert._lead({0: 1.0, 1: 2.0, 2: 3.0}, {0: 0.5, 1: 1.5, 2: 2.5}) == math.inf
    assert expert._lead({0: 1.0, 1: 1.0}, {0: 1.0, 1: 1.0}) == 0.0
    assert expert._lead({0: 1.0}, {0: 0.0}) == 0.0  # one pair says nothing of the spread
    ahead = expert._lead({0: 1.0, 1: 0.6, 2: 0.8, 5: -9.0}, {0: 0.0, 1: 0.2, 2: 0.1})
    assert ahead == pytest.approx(0.7 / math.sqrt(0.09 / 3))
    assert expert._lead({0: 0.0, 1: 0.2, 2: 0.1}, {0: 1.0, 1: 0.6, 2: 0.8}) == pytest.approx(-ahead)


def searched_decisions(replan: bool) -> tuple[int, int]:
    """(searches, decisions the bot could search) of an ``expert`` in the first rounds of a game."""
    state = pg.new_game(pg.GameConfig(map="germany", players=3, seed=12))
    bot = ExpertBot(4, budget=40, level="fast", replan=replan)
    drivers = [make_bot("heuristic", i) for i in range(3)]
    open_decisions = 0
    while state.round < 4:
        seat = state.current_player
        assert seat is not None
        if seat == 0:
            legal = state.legal_actions()
            if (len(legal) > 1 and state.phase != pg.Phase.BUREAUCRACY
                    and len(expert.candidate_plans(state, seat, legal, bot.widen)) > 1):
                open_decisions += 1
            state.apply(bot.act(state.view(seat)))
        else:
            state.apply(drivers[seat].act(state.view(seat)))
    return bot.searches, open_decisions


def test_the_default_level_searches_again_at_every_decision() -> None:
    """The default ``expert`` weighs its plans anew at every decision (docs/bots.md); the fast
    level follows the chosen plan to the end of its auction, purchase or build turn."""
    assert expert.LEVELS["default"].replan and not expert.LEVELS["fast"].replan
    searches, decisions = searched_decisions(replan=True)
    assert searches == decisions > 0
    searches, decisions = searched_decisions(replan=False)
    assert 0 < searches < decisions


def test_expert_decides_from_the_view_alone() -> None:
    """Two games alike in all a seat can see, the hidden deck reordered: the same choices."""
    state = pg.new_game(pg.GameConfig(map="germany", players=3, seed=23))
    drivers = [make_bot("heuristic", i) for i in range(3)]
    rng = random.Random(6)
    checked = 0
    while not state.is_over and checked < 12:
        seat = state.current_player
        assert seat is not None
        if len(state.legal_actions()) > 1 and state.phase in (pg.Phase.AUCTION, pg.Phase.BUILD,
                                                              pg.Phase.RESOURCES):
            other = shuffled_hidden_deck(state, rng)
            hidden = [i for i, p in enumerate(state.view(0).to_dict()["deck"]) if p == UNKNOWN]
            assert other.deck != state.deck or len(hidden) < 2
            assert small_expert(3).act(state.view(seat)) == small_expert(3).act(other.view(seat))
            checked += 1
        state.apply(drivers[seat].act(state.view(seat)))
    assert checked == 12


def test_the_purchase_of_resources_is_searched(monkeypatch: pytest.MonkeyPatch) -> None:
    compared: list[list[tuple[object, ...]]] = []
    real = expert.compare

    def spy(view: pg.GameView, seat: int, plans: list[tuple[object, ...]], *args: object) -> expert.Tally:
        compared.append(list(plans))
        return real(view, seat, plans, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(expert, "compare", spy)
    state = pg.new_game(pg.GameConfig(map="germany", players=2, seed=4))
    bots: list[Bot] = [small_expert(2), make_bot("heuristic", 1)]
    while state.round < 3:
        seat = state.current_player
        assert seat is not None
        state.apply(bots[seat].act(state.view(seat)))
    assert any(plans == list(expert.FUEL_PLANS) for plans in compared)


def test_fuel_plans_buy_what_they_say() -> None:
    state = pg.new_game(pg.GameConfig(map="germany", players=2, seed=9))
    drivers = [make_bot("heuristic", i) for i in range(2)]
    while not (state.phase == pg.Phase.RESOURCES and state.plants[state.current_player or 0]):
        seat = state.current_player
        assert seat is not None
        state.apply(drivers[seat].act(state.view(seat)))
    seat = state.current_player
    assert seat is not None
    assert expert._follow(state, seat, ("fuel", "none"), None) == pg.parse_action("done")
    filled = state.clone()
    while filled.phase == pg.Phase.RESOURCES and filled.current_player == seat:
        action = expert._follow(filled, seat, ("fuel", "fill"), None)
        assert action is not None and action in filled.legal_actions()
        filled.apply(action)
    ran = state.clone()
    while ran.phase == pg.Phase.RESOURCES and ran.current_player == seat:
        action = expert._follow(ran, seat, ("fuel", "run"), None)
        assert action is not None
        ran.apply(action)
    assert sum(filled.resources_of(seat)) >= sum(ran.resources_of(seat)) > sum(state.resources_of(seat))


def test_expert_levels_parse_and_are_listed() -> None:
    names = bot_names()
    for name in ("expert", "expert:fast"):
        assert name in names
        bot = make_bot(name, 1)
        assert isinstance(bot, ExpertBot) and bot.name == name
    assert make_bot("expert").budget > make_bot("expert:fast").budget
    # the former strong level is the default's search now: the old name plays it
    assert "expert:strong" not in names
    strong, default = make_bot("expert:strong", 1), make_bot("expert", 1)
    assert isinstance(strong, ExpertBot) and isinstance(default, ExpertBot)
    assert (strong.name, strong.budget, strong.replan, strong.settle, strong.widen) == \
        (default.name, default.budget, default.replan, default.settle, default.widen)
    for bad in ("expert:insane", "expert:"):
        if bad == "expert:":
            assert make_bot(bad).name == "expert"
            continue
        with pytest.raises(ValueError, match="level"):
            make_bot(bad)
    assert all(level.about for level in expert.LEVELS.values())
