"""Phase 3: buying resources, in reverse player order (docs/rules.md, Phase 3)."""

from __future__ import annotations

from bisect import bisect_right
from typing import TYPE_CHECKING

from . import rounds
from .actions import DONE, Action
from .catalog import RESOURCES
from .storage import capacities, room

if TYPE_CHECKING:
    from .state import GameState

_BUYS: tuple[tuple[Action, ...], ...] = tuple(
    tuple(Action("buy", 0, n, "", r) for n in range(25)) for r in range(4))


def most_affordable(s: GameState, seat: int) -> tuple[int, int, int, int]:
    """How many units of each resource the seat can buy now (storage, market, money)."""
    space = room(s.resources_of(seat), capacities(s.scn, s.plants[seat]))
    return (_affordable(s, seat, 0, space[0]), _affordable(s, seat, 1, space[1]),
            _affordable(s, seat, 2, space[2]), _affordable(s, seat, 3, space[3]))


def _affordable(s: GameState, seat: int, r: int, space: int) -> int:
    in_market = s.market_res[r]
    limit = space if space < in_market else in_market
    if limit <= 0:
        return 0
    scn = s.scn
    prefix = scn.price_prefix[r]
    start = scn.capacity[r] - in_market
    # the most units n <= limit whose total price prefix[start + n] - prefix[start] the seat
    # can pay (the prefix sums only grow)
    return bisect_right(prefix, prefix[start] + s.money[seat], start + 1, start + limit + 1) - start - 1


def legal(s: GameState, seat: int) -> list[Action]:
    actions: list[Action] = []
    for r, n in enumerate(most_affordable(s, seat)):
        if n:
            actions += _BUYS[r][1:n + 1]
    actions.append(DONE)
    return actions


def apply(s: GameState, seat: int, action: Action) -> None:
    kind = action.kind
    if kind == "done":
        s._log = ("act", seat, action, s._log)  # (GameState.note written out: every move logs)
        _next(s)
        return
    if kind != "buy":
        raise s.illegal(seat, action, "buy resources (buy <n> <resource>) or finish with done")
    r, n = action.resource, action.amount
    if not 0 <= r < 4 or n < 1:
        raise s.illegal(seat, action, "not a purchase")
    if n > s.market_res[r]:
        raise s.illegal(seat, action, f"only {s.market_res[r]} {RESOURCES[r]} in the market")
    limit = _affordable(s, seat, r, room(s.resources_of(seat), capacities(s.scn, s.plants[seat]))[r])
    if n > limit:
        cost = s.scn.buy_cost(r, s.market_res[r], n)
        if cost > s.money[seat]:
            why = f"it costs {cost} and seat {seat} has {s.money[seat]}"
        else:
            why = f"the plants can store only {limit} more {RESOURCES[r]}"
        raise s.illegal(seat, action, why)
    cost = s.scn.buy_cost(r, s.market_res[r], n)
    s._log = ("act", seat, action, s._log)  # (GameState.note written out: every move logs)
    s.money[seat] -= cost
    s.market_res[r] -= n
    s.res[4 * seat + r] += n
    s._log = ("paid", seat, cost, s._log)  # (GameState.note written out: every move logs)


def _next(s: GameState) -> None:
    s.turn += 1
    if s.turn == len(s.money):  # (the player count, without the property)
        rounds.end_resources(s)
