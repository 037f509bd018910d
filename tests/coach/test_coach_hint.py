"""Hints: legal for the asking seat, read only the view (never the deck), deterministic."""

from __future__ import annotations

import random

import pytest

import powergrid as pg
from powergrid.bots import expert, heuristic
from powergrid.coach import HINT_LEVELS, NoHint, hint
from powergrid.coach.plans import compare, first_action, turn_plans
from powergrid.rules.catalog import STEP3

BUDGET = 200  # forward-model calls: a quick hint (the search still samples 4 decks)


def heuristic_game(config: pg.GameConfig, decisions: int) -> pg.GameState:
    state = pg.new_game(config)
    while not state.is_over and state.decisions < decisions:
        seat = state.current_player
        assert seat is not None
        state.apply(heuristic.decide(state, seat, state.legal_actions()))
    return state


def positions(config: pg.GameConfig, every: int, count: int) -> list[pg.GameState]:
    """Copies of one heuristic game at every ``every``-th decision."""
    state = pg.new_game(config)
    out = []
    while not state.is_over and len(out) < count:
        if state.decisions % every == 0:
            out.append(state.clone())
        seat = state.current_player
        assert seat is not None
        state.apply(heuristic.decide(state, seat, state.legal_actions()))
    return out


@pytest.mark.parametrize("config", [pg.GameConfig(map="germany", players=3, seed=5),
                                    pg.GameConfig(map="usa", players=5, seed=8)])
def test_hint_is_a_legal_action_for_the_asking_seat(config: pg.GameConfig) -> None:
    phases = set()
    for state in positions(config, every=23, count=14):
        seat = state.current_player
        assert seat is not None
        advice = hint(state.view(seat), seed=3, budget=BUDGET)
        assert advice.seat == seat
        assert advice.action in state.legal_actions(), (state, advice.action)
        assert advice.reason and advice.reason[0].isupper()
        assert 0.0 <= advice.win_chance <= 1.0
        for other in advice.alternatives:
            assert other.action in state.legal_actions()
        phases.add(state.phase_name)
    assert len(phases) >= 3  # auction, purchases, building... not one phase only


def shuffled_hidden_deck(state: pg.GameState, rng: random.Random) -> pg.GameState:
    """The same game with the cards nobody may see (hidden deck, removed plants) reordered."""
    other = state.clone()
    deck = other.deck
    hidden_end = len(deck) - other.known_top
    spots = [i for i in range(other.known_bottom, hidden_end) if deck[i] != STEP3]
    cards = [deck[i] for i in spots] + list(other.removed)
    rng.shuffle(cards)
    for i, card in zip(spots, cards, strict=False):
        deck[i] = card
    other.removed = tuple(cards[len(spots):])
    return other


def test_hint_never_depends_on_the_hidden_deck() -> None:
    state = heuristic_game(pg.GameConfig(map="germany", players=4, seed=21), 60)
    while state.phase_name != "auction" or len(state.legal_actions()) < 3:  # a decision with choices
        seat = state.current_player
        assert seat is not None
        state.apply(heuristic.decide(state, seat, state.legal_actions()))
    other = shuffled_hidden_deck(state, random.Random(4))
    assert other.deck != state.deck or other.removed != state.removed
    seat = state.current_player
    assert seat is not None
    assert other.view(seat) == state.view(seat)
    first = hint(state.view(seat), seed=9, budget=BUDGET)
    second = hint(other.view(seat), seed=9, budget=BUDGET)
    assert first.to_dict() == second.to_dict()
    # ...and the seed is what the samples depend on
    assert hint(state.view(seat), seed=9, budget=BUDGET).to_dict() == first.to_dict()


def test_an_auction_hint_names_the_plant_in_the_game_words() -> None:
    state = pg.new_game(pg.GameConfig(map="germany", players=3, seed=2))
    seat = state.current_player
    assert seat is not None
    advice = hint(state.view(seat), seed=1, budget=BUDGET)
    assert advice.action.kind == "open"
    assert advice.plants == [advice.action.plant]
    assert f"Plant {advice.action.plant}" in advice.reason
    assert "powers" in advice.reason and "cit" in advice.reason
    data = advice.to_dict()
    assert data["action"] == str(advice.action) and data["show"]["plants"] == [advice.action.plant]
    assert 2 <= len(advice.alternatives) <= 3


def test_build_hint_shows_the_cities() -> None:
    state = pg.new_game(pg.GameConfig(map="germany", players=3, seed=6))
    while not (state.phase_name == "build" and len(state.legal_actions()) > 1):
        seat = state.current_player
        assert seat is not None
        state.apply(heuristic.decide(state, seat, state.legal_actions()))
    seat = state.current_player
    assert seat is not None
    advice = hint(state.view(seat), seed=1, budget=BUDGET)
    capacity = sum(state.scn.plant_cities[p] for p in state.plants[seat])
    noun = "city" if capacity == 1 else "cities"
    assert advice.reason.endswith(f" Your plants can power {capacity} {noun}."), advice.reason
    if advice.action.kind == "build":
        assert advice.cities and advice.cities[0] == advice.action.city
        assert all(name in advice.reason for name in advice.cities)
    else:
        assert advice.cities == [] and "nothing" in advice.reason


def test_no_hint_for_another_seat_or_a_finished_game() -> None:
    state = pg.new_game(pg.GameConfig(map="germany", players=3, seed=2))
    seat = state.current_player
    assert seat is not None
    with pytest.raises(NoHint):
        hint(state.view((seat + 1) % 3), budget=BUDGET)
    with pytest.raises(ValueError, match="level"):
        hint(state.view(seat), level="grandmaster")
    rng = random.Random(1)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    with pytest.raises(NoHint, match="over"):
        hint(state.view(0), budget=BUDGET)


@pytest.mark.parametrize("config", [pg.GameConfig(map="germany", players=3, seed=6),
                                    pg.GameConfig(map="usa", players=4, seed=8)])
def test_a_hints_steps_play_the_whole_turn_and_its_headline_is_words(config: pg.GameConfig) -> None:
    kinds = set()
    for state in positions(config, every=7, count=40):
        seat = state.current_player
        assert seat is not None
        advice = hint(state.view(seat), seed=1, budget=BUDGET)
        assert advice.steps[0] == advice.action
        world = state.clone()
        for action in advice.steps:  # every step is legal in turn, all of them the asking seat's
            assert world.current_player == seat and action in world.legal_actions(), advice.steps
            world.apply(action)
        built = [a.city for a in advice.steps if a.kind == "build"]
        if built:  # the whole build: every city the hint shows, then done
            assert built == advice.cities and advice.steps[-1] == pg.Action("done")
            assert all(city in advice.headline for city in built)
            kinds.add("build")
        if any(a.kind == "buy" for a in advice.steps):
            assert advice.steps[-1] == pg.Action("done")
            kinds.add("buy")
        # words, never the notation ("open 3 3", "done")
        assert advice.headline and advice.headline[0].isupper()
        assert all(advice.headline != str(a) for a in advice.steps)
        assert advice.to_dict()["steps"] == [str(a) for a in advice.steps]
    assert {"build", "buy"} <= kinds



def test_a_hint_weighs_the_expert_searchs_plans_and_ranks_them_as_it_does() -> None:
    """Hints use the ``expert`` search: its bid limits (widened by level) and its judgement of a
    plan, the chance to win plus the anchored score (``expert.leaf_value``)."""
    state = pg.new_game(pg.GameConfig(map="germany", players=3, seed=2))
    seat = state.current_player
    assert seat is not None
    view = state.view(seat)
    legal = view.legal_actions()
    default = HINT_LEVELS["default"].widen
    assert default == expert.LEVELS["default"].widen  # a default hint weighs the default bot's plans
    narrow, wide = turn_plans(view, seat, legal, 0), turn_plans(view, seat, legal, default)
    assert wide == expert.candidate_plans(view, seat, legal, default)
    assert set(narrow) < set(wide)  # the default level tries more bid limits than the fast one
    tallies = compare(view, seat, wide, random.Random(1), 600, 2)
    # best first, to six places (plans level to six places are ranked by their score: values
    # summed in another order differ in the last bits, and numpy's sums differ between versions)
    values = [round(t.win_chance + t.mean_score / expert.ANCHOR_SCALE, 6) for t in tallies]
    assert values == sorted(values, reverse=True)
    by_chance = compare(view, seat, wide, random.Random(1), 600, 2, rank_by="chance")
    chances = [round(t.win_chance, 6) for t in by_chance]
    assert chances == sorted(chances, reverse=True)
    assert sorted(t.plan for t in by_chance) == sorted(t.plan for t in tallies)  # the same samples
    advice = hint(view, seed=1, budget=600)
    assert advice.best is not None and advice.action == first_action(view, seat, tallies[0].plan, legal)
    with pytest.raises(ValueError, match="rank_by"):
        compare(view, seat, wide, random.Random(1), 10, 2, rank_by="luck")


def test_a_bid_limit_at_the_least_raise_says_one_bid_and_no_more() -> None:
    from powergrid.coach.hint import PlanWords

    state = pg.new_game(pg.GameConfig(map="germany", players=3, seed=2))
    opener = state.current_player
    assert opener is not None
    state.apply(pg.Action("open", 3, 3))
    seat = state.current_player
    assert seat is not None and state.auc_plant == 3 and state.auc_bid == 3
    words = PlanWords(state.view(seat), seat, random.Random(1))
    assert words.plan(("limit", 3, 4)) == "bid 4 on plant 3, and no more"
    assert words.reason(("limit", 3, 4)).startswith("Bid 4 on plant 3 and no more: it powers")
    assert words.plan(("limit", 3, 9)) == "bid on plant 3, up to 9"
    assert words.reason(("limit", 3, 9)).startswith("Bid on plant 3 up to 9: ")


def test_the_last_to_choose_a_plant_is_told_it_buys_at_the_number() -> None:
    """Nobody can bid against the last player to choose (docs/rules.md, Phase 2): no 'bid up to'."""
    from powergrid.coach.hint import PlanWords

    state = pg.new_game(pg.GameConfig(map="germany", players=2, seed=2))
    opener = state.current_player
    assert opener is not None
    state.apply(pg.Action("open", 3, 3))
    state.apply(pg.Action("pass"))  # the other lets it go: the opener has bought plant 3
    seat = state.current_player
    assert seat is not None and seat != opener and not state.auc_plant
    view = state.view(seat)
    words = PlanWords(view, seat, random.Random(1))
    assert words.alone()
    assert words.plan(("limit", 4, 9)) == "buy plant 4 for 4 Elektro"
    reason = words.reason(("limit", 4, 9))
    assert reason.startswith("Plant 4 for 4 Elektro (nobody can bid against you now): "), reason
    assert words.headline(("limit", 4, 9), [pg.Action("open", 4, 4)]) == "Buy plant 4 for 4 Elektro"
    # the first to choose is not alone: an auction, and a limit
    first = PlanWords(pg.new_game(pg.GameConfig(map="germany", players=2, seed=2)).view(opener), opener,
                      random.Random(1))
    assert not first.alone() and first.plan(("limit", 4, 9)) == "open plant 4, bid up to 9"


def test_a_hints_chances_weigh_who_plays_and_its_ranking_does_not() -> None:
    """The chances shown weigh the players where known, as the analysis's do (docs/coach.md); the
    plans are still ranked as the ``expert`` bot ranks them, by the position alone."""
    state = pg.new_game(pg.GameConfig(map="germany", players=3, seed=2))
    seat = state.current_player
    assert seat is not None
    view = state.view(seat)
    strong = ["expert" if s != seat else None for s in range(3)]
    blind, named = hint(view, seed=1, budget=600), hint(view, seed=1, budget=600, players=strong)
    assert named.action == blind.action
    assert [c.plan for c in named.alternatives] == [c.plan for c in blind.alternatives]
    assert named.win_chance < blind.win_chance  # a person against two searches
    assert hint(view, seed=1, budget=600, players=[None] * 3).to_dict() == blind.to_dict()
    former = ["mcts" if s != seat else None for s in range(3)]  # a bot's former name: the bot it names
    assert hint(view, seed=1, budget=600, players=former).to_dict() == hint(
        view, seed=1, budget=600, players=["pimc" if s != seat else None for s in range(3)]).to_dict()
