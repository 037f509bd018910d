"""The flat float32 observation of one seat, built from that seat's view only.

Players appear in seat order *relative to the observer*: fields ``p0_*`` describe the observer,
``p1_*`` the next seat, and so on, so a policy reads "me" at the same place in every seat. Every value is
scaled into [0, 1] except money (Elektro / 100, capped at 5). The layout depends only on the
player count and the number of cities on the map; :func:`observation_fields` lists it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..rules import STEP3, GameState, GameView, catalog
from .views import seen_state

KINDS = ("coal", "oil", "hybrid", "garbage", "uranium", "ecological", "fusion")
#: present, number/50, kind one-hot (7), burn/3, cities/7
PLANT_FEATURES = ("present", "number", *(f"kind_{k}" for k in KINDS), "burn", "cities")
MARKET_SLOTS = 8
MONEY_SCALE = 100.0
MONEY_HIGH = 5.0
_PHASES = (2, 3, 4, 5)  # auction, resources, build, bureaucracy
_PHASE_AT = {phase: 4 + i for i, phase in enumerate(_PHASES)}

_STORAGE_SLOT = {"coal": 0, "oil": 1, "hybrid": 2, "garbage": 3, "uranium": 4}
_FUEL_SLOT = {"coal": 0, "oil": 1, "garbage": 2, "uranium": 3, "hybrid": 4}


def _plant_table() -> dict[int, tuple[float, ...]]:
    table: dict[int, tuple[float, ...]] = {}
    for n, p in catalog().plants.items():
        kind = tuple(1.0 if p.kind == k else 0.0 for k in KINDS)
        table[n] = (1.0, n / 50.0, *kind, p.burn / 3.0, p.cities / 7.0)
    table[STEP3] = (1.0,) + (0.0,) * (len(PLANT_FEATURES) - 1)
    return table


_PLANTS = _plant_table()
_CATALOG_PLANTS = catalog().plants
_TRACKS = catalog().tracks
_NO_PLANT = (0.0,) * len(PLANT_FEATURES)
_PLANT_ARRAYS = {n: np.array(f, dtype=np.float32) for n, f in _PLANTS.items()}


@dataclass(frozen=True)
class Field:
    """One named part of the observation vector."""

    name: str
    start: int
    stop: int
    high: float
    meaning: str

    @property
    def slice(self) -> slice:
        return slice(self.start, self.stop)

    @property
    def size(self) -> int:
        return self.stop - self.start


def hand_slots(players: int) -> int:
    """Plant slots per player: the plant limit plus one (held while discarding)."""
    return catalog().player_counts[players].max_plants + 1


class ObservationEncoder:
    """Builds the observation vector for a given player count and map size."""

    def __init__(self, players: int, cities: int) -> None:
        self.players = players
        self.cities = cities
        self.hand = hand_slots(players)
        fields: list[Field] = []
        pf = len(PLANT_FEATURES)

        def add(name: str, size: int, meaning: str, high: float = 1.0) -> int:
            start = fields[-1].stop if fields else 0
            fields.append(Field(name, start, start + size, high, meaning))
            return start

        n = players
        add("round", 1, "round / 30 (capped)")
        add("step", 3, "one-hot: Step 1, 2, 3")
        add("phase", 4, "one-hot: auction, resources, build, bureaucracy (all 0 when over)")
        add("to_act", n, "one-hot relative seat that must act (0 = me)")
        add("must_discard", 1, "1 when I must discard a plant over the limit")
        add("end_cities", 1, "cities that end the game / 22")
        add("most_cities", 1, "most cities any player has / 22")
        add("my_powerable", 1, "cities I could power now with my plants and resources / 20")
        add("my_network", 1, "1 when I have at least one city")
        self._players_at = fields[-1].stop
        for k in range(n):
            add(f"p{k}_money", 1, f"Elektro / 100, capped at {MONEY_HIGH:g}", MONEY_HIGH)
            add(f"p{k}_cities", 1, "cities / 22")
            add(f"p{k}_powered", 1, "cities powered in the last bureaucracy / 20")
            add(f"p{k}_resources", 4, "coal, oil, garbage held / 24, uranium held / 12")
            add(f"p{k}_order", n, "one-hot place in turn order (0 = first)")
            add(f"p{k}_auction", 3, "done with this round's auctions; in the running auction; leading it")
            add(f"p{k}_plant_cities", 1, "sum of the plants' capacities (cities) / 28")
            add(f"p{k}_storage", 5, "storage room of the plants: coal, oil, hybrid, garbage, uranium / 24")
            add(f"p{k}_plants", self.hand * pf,
                f"plants held, lowest first: {self.hand} slots x {pf} plant features")
        self._player_size = (fields[-1].stop - self._players_at) // n
        self._player_dynamic = 3 + 4 + n + 3
        add("city_in_play", cities, "1 for each map city (map order) in a region in play")
        add("city_houses", cities * n,
            "city-major: for city i, relative seat k: 1 if that player has a house there")
        add("city_taken", cities, "houses in the city / 3")
        add("my_connection", cities, "my cheapest connection cost to the city / 60 (capped; 0 "
                                     "without a network)")
        add("market", MARKET_SLOTS * (pf + 2),
            f"plant market, lowest first, {MARKET_SLOTS} slots x ({pf} plant features, "
            "is the Step 3 card, is in the current market)")
        add("resource_market", 4, "units in the resource market / track size")
        add("resource_price", 4, "price of the next unit / 16 (0 when sold out)")
        add("resource_supply", 4, "units in the general supply / total units")
        add("auction_running", 1, "1 while an auction runs")
        add("auction_plant", pf, "plant being auctioned: plant features")
        add("auction_bid", 1, "current bid / 100, capped at 5", MONEY_HIGH)
        add("auction_leader", n, "one-hot relative seat of the highest bidder")
        add("deck", 2, "deck size / 42, 1 while the Step 3 card is in the deck")
        self.fields: tuple[Field, ...] = tuple(fields)
        self.size = fields[-1].stop
        self.high = np.ones(self.size, dtype=np.float32)
        for f in fields:
            self.high[f.start:f.stop] = f.high
        self._at = {f.name: f.start for f in fields}
        self._boards: dict[int, tuple[Any, int, tuple[int, ...], np.ndarray]] = {}
        self._in_play_slice = slice(self._at["city_in_play"], self._at["city_in_play"] + cities)
        self._dynamic_gap = np.zeros(self._player_dynamic, dtype=np.float32)
        self._dynamic_tail = np.zeros(self.size - self._at["resource_market"], dtype=np.float32)
        self._price_tables: dict[tuple[int, ...], list[list[int]]] = {}
        self._memo: dict[Any, Any] = {}
        self._scalars(n)
        if self._at["city_in_play"] != self._players_at + n * self._player_size:
            raise AssertionError("observation layout out of step with encode")  # pragma: no cover

    def _scalars(self, n: int) -> None:
        """Where the numbers written on every call go, with their caps and scales (``encode``
        lists the values in this order)."""
        at = self._at
        spots: list[tuple[int, float, float]] = [
            (at["round"], 30, 30), (at["most_cities"], 1e9, 22), (at["my_powerable"], 1e9, 1)]
        for k in range(n):
            o = at[f"p{k}_money"]
            spots += [(o, 500, MONEY_SCALE), (o + 1, 1e9, 22), (o + 2, 20, 20)]
            spots += [(o + 3 + r, _TRACKS[r].capacity, _TRACKS[r].capacity) for r in range(4)]
        spots += [(at["resource_market"] + r, 1e9, _TRACKS[r].capacity) for r in range(4)]
        spots += [(at["resource_price"] + r, 1e9, 16) for r in range(4)]
        spots += [(at["resource_supply"] + r, _TRACKS[r].total, _TRACKS[r].total) for r in range(4)]
        spots += [(at["auction_bid"], 500, MONEY_SCALE), (at["deck"], 42, 42)]
        self._scalar_at = np.array([s[0] for s in spots], dtype=np.intp)
        self._scalar_cap = np.array([s[1] for s in spots], dtype=np.float64)
        self._scalar_denominator = np.array([s[2] for s in spots], dtype=np.float64)

    def layout(self) -> list[tuple[str, slice]]:
        return [(f.name, f.slice) for f in self.fields]

    def _statics(self, state: GameState) -> tuple[int, tuple[int, ...], np.ndarray]:
        """The board's key, the cities in play and a template vector holding what a game never
        changes. Kept per board (a batch of games has many), with the board itself so that
        its ``id`` stays its own while cached."""
        scn = state.scn
        board = scn.board
        key = id(board)
        cached = self._boards.get(key)
        if cached is None or cached[0] is not board or cached[1] != scn.end_cities:
            if len(self._boards) >= 256:
                self._boards.clear()
                self._memo.clear()
            in_play = tuple(board.in_play)
            template = np.zeros(self.size, dtype=np.float32)
            at = self._at["city_in_play"]
            for c in in_play:
                template[at + c] = 1.0
            template[self._at["end_cities"]] = scn.end_cities / 22.0
            cached = self._boards[key] = (board, scn.end_cities, in_play, template)
        return key, cached[2], cached[3]

    # Parts that change rarely (plants held, houses, the plant market, a seat's network) are
    # memoised by their immutable inputs: that is most of the speed of ``encode``.
    def _memoised(self, key: Any, make: Any) -> Any:
        memo = self._memo
        value = memo.get(key)
        if value is None:
            if len(memo) > 50_000:
                memo.clear()
            value = memo[key] = make()
        return value

    def _plants_part(self, plants: tuple[int, ...]) -> np.ndarray:
        """Plant cities, storage (5) and plant features (hand x features) of a hand."""
        storage = [0, 0, 0, 0, 0]
        total = 0
        for p in plants:
            plant = _CATALOG_PLANTS[p]
            total += plant.cities
            slot = _STORAGE_SLOT.get(plant.kind)
            if slot is not None:
                storage[slot] += 2 * plant.burn
        out = [min(total, 28) / 28.0] + [min(x, 24) / 24.0 for x in storage]
        for p in plants[:self.hand]:
            out += _PLANTS[p]
        out += _NO_PLANT * (self.hand - min(len(plants), self.hand))
        return np.array(out, dtype=np.float32)

    def _houses_of(self, held: tuple[int, ...], in_play: np.ndarray) -> np.ndarray:
        """1 for each city (in play) where a seat with these cities has a house."""
        out = np.zeros(self.cities, dtype=np.float32)
        if held:
            out[list(held)] = 1.0
        return out * in_play

    def _connection_part(self, reach: tuple[int, ...] | None, in_play: np.ndarray) -> np.ndarray:
        """Cheapest connection cost to each city in play / 60, capped at 1 (0 without a network)."""
        if reach is None:
            return np.zeros(self.cities, dtype=np.float32)
        costs = np.minimum(np.array(reach, dtype=np.float64) / 60.0, 1.0)
        return (costs * in_play).astype(np.float32)

    def _market_part(self, market: tuple[int, ...], current: tuple[int, ...]) -> np.ndarray:
        out: list[float] = []
        for p in market[:MARKET_SLOTS]:
            out += _PLANTS[p]
            out.append(1.0 if p == STEP3 else 0.0)
            out.append(1.0 if p in current else 0.0)
        out += [0.0] * ((MARKET_SLOTS - min(len(market), MARKET_SLOTS)) * (len(PLANT_FEATURES) + 2))
        return np.array(out, dtype=np.float32)

    def _powerable(self, seen: GameState, me: int) -> float:
        """Cities I could power now / 20: the best runnable set of my plants, capped by my cities.

        The same number as ``GameState.powerable`` (a test checks it), found faster: the hand's
        plant sets are listed once, best first, and the first one the stored resources can run
        wins.
        """
        held = seen.plants[me]
        runs = _RUNS.get(held)
        if runs is None:
            if len(_RUNS) > 100_000:
                _RUNS.clear()
            runs = _RUNS[held] = _plant_sets(held)
        coal, oil, garbage, uranium = seen.resources_of(me)
        best = 0
        for need_coal, need_oil, need_garbage, need_uranium, hybrid, cities in runs:
            if (need_coal <= coal and need_oil <= oil and need_garbage <= garbage
                    and need_uranium <= uranium and hybrid <= coal - need_coal + oil - need_oil):
                best = cities
                break
        return min(best, len(seen.cities[me]), 20) / 20.0

    def encode(self, view: GameView | GameState, seat: int | None = None,
               out: np.ndarray | None = None) -> np.ndarray:
        """The observation vector of ``seat`` (default: the view's seat, or a state's player to
        act), float32, shape ``(size,)``.

        A true ``GameState`` may be encoded directly: the observation reads only what every
        player sees (the deck enters as its size and whether the Step 3 card is in it).
        Built from memoised arrays of the parts that change rarely and one vectorised write of
        the numbers that change often. ``out`` (a float32 row of the right size, e.g. of a
        batch) is filled and returned instead of a new array.
        """
        seen, me = _seen_and_seat(view, seat)
        obs = self.base(seen, me, out)
        values, ones = self.dynamic(seen, me, obs)
        scalars = np.minimum(np.array(values, dtype=np.float64), self._scalar_cap)
        obs[self._scalar_at] = scalars / self._scalar_denominator
        obs[ones] = 1.0
        return obs

    def encode_batch(self, states: list[GameState], seats: list[int], out: np.ndarray) -> np.ndarray:
        """Observations of ``seats[i]`` in ``states[i]`` into the rows of ``out``: the same as
        ``encode`` row by row, with the numbers that change often written in one go."""
        values: list[float] = []
        ones: list[int] = []
        size = self.size
        for i, (seen, me) in enumerate(zip(states, seats, strict=True)):
            row = self.base(seen, me, out[i])
            row_values, row_ones = self.dynamic(seen, me, row)
            values += row_values
            at = i * size
            ones += [at + o for o in row_ones]
        scalars = np.minimum(np.array(values, dtype=np.float64).reshape(len(states), -1), self._scalar_cap)
        out[:, self._scalar_at] = scalars / self._scalar_denominator
        out.reshape(-1)[ones] = 1.0
        return out

    def base(self, seen: GameState, me: int, out: np.ndarray | None = None) -> np.ndarray:
        """An array (``out`` if given) holding everything that changes only when a plant is
        bought or a house built, from memoised pieces (the numbers that change often are 0)."""
        _, in_play, template = self._statics(seen)
        return self._base(seen, me, in_play, template, out)

    def dynamic(self, seen: GameState, me: int, obs: np.ndarray) -> tuple[list[float], list[int]]:
        """The numbers that change often (raw, in the order of the scalar spots) and the
        positions that are 1; the plant on auction is written into ``obs`` directly."""
        n = self.players
        at = self._at
        cities = seen.cities
        money, powered, res = seen.money, seen.powered, seen.res
        auc_plant = seen.auc_plant
        market_res = seen.market_res

        values: list[float] = [seen.round, max(len(c) for c in cities), self._powerable(seen, me)]
        for k in range(n):
            s = (me + k) % n
            i = 4 * s
            values += (money[s], len(cities[s]), powered[s], res[i], res[i + 1], res[i + 2], res[i + 3])
        values += market_res
        prices = self._prices(seen)
        values += (prices[0][market_res[0]], prices[1][market_res[1]], prices[2][market_res[2]],
                   prices[3][market_res[3]])
        values += seen.supply
        if auc_plant:
            values.append(seen.auc_bid)
            plant_at = at["auction_plant"]
            obs[plant_at:plant_at + len(PLANT_FEATURES)] = _PLANT_ARRAYS[auc_plant]
        else:
            values.append(0)
        values.append(len(seen.deck))
        return values, self.one_positions(seen, me)

    def one_positions(self, seen: GameState, me: int) -> list[int]:
        """The flag positions that are 1 for seat ``me``: step, phase, who acts, discard, network,
        each seat's turn order and auction status, the auction, and whether Step 3 is in the deck."""
        n = self.players
        at = self._at
        auc_done, auc_in, auc_leader, auc_plant = seen.auc_done, seen.auc_in, seen.auc_leader, seen.auc_plant
        order = seen.order
        to_act = seen.current_player
        ones = [seen.step]
        phase_at = _PHASE_AT.get(seen.phase)
        if phase_at is not None:
            ones.append(phase_at)
        if to_act is not None:
            ones.append(8 + (to_act - me) % n)
        if seen.discard_seat == me:
            ones.append(at["must_discard"])
        if seen.cities[me]:
            ones.append(at["my_network"])
        p_at, size = self._players_at, self._player_size
        for k in range(n):
            s = (me + k) % n
            o = p_at + k * size
            ones.append(o + 7 + order.index(s))
            if auc_done >> s & 1:
                ones.append(o + 7 + n)
            if auc_plant:
                if auc_in >> s & 1:
                    ones.append(o + 8 + n)
                if auc_leader == s:
                    ones.append(o + 9 + n)
        if auc_plant:
            ones.append(at["auction_running"])
            ones.append(at["auction_leader"] + (auc_leader - me) % n)
        if STEP3 in seen.deck:
            ones.append(at["deck"] + 1)
        return ones

    def _prices(self, seen: GameState) -> list[list[int]]:
        """Per resource, the price of the next unit indexed by the units left (0 when none)."""
        scn = seen.scn
        table = self._price_tables.get(scn.capacity)
        if table is None:
            table = []
            for r in range(4):
                capacity = scn.capacity[r]
                prices = scn.catalog.tracks[r].slot_prices
                table.append([0] + [prices[capacity - count] for count in range(1, capacity + 1)])
            self._price_tables[scn.capacity] = table
        return table

    def _base(self, seen: GameState, me: int, in_play: tuple[int, ...], template: np.ndarray,
              out: np.ndarray | None = None) -> np.ndarray:
        """The template with the parts that change rarely filled in: plants held, houses,
        my connection costs, the plant market; one concatenation of memoised pieces."""
        n = self.players
        p_at = self._players_at
        memo = self._memoised
        board = id(seen.scn.board)
        flags = template[self._in_play_slice]
        pieces = [template[:p_at]]
        gap = self._dynamic_gap
        for k in range(n):
            held = seen.plants[(me + k) % n]
            pieces.append(gap)
            pieces.append(memo(("plants", held), lambda held=held: self._plants_part(held)))
        pieces.append(flags)
        cities = seen.cities
        pieces.append(memo((board, me, tuple(cities)), lambda: self._houses_part(board, me, cities, flags)))
        reach = seen.reach[me]
        pieces.append(memo(("reach", board, cities[me]), lambda: self._connection_part(reach, flags)))
        market = tuple(seen.market)
        pieces.append(memo(("market", market, seen.step),
                           lambda: self._market_part(market, seen.current_market())))
        pieces.append(self._dynamic_tail)
        return np.concatenate(pieces, out=out)

    def _houses_part(self, board: int, me: int, cities: list[tuple[int, ...]],
                     flags: np.ndarray) -> np.ndarray:
        """City houses (city-major, seats relative to me) and houses per city / 3. Each seat's
        houses are kept as a 0/1 vector per city list, so a build redoes only the builder's."""
        n, size = self.players, self.cities
        block = np.empty((size, n), dtype=np.float32)
        for k in range(n):
            held = cities[(me + k) % n]
            block[:, k] = self._memoised(("houses", board, held),
                                         lambda held=held: self._houses_of(held, flags))
        return np.concatenate((block.ravel(), block.sum(axis=1) / np.float32(3.0)))


#: plant sets of each hand seen, shared by every encoder (hands recur across games)
_RUNS: dict[tuple[int, ...], list[tuple[int, int, int, int, int, int]]] = {}


def _plant_sets(plants: tuple[int, ...]) -> list[tuple[int, int, int, int, int, int]]:
    """Every non-empty set of the plants as (coal, oil, garbage, uranium, hybrid fuel, cities),
    most cities first."""
    sets = []
    for bits in range(1, 1 << len(plants)):
        need = [0, 0, 0, 0, 0, 0]
        for i, number in enumerate(plants):
            if bits >> i & 1:
                plant = _CATALOG_PLANTS[number]
                slot = _FUEL_SLOT.get(plant.kind)
                if slot is not None:
                    need[slot] += plant.burn
                need[5] += plant.cities
        sets.append((need[0], need[1], need[2], need[3], need[4], need[5]))
    sets.sort(key=lambda s: -s[5])
    return sets


def _seen_and_seat(view: GameView | GameState, seat: int | None) -> tuple[GameState, int]:
    if isinstance(view, GameView):
        return seen_state(view), view.seat if seat is None else seat
    me = view.current_player if seat is None else seat
    if me is None:
        raise ValueError("the game is over: name the seat to observe")
    return view, me


def observation_fields(players: int = 4, cities: int = 42) -> list[tuple[str, slice]]:
    """The observation layout as (name, slice) pairs, in order, for a player count and map size."""
    return ObservationEncoder(players, cities).layout()
