"""Phase 5: powering cities and getting paid, in player order (docs/rules.md, Phase 5)."""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from . import rounds
from . import state as _state  # (a module partly loaded while state.py imports this one: read at call time)
from .actions import NO_FUEL, Action

if TYPE_CHECKING:
    from .state import GameState
    from .view import GameView

#: (plants run, resources burned, cities powered)
PowerOption = tuple[tuple[int, ...], tuple[int, int, int, int], int]


#: entries a scenario's memo of power options may hold before it is cleared
_MEMO_MAX = 4096


def options(s: GameState, seat: int) -> list[PowerOption]:
    """Every way to run the seat's plants with what it holds (each plant at most once, fully)."""
    held = s.resources_of(seat)
    plants = s.plants[seat]
    memo = s.scn.power_memo
    key = (plants, held)
    found: tuple[PowerOption, ...] | None = memo.get(key)
    if found is None:
        if len(memo) >= _MEMO_MAX:
            memo.clear()
        found = memo[key] = tuple(_options(s, plants, held))
    return list(found)


def _options(s: GameState, plants: tuple[int, ...], held: tuple[int, int, int, int]) -> list[PowerOption]:
    scn = s.scn
    kinds = scn.plant_kind
    burns = scn.plant_burn
    yields = scn.plant_cities
    coal, oil, garbage, uranium = held
    out: list[PowerOption] = [((), NO_FUEL, 0)]
    for size in range(1, len(plants) + 1):
        for subset in combinations(plants, size):
            need = [0, 0, 0, 0]
            hybrid = 0
            cities = 0
            for p in subset:
                kind = kinds[p]
                if kind == "coal":
                    need[0] += burns[p]
                elif kind == "oil":
                    need[1] += burns[p]
                elif kind == "garbage":
                    need[2] += burns[p]
                elif kind == "uranium":
                    need[3] += burns[p]
                elif kind == "hybrid":
                    hybrid += burns[p]
                cities += yields[p]
            if need[0] > coal or need[1] > oil or need[2] > garbage or need[3] > uranium:
                continue
            spare_coal = coal - need[0]
            spare_oil = oil - need[1]
            if hybrid > spare_coal + spare_oil:
                continue
            # (conditionals rather than a two-argument max() and min(): they cost several
            # times more in CPython 3.11)
            least = hybrid - spare_oil
            most = hybrid if hybrid < spare_coal else spare_coal
            for c in range(least if least > 0 else 0, most + 1):
                out.append((subset, (need[0] + c, need[1] + hybrid - c, need[2], need[3]), cities))
    return out


def legal(s: GameState, seat: int) -> list[Action]:
    return [Action("power", 0, 0, "", -1, plants, burn) for plants, burn, _ in options(s, seat)]


def best_powered(s: GameState, seat: int) -> int:
    """Most cities the seat can power now: its best way to run its plants, capped by its cities."""
    memo = s.scn.power_best_memo
    key = (s.plants[seat], s.resources_of(seat))
    best = memo.get(key)
    if best is None:
        if len(memo) >= _MEMO_MAX:
            memo.clear()
        best = memo[key] = max(cities for _, _, cities in options(s, seat))
    return min(best, len(s.cities[seat]))


def fuel_value(s: GameState, burn: tuple[int, ...]) -> int:
    """What the burned resources would cost to buy back now; sold-out units at the top price."""
    scn = s.scn
    market_res = s.market_res
    total = 0
    for r, n in enumerate(burn):
        if n:
            in_market = market_res[r]
            available = n if n < in_market else in_market
            # scn.buy_cost(r, in_market, available), and the top price (the prefix sums' last step)
            prefix = scn.price_prefix[r]
            start = scn.capacity[r] - in_market
            total += prefix[start + available] - prefix[start] + (n - available) * (prefix[-1] - prefix[-2])
    return total


def default_action(game: GameState | GameView, seat: int) -> Action:
    """docs/rules.md, Phase 5 ruling: the most cities paid, then the cheapest resources burned."""
    s: GameState
    if type(game) is _state.GameState:
        s = game  # (the bots' case: no import on every call)
    else:
        from .view import GameView
        s = game.public_state if isinstance(game, GameView) else game
    owned = len(s.cities[seat])
    every = options(s, seat)
    # Only the options paid for the most cities compete on the rest (the order is kept).
    # (loops: a generator in max() and a comprehension's conditional cost more per option)
    most = 0
    for o in every:
        paid = o[2]
        if paid > most:
            most = paid
    if most > owned:
        most = owned
    tied: list[PowerOption] = []
    for o in every:
        if o[2] >= most:
            tied.append(o)
    best = tied[0] if len(tied) == 1 else min(
        tied, key=lambda o: (fuel_value(s, o[1]), sum(o[1]), len(o[0]), o[0]))
    return Action.power(best[0], best[1])


def _cities_run(s: GameState, seat: int, plants: tuple[int, ...], burn: tuple[int, ...]) -> int | None:
    """Cities powered by running ``plants`` burning exactly ``burn``; None if that is not possible.

    Accepts exactly the choices :func:`options` lists, without listing them.
    """
    owned = s.plants[seat]
    if (len(burn) != 4 or burn[0] < 0 or burn[1] < 0 or burn[2] < 0 or burn[3] < 0
            or list(plants) != sorted(set(plants))):
        return None
    scn = s.scn
    need = [0, 0, 0, 0]
    hybrid = 0
    cities = 0
    for p in plants:
        if p not in owned:
            return None
        kind = scn.plant_kind[p]
        if kind == "hybrid":
            hybrid += scn.plant_burn[p]
        elif kind in _FUEL:
            need[_FUEL[kind]] += scn.plant_burn[p]
        cities += scn.plant_cities[p]
    held = s.resources_of(seat)
    if burn[2] != need[2] or burn[3] != need[3] or burn[0] < need[0] or burn[1] < need[1]:
        return None
    if burn[0] - need[0] + burn[1] - need[1] != hybrid:
        return None
    if burn[0] > held[0] or burn[1] > held[1] or burn[2] > held[2] or burn[3] > held[3]:
        return None
    return cities


_FUEL = {"coal": 0, "oil": 1, "garbage": 2, "uranium": 3}


def apply(s: GameState, seat: int, action: Action) -> None:
    if action.kind != "power":
        raise s.illegal(seat, action, "choose the plants to run (power ... burn ...) or power nothing")
    chosen = _cities_run(s, seat, action.plants, action.fuel)
    if chosen is None:
        raise s.illegal(seat, action, _why_not(s, seat, action))
    s._log = ("act", seat, action, s._log)  # (GameState.note written out: every move logs)
    base = 4 * seat
    burn = action.fuel
    res = s.res
    supply = s.supply
    for r in range(4):
        res[base + r] -= burn[r]
        supply[r] += burn[r]
    owned = len(s.cities[seat])
    paid_for = chosen if chosen < owned else owned
    pay = s.scn.catalog.pay(paid_for)
    s.money[seat] += pay
    s.powered[seat] = paid_for
    s._log = ("payout", seat, paid_for, pay, s._log)  # (GameState.note written out: every move logs)
    s.turn += 1
    if s.turn == len(s.money):  # (the player count, without the property)
        rounds.end_bureaucracy(s)


def _why_not(s: GameState, seat: int, action: Action) -> str:
    missing = [p for p in action.plants if p not in s.plants[seat]]
    if missing:
        return f"seat {seat} does not own plant(s) {missing}"
    return "those plants cannot run burning exactly those resources with what is stored"
