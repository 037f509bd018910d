"""Observations kept up to date per seat: the environments' fast path to the encoder's vector.

An observation has two kinds of parts. The *slow* ones change only when a plant is bought, a
house built or the plant market moves: each player's plants and storage, the houses on the
map, my connection costs, the plant market. The *fast* ones change at almost every decision:
money, resources, turn order, the auction, the resource market (about 60 numbers and a dozen
ones). A :class:`SeatObservation` holds one seat's slow parts as an array with the inputs
each part was built from; :class:`IncrementalEncoder` rewrites only the parts whose inputs
differ (compared by value, so copies and pickles of a game or an environment stay right)
and writes the fast numbers over a copy of that array in one assignment.

The result is the :class:`~powergrid.rl.observation.ObservationEncoder`'s ``encode`` value,
byte for byte (``tests/rl/test_incremental.py`` checks it over random games, seats and stale
caches): the slow parts are the encoder's own memoised pieces and the fast numbers are the
same values scaled the same way.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..rules import STEP3, GameState
from .observation import _PHASE_AT, _PLANT_ARRAYS, MARKET_SLOTS, PLANT_FEATURES, ObservationEncoder

#: houses in a city / 3, as the encoder computes it (float32 sum of 0/1 over seats, / 3)
_TAKEN = (np.arange(4, dtype=np.float32) / np.float32(3.0)).tolist()


class SeatObservation:
    """One seat's slow observation parts and the inputs they were built from."""

    __slots__ = ("seat", "array", "board", "end_cities", "plants", "cities", "market", "step")

    def __init__(self, seat: int, size: int, players: int) -> None:
        self.seat = seat
        self.array = np.zeros(size, dtype=np.float32)
        self.board: Any = None
        self.end_cities = -1
        #: per seat (seat order): the hands and the cities the parts were built from
        self.plants: list[Any] = [None] * players
        self.cities: list[Any] = [None] * players
        self.market: list[int] | None = None
        self.step = 0


class IncrementalEncoder:
    """The encoder's observations, from per-seat caches (see the module's doc)."""

    def __init__(self, encoder: ObservationEncoder) -> None:
        self.encoder = encoder
        e = encoder
        n = self.players = e.players
        at = e._at
        self.size = e.size
        pf = len(PLANT_FEATURES)
        self._pf = pf
        # Where each slow part goes.
        self._plants_at = [at[f"p{k}_plant_cities"] for k in range(n)]
        self._plants_size = at["p0_plants"] + e.hand * pf - at["p0_plant_cities"]
        self._houses_at = at["city_houses"]
        self._taken_at = at["city_taken"]
        self._connection_at = at["my_connection"]
        self._market_at = at["market"]
        self._market_size = MARKET_SLOTS * (pf + 2)
        self._in_play = e._in_play_slice
        # The fast numbers, listed in seat order (money of seats 0..n-1, then their cities...):
        # where each goes depends on the observing seat, its cap and denominator do not.
        p_at, size = e._players_at, e._player_size
        tracks = [(f.stop - f.start) for f in e.fields if f.name == "resource_market"]
        assert tracks == [4]
        caps = dict(zip(e._scalar_at.tolist(), zip(e._scalar_cap.tolist(), e._scalar_denominator.tolist(),
                                                   strict=True), strict=True))
        self._fast_at: list[np.ndarray] = []
        order: list[int] = []
        for me in range(n):
            def player(s: int, offset: int, me: int = me) -> int:
                return p_at + (s - me) % n * size + offset
            where = [at["round"], at["most_cities"], at["my_powerable"]]
            for offset in (0, 1, 2):  # money, cities, powered
                where += [player(s, offset) for s in range(n)]
            where += [player(s, 3 + r) for s in range(n) for r in range(4)]  # resources held
            for name in ("resource_market", "resource_price", "resource_supply"):
                where += range(at[name], at[name] + 4)
            where += [at["auction_bid"], at["deck"]]
            self._fast_at.append(np.array(where, dtype=np.intp))
            order = where if me == 0 else order
        if sorted(order) != sorted(e._scalar_at.tolist()):
            raise AssertionError("fast numbers out of step with the encoder's")  # pragma: no cover
        self._caps = np.array([caps[p][0] for p in order], dtype=np.float64)
        self._denominators = np.array([caps[p][1] for p in order], dtype=np.float64)
        self._plant_at = at["auction_plant"]
        self._ones: dict[Any, np.ndarray] = {}

    def seat_observation(self, seat: int) -> SeatObservation:
        return SeatObservation(seat, self.size, self.players)

    # ------------------------------------------------------------------ slow parts
    def refresh(self, state: GameState, memo: SeatObservation) -> np.ndarray:
        """Bring the seat's slow parts up to date with ``state``; returns the array (its fast
        positions hold zeros or stale numbers: :meth:`encode` writes over every one of them)."""
        arr = memo.array
        scn = state.scn
        if memo.board is not scn.board or memo.end_cities != scn.end_cities:
            self._start(state, memo)
        # One comparison per kind of part (lists of tuples compare in C, item by item, and
        # an unchanged hand or network is the same tuple): the common case is "no change".
        if memo.plants != state.plants:
            self._write_plants(state, memo)
        if memo.cities != state.cities:
            self._write_cities(state, memo)
        if memo.market != state.market or memo.step != state.step:
            e = self.encoder
            key = tuple(state.market)
            part = e._memoised(("market", key, state.step),
                               lambda: e._market_part(key, state.current_market()))
            arr[self._market_at:self._market_at + self._market_size] = part
            memo.market, memo.step = state.market[:], state.step
        return arr

    def _start(self, state: GameState, memo: SeatObservation) -> None:
        """A new board (or a first game): the template, and every part to be written."""
        _, _, template = self.encoder._statics(state)
        memo.array[:] = template
        memo.board, memo.end_cities = state.scn.board, state.scn.end_cities
        memo.plants = [None] * self.players
        memo.cities = [None] * self.players
        memo.market = None

    def _write_plants(self, state: GameState, memo: SeatObservation) -> None:
        e = self.encoder
        arr = memo.array
        n, me = self.players, memo.seat
        size = self._plants_size
        known = memo.plants
        for s, held in enumerate(state.plants):
            if known[s] == held:
                continue
            part = e._memoised(("plants", held), lambda held=held: e._plants_part(held))
            o = self._plants_at[(s - me) % n]
            arr[o:o + size] = part
        memo.plants = state.plants[:]

    def _write_cities(self, state: GameState, memo: SeatObservation) -> None:
        """The houses of the cities that changed (a seat's house there, houses per city) and,
        when my network changed, my connection costs."""
        arr = memo.array
        n, me = self.players, memo.seat
        houses_at, taken_at = self._houses_at, self._taken_at
        houses = state.houses
        known = memo.cities
        for s, held in enumerate(state.cities):
            before = known[s]
            if before == held:
                continue
            k = (s - me) % n
            for city in set(held).symmetric_difference(before or ()):
                arr[houses_at + city * n + k] = 1.0 if city in held else 0.0
                arr[taken_at + city] = _TAKEN[len(houses[city])]
            if s == me:
                e = self.encoder
                part = e._connection_part(state.reach[me], arr[self._in_play])
                arr[self._connection_at:self._connection_at + e.cities] = part
        memo.cities = state.cities[:]

    # ------------------------------------------------------------------ fast numbers
    def numbers(self, state: GameState, me: int) -> list[Any]:
        """The numbers that change often, raw, in seat order (see ``_fast_at``)."""
        cities = state.cities
        market_res = state.market_res
        prices = self.encoder._prices(state)
        raw: list[Any] = [state.round, max(map(len, cities)), self.encoder._powerable(state, me)]
        raw += state.money
        raw += map(len, cities)
        raw += state.powered
        raw += state.res
        raw += market_res
        raw += (prices[0][market_res[0]], prices[1][market_res[1]], prices[2][market_res[2]],
                prices[3][market_res[3]])
        raw += state.supply
        raw.append(state.auc_bid if state.auc_plant else 0)
        raw.append(len(state.deck))
        return raw

    def ones(self, state: GameState, me: int) -> np.ndarray:
        """Positions of the one-hot flags that are 1, kept per combination of what sets them."""
        auc_plant = state.auc_plant
        key = (me, state.step, state.phase, state.current_player, state.discard_seat == me,
               not state.cities[me], state.order, state.auc_done,
               state.auc_in if auc_plant else -1, state.auc_leader if auc_plant else -1,
               STEP3 in state.deck)
        found = self._ones.get(key)
        if found is None:
            if len(self._ones) > 50_000:
                self._ones.clear()
            found = self._ones[key] = self._find_ones(state, me)
        return found

    def _find_ones(self, state: GameState, me: int) -> np.ndarray:
        e = self.encoder
        n = self.players
        at = e._at
        ones = [state.step]
        phase_at = _PHASE_AT.get(state.phase)
        if phase_at is not None:
            ones.append(phase_at)
        to_act = state.current_player
        if to_act is not None:
            ones.append(8 + (to_act - me) % n)
        if state.discard_seat == me:
            ones.append(at["must_discard"])
        if state.cities[me]:
            ones.append(at["my_network"])
        p_at, size = e._players_at, e._player_size
        for k in range(n):
            s = (me + k) % n
            o = p_at + k * size
            ones.append(o + 7 + state.order.index(s))
            if state.auc_done >> s & 1:
                ones.append(o + 7 + n)
            if state.auc_plant:
                if state.auc_in >> s & 1:
                    ones.append(o + 8 + n)
                if state.auc_leader == s:
                    ones.append(o + 9 + n)
        if state.auc_plant:
            ones.append(at["auction_running"])
            ones.append(at["auction_leader"] + (state.auc_leader - me) % n)
        if STEP3 in state.deck:
            ones.append(at["deck"] + 1)
        return np.array(ones, dtype=np.intp)

    def scale(self, raw: list[Any], rows: int | None = None) -> np.ndarray:
        """The raw numbers capped and scaled as the encoder does (float64; one row per game)."""
        values = np.array(raw, dtype=np.float64)
        if rows is not None:
            values = values.reshape(rows, -1)
        np.minimum(values, self._caps, out=values)
        values /= self._denominators
        return values

    # ------------------------------------------------------------------ whole observations
    def encode(self, state: GameState, memo: SeatObservation) -> np.ndarray:
        """A new array: the observation of ``memo.seat`` in ``state``."""
        me = memo.seat
        obs = self.refresh(state, memo).copy()
        obs[self._fast_at[me]] = self.scale(self.numbers(state, me))
        obs[self.ones(state, me)] = 1.0
        plant = state.auc_plant
        if plant:
            obs[self._plant_at:self._plant_at + len(PLANT_FEATURES)] = _PLANT_ARRAYS[plant]
        return obs

    def encode_batch(self, states: list[GameState], memos: list[SeatObservation], out: np.ndarray) -> np.ndarray:
        """Row ``i`` of ``out``: the observation of ``memos[i].seat`` in ``states[i]``; the fast
        numbers of every row are scaled and written in one go."""
        raw: list[Any] = []
        refresh, numbers, ones = self.refresh, self.numbers, self.ones
        plant_at, plant_stop = self._plant_at, self._plant_at + len(PLANT_FEATURES)
        seats = []
        for i, (state, memo) in enumerate(zip(states, memos, strict=True)):
            me = memo.seat
            seats.append(me)
            row = out[i]
            row[:] = refresh(state, memo)
            raw += numbers(state, me)
            row[ones(state, me)] = 1.0
            plant = state.auc_plant
            if plant:
                row[plant_at:plant_stop] = _PLANT_ARRAYS[plant]
        rows = len(states)
        values = self.scale(raw, rows)
        first = seats[0]
        if seats.count(first) == rows:
            out[:, self._fast_at[first]] = values
        else:
            for me in set(seats):
                picked = [i for i, s in enumerate(seats) if s == me]
                out[np.ix_(picked, self._fast_at[me])] = values[picked]
        return out
