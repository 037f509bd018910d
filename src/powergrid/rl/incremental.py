"""Observations kept up to date per seat: the environments' fast path to the encoder's vector.

A :class:`SeatObservation` holds one seat's last observation and, for each part of it, the
inputs it was written from: each player's hand (plant features, storage), each player's
cities (houses on the map, city counts, my connection costs), the plant market, money,
resources, the resource market, the auction, the one-hot flags. :meth:`IncrementalEncoder.encode`
compares the inputs with the game's (by value, so copies and pickles of a game or an
environment stay right), rewrites only the parts that differ, and returns a copy. Between two
decisions only a few parts change (a bid changes the auction's numbers and who is to act), so
most of the vector is never touched again; single numbers and parts are written through a
``memoryview``, which costs far less than a NumPy call.

The result is :meth:`ObservationEncoder.encode`'s vector byte for byte
(``tests/rl/test_incremental.py`` checks it against a fresh encoder over random games, any
seat, caches many decisions stale, copied and unpickled games): the parts are the encoder's
own memoised pieces, and each number is capped and divided as the encoder does it (in double
precision, then stored as float32).
"""

from __future__ import annotations

from array import array
from itertools import compress
from operator import ne
from typing import Any

import numpy as np

from ..rules import STEP3, GameState
from .observation import _PLANT_ARRAYS, MARKET_SLOTS, PLANT_FEATURES, ObservationEncoder

#: houses in a city / 3, as the encoder computes it (float32 sum of 0/1 over seats, / 3)
_TAKEN = (np.arange(4, dtype=np.float32) / np.float32(3.0)).tolist()
_NO_PLANT = np.zeros(len(PLANT_FEATURES), dtype=np.float32)
_POSITIONS = range(1024)
#: a connection cost under 60 -> its value (cost / 60, in double precision as the encoder divides)
_CONNECTION = {cost: cost / 60.0 for cost in range(60)}


def _zeros_f32(n: int) -> array[float]:
    return array("f", bytes(4 * n))


#: (cap, denominator) -> the scaled value of 0, 1, 2...: ``min(v, cap) / denominator`` as the
#: encoder computes it (in double precision; the float32 rounding happens on the write)
_TABLES: dict[tuple[float, float], list[float]] = {}
_TABLE_SIZE = 1024


def _scaled_values(cap: float, denominator: float) -> list[float]:
    table = _TABLES.get((cap, denominator))
    if table is None:
        table = _TABLES[cap, denominator] = []
        _extend(table, cap, denominator, _TABLE_SIZE)
    return table


def _extend(table: list[float], cap: float, denominator: float, size: int) -> None:
    table.extend((v if v < cap else cap) / denominator for v in range(len(table), size))


def _grow_tables(needed: int) -> None:
    """Every table long enough for the values 0 .. needed - 1 (in place: encoders hold them)."""
    for (cap, denominator), table in _TABLES.items():
        _extend(table, cap, denominator, needed)


class SeatObservation:
    """One seat's last observation and the inputs each part was written from."""

    __slots__ = ("seat", "array", "view", "board", "end_cities", "plants", "cities", "market", "step",
                 "round", "money", "powered", "res", "market_res", "supply", "bid", "deck",
                 "auction_plant", "ones", "unconnected")

    def __init__(self, seat: int, size: int, players: int) -> None:
        self.seat = seat
        self.array = np.zeros(size, dtype=np.float32)
        self.view = memoryview(self.array)
        self.board: Any = None
        self.end_cities = -1
        #: per map city, my connection cost's value when it is 60 or more: 1.0 in play, else 0.0
        self.unconnected: tuple[float, ...] = ()
        self.plants: list[Any] = [None] * players
        self.cities: list[Any] = [None] * players
        self.forget()

    def forget(self) -> None:
        """Every part is to be written again (the array was reset to a board's template)."""
        n = len(self.plants)
        self.plants = [None] * n
        self.cities = [None] * n
        self.market: list[int] | None = None
        self.step = self.round = self.bid = self.deck = self.auction_plant = -1
        # Kept numbers start as -1 (no number is negative): every position differs at first.
        self.money: list[int] = [-1] * n
        self.powered: list[int] = [-1] * n
        self.res: list[int] = [-1] * (4 * n)
        self.market_res: list[int] = [-1] * 4
        self.supply: list[int] = [-1] * 4
        self.ones: frozenset[int] | None = None

    def __getstate__(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__slots__ if name != "view"}

    def __setstate__(self, saved: dict[str, Any]) -> None:
        for name, value in saved.items():
            setattr(self, name, value)
        self.view = memoryview(self.array)
        if "unconnected" not in saved:  # saved before it was kept
            self.board = None


class IncrementalEncoder:
    """The encoder's observations, from per-seat caches (see the module's doc)."""

    def __init__(self, encoder: ObservationEncoder) -> None:
        self.encoder = e = encoder
        n = self.players = e.players
        at = e._at
        self.size = e.size
        pf = len(PLANT_FEATURES)
        self._plants_at = [at[f"p{k}_plant_cities"] for k in range(n)]
        self._plants_size = at["p0_plants"] + e.hand * pf - at["p0_plant_cities"]
        self._houses_at = at["city_houses"]
        self._taken_at = at["city_taken"]
        self._connection_at = at["my_connection"]
        self._market_at = at["market"]
        self._market_size = MARKET_SLOTS * (pf + 2)
        self._in_play = e._in_play_slice
        self._plant_at = at["auction_plant"]
        self._plant_size = pf
        # Every number's cap and denominator, by position, as the encoder scales it.
        scale = dict(zip(e._scalar_at.tolist(), zip(e._scalar_cap.tolist(), e._scalar_denominator.tolist(),
                                                    strict=True), strict=True))
        p_at, size = e._players_at, e._player_size

        def player(me: int, s: int, offset: int) -> int:
            return p_at + (s - me) % n * size + offset

        # Per observing seat: where seat s's money, cities, powered and resources go.
        self._money_at = [[player(me, s, 0) for s in range(n)] for me in range(n)]
        self._cities_at = [[player(me, s, 1) for s in range(n)] for me in range(n)]
        self._powered_at = [[player(me, s, 2) for s in range(n)] for me in range(n)]
        self._res_at = [[player(me, s, 3 + r) for s in range(n) for r in range(4)] for me in range(n)]
        self._cities_scale = scale[player(0, 0, 1)]
        # The numbers that change often are read from tables of their scaled values.
        self._money_table = _scaled_values(*scale[player(0, 0, 0)])
        self._powered_table = _scaled_values(*scale[player(0, 0, 2)])
        self._res_tables = [_scaled_values(*scale[player(0, 0, 3 + r)]) for r in range(4)] * n
        self._round = (at["round"], *scale[at["round"]])
        self._most = (at["most_cities"], *scale[at["most_cities"]])
        self._powerable = (at["my_powerable"], *scale[at["my_powerable"]])
        self._bid = (at["auction_bid"], *scale[at["auction_bid"]])
        self._deck = (at["deck"], *scale[at["deck"]])
        self._market_res = [(at["resource_market"] + r, _scaled_values(*scale[at["resource_market"] + r]),
                             at["resource_price"] + r, _scaled_values(*scale[at["resource_price"] + r]))
                            for r in range(4)]
        self._supply = [(at["resource_supply"] + r, _scaled_values(*scale[at["resource_supply"] + r]))
                        for r in range(4)]
        written = {self._round[0], self._most[0], self._powerable[0], self._bid[0], self._deck[0],
                   *(x[k] for x in self._market_res for k in (0, 2)), *(x[0] for x in self._supply),
                   *(p for table in (self._money_at, self._cities_at, self._powered_at, self._res_at)
                     for p in table[0])}
        if written != set(scale):
            raise AssertionError("incremental numbers out of step with the encoder's")  # pragma: no cover
        self._ones: dict[Any, frozenset[int]] = {}
        #: (flags before, flags now) -> (positions to clear, positions to set)
        self._moves: dict[tuple[frozenset[int], frozenset[int]], tuple[tuple[int, ...], tuple[int, ...]]] = {}

    def seat_observation(self, seat: int) -> SeatObservation:
        return SeatObservation(seat, self.size, self.players)

    # ------------------------------------------------------------------ whole observations
    def encode(self, state: GameState, memo: SeatObservation, to_act: int | None = -1) -> np.ndarray:
        """A new array: the observation of ``memo.seat`` in ``state`` (``to_act``: the state's
        player to act, when the caller knows it)."""
        return self.update(state, memo, to_act).copy()

    def encode_batch(self, states: list[GameState], memos: list[SeatObservation],
                     out: np.ndarray) -> np.ndarray:
        """Row ``i`` of ``out``: the observation of ``memos[i].seat`` in ``states[i]``."""
        update = self.update
        rows = [update(state, memo) for state, memo in zip(states, memos, strict=True)]
        if out.flags.c_contiguous:
            np.concatenate(rows, out=out.reshape(-1))
        else:
            out[:] = rows
        return out

    def update(self, state: GameState, memo: SeatObservation, to_act: int | None = -1) -> np.ndarray:
        """Bring the seat's kept observation up to date with ``state``; returns it (not a copy)."""
        scn = state.scn
        if memo.board is not scn.board or memo.end_cities != scn.end_cities:
            self._start(state, memo)
        # One comparison per kind of part (lists compare in C, item by item, and an unchanged
        # hand or network is the very same tuple): the common case is "no change".
        me = memo.seat
        mine = False  # whether my powerable cities may have changed (my plants, cities, resources)
        if memo.plants != state.plants:
            mine = memo.plants[me] != state.plants[me]
            self._write_plants(state, memo)
        if memo.cities != state.cities:
            mine = mine or memo.cities[me] != state.cities[me]
            self._write_cities(state, memo)
        if memo.market != state.market or memo.step != state.step:
            self._write_market(state, memo)
        try:
            if self._write_numbers(state, memo):
                mine = True
        except IndexError:  # a number past its table (a very long game): longer tables, again
            _grow_tables(max(*state.money, *state.powered, *state.res, *state.market_res, *state.supply) + 1)
            if self._write_numbers(state, memo):
                mine = True
        if mine:
            at, _, denominator = self._powerable
            memo.view[at] = self.encoder._powerable(state, memo.seat) / denominator
        # The one-hot flags that are 1, kept per combination of what sets them (the same set
        # object for the same combination).
        plant = state.auc_plant
        if to_act == -1:
            to_act = state.current_player
        key = (me, state.step, state.phase, to_act, state.discard_seat == me, not state.cities[me],
               state.order, state.auc_done, state.auc_in if plant else -1,
               state.auc_leader if plant else -1, STEP3 in state.deck)
        ones = self._ones.get(key)
        if ones is None:
            if len(self._ones) > 50_000:
                self._ones.clear()
            ones = self._ones[key] = frozenset(self.encoder.one_positions(state, me))
        before = memo.ones
        if ones is not before:
            view = memo.view
            if before is None:
                for at in ones:
                    view[at] = 1.0
            else:  # a few flags move (who acts, an auction's status), kept per pair of sets
                moves = self._moves.get((before, ones))
                if moves is None:
                    if len(self._moves) > 50_000:
                        self._moves.clear()
                    moves = self._moves[before, ones] = (tuple(before - ones), tuple(ones - before))
                for at in moves[0]:
                    view[at] = 0.0
                for at in moves[1]:
                    view[at] = 1.0
            memo.ones = ones
        if plant != memo.auction_plant:
            at = self._plant_at
            memo.view[at:at + self._plant_size] = _PLANT_ARRAYS[plant] if plant else _NO_PLANT
            memo.auction_plant = plant
        return memo.array

    # ------------------------------------------------------------------ parts that change rarely
    def _start(self, state: GameState, memo: SeatObservation) -> None:
        """A new board (or a first game): the template, and every part to be written."""
        _, _, template = self.encoder._statics(state)
        memo.array[:] = template
        memo.board, memo.end_cities = state.scn.board, state.scn.end_cities
        memo.unconnected = tuple(memo.array[self._in_play].tolist())
        memo.forget()

    def _write_plants(self, state: GameState, memo: SeatObservation) -> None:
        e = self.encoder
        view = memo.view
        n, me = self.players, memo.seat
        size = self._plants_size
        known = memo.plants
        for s, held in enumerate(state.plants):
            if known[s] == held:
                continue
            part = e._memoised(("plants", held), lambda held=held: e._plants_part(held))
            o = self._plants_at[(s - me) % n]
            view[o:o + size] = part
        memo.plants = state.plants.copy()

    def _write_cities(self, state: GameState, memo: SeatObservation) -> None:
        """City counts, the houses of the cities that changed (a seat's house there, houses
        per city) and, when my network changed, my connection costs."""
        view = memo.view
        n, me = self.players, memo.seat
        houses_at, taken_at = self._houses_at, self._taken_at
        cities_at = self._cities_at[me]
        cap, denominator = self._cities_scale
        houses = state.houses
        known = memo.cities
        for s, held in enumerate(state.cities):
            before = known[s]
            if before == held:
                continue
            k = (s - me) % n
            for city in set(held).symmetric_difference(before or ()):
                view[houses_at + city * n + k] = 1.0 if city in held else 0.0
                view[taken_at + city] = _TAKEN[len(houses[city])]
            count = len(held)
            view[cities_at[s]] = (count if count < cap else cap) / denominator
            if s == me:
                at = self._connection_at
                reach = state.reach[me]
                n_cities = self.encoder.cities
                if reach is None:
                    view[at:at + n_cities] = _zeros_f32(n_cities)
                else:
                    # min(cost / 60, 1) in play, 0 out of play, as the encoder computes it: a
                    # city out of play is never reached (its cost is NO_PATH, not in the table)
                    view[at:at + n_cities] = array("f", map(_CONNECTION.get, reach, memo.unconnected))
        most = max(map(len, state.cities))
        at, cap, denominator = self._most
        view[at] = (most if most < cap else cap) / denominator
        memo.cities = state.cities.copy()

    def _write_market(self, state: GameState, memo: SeatObservation) -> None:
        e = self.encoder
        key = tuple(state.market)
        part = e._memoised(("market", key, state.step), lambda: e._market_part(key, state.current_market()))
        memo.view[self._market_at:self._market_at + self._market_size] = part
        memo.market, memo.step = state.market.copy(), state.step

    # ------------------------------------------------------------------ numbers that change often
    def _write_numbers(self, state: GameState, memo: SeatObservation) -> bool:
        """Money, powered cities, resources, the resource market and supply, the round, the
        bid and the deck size, each group written when it changed. True when my resources
        changed (my powerable cities may have). An IndexError (a number past its table) leaves
        the group to be written again: a group is remembered only once written whole."""
        # Between two observations of a seat only a few numbers of a group move (one player's
        # money, one resource): the numbers that differ from the kept ones are found in C
        # (compress over map(ne, ...)) and only those are written; a Python loop over every
        # number of a group costs more than the writes it saves.
        view = memo.view
        me = memo.seat
        money = state.money
        before = memo.money
        if before != money:
            table = self._money_table
            at = self._money_at[me]
            for i in compress(_POSITIONS, map(ne, money, before)):
                view[at[i]] = table[money[i]]
            memo.money = money.copy()
        powered = state.powered
        before = memo.powered
        if before != powered:
            table = self._powered_table
            at = self._powered_at[me]
            for i in compress(_POSITIONS, map(ne, powered, before)):
                view[at[i]] = table[powered[i]]
            memo.powered = powered.copy()
        mine = False
        res = state.res
        before = memo.res
        if before != res:
            at = self._res_at[me]
            tables = self._res_tables
            for i in compress(_POSITIONS, map(ne, res, before)):
                view[at[i]] = tables[i][res[i]]
                if i >> 2 == me:  # my resources (4 per seat)
                    mine = True
            memo.res = res.copy()
        market_res = state.market_res
        before = memo.market_res
        if before != market_res:
            prices = self.encoder._prices(state)
            for i in compress(_POSITIONS, map(ne, market_res, before)):
                at, table, price_at, price_table = self._market_res[i]
                v = market_res[i]
                view[at] = table[v]
                view[price_at] = price_table[prices[i][v]]
            memo.market_res = market_res.copy()
        supply = state.supply
        before = memo.supply
        if before != supply:
            for i in compress(_POSITIONS, map(ne, supply, before)):
                at, table = self._supply[i]
                view[at] = table[supply[i]]
            memo.supply = supply.copy()
        if memo.round != state.round:
            at, cap, denominator = self._round
            v = state.round
            view[at] = (v if v < cap else cap) / denominator
            memo.round = v
        bid = state.auc_bid if state.auc_plant else 0
        if memo.bid != bid:
            at, cap, denominator = self._bid
            view[at] = (bid if bid < cap else cap) / denominator
            memo.bid = bid
        deck = len(state.deck)
        if memo.deck != deck:
            at, cap, denominator = self._deck
            view[at] = (deck if deck < cap else cap) / denominator
            memo.deck = deck
        return mine
