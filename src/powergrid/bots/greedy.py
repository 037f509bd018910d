"""The greedy bot: a differently-built ladder opponent, valuing everything by the income table.

Where the heuristic values plants by a portfolio of Elektro-per-city scores and raises bids one
at a time, this bot asks one question at every turn, one ply deep: how much more will the
bureaucracy pay me? Plants are worth the extra payout their capacity brings over the next few
rounds, minus their fuel; it bids in jumps toward that value; it buys fuel for the cities it
expects to power, largest plants first; it builds a city when the payout it adds (plus a growth
premium before the end game) covers its cost. It shares no valuation with the heuristic, so
the search bot's rollouts (which play the heuristic) do not predict it.
"""

from __future__ import annotations

from typing import Any

from ..rules import Action, GameView, default_discard, default_power, power_options
from ..rules.actions import DONE, PASS
from ..rules.catalog import SLOT_PRICES, STEP3
from ..rules.phase import AUCTION, BUILD, BUREAUCRACY
from ..rules.phase import RESOURCES as RESOURCES_PHASE
from ..rules.purchase import most_affordable
from .base import Bot

#: rounds of extra payout a plant is credited with
PAYOUT_ROUNDS = 3
#: what one unit of fuel is assumed to cost, per resource, when valuing a plant
FUEL_PRICE = (3, 4, 5, 9)
#: Elektro per city of capacity beyond what the network can use next round (future growth)
SPARE_CITY = 4
#: premium for a new city before the end game (it raises every later payout)
GROWTH = 12
_RESOURCE = {"coal": 0, "oil": 1, "garbage": 2, "uranium": 3}

State = Any  # the masked GameState a view reads from


class GreedyBot(Bot):
    name = "greedy"

    def act(self, view: GameView) -> Action:
        s = view.public_state
        seat = view.seat
        legal = s.legal_actions()
        if len(legal) == 1:
            return legal[0]
        phase = s.phase
        if phase == AUCTION:
            return _auction(s, seat, legal)
        if phase == RESOURCES_PHASE:
            return _buy(s, seat)
        if phase == BUILD:
            return _build(s, seat, legal)
        if phase == BUREAUCRACY:
            power: Action = default_power(s, seat)
            return power
        return legal[0]


def _pay(s: State, cities: int) -> int:
    paid: int = s.scn.catalog.pay(max(0, cities))
    return paid


def _fuel_cost(s: State, plant: int) -> int:
    scn = s.scn
    kind = scn.plant_kind[plant]
    burn: int = scn.plant_burn[plant]
    if kind == "hybrid":
        return burn * min(FUEL_PRICE[0], FUEL_PRICE[1])
    r = _RESOURCE.get(kind)
    return burn * FUEL_PRICE[r] if r is not None else 0


def _capacity(s: State, plants: tuple[int, ...] | list[int]) -> int:
    """Cities the plants power together, keeping the largest ones up to the plant limit."""
    scn = s.scn
    sizes = sorted((scn.plant_cities[p] for p in plants), reverse=True)
    return sum(sizes[:scn.rules.max_plants])


def plant_value(s: State, seat: int, plant: int) -> float:
    """Extra payout over PAYOUT_ROUNDS rounds from adding ``plant``, less its fuel."""
    mine = list(s.plants[seat])
    cities = len(s.cities[seat])
    reach = cities + 2
    before = _capacity(s, mine)
    after = _capacity(s, mine + [plant])
    gain = _pay(s, min(reach, after)) - _pay(s, min(reach, before))
    spare = max(0, after - max(before, reach))
    return PAYOUT_ROUNDS * (gain - _fuel_cost(s, plant)) + SPARE_CITY * spare + plant / 4


def _reserve(s: State) -> int:
    """Money kept back from an auction for fuel and the next cities."""
    return 15 + 10 * int(s.step)


def _auction(s: State, seat: int, legal: list[Action]) -> Action:
    first = legal[0]
    if first.kind == "discard":
        # drop the plant that powers fewest cities, keeping the most valuable fuel
        scn = s.scn
        mine = [p for p in s.plants[seat] if p != s.new_plant]
        drop = min(mine, key=lambda p: (scn.plant_cities[p], p))
        action: Action = default_discard(s, seat, drop)
        return action if action in legal else first
    money: int = s.money[seat]
    if s.auc_plant:
        limit = min(plant_value(s, seat, s.auc_plant), money - _reserve(s))
        bid: int = s.auc_bid
        if bid + 1 > limit or first.kind != "bid":
            return PASS
        jump = bid + max(1, int((limit - bid) / 3))  # bids in jumps toward its value
        return Action("bid", 0, min(jump, money))
    best, best_surplus = None, -1e9
    for plant in s.current_market():
        if plant == STEP3 or plant > money:
            continue
        surplus = _surplus(s, seat, plant)
        if surplus > best_surplus:
            best, best_surplus = plant, surplus
    must_buy = legal[-1] != PASS
    if best is not None and (best_surplus > 0 or must_buy):
        return Action("open", best, best)
    return PASS if not must_buy else first


def _buy(s: State, seat: int) -> Action:
    affordable = most_affordable(s, seat)
    if not any(affordable):
        return DONE
    scn = s.scn
    cities = len(s.cities[seat])
    # fuel for every plant when money allows (the cities will follow), else for the next city
    target = _capacity(s, s.plants[seat]) if s.money[seat] > 40 else cities + 1
    held = list(s.resources_of(seat))
    need = [0, 0, 0, 0]
    covered = 0
    for p in sorted(s.plants[seat], key=lambda p: -scn.plant_cities[p]):
        if covered >= target:
            break
        kind = scn.plant_kind[p]
        burn = scn.plant_burn[p]
        if kind == "hybrid":
            r = 0 if held[0] + affordable[0] >= held[1] + affordable[1] else 1
        else:
            r = _RESOURCE.get(kind, -1)
        if r >= 0:
            need[r] += burn
        covered += scn.plant_cities[p]
    for r in range(4):
        amount = min(max(0, need[r] - held[r]), affordable[r])
        if amount:
            return Action("buy", 0, amount, "", r)
    return DONE


def _build(s: State, seat: int, legal: list[Action]) -> Action:
    scn = s.scn
    owned = len(s.cities[seat])
    end: int = scn.end_cities
    power = max(o[2] for o in power_options(s, seat))
    capacity = _capacity(s, s.plants[seat])
    houses = s.houses
    reach = s.reach[seat]
    cheapest, cheapest_cost = None, 10**9
    for a in legal:
        if a.kind != "build":
            continue
        c = scn.city_by_name[a.city]
        price = SLOT_PRICES[len(houses[c])] + (reach[c] if reach is not None else 0)
        if price < cheapest_cost:
            cheapest, cheapest_cost = a, price
    if cheapest is None:
        return DONE
    if owned + 1 >= end:
        # ending the game: only when no rival has as many cities as it can power, or when it
        # would win the final count as things stand (docs/rules.md, end of the game)
        rivals = max(len(c) for j, c in enumerate(s.cities) if j != seat)
        return cheapest if min(power, end) > rivals or _ends_ahead(s, seat, min(power, end)) else DONE
    # one ply: the payout this city adds (if the plants can run it next round), twice over,
    # plus a growth premium while it fits the plants' capacity (one city more when rich)
    room = capacity + (1 if s.money[seat] > 60 else 0)
    if owned < room:
        value = (_pay(s, min(owned + 1, capacity)) - _pay(s, min(owned, capacity))) * 2 + GROWTH
        if cheapest_cost <= value + 10:
            return cheapest
    # a city that adds no payout: in Step 3, once no plant is worth buying, money has no better
    # use, and building on is how the game reaches its end (a table of greedy bots would
    # otherwise never end)
    if s.step == 3 and s.money[seat] >= cheapest_cost + _reserve(s) and not _plant_worth_buying(s, seat):
        return cheapest
    return DONE


def _surplus(s: State, seat: int, plant: int) -> float:
    """What a plant is worth to this bot over its number, within the money it can spare."""
    spare: int = s.money[seat] - _reserve(s)
    return min(plant_value(s, seat, plant), spare) - plant


def _plant_worth_buying(s: State, seat: int) -> bool:
    """Whether the market holds a plant this bot would open an auction for (see _auction)."""
    return any(p != STEP3 and p <= s.money[seat] and _surplus(s, seat, p) > 0 for p in s.current_market())


def _ends_ahead(s: State, seat: int, powered: int) -> bool:
    """Whether ending the game now wins it on the count as things stand: more cities powered than
    any rival's plants and fuel can power, or as many and more money (rivals counted as if they
    built to their power)."""
    mine = (powered, s.money[seat], -seat)
    for j in range(s.players):
        if j != seat and (max(o[2] for o in power_options(s, j)), s.money[j], -j) >= mine:
            return False
    return True
