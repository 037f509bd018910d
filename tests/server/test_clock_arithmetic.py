"""The clocks' arithmetic (games/clocks.py), entry by entry, from stored times alone."""

from __future__ import annotations

import pytest

from powergrid.server.games.clocks import (
    CORRESPONDENCE,
    LIVE,
    RETURN_FLOOR_S,
    Clocks,
    TimeControl,
    replay,
)

T0 = 1_800_000_000.0
LIVE_8_15 = TimeControl(LIVE, bank_s=480, increment_s=15)
DAY, HOUR = 86400.0, 3600.0
CORR = TimeControl(CORRESPONDENCE, turn_s=DAY, vacation_s=2 * DAY)


def start(control: TimeControl, humans: tuple[int, ...] = (0, 1, 2), to_act: int = 0) -> Clocks:
    return Clocks.start(control, 3, frozenset(humans), "heuristic", T0, to_act)


def test_a_live_clock_runs_only_for_the_seat_to_act_and_gains_the_increment() -> None:
    c = start(LIVE_8_15)
    assert c.running == 0 and c.deadline() == T0 + 480
    c = c.after(0, "open 3 3", T0 + 100, 1)  # seat 0 thought 100 s
    assert c.bank == (480 - 100 + 15, 480, 480)
    assert c.running == 1 and c.deadline() == T0 + 100 + 480
    assert c.left(0, T0 + 1000) == 395  # not to act: its clock stands
    assert c.left(1, T0 + 130) == 450
    c = c.after(1, "bid 4", T0 + 130, 0)
    assert c.bank == (395, 480 - 30 + 15, 480)
    assert c.spent == (100, 30, 0)


def test_taking_an_action_back_takes_its_increment_back() -> None:
    c = start(LIVE_8_15).after(0, "buy 1 coal", T0 + 10, 0)  # still seat 0's decision
    assert c.bank[0] == 480 - 10 + 15
    c = c.after(0, "undo", T0 + 12, 0)
    assert c.bank[0] == 480 - 12  # the increment of the action taken back is gone
    assert c.running == 0
    # taken back after the turn passed on: the increment goes all the same (no time is won by it)
    c = c.after(0, "bid 4", T0 + 14, 1).after(0, "undo", T0 + 15, 0)
    assert c.bank[0] == 480 - 14 and c.bank[1] == 479


def test_a_bot_seat_has_no_clock_and_an_unknown_time_passes_no_time() -> None:
    c = Clocks.start(LIVE_8_15, 2, frozenset({0}), "heuristic", T0, 1)
    assert c.running is None and c.deadline() is None
    c = c.after(1, "open 3 3", T0 + 500, 0)
    assert c.bank == (480, 480)
    c = c.after(0, "pass", None, 1)  # an entry stored before times were: no time passes
    assert c.bank == (495, 480) and c.at == T0 + 500


def test_a_stand_in_stops_the_clock_and_taking_back_gives_at_least_a_minute() -> None:
    c = start(LIVE_8_15).after(0, "open 3 3", T0 + 470, 1)  # 25 s left for seat 0
    c = c.after(1, "bid 4", T0 + 480, 0)
    c = c.after(0, "@stand-in time", T0 + 506, 0)  # ran out (the fold clamps at zero)
    assert c.bank[0] == 0 and c.stand_ins == ("time", None, None)
    assert c.running is None and c.deadline() is None  # the stand-in plays: no clock runs
    c = c.after(0, "pass", T0 + 600, 1)  # the stand-in's move earns nothing either
    assert c.bank[0] == 0
    c = c.after(0, "@back", T0 + 700, 1)
    assert c.stand_ins == (None, None, None) and c.bank[0] == RETURN_FLOOR_S
    assert [n[2] for n in c.notices] == ["@stand-in time", "@back"]
    assert [n[0] for n in c.notices] == [3, 5]


def test_a_correspondence_turn_draws_on_the_vacation_only_beyond_its_deadline() -> None:
    c = start(CORR)
    assert c.deadline() == T0 + DAY + 2 * DAY
    c = c.after(0, "buy 1 coal", T0 + 20 * HOUR, 0)  # still seat 0's turn: its deadline stands
    assert c.deadline() == T0 + 3 * DAY and c.vacation == (2 * DAY,) * 3
    c = c.after(0, "done", T0 + DAY + 5 * HOUR, 1)  # 5 h over the turn's day
    assert c.vacation == (2 * DAY - 5 * HOUR, 2 * DAY, 2 * DAY)
    assert c.since == T0 + DAY + 5 * HOUR and c.deadline() == T0 + DAY + 5 * HOUR + 3 * DAY
    assert c.left(1, T0 + DAY + 6 * HOUR) == DAY - HOUR + 2 * DAY
    c = c.after(1, "pass", T0 + DAY + 7 * HOUR, 0)  # within the turn: no vacation used
    assert c.vacation == (2 * DAY - 5 * HOUR, 2 * DAY, 2 * DAY)
    assert c.deadline() == T0 + DAY + 7 * HOUR + DAY + 2 * DAY - 5 * HOUR


def test_coming_back_starts_a_new_correspondence_turn() -> None:
    c = start(CORR).after(0, "@stand-in left", T0 + HOUR, 0)
    assert c.running is None
    c = c.after(0, "@back", T0 + 2 * HOUR, 0)
    assert c.running == 0 and c.since == T0 + 2 * HOUR and c.deadline() == T0 + 2 * HOUR + 3 * DAY


@pytest.mark.parametrize(("reasons", "abandoned"), [
    (("left", "time", "left"), True), (("left", "away", "left"), False), (("left", "left"), False)])
def test_a_game_is_abandoned_when_every_person_left_or_ran_out_of_time(reasons: tuple[str, ...],
                                                                         abandoned: bool) -> None:
    c = start(TimeControl())
    for seat, reason in enumerate(reasons):
        c = c.after(seat, f"@stand-in {reason}", None, 0)
    assert c.abandoned is abandoned
    if abandoned:
        assert c.running is None and c.thinking is None


def test_replay_of_stored_entries_equals_the_fold_and_checks_the_versions() -> None:
    entries = [(1, 0, "open 3 3", T0 + 5, 1), (2, 1, "bid 4", T0 + 9, 2), (3, 2, "@stand-in left", T0 + 9, 2),
               (4, 2, "pass", T0 + 11, 0)]
    c = start(LIVE_8_15)
    for _seq, seat, entry, at, to_act in entries:
        c = c.after(seat, entry, at, to_act)
    assert replay(start(LIVE_8_15), entries) == c
    assert replay(start(LIVE_8_15), entries).public() == c.public()
    with pytest.raises(ValueError, match="jumps"):
        replay(start(LIVE_8_15), entries[1:])


@pytest.mark.parametrize("bad", [
    {"kind": "blitz"}, {"kind": "live", "bank_s": 5}, {"kind": "live", "turn_s": 60},
    {"kind": "correspondence", "vacation_s": -1}, {"kind": "live", "increment_s": True}])
def test_time_controls_out_of_range_are_refused(bad: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        TimeControl.from_dict(bad)


def test_time_controls_take_their_defaults() -> None:
    assert TimeControl.from_dict({"kind": "live"}) == LIVE_8_15
    assert TimeControl.from_dict({"kind": "correspondence"}).to_dict() == {
        "kind": "correspondence", "turn_s": DAY, "vacation_s": 7 * DAY}
    assert not TimeControl.from_dict(None).timed
