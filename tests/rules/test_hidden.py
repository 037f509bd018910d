"""docs/rules.md, Hidden information: views and determinization."""

from __future__ import annotations

import random

import pytest

import powergrid as pg
from powergrid.rules.catalog import STEP3, UNKNOWN
from powergrid.rules.state import GameState

from .positions import ALL_PLANTS, plant_places, random_game


def _midgame(seed: int = 3, decisions: int = 100, players: int = 4) -> pg.GameState:
    return random_game(pg.GameConfig(map="usa", players=players, seed=seed), seed, stop=decisions)


def _hidden_slots(s: pg.GameState) -> list[int]:
    n = len(s.deck)
    return [i for i in range(n)
            if not (i < s.known_bottom or i >= n - s.known_top or s.deck[i] == STEP3)]


def test_view_hides_deck_order_and_removed_plants() -> None:
    s = _midgame()
    hidden = _hidden_slots(s)
    assert hidden and s.removed
    for seat in range(s.players):
        v = s.view(seat)
        d = v.to_dict()
        assert "rng" not in d
        assert d["format"] == "powergrid.view" and d["seat"] == seat
        assert all(d["deck"][i] == UNKNOWN for i in hidden)
        assert set(d["removed"]) == {UNKNOWN} and len(d["removed"]) == len(s.removed)
        assert [c for c in d["deck"] if c != UNKNOWN] == [s.deck[i] for i in range(len(s.deck))
                                                          if i not in hidden]
        for name in ("deck", "removed", "rng", "apply", "clone"):
            with pytest.raises(AttributeError):
                getattr(v, name)
        with pytest.raises(AttributeError):
            v.money = [0] * 4  # type: ignore[misc]


def test_view_shows_everything_public() -> None:
    s = _midgame()
    v = s.view(1)
    assert v.money == s.money and v.plants == s.plants and v.market == s.market
    assert v.cities == s.cities and v.houses == s.houses and v.market_res == s.market_res
    assert v.supply == s.supply and v.order == s.order and v.round == s.round
    assert v.current_player == s.current_player and v.legal_actions() == s.legal_actions()
    assert v.deck_size == len(s.deck) and v.removed_count == len(s.removed)
    assert v.step3_in_deck == (STEP3 in s.deck)
    assert v.boxed == s.boxed
    assert [s.resources_of(p) for p in range(4)] == [v.resources_of(p) for p in range(4)]


def test_known_cards_are_shown() -> None:
    s = pg.new_game(pg.GameConfig(players=3, seed=1))
    v = s.view(0)
    assert v.deck_top_known == [13]
    assert v.to_dict()["deck"][-1] == 13 and v.to_dict()["deck"][0] == STEP3


def test_view_of_a_bad_seat() -> None:
    s = pg.new_game(pg.GameConfig(players=3, seed=1))
    for seat in (-1, 3, "0", True):
        with pytest.raises(ValueError):
            s.view(seat)  # type: ignore[arg-type]


def _public(d: dict) -> dict:
    d = dict(d)
    for key in ("deck", "removed", "rng", "format", "seat"):
        d.pop(key, None)
    d["config"] = {k: v for k, v in d["config"].items() if k != "seed"}   # the seed fixes the deck
    return d


def test_a_view_never_shows_the_seed() -> None:
    # The seed fixes the deck order, so it is hidden like the deck (docs/rules.md, Hidden information).
    s = pg.new_game(pg.GameConfig(map="germany", players=3, seed=12345))
    v = s.view(1)
    assert "seed" not in v.to_dict()["config"]
    assert v.config.seed is None and v.scn.config.seed is None
    assert pg.determinize(v, random.Random(1)).config.seed == 0


def test_determinize_gives_a_consistent_full_state() -> None:
    s = _midgame()
    v = s.view(2)
    for k in range(5):
        d = pg.determinize(v, random.Random(k))
        assert isinstance(d, pg.GameState)
        assert _public(d.to_dict()) == _public(s.to_dict())
        assert len(d.deck) == len(s.deck) and len(d.removed) == len(s.removed)
        assert plant_places(d) == list(ALL_PLANTS)
        for i in range(len(s.deck)):
            if i not in _hidden_slots(s):
                assert d.deck[i] == s.deck[i]
        assert UNKNOWN not in d.deck
        assert d.legal_actions() == s.legal_actions()
        pg.GameState.from_dict(d.to_dict())      # a valid full state
        rng = random.Random(k)
        while not d.is_over and d.decisions < s.decisions + 300:
            d.apply(rng.choice(d.legal_actions()))


def test_determinize_never_reads_the_true_deck() -> None:
    s = _midgame()
    hidden = _hidden_slots(s)
    other = s.clone()
    cards = [other.deck[i] for i in hidden]
    cards.reverse()
    for i, c in zip(hidden, cards, strict=True):
        other.deck[i] = c
    other.rng = s.rng ^ 12345
    assert other.deck != s.deck
    a = pg.determinize(s.view(0), random.Random(9))
    b = pg.determinize(other.view(0), random.Random(9))
    assert a.to_dict() == b.to_dict()


def test_determinize_is_not_the_true_order() -> None:
    s = _midgame()
    hidden = _hidden_slots(s)
    truth = [s.deck[i] for i in hidden]
    samples = [pg.determinize(s.view(0), random.Random(k)) for k in range(30)]
    orders = [[d.deck[i] for i in hidden] for d in samples]
    assert sum(o == truth for o in orders) == 0
    assert len({o[-1] for o in orders}) > 3       # the next hidden card varies
    assert len({d.removed for d in samples}) > 3
    assert len({d.rng for d in samples}) == 30


def test_determinize_needs_a_view() -> None:
    s = _midgame()
    with pytest.raises(TypeError):
        pg.determinize(s)  # type: ignore[arg-type]


def test_a_view_dict_is_not_a_loadable_state() -> None:
    s = _midgame()
    with pytest.raises(pg.CorruptState):
        pg.GameState.from_dict(s.view(0).to_dict())


def test_views_survive_pickle_and_deepcopy_and_still_hide() -> None:
    import copy
    import pickle

    v = _midgame().view(2)
    for other in (pickle.loads(pickle.dumps(v)), copy.deepcopy(v), copy.deepcopy({"view": v})["view"]):
        assert other == v and other.seat == 2
        assert other.legal_actions() == v.legal_actions()
        with pytest.raises(AttributeError):
            _ = other.deck
    deep = copy.deepcopy(v)
    assert deep.public_state is not v.public_state  # a deep copy shares nothing


def _snapshot(v: pg.GameView) -> dict[str, object]:
    return v.to_dict(include_log=False)


def test_a_view_keeps_the_game_as_it_was_when_taken() -> None:
    """Views are cheap (they read the game until it changes) but still snapshots: read or
    unread, alive across many moves, several at once, each shows its own moment."""
    s = _midgame(seed=5, decisions=40)
    rng = random.Random(5)
    taken: list[tuple[pg.GameView, dict[str, object], list[pg.Action]]] = []
    for i in range(60):
        seat = s.current_player
        assert seat is not None
        expected = pg.GameState.from_dict(s.to_dict())
        v = s.view(seat)
        legal = s.legal_actions()
        if i % 3 == 0:
            _ = v.money  # some views are read before the game moves on, some never
        if i % 2 == 0:
            other = s.view((seat + 1) % s.players)  # a second view of the same moment
            assert other.to_dict(include_log=False) | {"seat": seat} == _snapshot(v)
        taken.append((v, expected.view(seat).to_dict(include_log=False), legal))
        s.apply(rng.choice(legal))
    for v, then, legal in taken:
        assert _snapshot(v) == then and v.legal_actions() == legal


def test_reading_or_stepping_a_view_never_changes_the_game() -> None:
    s = _midgame(seed=6, decisions=30)
    before = s.to_dict()
    v = s.view(s.current_player)  # type: ignore[arg-type]
    seen = v.public_state
    seen.apply(seen.legal_actions()[0])  # allowed on the public state until a card is drawn
    assert s.to_dict() == before
    s.apply(s.legal_actions()[-1])
    assert v.public_state is seen


def test_nothing_a_view_hands_out_leads_to_the_game() -> None:
    s = _midgame(seed=7, decisions=50)
    v = s.view(0)
    reached = [v.current_market.__self__, v.public_state, v.resources_of.__self__]
    assert all(r is not s and r.rng == 0 and r.config.seed is None for r in reached)
    assert sorted(r.removed for r in reached)[0] == (UNKNOWN,) * len(s.removed)


def test_a_state_pickles_while_views_of_it_are_alive() -> None:
    import pickle

    s = _midgame(seed=8, decisions=20)
    views = [s.view(0), s.view(1)]
    _ = views[1].money
    again = pickle.loads(pickle.dumps(s))
    assert again.to_dict() == s.to_dict()
    again.apply(again.legal_actions()[0])
    assert views[0] == s.view(0)


def test_an_unread_view_left_behind_answers_and_pickles_masked() -> None:
    """A view nobody read when the game moved on keeps a copy of that moment: it answers
    legal_actions() from it unread, and once read, pickled or deep-copied shows it masked."""
    import copy
    import pickle

    s = _midgame(seed=9, decisions=35)
    seat = s.current_player
    assert seat is not None
    then = pg.GameState.from_dict(s.to_dict())
    legal = s.legal_actions()
    views = [s.view(seat) for _ in range(3)]  # each new view leaves the one before behind
    rng = random.Random(9)
    for _ in range(5):
        s.apply(rng.choice(s.legal_actions()))
    expected = then.view(seat).to_dict(include_log=False)
    pickled, deep, read = views
    assert pickled.legal_actions() == legal and deep.legal_actions() == legal
    for v in (pickle.loads(pickle.dumps(pickled)), copy.deepcopy(deep), read):
        assert v.to_dict(include_log=False) == expected
        assert v.public_state.rng == 0 and v.public_state.config.seed is None
        assert v.public_state.removed == (UNKNOWN,) * len(s.removed)
        assert v.public_state.deck != then.deck  # the hidden part is masked


_LISTS = ("money", "plants", "res", "cities", "reach", "houses", "market_res", "supply", "market", "deck",
          "powered")


def test_a_view_held_unread_over_steps_reads_what_it_read_before_them_masked() -> None:
    """When the game moves on, GameState.release hands an unread view the game's lists as they
    were and the game goes on with copies: read one or more steps later, the view answers and
    reads exactly its moment, masked, and holds none of the game's lists."""
    s = _midgame(seed=11, decisions=45)
    rng = random.Random(11)
    for i in range(40):
        seat = s.current_player
        assert seat is not None
        then = pg.GameState.from_dict(s.to_dict())
        legal = s.legal_actions()
        v = s.view(seat)
        for _ in range(1 + i % 3):
            if not s.is_over:
                s.apply(rng.choice(s.legal_actions()))
        assert v.legal_actions() == legal  # unread: answered from the moment it keeps
        assert v.to_dict(include_log=False) == then.view(seat).to_dict(include_log=False)
        seen = v.public_state
        assert seen.rng == 0 and seen.config.seed is None
        assert seen.removed == (UNKNOWN,) * len(s.removed)
        assert all(getattr(seen, name) is not getattr(s, name) for name in _LISTS)
        if s.is_over:
            break


def test_a_read_view_shows_every_field_of_the_game_but_the_hidden_ones() -> None:
    s = _midgame(seed=5, decisions=150)
    shown = s.view(1).public_state
    for name in GameState.__slots__:
        if name in ("deck", "removed", "rng", "scn", "_shared", "__weakref__"):
            continue
        assert getattr(shown, name) == getattr(s, name), name
    assert shown.rng == 0 and shown.scn.config.seed is None
    assert set(shown.removed) == {UNKNOWN} and len(shown.removed) == len(s.removed)


def test_views_of_games_taken_in_turn_each_show_their_own_deck() -> None:
    # the last shown deck is kept for the next view: it must never stand in for another deck
    games = [_midgame(seed=seed, decisions=decisions)
             for seed, decisions in ((3, 100), (4, 100), (3, 140), (3, 100))]
    for _ in range(2):
        for s in games:
            deck = s.view(0).public_state.deck
            hidden = _hidden_slots(s)
            assert len(deck) == len(s.deck)
            assert all((deck[i] == UNKNOWN) == (i in hidden) for i in range(len(deck)))
            assert all(deck[i] == s.deck[i] for i in range(len(deck)) if i not in hidden)


def test_seen_by_gives_the_masked_state_and_the_seat() -> None:
    s = _midgame(seed=6, decisions=80)
    v = s.view(3)
    state, seat = v.seen_by()
    assert seat == 3 and state is v.public_state
    assert state.deck != s.deck and state.money == s.money
