"""Phase 2: auctioning power plants (docs/rules.md, Phase 2)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import market, rounds
from .actions import PASS, Action
from .storage import capacities, keep_options

if TYPE_CHECKING:
    from .state import GameState

# Actions are immutable, so the bid and open actions are made once and shared.
_BIDS: list[Action] = []
_OPENS: dict[int, list[Action]] = {}


def _bids(lo: int, hi: int) -> list[Action]:
    while len(_BIDS) <= hi:
        _BIDS.append(Action("bid", 0, len(_BIDS)))
    return _BIDS[lo:hi + 1]


def _opens(plant: int, hi: int) -> list[Action]:
    table = _OPENS.get(plant)
    if table is None:
        table = _OPENS[plant] = []
    while len(table) <= hi:
        table.append(Action("open", plant, len(table)))
    return table[plant:hi + 1]


def opener(s: GameState) -> int:
    """The first player in turn order who has neither bought nor passed."""
    done = s.auc_done
    for p in s.order:
        if not done >> p & 1:
            return p
    raise AssertionError("auction phase with every player done")  # pragma: no cover


def _alone(s: GameState, seat: int) -> bool:
    """docs/rules.md, Phase 2: the last player to open pays the minimum, nobody can bid against them."""
    return s.auc_done | 1 << seat == (1 << len(s.money)) - 1


def _next_in_auction(s: GameState, after: int) -> int:
    """The next seat in seating order after ``after`` still in the running auction."""
    seating = s.scn.seating
    n = len(seating)
    i = s.scn.seat_position[after]
    for k in range(1, n + 1):
        p = seating[(i + k) % n]
        if s.auc_in >> p & 1:
            return p
    return after  # pragma: no cover


def legal(s: GameState) -> list[Action]:
    if s.discard_seat >= 0:
        return discard_actions(s, s.discard_seat)
    if s.auc_plant:
        seat = s.auc_turn
        actions = _bids(s.auc_bid + 1, s.money[seat]) if s.money[seat] > s.auc_bid else []
        actions.append(PASS)
        return actions
    seat = opener(s)
    money = s.money[seat]
    actions = []
    alone = _alone(s, seat)
    for plant in s.current_market():
        if plant <= money:
            actions += _opens(plant, plant if alone else money)
    if s.round > 1 or not actions:
        actions.append(PASS)
    return actions


def discard_actions(s: GameState, seat: int) -> list[Action]:
    held = s.resources_of(seat)
    out = []
    for plant in s.plants[seat]:
        if plant == s.new_plant:
            continue
        rest = [p for p in s.plants[seat] if p != plant]
        for keep in keep_options(held, capacities(s.scn, rest)):
            out.append(Action.discard(plant, keep))
    return out


def default_discard(s: GameState, seat: int, plant: int) -> Action:
    """Discard ``plant`` keeping the most valuable resources that fit (docs/rules.md, Phase 2 ruling).

    Value is what the kept resources would cost to buy now; ties keep more units, then more coal.
    """
    from .bureaucracy import fuel_value
    rest = [p for p in s.plants[seat] if p != plant]
    options = keep_options(s.resources_of(seat), capacities(s.scn, rest))
    best = max(options, key=lambda keep: (fuel_value(s, keep), sum(keep), keep))
    return Action.discard(plant, best)


def apply(s: GameState, seat: int, action: Action) -> None:
    kind = action.kind
    if s.discard_seat >= 0:
        if kind != "discard":
            raise s.illegal(seat, action, f"seat {seat} must first discard a plant over the limit")
        _discard(s, seat, action)
        return
    if s.auc_plant:
        if kind == "bid":
            if action.amount <= s.auc_bid:
                raise s.illegal(seat, action, f"the bid must be above the current {s.auc_bid}")
            if action.amount > s.money[seat]:
                raise s.illegal(seat, action, f"the bid exceeds the {s.money[seat]} Elektro held")
            s._log = ("act", seat, action, s._log)  # (GameState.note written out: every move logs)
            s.auc_bid = action.amount
            s.auc_leader = seat
            s.auc_turn = _next_in_auction(s, seat)
            return
        if kind == "pass":
            s._log = ("act", seat, action, s._log)  # (GameState.note written out: every move logs)
            s.auc_in &= ~(1 << seat)
            if s.auc_in == 1 << s.auc_leader:
                _sell(s)
            else:
                s.auc_turn = _next_in_auction(s, seat)
            return
        raise s.illegal(seat, action, f"an auction for plant {s.auc_plant} is running: bid or pass")
    if kind == "open":
        plant = action.plant
        if plant not in s.current_market():
            raise s.illegal(seat, action, f"plant {plant} is not in the current market "
                            f"{s.current_market()}")
        if action.amount < plant:
            raise s.illegal(seat, action, f"the opening bid must be at least {plant}")
        if action.amount > s.money[seat]:
            raise s.illegal(seat, action, f"the bid exceeds the {s.money[seat]} Elektro held")
        if action.amount > plant and _alone(s, seat):
            raise s.illegal(seat, action, f"nobody is left to bid against seat {seat}: "
                            f"the price is the minimum, {plant}")
        s._log = ("act", seat, action, s._log)  # (GameState.note written out: every move logs)
        s.auc_plant = plant
        s.auc_bid = action.amount
        s.auc_leader = seat
        everyone = (1 << len(s.money)) - 1
        s.auc_in = everyone & ~s.auc_done
        if s.auc_in == 1 << seat:
            _sell(s)
        else:
            s.auc_turn = _next_in_auction(s, seat)
        return
    if kind == "pass":
        if s.round == 1 and any(p <= s.money[seat] for p in s.current_market()):
            raise s.illegal(seat, action, "in round 1 every player must buy a plant")
        s._log = ("act", seat, action, s._log)  # (GameState.note written out: every move logs)
        s.auc_done |= 1 << seat
        _after_turn(s)
        return
    raise s.illegal(seat, action, "open an auction (open <plant> <bid>) or pass")


def _sell(s: GameState) -> None:
    seat, plant, price = s.auc_leader, s.auc_plant, s.auc_bid
    s.money[seat] -= price
    s.plants[seat] = tuple(sorted(s.plants[seat] + (plant,)))
    s.market.remove(plant)
    s._log = ("bought", seat, plant, price, s._log)  # (GameState.note written out: every move logs)
    s.auc_done |= 1 << seat
    s.auc_any = True
    s.auc_plant = 0
    s.auc_bid = 0
    s.auc_leader = -1
    s.auc_in = 0
    s.auc_turn = -1
    market.refill(s)
    if len(s.plants[seat]) > s.scn.rules.max_plants:
        s.discard_seat = seat
        s.new_plant = plant
        return
    _after_turn(s)


def _discard(s: GameState, seat: int, action: Action) -> None:
    plant = action.plant
    if plant == s.new_plant or plant not in s.plants[seat]:
        raise s.illegal(seat, action, f"discard one of your older plants "
                        f"{[p for p in s.plants[seat] if p != s.new_plant]}")
    rest = [p for p in s.plants[seat] if p != plant]
    held = s.resources_of(seat)
    if action.fuel not in keep_options(held, capacities(s.scn, rest)):
        raise s.illegal(seat, action, "keep as much as the remaining plants can store: "
                        + ", ".join(str(Action.discard(plant, k))
                                    for k in keep_options(held, capacities(s.scn, rest))))
    s._log = ("act", seat, action, s._log)  # (GameState.note written out: every move logs)
    s.plants[seat] = tuple(rest)
    market.box(s, plant, "discard")
    base = 4 * seat
    for r in range(4):
        extra = held[r] - action.fuel[r]
        s.res[base + r] -= extra
        s.supply[r] += extra
    s.discard_seat = -1
    s.new_plant = 0
    _after_turn(s)


def _after_turn(s: GameState) -> None:
    if s.auc_done == (1 << len(s.money)) - 1:
        rounds.end_auction(s)

