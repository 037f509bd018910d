"""Standing orders: a seat's decision given ahead of its turn, applied as its own action when the turn comes.

Four kinds (docs/web.md, Standing orders):

- ``bid_up_to`` ``{"limit": N}``: in the running auction, raise by the minimum legal bid at each of
  the seat's turns while that bid is at most N, else pass; it ends with that auction.
- ``pass_auction``: pass every auction decision of the seat's for the rest of this auction phase
  (refused in round 1, where everyone must buy a plant: docs/rules.md, Phase 2).
- ``power`` ``{"action": "power 5 10 burn 2coal 3oil"}``: the seat's bureaucracy choice, given as
  soon as the phase begins (nobody's choice there depends on another's), applied at its turn.
- ``build`` ``{"cities": [...], "prices": [...]}``: the cities picked in the build form, with the
  price of each as the seat saw it; applied at its turn if every price is still the same, else
  refused (``price_changed``, also when a city was taken meanwhile) and the seat decides as usual.

This module only judges: an order against a state (``make_order``: placing it; ``decide``: at the
seat's turn). The actions it picks come from the engine's legal actions and go through the same
validated append as a person's (order_turns.py); it never changes a rule.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import powergrid as pg
from powergrid.rules import building

from ..common.errors import ApiError

BID_UP_TO, PASS_AUCTION, POWER, BUILD = "bid_up_to", "pass_auction", "power", "build"
KINDS = (BID_UP_TO, PASS_AUCTION, POWER, BUILD)
PENDING, REFUSED = "pending", "refused"
#: the most cities a build order may list (a seat has 22 houses)
MAX_CITIES = 22


@dataclass(frozen=True)
class Order:
    seat: int
    kind: str
    #: what the order says (limit, action, cities and prices)
    detail: dict[str, Any]
    #: where it applies: the round, and for a bid the plant on auction
    scope: dict[str, Any]
    #: the game's version when it was placed
    version: int = 0
    id: int | None = None
    status: str = PENDING
    #: why it was not applied ({"code", "message"}), for a refused order
    refusal: dict[str, str] | None = None
    created_at: float = 0.0

    def public(self) -> dict[str, Any]:
        """What the seat is shown of its own order (nobody else is shown it: a limit is a secret)."""
        out: dict[str, Any] = {"id": self.id, "kind": self.kind, **self.detail, "status": self.status,
                               "round": self.scope.get("round"), "placed_at_version": self.version}
        if self.refusal is not None:
            out["refusal"] = self.refusal
        return out


@dataclass
class Decision:
    """What an order does at its seat's turn."""

    #: the seat's actions, in order (empty: nothing now)
    actions: list[str] = field(default_factory=list)
    #: whether the order stays for the seat's later turns
    keep: bool = False
    #: why the order is refused ({"code", "message"}); the seat decides as usual
    refusal: dict[str, str] | None = None


def _money(state: pg.GameState, seat: int) -> int:
    return int(state.money[seat])


def make_order(state: pg.GameState, seat: int, body: dict[str, Any], version: int) -> Order:
    """The order ``body`` asks for, judged against the game now; a named ApiError if it may not be placed."""
    if state.is_over:
        raise ApiError("game_over", "the game is over")
    kind = body.get("kind")
    if kind not in KINDS:
        raise ApiError("malformed_order", f"an order's kind is one of {', '.join(KINDS)}, not {kind!r}")
    allowed = {BID_UP_TO: {"kind", "limit"}, PASS_AUCTION: {"kind"}, POWER: {"kind", "action"},
               BUILD: {"kind", "cities", "prices"}}[kind]
    extra = set(body) - allowed
    if extra:
        raise ApiError("malformed_order", f"a {kind} order has no {', '.join(sorted(extra))}")
    if kind == BID_UP_TO:
        return _bid_order(state, seat, body.get("limit"), version)
    if kind == PASS_AUCTION:
        return _pass_order(state, seat, version)
    if kind == POWER:
        return _power_order(state, seat, body.get("action"), version)
    return _build_order(state, seat, body.get("cities"), body.get("prices"), version)


def _bid_order(state: pg.GameState, seat: int, limit: Any, version: int) -> Order:
    if not isinstance(limit, int) or isinstance(limit, bool) or not 0 <= limit < 10_000:
        raise ApiError("malformed_order", "a bid_up_to order needs a whole number limit")
    if state.phase != pg.Phase.AUCTION or not state.auc_plant or state.discard_seat >= 0:
        raise ApiError("order_not_now", "no plant is on auction now: a bid limit is for the running auction")
    if not state.auc_in >> seat & 1:
        raise ApiError("not_in_auction", f"seat {seat} is out of the auction for plant {state.auc_plant}")
    if limit <= state.auc_bid:
        raise ApiError("bid_limit_too_low", f"the bid is at {state.auc_bid} already: a limit of {limit} "
                                            "could only pass (pass instead)")
    if limit > _money(state, seat):
        raise ApiError("bid_over_money", f"seat {seat} has {_money(state, seat)} Elektro: it cannot bid "
                                         f"{limit}")
    return Order(seat, BID_UP_TO, {"limit": limit}, {"round": state.round, "plant": state.auc_plant}, version)


def _pass_order(state: pg.GameState, seat: int, version: int) -> Order:
    if state.phase != pg.Phase.AUCTION:
        raise ApiError("order_not_now", "passing the rest of the auction phase is for the auction phase")
    if state.auc_done >> seat & 1:
        raise ApiError("not_in_auction", f"seat {seat} has already bought or passed in this auction phase")
    if state.round == 1:
        raise ApiError("pass_not_allowed", "in round 1 everybody must buy a plant: nobody may pass as opener "
                                           "(docs/rules.md, Phase 2)")
    return Order(seat, PASS_AUCTION, {}, {"round": state.round}, version)


def _acted_in_turn_order(state: pg.GameState, seat: int) -> bool:
    """Whether the seat has had its turn in this phase (resources and build go in reverse order)."""
    order = list(state.order)
    place = order.index(seat)
    if state.phase == pg.Phase.BUREAUCRACY:
        return place < state.turn
    return len(order) - 1 - place < state.turn


def _power_order(state: pg.GameState, seat: int, text: Any, version: int) -> Order:
    if not isinstance(text, str) or len(text) > 300:
        raise ApiError("malformed_order", "a power order needs the action, e.g. "
                                          "\"power 5 10 burn 2coal 3oil\"")
    if state.phase != pg.Phase.BUREAUCRACY:
        raise ApiError("order_not_now", "a power order is for the bureaucracy phase")
    if _acted_in_turn_order(state, seat):
        raise ApiError("already_acted", f"seat {seat} has already chosen its plants this round")
    try:
        action = pg.parse_action(text)
    except pg.PowerGridError as exc:
        raise ApiError("malformed_action", str(exc)) from None
    if action not in early_power(state, seat):
        raise ApiError("illegal_order", f"seat {seat} cannot {action}: not one of its ways to run its plants")
    return Order(seat, POWER, {"action": str(action)}, {"round": state.round}, version)


def early_power(state: pg.GameState, seat: int) -> list[pg.Action]:
    """The seat's bureaucracy choices (its plants and resources only: the same before its turn)."""
    return [pg.Action.power(plants, burn) for plants, burn, _ in pg.power_options(state, seat)]


def _build_order(state: pg.GameState, seat: int, cities: Any, prices: Any, version: int) -> Order:
    if (not isinstance(cities, list) or not all(isinstance(c, str) and len(c) <= 64 for c in cities)
            or not 0 < len(cities) <= MAX_CITIES):
        raise ApiError("malformed_order", f"a build order lists 1 to {MAX_CITIES} city names")
    if (not isinstance(prices, list) or len(prices) != len(cities)
            or not all(isinstance(p, int) and not isinstance(p, bool) for p in prices)):
        raise ApiError("malformed_order", "a build order gives the price seen for each city, in order")
    if state.phase != pg.Phase.BUILD:
        raise ApiError("order_not_now", "a build order is for the build phase")
    if _acted_in_turn_order(state, seat):
        raise ApiError("already_acted", f"seat {seat} has already built this round")
    now, why = plan_prices(state, seat, cities)
    if why is not None:
        raise ApiError("illegal_order", why)
    if now != prices:
        raise ApiError("price_changed", _price_words(cities, prices, now))
    return Order(seat, BUILD, {"cities": list(cities), "prices": list(prices), "total": sum(prices)},
                 {"round": state.round}, version)


def plan_prices(state: pg.GameState, seat: int, cities: list[str]) -> tuple[list[int], str | None]:
    """What building in ``cities`` in this order costs the seat now, each priced after the ones
    before it (a copy of the game, built on by the engine's own rule); and why not, if it may not."""
    trial = state.clone()
    names = trial.scn.city_by_name
    prices: list[int] = []
    for name in cities:
        index = names.get(name)
        if index is None:
            return prices, f"there is no city {name!r} on this map"
        price = building.cost(trial, seat, index)
        if price is None:
            return prices, f"{name} is not open to seat {seat} (no free slot, or built there already)"
        if price > trial.money[seat]:
            return prices, f"{name} would cost {price}, more than the {trial.money[seat]} Elektro left"
        try:
            building.apply(trial, seat, pg.Action.build(name))  # the engine's rule, on a copy
        except pg.PowerGridError as exc:
            return prices, str(exc)
        prices.append(price)
    return prices, None


def _price_words(cities: list[str], seen: list[int], now: list[int]) -> str:
    changed = [f"{c} {a} → {b}" for c, a, b in zip(cities, seen, now, strict=False) if a != b]
    return ("the prices changed since you chose: " + ", ".join(changed) + f" (total {sum(seen)} → {sum(now)})"
            if changed else "the prices changed since you chose")


def in_scope(order: Order, state: pg.GameState) -> bool:
    """Whether the order can still apply (its phase, round and, for a bid, auction are still on)."""
    if state.is_over or state.round != order.scope.get("round"):
        return False
    kind = order.kind
    if kind == BID_UP_TO:
        return (state.phase == pg.Phase.AUCTION and state.auc_plant == order.scope.get("plant")
                and bool(state.auc_in >> order.seat & 1))
    if kind == PASS_AUCTION:
        return state.phase == pg.Phase.AUCTION and not state.auc_done >> order.seat & 1
    if kind == POWER:
        return state.phase == pg.Phase.BUREAUCRACY and not _acted_in_turn_order(state, order.seat)
    return state.phase == pg.Phase.BUILD and not _acted_in_turn_order(state, order.seat)


def decide(order: Order, state: pg.GameState) -> Decision:
    """What the order does now that its seat is to act (``state.current_player == order.seat``)."""
    seat = order.seat
    if state.current_player != seat or not in_scope(order, state):
        return Decision()  # not its turn, or its auction or phase is over: nothing (and it ends)
    legal = state.legal_actions()
    if order.kind in (BID_UP_TO, PASS_AUCTION) and state.discard_seat >= 0:
        return Decision(keep=True)  # a plant to discard: the seat's own choice, not an auction decision
    if order.kind == BID_UP_TO:
        bids = [a.amount for a in legal if a.kind == "bid"]
        if bids and min(bids) <= order.detail["limit"]:
            return Decision([str(pg.Action.bid(min(bids)))], keep=True)
        return Decision(["pass"])  # out of the auction: the order ends with it
    if order.kind == PASS_AUCTION:
        if pg.Action.pass_() not in legal:
            return Decision(refusal={"code": "pass_not_allowed",
                                     "message": "passing is not allowed here: choose a plant"})
        return Decision(["pass"], keep=True)
    if order.kind == POWER:
        action = pg.parse_action(order.detail["action"])
        if action not in legal:
            return Decision(refusal={"code": "illegal_order",
                                     "message": f"{action} is no longer one of your choices"})
        return Decision([str(action)])
    cities, seen = order.detail["cities"], order.detail["prices"]
    now, why = plan_prices(state, seat, cities)
    if why is not None:  # a city taken meanwhile: its price is gone, the plan no longer holds
        return Decision(refusal={"code": "price_changed",
                                 "message": f"your planned build no longer holds: {why}"})
    if now != seen:
        return Decision(refusal={"code": "price_changed", "message": _price_words(cities, seen, now)})
    return Decision([str(pg.Action.build(c)) for c in cities] + ["done"])


def early_choices(state: pg.GameState, seat: int) -> dict[str, Any]:
    """The choices the seat may give as an order now: in the auction, whether it may pass the rest of
    it and the running auction's state; for a seat not yet to act in the build or bureaucracy phase,
    the build and power forms' choices in the shape of a seat's view (``legal``, ``build_costs``,
    ``default_power``)."""
    if state.is_over:
        return {}
    mine = state.current_player == seat  # the forms are the seat's own decision then
    if state.phase == pg.Phase.BUREAUCRACY and not mine and not _acted_in_turn_order(state, seat):
        return {"phase": int(state.phase), "legal": [str(a) for a in early_power(state, seat)],
                "default_power": str(pg.default_power(state, seat))}
    if state.phase == pg.Phase.BUILD and not mine and not _acted_in_turn_order(state, seat):
        names = state.scn.map.cities
        costs = {}
        for city in state.scn.board.in_play:
            cost = building.cost(state, seat, city)
            if cost is not None and cost <= state.money[seat]:
                costs[names[city]] = cost
        return {"phase": int(state.phase), "legal": [f"build {c}" for c in costs] + ["done"],
                "build_costs": costs}
    if state.phase == pg.Phase.AUCTION and not state.auc_done >> seat & 1:
        out: dict[str, Any] = {"phase": int(state.phase), "can_pass_rest": state.round > 1}
        if state.auc_plant and state.discard_seat < 0 and state.auc_in >> seat & 1:
            out["auction"] = {"plant": state.auc_plant, "bid": state.auc_bid, "money": _money(state, seat)}
        return out
    return {}


def to_row(order: Order) -> dict[str, Any]:
    return {"seat": order.seat, "kind": order.kind, "detail": json.dumps(order.detail),
            "scope": json.dumps(order.scope), "status": order.status,
            "refusal": None if order.refusal is None else json.dumps(order.refusal), "version": order.version,
            "created_at": order.created_at}


def from_row(row: Any) -> Order:
    return Order(row.seat, row.kind, json.loads(row.detail), json.loads(row.scope), row.version, row.id,
                 row.status, None if row.refusal is None else json.loads(row.refusal), row.created_at)
