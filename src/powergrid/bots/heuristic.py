"""The heuristic bot: a competent rule-based player, fast enough to drive search rollouts.

Every rule reads only what a seat may know (a GameView, or a determinized GameState inside a
search bot's own imagined game), so :func:`decide` works on either.
"""

from __future__ import annotations

import weakref
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from itertools import accumulate, compress
from operator import add, itemgetter
from typing import Any

from ..rules import Action, GameView, default_power, power_options
from ..rules.actions import DONE, PASS
from ..rules.bureaucracy import _MEMO_MAX
from ..rules.catalog import SLOT_PRICES, STEP3
from ..rules.phase import AUCTION, BUILD, BUREAUCRACY
from ..rules.phase import RESOURCES as RESOURCES_PHASE
from ..rules.purchase import _affordable
from ..rules.storage import capacities, room
from .base import Bot

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


@dataclass(frozen=True, eq=False)
class Style:
    """The heuristic's valuations and limits; :data:`DEFAULT` is the ``heuristic`` bot, and a
    different style makes a differently-minded player with the same rules of thumb."""

    city_value: float = CITY_VALUE
    fuel_runs: float = FUEL_RUNS
    extra_share: float = EXTRA_SHARE
    bid_margin: float = BID_MARGIN
    cheap: tuple[int, int, int, int] = CHEAP
    max_city_cost: int = MAX_CITY_COST
    build_reserve: int = BUILD_RESERVE


DEFAULT = Style()


class Outlook:
    """What one seat thinks of plants and fuel at one moment.

    It depends only on what :func:`outlook` keys it by, so equal moments share one (an auction's
    bids, the same position in many search rollouts) and its values are worked out once.
    """

    __slots__ = ("seat", "mine", "money", "step", "unit", "ambition", "limit", "kind", "burn",
                 "yields", "style", "fuel", "market_res", "plants_all", "_scores", "_held", "_gains")

    def __init__(self, s: State, seat: int, style: Style = DEFAULT,
                 unit: tuple[float, ...] | None = None, market_res: tuple[int, ...] | None = None,
                 plants_all: tuple[tuple[int, ...], ...] | None = None) -> None:
        scn = s.scn
        self.style = style
        self.seat = seat
        self.mine: tuple[int, ...] = s.plants[seat]
        self.money: int = s.money[seat]
        self.step: int = s.step
        self.kind = scn.plant_kind
        self.burn = scn.plant_burn
        self.yields = scn.plant_cities
        self.fuel = _fuel_table(scn)
        self.limit = scn.rules.max_plants
        owned = len(s.cities[seat])
        bonus = 4 if s.step == 1 else 6
        ambition = owned + bonus
        self.ambition = ambition if ambition < scn.end_cities else scn.end_cities
        self.unit = unit if unit is not None else unit_costs(s, seat)
        #: the market's resources and everyone's plants it was made for
        self.market_res = tuple(s.market_res) if market_res is None else market_res
        self.plants_all = tuple(s.plants) if plants_all is None else plants_all
        self._scores: dict[int, float] = {}
        self._held: float | None = None
        self._gains: dict[int, float] = {}

    def run_cost(self, plant: int) -> float:
        return _run_cost(self.fuel, self.unit, plant)

    def score(self, plant: int) -> float:
        value = self._scores.get(plant)
        if value is None:
            cities: int = self.yields[plant]
            style = self.style
            value = self._scores[plant] = (cities * style.city_value
                                           - self.run_cost(plant) * style.fuel_runs)
        return value

    def run_order(self, plants: tuple[int, ...]) -> list[int]:
        """The plants, cheapest to run per city first (more cities first on a tie)."""
        # (not kept: the bot itself no longer asks, and an outlook is made on most moves)
        return sorted(plants, key=lambda p: (self.run_cost(p) / self.yields[p], -self.yields[p]))

    def portfolio(self, plants: tuple[int, ...] | list[int]) -> float:
        """Value of the best ``limit`` plants, capacity beyond the ambition counting less."""
        scores = self._scores
        yields = self.yields
        style = self.style
        for p in plants:
            if p not in scores:
                # score(p) written out (this runs for every plant an auction looks at)
                r, burn = self.fuel[p]
                if r >= 0:
                    cost = burn * self.unit[r]
                elif r == _HYBRID:
                    coal, oil = self.unit[0], self.unit[1]
                    cost = burn * (oil if oil < coal else coal)
                else:
                    cost = 0.0
                scores[p] = yields[p] * style.city_value - cost * style.fuel_runs
        ambition = self.ambition
        extra = style.extra_share
        total = 0.0
        covered = 0
        for p in sorted(plants, key=scores.__getitem__, reverse=True)[:self.limit]:
            c = yields[p]
            room = ambition - covered
            if room >= c:
                # all of it useful: the share below is (c + extra * 0) / c, exactly 1.0
                value = scores[p]
            else:
                useful = room if room > 0 else 0
                value = scores[p] * ((useful + extra * (c - useful)) / c)
            if value > 0.0:
                total += value
            covered += c
        return total

    def gain(self, plant: int) -> float:
        value = self._gains.get(plant)
        if value is None:
            held = self._held
            if held is None:
                held = self._held = self.portfolio(self.mine)
            value = self._gains[plant] = self.portfolio(self.mine + (plant,)) - held
        return value

    def max_bid(self, plant: int) -> int:
        # (run_cost written out: every bid and opening asks for several)
        r, burn = self.fuel[plant]
        if r >= 0:
            cost = burn * self.unit[r]
        elif r == _HYBRID:
            coal, oil = self.unit[0], self.unit[1]
            cost = burn * (oil if oil < coal else coal)
        else:
            cost = 0.0
        reserve = 8 + 4 * self.step + cost
        worth = self.gain(plant) - self.style.bid_margin
        spare = self.money - reserve
        return int(spare if spare < worth else worth)


class _GameCaches:
    """The heuristic's (and the search's) caches for one game, found through its scenario's
    ``play_memo`` (shared by the public and sampled copies), so that no game reads or keeps
    another's: none of their entries is ever found by another game (the keys hold the
    scenario, or positions that recur across games about once in fifty), so their keys leave
    the scenario and the board out (the game's copies differ only in the seed). Only the last
    ``_GAMES_KEPT`` games' are kept filled: the scenarios of a game hold each other (a cycle,
    freed only by a full collection), so the entries of a finished game are emptied when a
    newer game's caches are made, and freed at once, not walked by the collector until then."""

    __slots__ = ("outlooks", "units", "positions", "last_position", "holdings")

    def __init__(self) -> None:
        #: outlooks by what they depend on: by the cheap part of it (no nested tuple to hash),
        #: each entry a few outlooks told apart by the market and everyone's plants
        self.outlooks: dict[tuple[Any, ...], list[Outlook]] = {}
        #: unit costs by what they depend on (cleared with the outlooks)
        self.units: dict[tuple[Any, ...], tuple[float, ...]] = {}
        #: positions by what they depend on (the step and everyone's cities, on the game's
        #: board: the houses and each seat's connection costs follow from these)
        self.positions: dict[tuple[Any, ...], _Position] = {}
        #: (key, position) last asked for: a new position one house on is made from it (one
        #: tuple, replaced whole: bots in several threads never pair one's key with another's
        #: position)
        self.last_position: tuple[Any, Any] = (None, None)
        #: the search's expected fuel prices and plant values per position (search._holdings)
        self.holdings: dict[tuple[Any, ...], tuple[tuple[float, ...], float]] = {}

    def clear(self) -> None:
        self.outlooks.clear()
        self.units.clear()
        self.positions.clear()
        self.last_position = (None, None)
        self.holdings.clear()


#: (scenario, its game's caches) last asked about (one game asks many times); one tuple,
#: replaced whole (bots may run in threads)
_LAST_CACHES: list[Any] = [(None, None)]
#: the games whose caches were made last, oldest first
_RECENT: list[_GameCaches] = []
#: games whose caches stay filled (a few, for games played side by side in threads)
_GAMES_KEPT = 4


def _caches(scn: Any) -> _GameCaches:
    """The caches of the game of ``scn`` (callers on hot paths read ``_LAST_CACHES`` first)."""
    memo = scn.play_memo
    caches: _GameCaches | None = memo.get("heuristic")
    if caches is None:
        caches = memo["heuristic"] = _GameCaches()
        _RECENT.append(caches)
        if len(_RECENT) > _GAMES_KEPT:
            _RECENT.pop(0).clear()
    _LAST_CACHES[0] = (scn, caches)
    return caches


#: outlooks kept per cheap key (the oldest goes first)
_BUCKET = 8
#: entries per cache of a game before it is cleared (caches, never a source of truth): every
#: entry is objects the garbage collector walks on each full collection while the game lasts
_CACHE_MAX = 2_000


def outlook(s: State, seat: int, style: Style = DEFAULT) -> Outlook:
    """The seat's Outlook now, shared with every equal moment (do not change it)."""
    scn = s.scn
    caches: _GameCaches
    last_scn, caches = _LAST_CACHES[0]
    if last_scn is not scn:
        caches = _caches(scn)
    outlooks = caches.outlooks
    market_res = tuple(s.market_res)
    plants = tuple(s.plants)
    key = (seat, s.step, len(s.cities[seat]), s.money[seat], style)
    bucket = outlooks.get(key)
    if bucket is None:
        if len(outlooks) >= _CACHE_MAX:
            outlooks.clear()
            caches.units.clear()
        bucket = outlooks[key] = []
    else:
        # (tuples compare item by item, the same inner tuples at once by identity)
        for look in bucket:
            if look.plants_all == plants and look.market_res == market_res:
                return look
        if len(bucket) >= _BUCKET:
            del bucket[0]
    # the expected fuel prices do not depend on the seat's money or cities: moments that
    # differ only there (a search's samples, turns of one phase) share them
    unit_key = (seat, market_res, plants)
    units = caches.units
    unit = units.get(unit_key)
    if unit is None:
        unit = units[unit_key] = unit_costs(s, seat)
    # the market and the others' plants matter only through the expected fuel prices: a
    # moment where they changed but not those (a plant sold to another seat, most often) has
    # the same values; it is found by them from now on
    mine = s.plants[seat]
    for look in bucket:
        if look.unit == unit and look.mine == mine:
            look.plants_all = plants
            look.market_res = market_res
            return look
    look = Outlook(s, seat, style, unit, market_res, plants)
    bucket.append(look)
    return look


def unit_costs(s: State, seat: int) -> tuple[float, ...]:
    """Expected price per unit of each resource, after the other players take part of their need."""
    demands = _DEMANDS
    coal = oil = garbage = uranium = 0
    plants = s.plants
    for j in range(len(plants)):
        if j == seat:
            continue
        mine = plants[j]
        d = demands.get(mine)
        if d is None:
            d = _demand(s.scn, mine)
        coal += d[0]
        oil += d[1]
        garbage += d[2]
        uranium += d[3]
    # the others take half their need: what is left is the market less a quarter of the
    # half-units (rounded down); the price of the first two units left, by units left
    market_res = s.market_res
    c0, c1, c2, c3 = _unit_prices(s.scn)
    have0 = market_res[0] - coal // 4
    have1 = market_res[1] - oil // 4
    have2 = market_res[2] - garbage // 4
    have3 = market_res[3] - uranium // 4
    return (c0[have0 if have0 > 0 else 0], c1[have1 if have1 > 0 else 0],
            c2[have2 if have2 > 0 else 0], c3[have3 if have3 > 0 else 0])


#: per holding of plants: half-units of each resource its owner burns in a run (a hybrid
#: burns half coal, half oil), so that the sums are integers
_DEMANDS: dict[tuple[int, ...], tuple[int, int, int, int]] = {}


def _demand(scn: Any, plants: tuple[int, ...]) -> tuple[int, int, int, int]:
    fuel = _fuel_table(scn)
    demand = [0, 0, 0, 0]
    for p in plants:
        r, burn = fuel[p]
        if r >= 0:
            demand[r] += 2 * burn
        elif r == _HYBRID:
            demand[0] += burn
            demand[1] += burn
    if len(_DEMANDS) >= _CACHE_MAX:
        _DEMANDS.clear()
    found = _DEMANDS[plants] = (demand[0], demand[1], demand[2], demand[3])
    return found


_UNIT_PRICES: weakref.WeakKeyDictionary[Any, tuple[tuple[float, ...], ...]] = weakref.WeakKeyDictionary()
#: (scenario, table) last asked about; one tuple, replaced whole (bots may run in threads)
_LAST_UNIT_PRICES: list[Any] = [(None, None)]


def _unit_prices(scn: Any) -> tuple[tuple[float, ...], ...]:
    """Per resource, by units left in the market: the mean price of the next two units (a unit
    the market cannot supply at SCARCE_PRICE); none left is index 0."""
    last_scn, last_table = _LAST_UNIT_PRICES[0]
    if last_scn is scn:
        found: tuple[tuple[float, ...], ...] = last_table
        return found
    table = _UNIT_PRICES.get(scn)
    if table is None:
        rows = []
        for r in range(4):
            prefix = scn.price_prefix[r]
            capacity = scn.capacity[r]
            row = [SCARCE_PRICE[r]]
            for have in range(1, capacity + 1):
                n = 2 if have >= 2 else have
                start = capacity - have
                row.append((prefix[start + n] - prefix[start] + (2 - n) * SCARCE_PRICE[r]) / 2)
            rows.append(tuple(row))
        table = _UNIT_PRICES[scn] = tuple(rows)
    _LAST_UNIT_PRICES[0] = (scn, table)
    return table


_HYBRID = -2
_FUEL: weakref.WeakKeyDictionary[Any, dict[int, tuple[int, int]]] = weakref.WeakKeyDictionary()
#: (scenario, table) last asked about (one game asks about one scenario many times); one
#: tuple, replaced whole, so that bots in several threads never pair one with another's
_LAST_FUEL: list[Any] = [(None, None)]


def _fuel_table(scn: Any) -> dict[int, tuple[int, int]]:
    """Per plant: (resource index, or _HYBRID, or -1 for none; units burned per run)."""
    last_scn, last_table = _LAST_FUEL[0]
    if last_scn is scn:
        found: dict[int, tuple[int, int]] = last_table
        return found
    table = _FUEL.get(scn)
    if table is None:
        table = {}
        for p, kind in scn.plant_kind.items():
            r = _RES_INDEX.get(kind)
            table[p] = (r if r is not None else _HYBRID if kind == "hybrid" else -1, scn.plant_burn[p])
        _FUEL[scn] = table
    _LAST_FUEL[0] = (scn, table)
    return table


# ---------------------------------------------------------------- auction
# Actions are immutable: the ones the bot answers with are made once and shared.
_BIDS: list[Action] = []
_OPENS: dict[tuple[int, int], Action] = {}
_BUYS = tuple(tuple(Action("buy", 0, n, "", r) for n in range(25)) for r in range(4))


def _bid(amount: int) -> Action:
    bids = _BIDS
    while len(bids) <= amount:
        bids.append(Action("bid", 0, len(bids)))
    return bids[amount]


def _open(plant: int, amount: int = 0) -> Action:
    key = (plant, amount or plant)
    action = _OPENS.get(key)
    if action is None:
        action = _OPENS[key] = Action("open", plant, key[1])
    return action


def _amount(s: State, seat: int, plant: int, least: int, limit: int, bidders: int) -> int:
    """What to bid for ``plant`` now, at least ``least`` and at most the seat's own ``limit``:
    the last bid the seat would make raising one at a time, made in one step.

    The rivals (the seats in ``bidders``, a bit set) are taken to value the plant as the
    default heuristic does (:func:`outlook`) and to raise while their ``max_bid`` allows.
    Raising one at a time, every bidder spends a decision per Elektro; jumping to the seat's
    own last bid of that auction leaves the others exactly where they would stand after it (a
    rival that would have dropped out earlier drops out at its next turn), so, rivals jumping
    alike, the plant goes to the same seat at the same price. Against rivals that value
    differently the bid is still never above the seat's limit.
    """
    if limit <= least:
        return least
    # the rivals that would raise ``least`` at all, in bidding order after the seat (seating
    # order), with their limits; a seat's max_bid is below its money less the reserve without
    # fuel, so the poor are skipped unasked
    scn = s.scn
    seating = scn.seating
    n = len(seating)
    at = scn.seat_position[seat]
    floor = 8 + 4 * s.step
    money = s.money
    ring: list[tuple[int, int]] = []
    for k in range(1, n):
        j = seating[(at + k) % n]
        if bidders >> j & 1 and money[j] - floor > least:
            most = outlook(s, j).max_bid(plant)
            if most > least:
                ring.append((j, most))
    if not ring:
        return least
    ring.append((seat, limit))
    # raise one at a time from the seat's bid of ``least`` while three or more are in
    bid = mine = least
    i = 0
    while len(ring) > 2:
        j, most = ring[i]
        if bid < most:
            bid += 1
            if j == seat:
                mine = bid
            i += 1
        else:
            del ring[i]
        if i >= len(ring):
            i = 0
    # two left: the one to move bids bid + 1, bid + 3, ... and the leader bid + 2, bid + 4,
    # ...; the first amount the other would not raise ends it (a bid the mover cannot make
    # at all ends it at once)
    mover, m_most = ring[i]
    leader, l_most = ring[1 - i]
    if bid >= m_most:
        return mine  # the mover passes: the leader wins at ``bid``
    first = bid + 1 if bid + 1 >= l_most else l_most + ((l_most - bid - 1) & 1)
    second = bid + 2 if bid + 2 >= m_most else m_most + ((m_most - bid) & 1)
    if first < second:
        # the mover wins at ``first``; the leader's last bid is one below it
        return first if mover == seat else (first - 1 if leader == seat else mine)
    return second - 1 if mover == seat else (second if leader == seat else mine)


def _open_or_pass(s: State, seat: int, style: Style, jump: bool = True) -> Action:
    """As the opener: the plant with the most surplus at its minimum bid, else pass (in round 1,
    where passing is not allowed while a plant is affordable, the best plant anyway); the opening
    bid is :func:`_amount`.

    Reads the choices from the state itself, as ``auction.legal`` lists them: an affordable
    plant of the current market can be opened at its number; passing is allowed after round 1,
    or when no plant is affordable.
    """
    look = outlook(s, seat, style)
    best = 0
    best_limit = 0
    best_surplus = -1e9
    money = s.money[seat]
    first_open = 0
    for plant in s.current_market():
        if plant > money:
            continue
        if not first_open:
            first_open = plant
        if plant == STEP3:
            continue
        limit = look.max_bid(plant)
        surplus = (limit if limit >= plant else look.gain(plant) - 50) - plant
        if surplus > best_surplus:
            best_surplus = surplus
            best = plant
            best_limit = limit
    must_buy = s.round == 1 and first_open > 0
    if best and (best_surplus >= 0 or must_buy):
        # the others still to buy this round are the bidders (none: the price is the minimum)
        bidders = ((1 << len(s.money)) - 1) & ~s.auc_done & ~(1 << seat)
        if not (jump and bidders):
            return _open(best)
        return _open(best, _amount(s, seat, best, best, best_limit, bidders))
    return _open(first_open) if must_buy else PASS


def _raise_or_pass(s: State, seat: int, style: Style, jump: bool = True) -> Action:
    """In a running auction: raise while the plant is worth it, by :func:`_amount` (the legal
    actions are every bid from one above the current one up to the seat's money, and passing)."""
    bid = s.auc_bid
    if s.money[seat] > bid:
        plant = s.auc_plant
        limit = outlook(s, seat, style).max_bid(plant)
        if bid + 1 <= limit:
            return _bid(_amount(s, seat, plant, bid + 1, limit, s.auc_in) if jump else bid + 1)
    return PASS


def _discard(s: State, seat: int, legal: list[Action], style: Style) -> Action:
    look = outlook(s, seat, style)
    mine = s.plants[seat]
    unit = look.unit
    kept_value: dict[int, float] = {}

    def worth(a: Action) -> float:
        plant = a.plant
        value = kept_value.get(plant)
        if value is None:
            value = kept_value[plant] = look.portfolio([p for p in mine if p != plant])
        kept = sum(n * unit[r] for r, n in enumerate(a.fuel))
        return value + kept

    return max(legal, key=worth)


# ---------------------------------------------------------------- resources
def _plants_to_run(s: State, seat: int, plants: tuple[int, ...], target: int,
                   total: int) -> tuple[int, ...] | list[int]:
    """The cheapest plants per city (more cities first on a tie) until ``target`` cities are
    covered; ``total`` is what all of them power. Every plant when all are needed: then their
    order (which needs the expected fuel prices) does not matter."""
    if total <= target or len(plants) <= 1:
        return plants
    scn = s.scn
    yields = scn.plant_cities
    fuel = _fuel_table(scn)
    unit = unit_costs(s, seat)
    chosen: list[int] = []
    covered = 0
    for p in sorted(plants, key=lambda p: (_run_cost(fuel, unit, p) / yields[p], -yields[p])):
        if covered >= target:
            break
        chosen.append(p)
        covered += yields[p]
    return chosen


def _run_cost(fuel: dict[int, tuple[int, int]], unit: tuple[float, ...], plant: int) -> float:
    """What one run of the plant burns, at the expected prices ``unit`` (as Outlook.run_cost)."""
    r, burn = fuel[plant]
    if r >= 0:
        return burn * unit[r]
    if r == _HYBRID:
        coal, oil = unit[0], unit[1]
        return burn * (oil if oil < coal else coal)
    return 0.0


def _game_may_end(s: State) -> bool:
    near: int = s.scn.end_cities - 3
    for c in s.cities:  # (a loop: max(map(len, ...)) costs more)
        if len(c) >= near:
            return True
    return False


def _buy(s: State, seat: int, style: Style) -> Action:
    """The legal purchases are 1..n units of one resource r, n what the seat can afford of r
    (``most_affordable``): worked out only for the resources wanted."""
    scn = s.scn
    mine = s.plants[seat]
    res = s.res
    i = 4 * seat
    held = (res[i], res[i + 1], res[i + 2], res[i + 3])  # (resources_of written out)
    space = room(held, capacities(scn, mine))
    if not (space[0] or space[1] or space[2] or space[3]):
        return DONE
    yields = scn.plant_cities
    total = 0
    for p in mine:
        total += yields[p]
    if _game_may_end(s):
        target = total
    else:
        target = len(s.cities[seat]) + (2 if s.step == 1 else 3)
        if target > scn.end_cities:
            target = scn.end_cities
        if target < 1:
            target = 1
    # (_plants_to_run's first test written out: most often every plant runs)
    chosen = mine if total <= target or len(mine) <= 1 else _plants_to_run(s, seat, mine, target, total)
    fuel = _fuel_table(scn)
    want = _deficit(s, fuel, chosen, held, 1)
    if not any(want) and s.money[seat] > 45 + 10 * s.step:
        ahead = _deficit(s, fuel, chosen, held, 2)
        want = [n if (s.price(r) or 99) <= style.cheap[r] else 0 for r, n in enumerate(ahead)]
    for r in range(4):
        amount = want[r]
        if amount > 0:
            affordable = _affordable(s, seat, r, space[r])
            if affordable < amount:
                amount = affordable
            if amount > 0:
                return _BUYS[r][amount]
    return DONE


def _deficit(s: State, fuel: dict[int, tuple[int, int]], chosen: tuple[int, ...] | list[int],
             held: tuple[int, ...], runs: int) -> list[int]:
    # units of each resource (hybrid apart) the chosen plants burn in ``runs`` runs
    n0 = n1 = n2 = n3 = hybrid = 0
    for p in chosen:
        r, burn = fuel[p]
        if r == 0:
            n0 += burn * runs
        elif r == 1:
            n1 += burn * runs
        elif r == 2:
            n2 += burn * runs
        elif r == 3:
            n3 += burn * runs
        elif r == _HYBRID:
            hybrid += burn * runs
    h0, h1, h2, h3 = held
    want = [n0 - h0 if n0 > h0 else 0, n1 - h1 if n1 > h1 else 0,
            n2 - h2 if n2 > h2 else 0, n3 - h3 if n3 > h3 else 0]
    if hybrid:
        spare = (h0 - n0 if h0 > n0 else 0) + (h1 - n1 if h1 > n1 else 0)
        short = hybrid - spare if hybrid > spare else 0
        if short:
            coal, oil = s.price(0), s.price(1)
            if oil is None or (coal is not None and coal <= oil):
                want[0] += short
            else:
                want[1] += short
    return want


# ---------------------------------------------------------------- building
class _BoardTables:
    """What the bot reads about one board, worked out once per board."""

    __slots__ = ("in_play", "index", "pick", "rows", "central", "half_central", "near", "nearest")

    def __init__(self, board: Any) -> None:
        in_play: tuple[int, ...] = board.in_play
        distance = board.distance
        self.in_play = in_play
        #: city -> its position in ``in_play``
        self.index = {c: i for i, c in enumerate(in_play)}
        #: a per-city table (by city number) -> its entries for the cities in play, in play order
        pick = self.pick = itemgetter(*in_play)
        #: per position in ``in_play``: the distances to the cities in play, in play order
        rows = self.rows = tuple(pick(distance[c]) for c in in_play)
        #: per city in play: mean cost to its four nearest neighbours (lower = more central)
        central: dict[int, float] = {}
        nearest = []
        for i, c in enumerate(in_play):
            others = list(rows[i])
            del others[i]
            others.sort()
            near = others[:4]
            central[c] = sum(near) / len(near)
            nearest.append(others[0])
        self.central = central
        #: per position in ``in_play``: the distance to the nearest other city in play (the
        #: least a house there costs to connect, once a seat has a network)
        self.nearest = tuple(nearest)
        #: per position in ``in_play``: half the centrality (the weight it has in the build score)
        self.half_central = tuple(0.5 * central[c] for c in in_play)
        #: per city in play: the cities in play at most 12 away (itself included), in play order
        self.near = {c: tuple(compress(in_play, map((12).__ge__, row)))
                     for c, row in zip(in_play, rows, strict=True)}


_TABLES: weakref.WeakKeyDictionary[Any, _BoardTables] = weakref.WeakKeyDictionary()
#: (board, tables) last asked about (one game asks about one board many times); one tuple,
#: replaced whole, so that bots in several threads never pair one with another's
_LAST_TABLES: list[Any] = [(None, None)]


def _tables(board: Any) -> _BoardTables:
    last_board, last_tables = _LAST_TABLES[0]
    if last_board is board:
        found: _BoardTables = last_tables
        return found
    found_or_none = _TABLES.get(board)
    if found_or_none is None:
        found_or_none = _TABLES[board] = _BoardTables(board)
    _LAST_TABLES[0] = (board, found_or_none)
    return found_or_none


def _centrality(s: State) -> dict[int, float]:
    """Per city in play: mean cost to its four nearest neighbours (lower = more central)."""
    return _tables(s.scn.board).central


def fuel_capacity(s: State, seat: int) -> int:
    """Cities the seat's plants can power with the fuel it holds (not capped by its cities)."""
    res = s.res
    i = 4 * seat
    # the rules' memo of the most cities each holding powers with each stock (what
    # bureaucracy.best_powered reads before capping by cities): shared by every game made from
    # one catalog, where a cache of the bot's own was one game's and more objects to collect
    key = (s.plants[seat], (res[i], res[i + 1], res[i + 2], res[i + 3]))
    memo = s.scn.power_best_memo
    cities: int | None = memo.get(key)
    if cities is None:
        if len(memo) >= _MEMO_MAX:
            memo.clear()
        cities = memo[key] = max(o[2] for o in power_options(s, seat))
    return cities


#: a price no city reaches: cities that cannot be built are priced at it
_NEVER = 10**9
#: no city costs less than its first slot
_CHEAPEST = SLOT_PRICES[0]
#: per step: the price of a city by the houses already in it (_NEVER where it is full)
_SLOT_BY_HOUSES = {step: tuple(SLOT_PRICES[n] if n < step else _NEVER for n in range(8))
                   for step in (1, 2, 3)}


def cheapest_cities(s: State, seat: int, money: int, most: int,
                    position: _Position | None = None) -> list[int]:
    """Running totals of the cheapest cities ``seat`` could still build now, chosen greedily
    (each time the cheapest, the first in play order on a tie), up to ``most`` or the money.
    ``position`` is ``_position(s)`` when the caller has it already."""
    if most <= 0:
        return []
    net = _network(s, seat, position)
    totals = net.totals
    while len(totals) < most and not net.exhausted and (not totals or totals[-1] <= money):
        net.extend()
    # the choices do not depend on the money: the totals it pays for are a prefix
    return totals[:bisect_right(totals, money, 0, most if most < len(totals) else len(totals))]


class _Network:
    """What one seat could build, for one position of everyone's cities: the price of each city
    in play now, and the greedy choice of the cheapest cities (worked out as far as asked)."""

    __slots__ = ("prices", "totals", "exhausted", "_rows", "_base", "_now", "_connected",
                 "_spent", "_pending")

    def __init__(self, rows: tuple[tuple[int, ...], ...], base: tuple[int, ...], prices: tuple[int, ...],
                 connected: bool) -> None:
        #: per city in play (in play order): what the seat pays to build there now, _NEVER
        #: where it cannot (a tuple, as are the position's slot prices and the prices after
        #: each choice: kept in caches, tuples of numbers cost the garbage collector one look,
        #: lists one at every collection)
        self.prices = prices
        #: running totals of the greedy choices so far
        self.totals: list[int] = []
        self.exhausted = False
        self._rows = rows
        #: the slot prices, _NEVER where the seat has a house or has chosen one (a tuple too,
        #: made anew at each choice: networks stay in the cache, where a list of 28 to 42 numbers
        #: costs a walk of all of them at every collection that reaches it)
        self._base = base
        self._now = prices  # each step makes a new tuple
        self._connected = connected
        self._spent = 0
        self._pending = -1  # the last city chosen, whose connections are not yet counted

    def extend(self) -> None:
        """One more greedy choice (or ``exhausted``)."""
        i = self._pending
        base = self._base
        if i >= 0:
            row = self._rows[i]
            # (map(add) sums in C; a two-argument min() per element would be slower than the
            # comprehension's conditional)
            if self._connected:
                prices = [p if p < b else b for p, b in zip(self._now, map(add, base, row), strict=True)]
                prices[i] = _NEVER
                self._now = tuple(prices)
            else:
                # (the chosen city is at _NEVER in the base already, its own distance 0)
                self._now = tuple(map(add, base, row))
                self._connected = True
            self._pending = -1
        now = self._now
        best = min(now)
        if best >= _NEVER:
            self.exhausted = True
            return
        i = now.index(best)
        self._spent += best
        self.totals.append(self._spent)
        self._base = base[:i] + (_NEVER,) + base[i + 1:]
        self._pending = i

    def after_house(self, i: int, slot: int) -> _Network | None:
        """This seat's network once another seat has built in the city at ``i`` (in play
        order), whose slot price is now ``slot``: the same greedy choices so far, or None when
        one of them was that city (worked out afresh then).

        The city only got dearer, so each earlier choice, the cheapest (the first in play order
        on a tie) when made, still is; every price of the city moves by the same amount, as each
        is its slot price plus a connection cost.
        """
        base = self._base
        old = base[i]
        if old >= _NEVER:
            return None  # chosen (a city the seat owns never changes hands: the caller checks)
        delta = slot - old
        base = base[:i] + (slot,) + base[i + 1:]
        changed = list(self.prices)
        changed[i] += delta
        prices = tuple(changed)
        if self._now is self.prices:
            now = prices
        else:
            changed = list(self._now)
            changed[i] += delta
            now = tuple(changed)
        net = _Network(self._rows, base, prices, self._connected)
        net._now = now
        net.totals = self.totals[:]
        net.exhausted = self.exhausted
        net._spent = self._spent
        net._pending = self._pending
        return net


class _Position:
    """One position of everyone's cities (on one board, in one step): the slot price of each
    city in play, and each seat's :class:`_Network`, made when first asked for."""

    __slots__ = ("slots", "networks", "origin", "least")

    def __init__(self, slots: tuple[int, ...], players: int,
                 origin: tuple[list[_Network | None], int, int, int, int] | None = None) -> None:
        self.slots = slots
        self.networks: list[_Network | None] = [None] * players
        #: for a position one house on from another: (that position's networks, the seat
        #: that built, the city, its position in play, its slot price now), from which the
        #: other seats' networks are made when first asked for
        self.origin = origin
        #: see _least_costs (made when first asked for)
        self.least: tuple[int, ...] | None = None


def _position(s: State) -> _Position:
    """The position of everyone's cities now (its key hashes every city: find it once a decision)."""
    scn = s.scn
    caches: _GameCaches
    last_scn, caches = _LAST_CACHES[0]
    if last_scn is not scn:
        caches = _caches(scn)
    positions = caches.positions
    key = (s.step, tuple(s.cities))
    position = positions.get(key)
    if position is None:
        if len(positions) >= _CACHE_MAX:
            positions.clear()
        position = positions[key] = _next_position(s, key, caches.last_position) or _new_position(s)
    caches.last_position = (key, position)
    return position


def _new_position(s: State) -> _Position:
    slot = _SLOT_BY_HOUSES[s.step]
    houses = s.houses
    return _Position(tuple([slot[len(houses[c])] for c in _tables(s.scn.board).in_play]), len(s.cities))


def _next_position(s: State, key: tuple[Any, ...], last: tuple[Any, Any]) -> _Position | None:
    """The position ``key`` made from the last one asked for (``last``: its key and itself),
    when it is that one with one more house (a seat building during its turn): the other seats
    keep their greedy choices unless they had chosen that city. None when the last position is
    not such a parent."""
    last_key, parent = last
    if last_key is None or last_key[0] != key[0]:
        return None
    old = last_key[1]
    new = key[1]
    builder = -1
    for j in range(len(new)):
        if new[j] is not old[j] and new[j] != old[j]:
            if builder >= 0:
                return None
            builder = j
    if builder < 0:
        return None
    mine = new[builder]
    if len(mine) != len(old[builder]) + 1 or mine[:-1] != old[builder]:
        return None
    city = mine[-1]
    i = _tables(s.scn.board).index[city]
    slot = _SLOT_BY_HOUSES[key[0]][len(s.houses[city])]
    slots = parent.slots[:i] + (slot,) + parent.slots[i + 1:]
    return _Position(slots, len(new), (parent.networks, builder, city, i, slot))


def _network(s: State, seat: int, position: _Position | None = None) -> _Network:
    if position is None:
        position = _position(s)
    net = position.networks[seat]
    if net is not None:
        return net
    origin = position.origin
    if origin is not None and origin[1] != seat:
        before = origin[0][seat]
        if before is not None:
            # a seat with a house there already is not touched by the new one
            net = before if origin[2] in s.cities[seat] else before.after_house(origin[3], origin[4])
    if net is None:
        tables = _tables(s.scn.board)
        base = list(position.slots)
        index = tables.index
        for c in s.cities[seat]:
            base[index[c]] = _NEVER
        reach = s.reach[seat]
        fixed = tuple(base)
        prices = fixed if reach is None else tuple(map(add, fixed, tables.pick(reach)))
        net = _Network(tables.rows, fixed, prices, reach is not None)
    position.networks[seat] = net
    return net


def _short(s: State, seat: int, count: int, money: int, position: _Position) -> bool:
    """Whether ``seat`` surely cannot pay for ``count`` more cities now (then the greedy, which
    would only find that out, need not run): with a network, every city it builds costs at
    least its slot price plus the distance to its nearest city in play, so ``count`` cities at
    least the ``count`` least of those sums over the cities with a free slot. False where that
    does not settle it."""
    if s.reach[seat] is None:
        return False  # the first city is connected for nothing
    least = position.least
    if least is None:
        # (all in C: a full city's sum is _NEVER or more, so it sorts after every free one and
        # the free ones are those below _NEVER)
        costs = sorted(map(add, position.slots, _tables(s.scn.board).nearest))
        free = bisect_left(costs, _NEVER)
        least = position.least = tuple(accumulate(costs[:free], initial=0))
    return count >= len(least) or least[count] > money


def _first(totals: list[int], most: int) -> tuple[int, int]:
    """(count, cost) of the first ``most`` of the greedy choices ``totals``."""
    count = len(totals)
    if most < count:
        count = most
    if count > 0:
        return count, totals[count - 1]
    return 0, 0


def affordable_cities(s: State, seat: int, money: int, most: int,
                      position: _Position | None = None) -> tuple[int, int]:
    """(count, cost) of the cheapest cities ``seat`` could still build now, greedily, up to ``most``."""
    return _first(cheapest_cities(s, seat, money, most, position), most)


def _build_target(s: State, seat: int, power: int | None = None, style: Style = DEFAULT,
                  position: _Position | None = None) -> tuple[int, bool]:
    """How many cities to own after this turn, and whether cost limits are off (end game)."""
    end = s.scn.end_cities
    owned = len(s.cities[seat])
    if power is None:
        power = fuel_capacity(s, seat)
    money = s.money[seat]
    if _near_end(s, end):
        decided = _end_game_target(s, seat, owned, power, money,
                                   position if position is not None else _position(s))
        if decided is not None:
            return decided
    target = power
    capacity = sum(map(s.scn.plant_cities.__getitem__, s.plants[seat]))
    if money >= style.build_reserve + 10 * s.step:
        # money to spare: claim cities the plants will power next round, and one more in Step 1
        claim = capacity + (1 if s.step == 1 else 0)
        if claim > target:
            target = claim
    return (target if target < end - 1 else end - 1), False


def _near_end(s: State, end: int) -> bool:
    """Whether a seat could reach the end with the money it holds (a loop: a generator costs more)."""
    money = s.money
    for j, c in enumerate(s.cities):
        if len(c) + money[j] // 10 >= end:
            return True
    return False


def _end_game_target(s: State, seat: int, owned: int, power: int, money: int,
                     position: _Position) -> tuple[int, bool] | None:
    """End the game if that wins; build all that can be powered if a rival can end it anyway."""
    end = s.scn.end_cities
    can = cost = 0
    if money >= _CHEAPEST * (end - owned) and not _short(s, seat, end - owned, money, position):
        can, cost = affordable_cities(s, seat, money, end - owned, position)
    if owned + can < end:
        # the seat cannot end it: the rivals' standings do not matter, only whether one can
        if _ends_anyway(s, seat, end, position):
            return max(owned, power), True
        return None
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
            to_end = max(0, end - j_cities)
            useful = max(0, j_power - j_cities)
            # Whether j can reach the end needs the greedy only if j's money could pay for it.
            may_end = j_money >= _CHEAPEST * to_end and not _short(s, j, to_end, j_money, position)
            totals = cheapest_cities(s, j, j_money, max(to_end, useful) if may_end else useful, position)
            if may_end:
                extra, spent = _first(totals, to_end)
                if j_cities + extra >= end:
                    ends_anyway = True
            extra_useful, spent = _first(totals, useful)
            j_cities += extra_useful
            j_money -= spent
        threats.append((min(j_power, j_cities), j_money))
    mine = (min(power, end), money - cost)
    if all(mine > t for t in threats) or s.round >= STALEMATE_ROUND:
        return end, True
    if ends_anyway:
        return max(owned, power), True
    return None


def _ends_anyway(s: State, seat: int, end: int, position: _Position) -> bool:
    """Whether a rival has ended the game or can end it in this build phase after the seat."""
    cities = s.cities
    for c in cities:
        if len(c) >= end:
            return True
    order = s.order
    money = s.money
    for t in range(s.turn + 1, len(order)):
        j = order[-1 - t]
        j_cities = len(cities[j])
        to_end = end - j_cities if end > j_cities else 0
        if money[j] >= _CHEAPEST * to_end and not _short(s, j, to_end, money[j], position):
            extra, _ = _first(cheapest_cities(s, j, money[j], to_end, position), to_end)
            if j_cities + extra >= end:
                return True
    return False


def _build(s: State, seat: int, style: Style) -> Action:
    """The city to build in now, or done. Reads the buildable cities from the state itself
    (what ``building.legal`` lists, in the same order), not from the legal actions."""
    scn = s.scn
    taken = s.cities[seat]
    owned = len(taken)
    if owned >= scn.max_houses:
        return DONE
    tables = _tables(scn.board)
    in_play = tables.in_play
    position = _position(s)
    prices = _network(s, seat, position).prices
    money = s.money[seat]
    if min(prices) > money:
        return DONE  # nothing affordable: done is the only legal action
    power = fuel_capacity(s, seat)
    target, all_out = _build_target(s, seat, power, style, position)
    if owned >= target:
        return DONE
    # the most the bot pays for a city now (the legal limit is its money)
    cap = money
    if not all_out:
        if style.max_city_cost < cap:
            cap = style.max_city_cost
        if owned >= power and money - style.build_reserve < cap:
            cap = money - style.build_reserve  # keep a reserve when the city cannot be powered
    half_central = tables.half_central
    if s.reach[seat] is not None:
        scores = list(map(add, prices, half_central))
        best = min(scores)
        i = scores.index(best)
        if prices[i] <= cap:
            # the best of all is one the bot pays for, so also the best (and first) of those
            first: Action = scn.build_actions[in_play[i]]
            return first
        scores = [price + h if price <= cap else _NO_SCORE
                  for price, h in zip(prices, half_central, strict=True)]
    else:
        # the first city: away from the other players' houses
        houses = s.houses
        near = tables.near
        scores = []
        for i, price in enumerate(prices):
            if price > cap:
                scores.append(_NO_SCORE)
                continue
            c = in_play[i]
            crowd = 0
            for d in near[c]:
                if houses[d]:
                    crowd += 1
            scores.append(price + half_central[i] + (4 * crowd + 3 * len(houses[c])))
    best = min(scores)
    if best >= _NO_SCORE:
        return DONE
    build: Action = scn.build_actions[in_play[scores.index(best)]]
    return build


#: the score of a city the bot will not build in now
_NO_SCORE = 1e18


# ---------------------------------------------------------------- the bot
def decide(s: State, seat: int, legal: list[Action] | None = None, style: Style = DEFAULT,
           jump: bool = True) -> Action:
    """The heuristic's choice for ``seat``, who must act now in ``s`` (a view or a state).

    ``jump=False`` opens at the minimum and raises by one, as the heuristic did before it bid
    in one step (:func:`_amount`): the same plant to the same seat at the same price, in more
    decisions. The search's rollouts play so: its budget counts forward-model calls, and one
    step a bid keeps a budget buying the same look-ahead as before.
    """
    phase = s.phase
    if phase == BUREAUCRACY:
        # the rules' default (the most cities paid, then the cheapest fuel) is what the bot
        # plays, and is the only legal choice when there is one; no need to list them
        power: Action = default_power(s, seat)
        return power
    if phase == RESOURCES_PHASE:
        return _buy(s, seat, style)
    if phase == BUILD:
        return _build(s, seat, style)
    if phase == AUCTION and s.discard_seat < 0:
        if s.auc_plant:
            return _raise_or_pass(s, seat, style, jump)
        return _open_or_pass(s, seat, style, jump)
    if legal is None:
        legal = s.legal_actions()
    if len(legal) == 1:
        return legal[0]
    if phase == AUCTION:
        return _discard(s, seat, legal, style)
    return legal[0]


class HeuristicBot(Bot):
    name = "heuristic"
    style = DEFAULT

    def act(self, view: GameView) -> Action:
        # The masked state reads the same as the view, without the per-attribute indirection.
        state, seat = view.seen_by()
        # building and buying (most of the moves) without the further call of decide()
        phase = state.phase
        if phase == BUILD:
            return _build(state, seat, self.style)
        if phase == RESOURCES_PHASE:
            return _buy(state, seat, self.style)
        return decide(state, seat, None, self.style)


#: a bolder player: cities and spare capacity count for more, fuel for less, it bids past its
#: valuation, connects at any price up to 55 and keeps little money back
BOLD = Style(city_value=24.0, fuel_runs=2.0, extra_share=0.5, bid_margin=-4.0, cheap=(3, 3, 3, 7),
             max_city_cost=55, build_reserve=10)


class BoldBot(HeuristicBot):
    """The heuristic's rules of thumb with the :data:`BOLD` valuations and bidding: a ladder
    opponent the search's rollouts (which play the default heuristic) do not predict."""

    name = "bold"
    style = BOLD
