"""Undo: what a seat may take back (docs/rules.md, Undo), and logs that hold undo entries."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import powergrid as pg
from powergrid.rules.undo import closing_event

CONFIG = pg.GameConfig(map="germany", players=3, seed=1, regions=("red", "cyan", "green"))


def timeline(*texts: str, config: pg.GameConfig = CONFIG) -> pg.Timeline:
    return pg.replay_log(config, texts)


def refused(t: pg.Timeline, seat: int) -> pg.UndoRefused:
    with pytest.raises(pg.UndoRefused) as info:
        t.undo(seat)
    return info.value


def to_phase(t: pg.Timeline, phase: int) -> None:
    """Play on (pass or finish when allowed, else the cheapest choice) until ``phase`` begins."""
    while t.state.phase != phase:
        t.act(min(t.state.legal_actions(), key=lambda a: (a.kind not in ("pass", "done"), a.amount)))


def test_nothing_to_take_back_before_the_first_action() -> None:
    t = timeline()
    error = refused(t, t.state.current_player or 0)
    assert error.reason == "nothing_to_undo" and error.code == "undo_refused"
    assert t.undoable(0) == ()


def test_a_bid_taken_back_restores_the_state_before_it_exactly() -> None:
    t = timeline()
    opener = t.state.current_player
    t.act(pg.Action.open(3, 3))
    bidder = t.state.current_player
    assert bidder is not None and bidder != opener
    before = t.state.to_dict()
    t.act(pg.Action.bid(4))
    assert [x.action for x in t.undoable(bidder)] == ["bid 4"]
    taken = t.undo(bidder)
    assert taken.action == "bid 4" and taken.seat == bidder and taken.entry == 1
    assert t.state.to_dict() == before
    assert t.log == ["open 3 3", "bid 4", "undo"]
    assert t.state.current_player == bidder
    # the bid can be made again, differently
    t.act(pg.Action.bid(5))
    assert t.state.auc_bid == 5


def test_only_the_seat_that_acted_may_take_it_back() -> None:
    t = timeline("open 3 3")
    bidder = t.state.current_player
    assert bidder is not None
    opener = t.ledger.last_seat
    assert opener is not None and opener != bidder
    error = refused(t, bidder)
    assert error.reason == "not_your_action" and "open 3 3" in str(error)
    assert error.facts == {"by": opener, "action": "open 3 3"}  # for clients that word it themselves
    t.undo(opener)  # the opener may, as long as nobody has answered
    assert t.state.to_dict() == pg.new_game(CONFIG).to_dict()


def test_an_answer_closes_the_window_even_when_it_is_taken_back() -> None:
    t = timeline("open 3 3", "bid 4")
    first = pg.new_game(CONFIG).current_player
    assert first is not None
    assert refused(t, first).reason == "not_your_action"
    bidder = t.ledger.last_seat
    assert bidder is not None
    t.undo(bidder)
    # the opener has seen the answer: the opening bid stands
    error = refused(t, first)
    assert error.reason == "another_player_acted"
    assert error.facts == {"by": bidder, "action": "open 3 3"}  # who acted since, and the action
    assert t.undoable(first) == ()
    # a third seat is told whose action it is
    third = ({0, 1, 2} - {first, bidder}).pop()
    assert refused(t, third).facts == {"by": first, "action": "open 3 3"}


def test_a_plant_drawn_is_new_information() -> None:
    t = timeline()
    t.act(pg.Action.open(3, 3))
    while t.state.auc_plant:  # everyone else passes: the opener buys and plant 13 is drawn
        seat = t.state.current_player
        assert seat is not None
        t.act(pg.Action.pass_())
    error = refused(t, seat)
    assert error.reason == "new_information"
    assert "plant 13 was drawn" in str(error)
    assert error.facts == {"by": seat, "action": "pass", "revealed": "plant", "plant": 13}


def test_several_builds_and_done_are_taken_back_newest_first() -> None:
    t = timeline()
    to_phase(t, pg.Phase.BUILD)
    seat = t.state.current_player
    assert seat is not None
    start = t.state.to_dict()
    builds = [a for a in t.state.legal_actions() if a.kind == "build"]
    t.act(builds[0])
    second = [a for a in t.state.legal_actions() if a.kind == "build"][0]
    t.act(second)
    t.act(pg.Action.done())
    assert [x.action for x in t.undoable(seat)] == [str(builds[0]), str(second), "done"]
    assert t.undo(seat).action == "done"
    assert t.undo(seat).action == str(second)
    assert t.undo(seat).action == str(builds[0])
    assert t.state.to_dict() == start
    # the action before them was the last buyer's, in phase 3
    assert refused(t, seat).reason == "not_your_action"


def test_the_resupply_closes_the_round() -> None:
    t = timeline()
    to_phase(t, pg.Phase.BUREAUCRACY)
    while t.state.phase == pg.Phase.BUREAUCRACY:
        seat = t.state.current_player
        assert seat is not None
        t.act(pg.default_power(t.state, seat))
    error = refused(t, seat)
    assert error.reason == "new_information" and "resupplied" in str(error)
    assert error.facts["revealed"] == "resupply" and error.facts["by"] == seat


def test_nothing_is_taken_back_once_the_game_is_over() -> None:
    t = pg.Timeline(CONFIG)
    rng = random.Random(3)
    while not t.state.is_over:
        t.act(rng.choice(t.state.legal_actions()))
    for seat in range(3):
        assert refused(t, seat).reason == "game_over"


def test_a_log_with_undos_replays_exactly() -> None:
    t = pg.Timeline(CONFIG)
    rng = random.Random(5)
    while t.state.round < 3:
        t.act(rng.choice(t.state.legal_actions()))
        seat = t.ledger.last_seat
        if seat is not None and rng.random() < 0.3 and t.refusal(seat) is None:
            t.undo(seat)
    assert "undo" in t.log
    again = pg.replay_log(CONFIG, t.log)
    assert again.state.to_dict() == t.state.to_dict()
    assert again.ledger == t.ledger
    assert pg.replay(CONFIG, t.state.actions_taken()).to_dict() == t.state.to_dict()


def test_a_log_whose_undo_is_not_allowed_is_refused_by_name() -> None:
    with pytest.raises(pg.UndoRefused) as info:
        pg.replay_log(CONFIG, ["undo"])
    assert info.value.reason == "nothing_to_undo"
    with pytest.raises(pg.UndoRefused) as info:
        pg.replay_log(CONFIG, ["open 3 3", "bid 4", "undo", "undo"])
    assert info.value.reason == "another_player_acted"
    with pytest.raises(pg.MalformedAction):
        pg.replay_log(CONFIG, ["open 3 3", "take back"])


def test_a_refused_entry_changes_nothing() -> None:
    t = timeline("open 3 3")
    before, ledger, log = t.state.to_dict(), t.ledger, list(t.log)
    with pytest.raises(pg.IllegalAction):
        t.act(pg.Action.bid(2))
    with pytest.raises(pg.UndoRefused):
        t.undo(t.state.current_player or 0)
    assert (t.state.to_dict(), t.ledger, t.log) == (before, ledger, log)


def test_the_ledger_round_trips_through_json_and_refuses_garbage() -> None:
    t = timeline("open 3 3", "bid 4", "undo")
    assert pg.Ledger.from_dict(t.ledger.to_dict()) == t.ledger
    assert pg.Ledger.from_dict(t.ledger.to_dict()).refusal(0) is not None
    # a ledger stored before the facts existed still reads (its refusals say less)
    older = {k: v for k, v in t.ledger.to_dict().items() if k not in ("closed_action", "closed_facts")}
    assert pg.Ledger.from_dict(older).closed_action == "" and pg.Ledger.from_dict(older).closed_facts == ()
    for bad in (None, {}, {"standing": 1, "open": [[0, "pass"]], "closed_seat": 0,
                           "closed_reason": "new_information", "closed_words": ""},
                {**t.ledger.to_dict(), "closed_reason": "because"},
                {**t.ledger.to_dict(), "closed_facts": [1, 2]},
                {**t.ledger.to_dict(), "closed_facts": {"by": [1]}}):
        with pytest.raises(pg.CorruptState):
            pg.Ledger.from_dict(bad)


def test_what_counts_as_new_information() -> None:
    assert closing_event([("act", 0, pg.Action.bid(5))]) is None
    assert closing_event([("boxed", 4, "cities")]) is None  # a plant leaving shows nothing hidden
    assert closing_event([("drawn", 17)]) == ("new_information", "plant 17 was drawn",
                                              (("revealed", "plant"), ("plant", 17)))
    assert closing_event([("step3_drawn", "build")])[0] == "new_information"  # type: ignore[index]
    assert closing_event([("resupply", (1, 1, 1, 1))])[0] == "new_information"  # type: ignore[index]
    assert closing_event([("over", (0,), (3, 2))])[0] == "game_over"  # type: ignore[index]


def _may_undo(log: list[tuple[int, str, bool]], standing: list[int], seat: int) -> bool:
    """The rule read straight off the raw log: ``log`` holds (seat, entry, closes) per entry and
    ``standing`` the log indexes of the actions still standing."""
    if not standing:
        return False
    top = standing[-1]
    top_seat, _, closes = log[top]
    if top_seat != seat or closes:
        return False
    return all(s == seat or entry == "undo" for s, entry, _ in log[top + 1:])


configs = st.builds(pg.GameConfig, map=st.sampled_from(["germany", "usa"]), players=st.integers(2, 6),
                    seed=st.integers(0, 2**32),
                    variant=st.sampled_from(["standard", "standard", "first_game"]))


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cfg=configs, policy=st.integers(0, 2**16))
def test_undo_returns_exactly_the_prior_state_and_follows_the_window(cfg: pg.GameConfig,
                                                                     policy: int) -> None:
    rng = random.Random(policy)
    t = pg.Timeline(cfg)
    raw: list[tuple[int, str, bool]] = []
    standing: list[int] = []
    saved: dict[int, dict[str, object]] = {}  # log index of an action -> the state before it
    for _ in range(250):
        if t.state.is_over:
            break
        seat = rng.randrange(cfg.players)
        if rng.random() < 0.35:
            allowed = t.refusal(seat) is None
            assert allowed == _may_undo(raw, standing, seat)
            if allowed:
                t.undo(seat)
                assert t.state.to_dict() == saved[standing.pop()]
                raw.append((seat, "undo", False))
            continue
        before = t.state.clone()
        saved[len(raw)] = before.to_dict()
        action = rng.choice(before.legal_actions())
        actor = before.current_player
        assert actor is not None
        t.act(action)
        closes = closing_event(pg.rules.undo.events_since(t.state, before)) is not None
        standing.append(len(raw))
        raw.append((actor, str(action), closes))
    assert pg.replay_log(cfg, t.log).state.to_dict() == t.state.to_dict()
    assert pg.replay(cfg, t.state.actions_taken()).to_dict() == t.state.to_dict()
