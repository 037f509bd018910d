"""The heuristic bot: a competent rule-based player, fast enough to drive search rollouts.

Every rule reads only what a seat may know (a GameView, or a determinized GameState inside a
search bot's own imagined game), so :func:`decide` works on either.
"""

from __future__ import annotations

import weakref
from typing import Any

from powergrid.bots.base import Bot
from powergrid.rules import Action, GameView, default_power, power_options
from powergrid.rules.actions import DONE, PASS
from powergrid.rules.catalog import SLOT_PRICES, STEP3
from powergrid.rules.phase import AUCTION, BUILD, BUREAUCRACY
from powergrid.rules.phase import RESOURCES as RESOURCES_PHASE

#: what a unit costs when the market cannot supply it (above the dearest slot)
SCARCE_PRICE = (10.0, 10.0, 10.0, 18.0)
#: Elektro one city of useful capacity is worth when buying a plant
CITY_VALUE = 18.0
#: runs of fuel charged against a plant's value (its expected working life)
FUEL_RUNS = 3.0
#: share of value kept by capacity beyond what the network can use soon
EXTRA_SHARE = 0.3
#: below the plant's value the bot stops bidding
BID_MARGIN = 2.0
#: resources bought a run ahead at or below these unit prices
CHEAP = (2, 2, 2, 5)
#: a connection dearer than this is not worth one more city outside the end game
MAX_CITY_COST = 40
#: money kept after building cities the bot cannot power yet (for the next plant)
BUILD_RESERVE = 25
#: from this round on the bot ends the game when it can, won or not (no endless stand-offs)
STALEMATE_ROUND = 30
_RES_INDEX = {"coal": 0, "oil": 1, "garbage": 2, "uranium": 3}

State = Any  # a GameState or a GameView: both read the same way


class Outlook:
    """What one seat thinks of plants and fuel at one moment (computed once per decision)."""

    __slots__ = ("s", "seat", "unit", "ambition", "limit", "kind", "burn", "yields", "_scores")

    def __init__(self, s: State, seat: int) -> None:
        scn = s.scn
        self.s = s
        self.seat = seat
        self.kind = scn.plant_kind
        self.burn = scn.plant_burn
        self.yields = scn.plant_cities
        self.limit = scn.rules.max_plants
        owned = len(s.cities[seat])
        bonus = 4 if s.step == 1 else 6
        self.ambition = min(scn.end_cities, owned + bonus)
        self.unit = unit_costs(s, seat)
        self._scores: dict[int, float] = {}

    def run_cost(self, plant: int) -> float:
        kind = self.kind[plant]
        r = _RES_INDEX.get(kind)
        burn: int = self.burn[plant]
        if r is not None:
            return burn * self.unit[r]
        if kind == "hybrid":
            return burn * min(self.unit[0], self.unit[1])
        return 0.0

    def score(self, plant: int) -> float:
        value = self._scores.get(plant)
        if value is None:
            cities: int = self.yields[plant]
            value = self._scores[plant] = cities * CITY_VALUE - self.run_cost(plant) * FUEL_RUNS
        return value

    def portfolio(self, plants: tuple[int, ...] | list[int]) -> float:
        """Value of the best ``limit`` plants, capacity beyond the ambition counting less."""
        ranked = sorted(plants, key=self.score, reverse=True)[:self.limit]
        total = 0.0
        covered = 0
        for p in ranked:
            c = self.yields[p]
            useful = min(c, max(0, self.ambition - covered))
            share = (useful + EXTRA_SHARE * (c - useful)) / c
            total += max(0.0, self.score(p) * share)
            covered += c
        return total

    def gain(self, plant: int) -> float:
        mine = self.s.plants[self.seat]
        return self.portfolio(mine + (plant,)) - self.portfolio(mine)

    def max_bid(self, plant: int) -> int:
        s = self.s
        reserve = 8 + 4 * s.step + self.run_cost(plant)
        limit = min(self.gain(plant) - BID_MARGIN, s.money[self.seat] - reserve)
        return int(limit)


def unit_costs(s: State, seat: int) -> list[float]:
    """Expected price per unit of each resource, after the other players take part of their need."""
    scn = s.scn
    demand = [0.0, 0.0, 0.0, 0.0]
    kinds, burns = scn.plant_kind, scn.plant_burn
    for j in range(len(s.money)):
        if j == seat:
            continue
        for p in s.plants[j]:
            r = _RES_INDEX.get(kinds[p])
            if r is not None:
                demand[r] += burns[p]
            elif kinds[p] == "hybrid":
                demand[0] += burns[p] / 2
                demand[1] += burns[p] / 2
    out = []
    for r in range(4):
        have = s.market_res[r] - int(demand[r] / 2)
        if have <= 0:
            out.append(SCARCE_PRICE[r])
            continue
        n = min(2, have)
        out.append((scn.buy_cost(r, have, n) + (2 - n) * SCARCE_PRICE[r]) / 2)
    return out


# ---------------------------------------------------------------- auction
def _auction(s: State, seat: int, legal: list[Action]) -> Action:
    kind = legal[0].kind
    if kind == "discard":
        return _discard(s, seat, legal)
    look = Outlook(s, seat)
    if s.auc_plant:
        # a running auction: raise by one while the plant is worth it
        if s.auc_bid + 1 <= look.max_bid(s.auc_plant) and len(legal) > 1:
            return legal[0]
        return PASS
    best: Action | None = None
    best_surplus = -1e9
    money = s.money[seat]
    for plant in s.current_market():
        if plant == STEP3 or plant > money:
            continue
        limit = look.max_bid(plant)
        surplus = (limit if limit >= plant else look.gain(plant) - 50) - plant
        if surplus > best_surplus:
            best_surplus = surplus
            best = Action("open", plant, plant)
    must_buy = PASS not in legal
    if best is not None and (best_surplus >= 0 or must_buy):
        return best
    return PASS if not must_buy else legal[0]


def _discard(s: State, seat: int, legal: list[Action]) -> Action:
    look = Outlook(s, seat)
    mine = s.plants[seat]

    def worth(a: Action) -> float:
        rest = [p for p in mine if p != a.plant]
        kept = sum(n * look.unit[r] for r, n in enumerate(a.fuel))
        return look.portfolio(rest) + kept

    return max(legal, key=worth)


# ---------------------------------------------------------------- resources
def _plants_to_run(look: Outlook, plants: tuple[int, ...], target: int) -> list[int]:
    """The cheapest plants per city until ``target`` cities are covered."""
    order = sorted(plants, key=lambda p: (look.run_cost(p) / look.yields[p], -look.yields[p]))
    chosen: list[int] = []
    covered = 0
    for p in order:
        if covered >= target:
            break
        chosen.append(p)
        covered += look.yields[p]
    return chosen


def _fuel_need(look: Outlook, plants: list[int], runs: int = 1) -> tuple[list[int], int]:
    """Units of each resource (hybrid separately) the plants burn in ``runs`` runs."""
    need = [0, 0, 0, 0]
    hybrid = 0
    for p in plants:
        kind = look.kind[p]
        r = _RES_INDEX.get(kind)
        if r is not None:
            need[r] += look.burn[p] * runs
        elif kind == "hybrid":
            hybrid += look.burn[p] * runs
    return need, hybrid


def _game_may_end(s: State) -> bool:
    end: int = s.scn.end_cities
    return max(len(c) for c in s.cities) + 3 >= end


def _buy(s: State, seat: int, legal: list[Action]) -> Action:
    if len(legal) == 1:
        return DONE
    look = Outlook(s, seat)
    mine = s.plants[seat]
    owned = len(s.cities[seat])
    if _game_may_end(s):
        target = sum(look.yields[p] for p in mine)
    else:
        target = max(1, min(s.scn.end_cities, owned + (2 if s.step == 1 else 3)))
    chosen = _plants_to_run(look, mine, target)
    held = s.resources_of(seat)
    want = _deficit(s, look, chosen, held, 1)
    if not any(want) and s.money[seat] > 45 + 10 * s.step:
        ahead = _deficit(s, look, chosen, held, 2)
        want = [n if (s.price(r) or 99) <= CHEAP[r] else 0 for r, n in enumerate(ahead)]
    best: dict[int, int] = {}
    for a in legal:
        if a.kind == "buy" and a.amount <= want[a.resource]:
            best[a.resource] = max(best.get(a.resource, 0), a.amount)
    for r in range(4):
        if best.get(r):
            return Action("buy", 0, best[r], "", r)
    return DONE


def _deficit(s: State, look: Outlook, chosen: list[int], held: tuple[int, ...], runs: int) -> list[int]:
    need, hybrid = _fuel_need(look, chosen, runs)
    want = [max(0, need[r] - held[r]) for r in range(4)]
    if hybrid:
        spare = max(0, held[0] - need[0]) + max(0, held[1] - need[1])
        short = max(0, hybrid - spare)
        if short:
            coal, oil = s.price(0), s.price(1)
            if oil is None or (coal is not None and coal <= oil):
                want[0] += short
            else:
                want[1] += short
    return want


# ---------------------------------------------------------------- building
_CENTRALITY: weakref.WeakKeyDictionary[Any, dict[int, float]] = weakref.WeakKeyDictionary()


def _centrality(s: State) -> dict[int, float]:
    """Per city in play: mean cost to its four nearest neighbours (lower = more central)."""
    board = s.scn.board
    table = _CENTRALITY.get(board)
    if table is None:
        table = {}
        for c in board.in_play:
            row = board.distance[c]
            near = sorted(row[d] for d in board.in_play if d != c)[:4]
            table[c] = sum(near) / len(near)
        _CENTRALITY[board] = table
    return table


def fuel_capacity(s: State, seat: int) -> int:
    """Cities the seat's plants can power with the fuel it holds (not capped by its cities)."""
    return max(o[2] for o in power_options(s, seat))


def affordable_cities(s: State, seat: int, money: int, most: int) -> tuple[int, int]:
    """(count, cost) of the cheapest cities ``seat`` could still build now, greedily, up to ``most``."""
    board = s.scn.board
    step = s.step
    houses = s.houses
    reach = s.reach[seat]
    taken = set(s.cities[seat])
    count = spent = 0
    while count < most:
        best_city, best_cost = -1, 10**9
        for c in board.in_play:
            n = len(houses[c])
            if n >= step or c in taken:
                continue
            price = SLOT_PRICES[n] + (reach[c] if reach is not None else 0)
            if price < best_cost:
                best_city, best_cost = c, price
        if best_city < 0 or spent + best_cost > money:
            break
        spent += best_cost
        count += 1
        taken.add(best_city)
        row = board.distance[best_city]
        reach = row if reach is None else tuple(map(min, reach, row))
    return count, spent


def _build_target(s: State, seat: int) -> tuple[int, bool]:
    """How many cities to own after this turn, and whether cost limits are off (end game)."""
    end = s.scn.end_cities
    owned = len(s.cities[seat])
    power = fuel_capacity(s, seat)
    money = s.money[seat]
    # turn order of the build phase: reverse player order; who still builds after me
    near_end = any(len(c) + s.money[j] // 10 >= end for j, c in enumerate(s.cities))
    if near_end:
        decided = _end_game_target(s, seat, owned, power, money)
        if decided is not None:
            return decided
    target = power
    capacity = sum(s.scn.plant_cities[p] for p in s.plants[seat])
    if money >= BUILD_RESERVE + 10 * s.step:
        # money to spare: claim cities the plants will power next round, and one more in Step 1
        target = max(target, capacity + (1 if s.step == 1 else 0))
    return min(target, end - 1), False


def _end_game_target(s: State, seat: int, owned: int, power: int, money: int) -> tuple[int, bool] | None:
    """End the game if that wins; build all that can be powered if a rival can end it anyway."""
    end = s.scn.end_cities
    order = s.order
    later = [order[-1 - t] for t in range(s.turn + 1, len(order))]
    ends_anyway = any(len(c) >= end for c in s.cities)
    threats: list[tuple[int, int]] = []
    for j in range(len(s.money)):
        if j == seat:
            continue
        j_power = fuel_capacity(s, j)
        j_cities = len(s.cities[j])
        j_money = s.money[j]
        if j in later:
            extra, cost = affordable_cities(s, j, j_money, max(0, end - j_cities))
            if j_cities + extra >= end:
                ends_anyway = True
            extra_useful, cost = affordable_cities(s, j, j_money, max(0, j_power - j_cities))
            j_cities += extra_useful
            j_money -= cost
        threats.append((min(j_power, j_cities), j_money))
    can, cost = affordable_cities(s, seat, money, end - owned)
    if owned + can >= end:
        mine = (min(power, end), money - cost)
        if all(mine > t for t in threats) or s.round >= STALEMATE_ROUND:
            return end, True
    if ends_anyway:
        return max(owned, power), True
    return None


def _build(s: State, seat: int, legal: list[Action]) -> Action:
    if len(legal) == 1:
        return DONE
    owned = len(s.cities[seat])
    target, all_out = _build_target(s, seat)
    power = fuel_capacity(s, seat)
    if owned >= target:
        return DONE
    scn = s.scn
    reach = s.reach[seat]
    houses = s.houses
    central = _centrality(s)
    first = reach is None
    best: Action | None = None
    best_score = 1e18
    for a in legal:
        if a.kind != "build":
            continue
        c = scn.city_by_name[a.city]
        price = SLOT_PRICES[len(houses[c])] + (0 if first else reach[c])
        if not all_out and (price > MAX_CITY_COST
                            or (owned >= power and s.money[seat] - price < BUILD_RESERVE)):
            continue
        score = price + 0.5 * central[c]
        if first:
            crowd = sum(1 for d in scn.board.in_play
                        if houses[d] and scn.board.distance[c][d] <= 12)
            score += 4 * crowd + 3 * len(houses[c])
        if score < best_score:
            best, best_score = a, score
    return best if best is not None else DONE


# ---------------------------------------------------------------- the bot
def decide(s: State, seat: int, legal: list[Action] | None = None) -> Action:
    """The heuristic's choice for ``seat``, who must act now in ``s`` (a view or a state)."""
    if legal is None:
        legal = s.legal_actions()
    if len(legal) == 1:
        return legal[0]
    phase = s.phase
    if phase == AUCTION:
        return _auction(s, seat, legal)
    if phase == RESOURCES_PHASE:
        return _buy(s, seat, legal)
    if phase == BUILD:
        return _build(s, seat, legal)
    if phase == BUREAUCRACY:
        power: Action = default_power(s, seat)
        return power
    return legal[0]


class HeuristicBot(Bot):
    name = "heuristic"

    def act(self, view: GameView) -> Action:
        # The masked state reads the same as the view, without the per-attribute indirection.
        return decide(view.public_state, view.seat)
