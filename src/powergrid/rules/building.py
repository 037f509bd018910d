"""Phase 4: building houses, in reverse player order (docs/rules.md, Phase 4)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import market, rounds
from .actions import DONE, Action
from .catalog import SLOT_PRICES

if TYPE_CHECKING:
    from .state import GameState


def cost(s: GameState, seat: int, city: int) -> int | None:
    """Slot price plus the cheapest connection from the seat's network; None if not allowed."""
    scn = s.scn
    if city >= len(s.houses) or scn.board.distance[city][city] != 0:
        return None  # not a city of a region in play
    here = s.houses[city]
    if len(here) >= s.step or seat in here or len(s.cities[seat]) >= scn.max_houses:
        return None
    reach = s.reach[seat]
    return SLOT_PRICES[len(here)] + (reach[city] if reach is not None else 0)


def legal(s: GameState, seat: int) -> list[Action]:
    actions: list[Action] = []
    if len(s.cities[seat]) < s.scn.max_houses:
        money = s.money[seat]
        step = s.step
        reach = s.reach[seat]
        houses = s.houses
        build = s.scn.build_actions
        for city in s.scn.board.in_play:
            here = houses[city]
            n = len(here)
            if n >= step or seat in here:
                continue
            price = SLOT_PRICES[n] + (reach[city] if reach is not None else 0)
            if price <= money:
                actions.append(build[city])
    actions.append(DONE)
    return actions


def apply(s: GameState, seat: int, action: Action) -> None:
    kind = action.kind
    if kind == "done":
        s._log = ("act", seat, action, s._log)  # (GameState.note written out: every move logs)
        s.turn += 1
        if s.turn == len(s.money):  # (the player count, without the property)
            rounds.end_build(s)
        return
    if kind != "build":
        raise s.illegal(seat, action, "build in a city (build <city>) or finish with done")
    city = s.scn.city_by_name.get(action.city)
    if city is None:
        raise s.illegal(seat, action, f"there is no city {action.city!r} on this map")
    price = cost(s, seat, city)
    if price is None:
        raise s.illegal(seat, action, _why_not(s, seat, city))
    if price > s.money[seat]:
        raise s.illegal(seat, action, f"it costs {price} and seat {seat} has {s.money[seat]}")
    s._log = ("act", seat, action, s._log)  # (GameState.note written out: every move logs)
    s.money[seat] -= price
    s.houses[city] = s.houses[city] + (seat,)
    s.cities[seat] = s.cities[seat] + (city,)
    board = s.scn.board
    row = board.distance[city]
    reach = s.reach[seat]
    if reach is None:
        s.reach[seat] = row
    else:
        # only the cities in play can come nearer (the others are NO_PATH in every row); a
        # loop over those, not a comprehension over all (a two-argument min() costs more still)
        nearer = list(reach)
        for j in board.in_play:
            d = row[j]
            if d < nearer[j]:
                nearer[j] = d
        s.reach[seat] = tuple(nearer)
    s._log = ("paid", seat, price, s._log)  # (GameState.note written out: every move logs)
    market.remove_city_count_plants(s)


def _why_not(s: GameState, seat: int, city: int) -> str:
    name = s.scn.map.cities[city]
    if s.scn.board.distance[city][city] != 0:
        return f"{name} is not in a region in play"
    if seat in s.houses[city]:
        return f"seat {seat} already has a house in {name}"
    if len(s.cities[seat]) >= s.scn.max_houses:
        return f"seat {seat} has no houses left to build"
    return f"{name} has no free slot in Step {s.step}"
