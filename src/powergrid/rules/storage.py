"""What a player's plants can store (docs/rules.md, Phase 3: only the total fit matters)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .scenario import Scenario

#: (coal, oil, hybrid, garbage, uranium) storage
Capacity = tuple[int, int, int, int, int]

_SLOT = {"coal": 0, "oil": 1, "hybrid": 2, "garbage": 3, "uranium": 4}


def capacities(scn: Scenario, plants: Iterable[int]) -> Capacity:
    if type(plants) is tuple:  # a player's holding: worked out once per scenario
        memo = scn.storage_memo
        found = memo.get(plants)
        if found is None:
            if len(memo) >= 4096:
                memo.clear()
            found = memo[plants] = _capacities(scn, plants)
        return found
    return _capacities(scn, plants)


def _capacities(scn: Scenario, plants: Iterable[int]) -> Capacity:
    cap = [0, 0, 0, 0, 0]
    kinds = scn.plant_kind
    burns = scn.plant_burn
    for p in plants:
        slot = _SLOT.get(kinds[p])
        if slot is not None:
            cap[slot] += 2 * burns[p]
    return cap[0], cap[1], cap[2], cap[3], cap[4]


def fits(held: tuple[int, ...] | list[int], cap: Capacity) -> bool:
    coal, oil, garbage, uranium = held[0], held[1], held[2], held[3]
    coal_over = coal - cap[0]
    oil_over = oil - cap[1]
    over = (coal_over if coal_over > 0 else 0) + (oil_over if oil_over > 0 else 0)
    return over <= cap[2] and garbage <= cap[3] and uranium <= cap[4]


def room(held: tuple[int, ...] | list[int], cap: Capacity) -> tuple[int, int, int, int]:
    """How many more units of each resource fit, one resource at a time."""
    coal, oil = held[0], held[1]
    # (conditionals rather than max(0, ...): this runs on every purchase)
    oil_over = oil - cap[1]
    coal_over = coal - cap[0]
    coal_room = cap[0] + cap[2] - (oil_over if oil_over > 0 else 0) - coal
    oil_room = cap[1] + cap[2] - (coal_over if coal_over > 0 else 0) - oil
    garbage_room = cap[3] - held[2]
    uranium_room = cap[4] - held[3]
    return (coal_room if coal_room > 0 else 0, oil_room if oil_room > 0 else 0,
            garbage_room if garbage_room > 0 else 0, uranium_room if uranium_room > 0 else 0)


def keep_options(held: tuple[int, int, int, int], cap: Capacity) -> list[tuple[int, int, int, int]]:
    """The ways to keep resources after losing storage: every mix that keeps as much
    as fits (no option keeps strictly less of everything than another).

    docs/rules.md, Phase 2 ruling: where the hybrid mix is a choice, the player chooses.
    """
    coal, oil, garbage, uranium = held
    if garbage > cap[3]:
        garbage = cap[3]
    if uranium > cap[4]:
        uranium = cap[4]
    if fits((coal, oil, garbage, uranium), cap):
        return [(coal, oil, garbage, uranium)]
    pairs: list[tuple[int, int]] = []
    most_coal = cap[0] + cap[2]
    for c in range(coal if coal < most_coal else most_coal, -1, -1):
        # (conditionals rather than two-argument min() and max(), several times dearer)
        coal_over = c - cap[0]
        o = cap[1] + cap[2] - (coal_over if coal_over > 0 else 0)
        if oil < o:
            o = oil
        if not pairs or o > pairs[-1][1]:
            pairs.append((c, o))
    return [(c, o, garbage, uranium) for c, o in pairs]
