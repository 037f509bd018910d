"""Checks that hold after every action of every game (used by the conformance and property tests)."""

from __future__ import annotations

import json
import random
from typing import Any

import powergrid as pg
from powergrid.rules.catalog import STEP3, UNKNOWN
from powergrid.rules.storage import capacities, fits

from .positions import ALL_PLANTS, RESOURCE_TOTALS, plant_places


def check_state(s: pg.GameState) -> None:
    """Everything that must be true of any state, whatever happened before."""
    n = s.players
    scn = s.scn
    # resources: each unit in exactly one place
    for r in range(4):
        held = sum(s.res[4 * p + r] for p in range(n))
        assert s.market_res[r] + s.supply[r] + held == RESOURCE_TOTALS[r], f"resource {r} leaked"
        assert 0 <= s.market_res[r] <= scn.capacity[r] and s.supply[r] >= 0
    assert min(s.res) >= 0
    # plants: each once; the Step 3 card at most once and only before Step 3
    assert plant_places(s) == list(ALL_PLANTS), "a plant appeared or vanished"
    cards = s.deck.count(STEP3) + s.market.count(STEP3)
    assert cards <= 1 and (cards == 0 or s.step < 3)
    assert (STEP3 in s.market) == s.step3_pending
    # market: sorted, split by Step
    assert s.market == sorted(s.market)
    if s.step == 3:
        assert s.current_market() == s.market and s.future_market() == []
        assert len(s.market) <= 6
    else:
        assert s.current_market() == [p for p in s.market[:4] if p != STEP3]
        assert s.future_market() == s.market[4:]
        if s.step3_next:
            assert len(s.market) <= 6
        elif len(s.deck) or s.step3_pending:
            assert len(s.market) == 8
    # the city-count rule holds whenever anyone may act
    if s.market and s.market[0] != STEP3:
        assert s.market[0] > max(len(c) for c in s.cities) or s.is_over
    # players
    for p in range(n):
        assert s.money[p] >= 0
        assert list(s.plants[p]) == sorted(set(s.plants[p]))
        limit = scn.rules.max_plants + (1 if s.discard_seat == p else 0)
        assert len(s.plants[p]) <= limit
        assert fits(s.resources_of(p), capacities(scn, s.plants[p])), "resources over storage"
        assert len(set(s.cities[p])) == len(s.cities[p]) <= scn.max_houses
        for c in s.cities[p]:
            assert p in s.houses[c] and c in scn.board.in_play
    # houses: never two of one seat in a city, never more than the Step allows
    total = 0
    for c, here in enumerate(s.houses):
        assert len(set(here)) == len(here) <= s.step
        assert not here or c in scn.board.in_play
        for p in here:
            assert c in s.cities[p]
        total += len(here)
    assert total == sum(len(c) for c in s.cities)
    assert sorted(s.order) == list(range(n))
    if s.is_over:
        assert s.winners and s.current_player is None and s.legal_actions() == []
    else:
        assert s.current_player is not None and s.legal_actions()


def check_view(s: pg.GameState, seat: int) -> None:
    """A view's JSON never holds a hidden card's number."""
    n = len(s.deck)
    hidden = {s.deck[i] for i in range(n)
              if not (i < s.known_bottom or i >= n - s.known_top or s.deck[i] == STEP3)}
    d = s.view(seat).to_dict()
    assert "rng" not in d
    assert not hidden & set(d["deck"]), "the view shows hidden deck cards"
    assert set(d["removed"]) <= {UNKNOWN}
    assert len(d["deck"]) == n


def _new_events(s: pg.GameState, old: Any) -> list[tuple[Any, ...]]:
    out = []
    node = s._log
    while node is not old:
        out.append(node[:-1])
        node = node[-1]
    out.reverse()
    return out


def expected_money(s: pg.GameState, action: pg.Action) -> dict[int, int]:
    """The money change an action may cause, computed before it is applied (auction sales
    are settled afterwards from the auction's state)."""
    seat = s.current_player
    assert seat is not None
    scn = s.scn
    if action.kind == "buy":
        return {seat: -scn.buy_cost(action.resource, s.market_res[action.resource], action.amount)}
    if action.kind == "build":
        cost = s.build_cost(seat, action.city)
        assert cost is not None
        return {seat: -cost}
    if action.kind == "power":
        cities = sum(scn.plant_cities[p] for p in action.plants)
        return {seat: scn.catalog.pay(min(cities, len(s.cities[seat])))}
    return {}


def without_log(s: pg.GameState) -> dict[str, Any]:
    """``to_dict`` of the state with its log left out (the log is an immutable chain of tuples,
    so comparing the chain's head by identity covers it)."""
    c = s.clone()
    c._log = None
    return c.to_dict()


def check_round_trip(s: pg.GameState) -> None:
    d = s.to_dict()
    again = pg.GameState.from_dict(json.loads(json.dumps(d)))
    assert again.to_dict() == d, "JSON round-trip changed the state"
    assert again.houses == s.houses, "JSON round-trip changed the house slot order"
    assert again.legal_actions() == s.legal_actions()


def apply_checked(s: pg.GameState, action: pg.Action, every: int = 1) -> None:
    """Apply one action with every check around it; the checks whose cost grows with the log
    (JSON with the log, a view's JSON) run every ``every`` decisions and their log-free
    versions after every action."""
    legal = s.legal_actions()
    assert action in legal
    assert len(set(legal)) == len(legal), "an action is listed twice"
    for a in legal:
        assert pg.parse_action(str(a)) == a, f"notation does not round-trip: {a!r}"
        s.clone().apply(a)
    seat = s.current_player
    before = s.clone()
    before_log = before._log
    before_dict = without_log(before)
    money = list(s.money)
    expect = expected_money(s, action)
    leader, bid = s.auc_leader, s.auc_bid
    s.apply(action)
    events = _new_events(s, before_log)
    assert events[0] == ("act", seat, action)
    assert s.decisions == before.decisions + 1
    for e in events:
        if e[0] == "bought":
            buyer, price = e[1], e[3]
            if action.kind == "open":
                assert (buyer, price) == (seat, action.amount)
            else:
                assert action.kind == "pass" and (buyer, price) == (leader, bid)
            expect[buyer] = expect.get(buyer, 0) - price
        elif e[0] == "payout":
            assert e[3] == s.scn.catalog.pay(e[2])
    for p in range(s.players):
        assert s.money[p] - money[p] == expect.get(p, 0), f"seat {p}'s money changed wrongly"
    assert before._log is before_log and without_log(before) == before_dict, \
        "a clone changed when the original moved"
    check_state(s)
    viewer = s.current_player if s.current_player is not None else 0
    if s.decisions % every == 0 or s.is_over:
        check_round_trip(s)
        check_view(s, viewer)
    else:
        d = without_log(s)
        bare = s.clone()
        bare._log = None
        assert pg.GameState.from_dict(json.loads(json.dumps(d))).to_dict() == d
        check_view(bare, viewer)


def play_checked(cfg: pg.GameConfig, seed: int, every: int = 1,
                 limit: int = 5000) -> pg.GameState:
    """A random game to the end, every action checked."""
    s = pg.new_game(cfg)
    check_state(s)
    rng = random.Random(seed)
    while not s.is_over:
        apply_checked(s, rng.choice(s.legal_actions()), every)
        assert s.decisions < limit, "the game does not end"
    return s
