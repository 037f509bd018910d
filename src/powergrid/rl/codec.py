"""The fixed ``Discrete`` action space: every legal engine action as one integer, and back.

The codec knows the shapes of actions, never the rules: which actions are legal comes from
the engine (``legal_actions()``, or for the long runs of auction bids the ranges of
:mod:`powergrid.rl.auction_ranges`, which a test holds equal to ``legal_actions()``; the masks
written from each phase's structure are held equal to ``legal_actions()`` encoded one by one).
An index names an action relative to what the seat sees — "plant slot 2 of the current
market", "the second plant in my hand" — so one policy output means the same thing in every
game.

Blocks, in index order (``ActionCodec.blocks`` gives the exact ranges)::

    pass                          1
    done                          1
    open  slot s (0..5), bid b    6 x B
    bid   b                       B
    discard hand slot h, coal c   HAND x (COAL_KEPT + 1)   keep c coal (the rest of the keep is
                                                            fixed by c: the most oil that fits)
    buy   resource r, n units     sum of track sizes (24 + 24 + 24 + 12)
    build city i                  number of cities on the map (map order)
    power plant subset, coal c    2**POWER_HAND x (HYBRID_COAL + 1)   subset = bits over hand
                                                            slots; c = coal burned by hybrids

Bids come in two encodings (``bids=``):

* ``"absolute"`` (default, exact play): ``b`` is the amount in Elektro, 0..``bid_cap``
  (``B = cap + 1``). Bids above the cap cannot be expressed.
* ``"compact"`` (learning): ``b`` picks an amount relative to the auction: an opening bid is the
  plant's number plus ``OPEN_OFFSETS[b]`` (+0, +1, +2, +3, +5, +8, ...), a raise is the current
  bid plus ``BID_RAISES[b]`` (+1, +2, +3, +5, +8, ...). ``B = 10``: "bid 38" is one of ten
  choices, not one of 256 unordered logits. Amounts between the steps cannot be expressed.

Actions the space cannot express are left out of the mask (counted in
``EncodedLegal.unencodable``). The minimum opening bid and ``pass`` are always expressible, so
the mask is never empty while the seat must act.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..rules import RESOURCES, Action, GameState, GameView, PowerGridError, catalog
from ..rules.bureaucracy import options as power_options
from ..rules.catalog import SLOT_PRICES
from ..rules.phase import AUCTION
from ..rules.phase import BUILD as BUILD_PHASE
from ..rules.phase import BUREAUCRACY as BUREAUCRACY_PHASE
from ..rules.phase import RESOURCES as RESOURCES_PHASE
from ..rules.purchase import most_affordable
from .views import seen_state

#: Plants shown in the current market: four, or six in Step 3.
MARKET_SLOTS = 6
DEFAULT_BID_CAP = 255
BID_ENCODINGS = ("absolute", "compact")
#: compact encoding: an opening bid is the plant's number plus one of these
OPEN_OFFSETS = (0, 1, 2, 3, 5, 8, 13, 21, 34, 55)
#: compact encoding: a raise is the current bid plus one of these
BID_RAISES = (1, 2, 3, 5, 8, 13, 21, 34, 55, 89)


class IllegalEncodedAction(PowerGridError):
    """An action index whose mask entry is 0 (not legal now, or not an action at all)."""

    code = "illegal_encoded_action"

    def __init__(self, index: int, description: str, reason: str = "is not legal now") -> None:
        self.index = index
        self.description = description
        super().__init__(f"action {index} ({description}) {reason}")

    def __reduce__(self) -> tuple[Any, ...]:
        # Picklable (an exception crosses process boundaries in subprocess vector envs).
        return (IllegalEncodedAction, (self.index, self.description,
                                       str(self).split(f"({self.description}) ", 1)[-1]))


class ActionNotEncodable(PowerGridError):
    """An engine action the fixed action space cannot express (a bid above the cap, or between
    the steps of the compact encoding)."""

    code = "action_not_encodable"


def _hand_limit() -> int:
    return max(r.max_plants for r in catalog().player_counts.values())


def _largest_sum(values: list[int], count: int) -> int:
    return sum(sorted(values, reverse=True)[:count])


@dataclass(frozen=True)
class Block:
    name: str
    start: int
    stop: int
    #: sizes of the sub-indices, outermost first (e.g. (6, cap + 1) for open)
    shape: tuple[int, ...] = field(default=())

    @property
    def size(self) -> int:
        return self.stop - self.start


_NONE: dict[int, Action] = {}
_NO_MARKET: list[int] = []
_CHEAPEST_SLOT = min(SLOT_PRICES)
_NOTHING = (0, 0, 0, 0)
#: what an ActionCodec keeps only as a cache
_MEMOS = ("_power_memo", "_buy_blocks", "_by_reach")
_INT8 = np.dtype(np.int8)
_frombuffer = np.frombuffer


class EncodedLegal:
    """The legal actions of one decision: the ``np.int8`` mask and the action behind each index.

    Auction bids are held as ranges and made into actions only when asked for, which is what
    makes a mask over hundreds of legal bids cheap.
    """

    mask: np.ndarray
    _codec: ActionCodec
    # What most decisions leave as is (class defaults: a decision's legal actions are made
    # with only the codec and the mask set, see _plain).
    #: legal actions left out because the action space cannot express them
    unencodable = 0
    #: index -> action, for the indices no fixed or implicit action covers
    _explicit: dict[int, Action] = _NONE
    #: the current market and bid an open or bid index is decoded in
    _market: list[int] = _NO_MARKET
    _bid = 0
    #: power index -> (plants run, resources burned), made into actions when decoded
    _power: dict[int, tuple[tuple[int, ...], tuple[int, int, int, int]]] | None = None
    _actions: list[Action] | None = None

    def __init__(self, codec: ActionCodec, mask: np.ndarray | None, explicit: dict[int, Action],
                 market: list[int], bid: int, unencodable: int,
                 power: dict[int, tuple[tuple[int, ...], tuple[int, int, int, int]]] | None = None) -> None:
        if mask is not None:  # else ActionCodec.legal_in sets it
            self.mask = mask
        self.unencodable = unencodable
        self._codec = codec
        self._explicit = explicit
        self._market = market
        self._bid = bid
        self._power = power

    def action(self, index: int) -> Action:
        """The engine action behind a legal index (no check: use :meth:`ActionCodec.decode`)."""
        fixed = self._codec.fixed_actions[index]
        if fixed is not None:
            return fixed
        found = self._explicit.get(index)
        if found is not None:
            return found
        if self._power is not None:
            plants, burn = self._power[index]
            return Action("power", 0, 0, "", -1, plants, burn)
        # pass, done, buy and build are fixed actions: what is left is an open or a bid
        return self._codec.auction_action(index, self._market, self._bid)

    @property
    def indices(self) -> list[int]:
        return [int(i) for i in np.flatnonzero(self.mask)]

    @property
    def actions(self) -> list[Action]:
        """The expressible legal actions, in index order."""
        if self._actions is None:
            self._actions = [self.action(i) for i in self.indices]
        return self._actions

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "_actions"}

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.__dict__.update(data)


_new = object.__new__


def _plain(codec: ActionCodec) -> EncodedLegal:
    """A decision's legal actions with nothing but the codec set (the mask is set after)."""
    legal: EncodedLegal = _new(EncodedLegal)
    legal._codec = codec
    return legal


class ActionCodec:
    """Maps engine actions to indices of a fixed ``Discrete(size)`` space and back."""

    def __init__(self, cities: list[str] | tuple[str, ...], bid_cap: int = DEFAULT_BID_CAP,
                 bids: str = "absolute") -> None:
        if isinstance(bid_cap, bool) or not isinstance(bid_cap, int) or not 50 <= bid_cap <= 10_000:
            raise ValueError(f"bid_cap must be an integer from 50 to 10000, not {bid_cap!r}")
        if bids not in BID_ENCODINGS:
            raise ValueError(f"bids must be one of {BID_ENCODINGS}, not {bids!r}")
        cat = catalog()
        self.cities = tuple(cities)
        self.city_index = {name: i for i, name in enumerate(self.cities)}
        self.bid_cap = bid_cap
        self.bids = bids
        self.compact = bids == "compact"
        hand = _hand_limit()
        #: plants held while discarding (the limit plus the one just bought)
        self.discard_hand = hand + 1
        #: plants held while powering
        self.power_hand = hand
        coal_storage = [2 * p.burn for p in cat.plants.values() if p.kind in ("coal", "hybrid")]
        self.coal_kept_max = _largest_sum(coal_storage, hand)
        self.hybrid_coal_max = _largest_sum([p.burn for p in cat.plants.values() if p.kind == "hybrid"], hand)
        self.track_sizes = tuple(t.capacity for t in cat.tracks)
        #: width of one plant's run of bids in the open block, and of the bid block
        self.bid_width = len(OPEN_OFFSETS) if self.compact else bid_cap + 1
        shapes = [
            ("pass", ()), ("done", ()),
            ("open", (MARKET_SLOTS, self.bid_width)),
            ("bid", (self.bid_width,)),
            ("discard", (self.discard_hand, self.coal_kept_max + 1)),
            ("buy", (sum(self.track_sizes),)),
            ("build", (len(self.cities),)),
            ("power", (1 << self.power_hand, self.hybrid_coal_max + 1)),
        ]
        blocks = []
        start = 0
        for name, shape in shapes:
            size = 1
            for n in shape:
                size *= n
            blocks.append(Block(name, start, start + size, shape))
            start += size
        self.blocks: tuple[Block, ...] = tuple(blocks)
        self.size = start
        b = {blk.name: blk.start for blk in blocks}
        self.PASS, self.DONE = b["pass"], b["done"]
        self.OPEN, self.BID, self.DISCARD = b["open"], b["bid"], b["discard"]
        self.BUY, self.BUILD, self.POWER = b["buy"], b["build"], b["power"]
        self._buy_base = [self.BUY + sum(self.track_sizes[:r]) - 1 for r in range(4)]
        self._kind = {n: p.kind for n, p in cat.plants.items()}
        self._burn = {n: p.burn for n, p in cat.plants.items()}
        self._open_at = {off: k for k, off in enumerate(OPEN_OFFSETS)}
        self._raise_at = {r: k for k, r in enumerate(BID_RAISES)}
        self._build_actions = tuple(Action.build(name) for name in self.cities)
        self._buy_actions = tuple(Action.buy(r, n) for r, size in enumerate(self.track_sizes)
                                  for n in range(1, size + 1))
        #: index -> its action where that is the same in every game (pass, done, buy, build), else None
        self.fixed_actions: list[Action | None] = [None] * self.size
        self.fixed_actions[self.PASS] = Action.pass_()
        self.fixed_actions[self.DONE] = Action.done()
        self.fixed_actions[self.BUY:self.BUILD] = self._buy_actions
        self.fixed_actions[self.BUILD:self.POWER] = self._build_actions
        #: (hand, resources) -> (first mask index, mask bytes from there, index -> power action,
        #: unencodable count)
        self._power_memo: dict[Any, tuple[int, bytes, dict[int, Any], int]] = {}
        #: units of each resource one can buy -> the buy block of the mask
        self._buy_blocks: dict[tuple[int, int, int, int], bytes] = {}
        #: id of a network's connection costs -> (those costs, the cities in play by cost)
        self._by_reach: dict[int, tuple[tuple[int, ...], list[int]]] = {}
        # A mask is written as bytes (a bytearray write costs a tenth of a NumPy item write)
        # and made an array once: these are the all-0 mask and runs of 1s to copy from.
        self._zeros = bytes(self.size)
        self._ones = b"\x01" * self.size

    def __getstate__(self) -> dict[str, Any]:
        # the memos (power options, buy blocks, cities by connection cost) are caches: pickles
        # and copies start without them
        return {k: v for k, v in self.__dict__.items() if k not in _MEMOS}

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.__dict__.update(data)
        self._power_memo = {}
        self._buy_blocks = {}
        self._by_reach = {}

    # ------------------------------------------------------------------ encoding
    def encode(self, view: GameView | GameState, action: Action, seat: int | None = None) -> int:
        """The index of ``action`` for the seat of ``view`` (legal or not).

        :raises ActionNotEncodable: a bid the encoding cannot express, or an action naming
            something the seat does not see (a plant not in the current market or hand, an
            unknown city).
        """
        state, seat = _state_and_seat(view, seat)
        market = {p: i for i, p in enumerate(state.current_market())}
        index = self._encode(action, market, state.plants[seat], state.auc_bid)
        if index < 0:
            reason = ""
            if action.kind in ("open", "bid"):
                reason = (" (compact bids are the plant's number plus one of "
                          f"{OPEN_OFFSETS}, or the current bid plus one of {BID_RAISES})"
                          if self.compact else f" (bids are capped at {self.bid_cap})")
            raise ActionNotEncodable(f"{action} cannot be expressed in this action space{reason}")
        return index

    def _encode(self, a: Action, market: dict[int, int], hand: tuple[int, ...], current_bid: int) -> int:
        kind = a.kind
        if kind == "open":
            slot = market.get(a.plant)
            if slot is None:
                return -1
            if self.compact:
                k = self._open_at.get(a.amount - a.plant, -1)
            else:
                k = a.amount if a.amount <= self.bid_cap else -1
            return -1 if k < 0 else self.OPEN + slot * self.bid_width + k
        if kind == "bid":
            if self.compact:
                k = self._raise_at.get(a.amount - current_bid, -1)
            else:
                k = a.amount if a.amount <= self.bid_cap else -1
            return -1 if k < 0 else self.BID + k
        if kind == "pass":
            return self.PASS
        if kind == "done":
            return self.DONE
        if kind == "buy":
            if not 0 <= a.resource < 4 or not 1 <= a.amount <= self.track_sizes[a.resource]:
                return -1
            return self._buy_base[a.resource] + a.amount
        if kind == "build":
            city = self.city_index.get(a.city)
            return -1 if city is None else self.BUILD + city
        if kind == "power":
            bits = 0
            coal_needed = 0
            for p in a.plants:
                if p not in hand:
                    return -1
                bits |= 1 << hand.index(p)
                if self._kind[p] == "coal":
                    coal_needed += self._burn[p]
            hybrid_coal = a.fuel[0] - coal_needed
            if not 0 <= hybrid_coal <= self.hybrid_coal_max or bits >= 1 << self.power_hand:
                return -1
            return self.POWER + bits * (self.hybrid_coal_max + 1) + hybrid_coal
        if kind == "discard":
            if a.plant not in hand or not 0 <= a.fuel[0] <= self.coal_kept_max:
                return -1
            return self.DISCARD + hand.index(a.plant) * (self.coal_kept_max + 1) + a.fuel[0]
        return -1

    def legal(self, view: GameView | GameState, seat: int | None = None,
              out: np.ndarray | None = None) -> EncodedLegal:
        """The legal actions of ``seat`` (default: the view's seat, or a state's player to act),
        their indices and the ``np.int8`` mask; all zeros when that seat is not to act.
        ``out`` (an int8 row, e.g. of a batch) is cleared and used as the mask."""
        state, seat = _state_and_seat(view, seat)
        return self.legal_in(state, seat, out)

    def legal_in(self, state: GameState, seat: int, out: np.ndarray | None = None) -> EncodedLegal:
        """:meth:`legal` for a state and seat already checked (the environments' hot path).

        The mask is written straight from each phase's legal structure (auction ranges, the
        purchases each resource allows, the cities one may build in, the power options of a
        hand and its resources), without making an action per index; the actions are made only
        when one is decoded. ``tests/rl`` holds this equal to :meth:`legal_listed`, which
        encodes the engine's ``legal_actions()`` one by one.
        """
        if state.current_player != seat:
            legal = _plain(self)
            if out is None:
                legal.mask = _frombuffer(bytearray(self._zeros), _INT8)
            else:
                out[:] = 0
                legal.mask = out
            return legal
        return self.legal_to_act(state, seat, out)

    def legal_to_act(self, state: GameState, seat: int, out: np.ndarray | None = None) -> EncodedLegal:
        """:meth:`legal_in` for ``seat`` known to be the state's player to act (not checked)."""
        flags: bytearray | memoryview
        if out is None:
            flags = bytearray(self._zeros)
        elif out.flags.c_contiguous:  # written in place, as bytes
            flags = memoryview(out).cast("B")
            flags[:] = self._zeros
        else:
            legal = self.legal_to_act(state, seat)
            out[:] = legal.mask
            legal.mask = out
            return legal
        phase = state.phase
        if phase == BUILD_PHASE:
            legal = self._legal_build(state, seat, flags)
        elif phase == RESOURCES_PHASE:
            legal = self._legal_buy(state, seat, flags)
        elif phase == BUREAUCRACY_PHASE:
            legal = self._legal_power(state, seat, flags)
        elif state.discard_seat < 0:
            legal = self._legal_auction(state, seat, flags)
        else:
            legal = self._legal_listed(state, seat, flags)
        # the mask's memory is ``flags`` (writable)
        legal.mask = _frombuffer(flags, _INT8) if out is None else out
        return legal

    def legal_listed(self, state: GameState, seat: int) -> EncodedLegal:
        """The legal actions as :meth:`legal_in` gives them, found the slow way: every action of
        the engine's ``legal_actions()`` encoded one by one (the oracle of the fast paths)."""
        flags = bytearray(self._zeros)
        if state.current_player != seat:
            legal = _plain(self)
        else:
            legal = self._legal_listed(state, seat, flags)
        legal.mask = _frombuffer(flags, _INT8)
        return legal

    # The phases' legal actions: each writes 1 at its legal indices of ``flags`` (the mask's
    # bytes) and returns what decodes them (its mask is set by the caller).
    def _legal_listed(self, state: GameState, seat: int, flags: bytearray | memoryview) -> EncodedLegal:
        hand = state.plants[seat]
        explicit: dict[int, Action] = {}
        left_out = 0
        encode = self._encode
        market = {p: i for i, p in enumerate(state.current_market())} if state.phase == AUCTION else {}
        for a in state.legal_actions():
            i = encode(a, market, hand, state.auc_bid)
            if i >= 0:
                explicit[i] = a
                flags[i] = 1
            else:
                left_out += 1
        return EncodedLegal(self, None, explicit, _NO_MARKET, 0, left_out)

    def _legal_build(self, state: GameState, seat: int, flags: bytearray | memoryview) -> EncodedLegal:
        """``building.legal`` as mask indices: done, and every city in play with a free slot
        for this seat that it can pay for (slot price plus connection)."""
        flags[self.DONE] = 1
        if len(state.cities[seat]) < state.scn.max_houses:
            money = state.money[seat]
            step = state.step
            reach = state.reach[seat]
            houses = state.houses
            base = self.BUILD
            prices = SLOT_PRICES
            if reach is None:  # no network yet: a city costs its slot alone
                for city in state.scn.board.in_play:
                    here = houses[city]
                    n = len(here)
                    if n < step and prices[n] <= money and seat not in here:
                        flags[base + city] = 1
            else:
                # the cities in play, cheapest connection first: past the first one whose
                # connection alone leaves less than the cheapest slot, none can be paid for
                order = self._by_reach.get(id(reach))
                if order is None or order[0] is not reach:
                    if len(self._by_reach) > 1_000:
                        self._by_reach.clear()
                    order = self._by_reach[id(reach)] = (
                        reach, sorted(state.scn.board.in_play, key=reach.__getitem__))
                limit = money - _CHEAPEST_SLOT
                for city in order[1]:
                    connection = reach[city]
                    if connection > limit:
                        break
                    here = houses[city]
                    n = len(here)
                    if n < step and prices[n] + connection <= money and seat not in here:
                        flags[base + city] = 1
        return _plain(self)

    def _legal_buy(self, state: GameState, seat: int, flags: bytearray | memoryview) -> EncodedLegal:
        """``purchase.legal`` as slices: 1..n units of each resource, n as many as storage,
        market and money allow, and done."""
        flags[self.DONE] = 1
        counts = most_affordable(state, seat)
        if counts != _NOTHING:
            block = self._buy_blocks.get(counts)
            if block is None:
                if len(self._buy_blocks) > 20_000:
                    self._buy_blocks.clear()
                block = self._buy_blocks[counts] = b"".join(
                    b"\x01" * n + bytes(size - n) for n, size in zip(counts, self.track_sizes, strict=True))
            flags[self.BUY:self.BUILD] = block
        return _plain(self)

    def _legal_power(self, state: GameState, seat: int, flags: bytearray | memoryview) -> EncodedLegal:
        """``bureaucracy.legal`` as indices, from the engine's power options; the actions are made
        only when decoded. The options depend only on the hand and the seat's resources, so
        they are kept per (hand, resources)."""
        hand = state.plants[seat]
        key = (hand, state.resources_of(seat))
        found = self._power_memo.get(key)
        if found is None:
            if len(self._power_memo) > 20_000:
                self._power_memo.clear()
            found = self._power_memo[key] = self._power_options(state, seat, hand)
        first, run, where, left_out = found
        flags[first:first + len(run)] = run
        legal = _plain(self)
        legal.unencodable = left_out
        legal._power = where
        return legal

    def _power_options(self, state: GameState, seat: int,
                       hand: tuple[int, ...]) -> tuple[int, bytes, dict[int, Any], int]:
        bit = {p: 1 << i for i, p in enumerate(hand)}
        coal = {p: self._burn[p] if self._kind[p] == "coal" else 0 for p in hand}
        width = self.hybrid_coal_max + 1
        top = 1 << self.power_hand
        where: dict[int, Any] = {}
        left_out = 0
        for plants, burn, _ in power_options(state, seat):
            bits = 0
            need = 0
            for p in plants:
                bits |= bit[p]
                need += coal[p]
            hybrid_coal = burn[0] - need
            if 0 <= hybrid_coal < width and bits < top:
                where[self.POWER + bits * width + hybrid_coal] = (plants, burn)
            else:
                left_out += 1
        if not where:
            return 0, b"", where, left_out
        first = min(where)
        run = bytearray(max(where) + 1 - first)
        for i in where:
            run[i - first] = 1
        return first, bytes(run), where, left_out

    def _legal_auction(self, state: GameState, seat: int, flags: bytearray | memoryview) -> EncodedLegal:
        """The auction's legal bids as runs of indices: the ranges of
        :func:`~powergrid.rl.auction_ranges.auction_ranges`, read from the state here (no
        ranges object: this runs on every auction decision)."""
        cap = self.bid_cap
        money = state.money[seat]
        flags[self.PASS] = 1  # (pass is a fixed action)
        if state.auc_plant:  # a running auction: raise to any amount one can pay, or pass
            bid = state.auc_bid
            legal = _plain(self)
            legal._bid = bid
            if money <= bid:
                return legal
            lo = bid + 1
            if self.compact:
                count = 0
                for k, r in enumerate(BID_RAISES):
                    if lo <= bid + r <= money:
                        flags[self.BID + k] = 1
                        count += 1
                legal.unencodable = money - bid - count
            else:
                top = money if money < cap else cap
                if lo <= top:
                    start = self.BID
                    flags[start + lo:start + top + 1] = self._ones[:top + 1 - lo]
                    if money > top:
                        legal.unencodable = money - top
                else:
                    legal.unencodable = money - lo + 1
            return legal
        # opening: any plant one can afford, at any amount from its number to one's money (only
        # its number for the last player still to buy); passing after round 1 or when one can
        # afford nothing
        market = state.current_market()
        alone = state.auc_done | 1 << seat == (1 << len(state.money)) - 1
        width = self.bid_width
        ones = self._ones
        left_out = 0
        opened = False
        for slot, plant in enumerate(market):
            if plant > money:
                continue
            opened = True
            hi = plant if alone else money
            base = self.OPEN + slot * width
            if self.compact:
                count = 0
                for k, off in enumerate(OPEN_OFFSETS):
                    if plant + off <= hi:
                        flags[base + k] = 1
                        count += 1
                left_out += hi - plant + 1 - count
            else:
                top = hi if hi < cap else cap
                if plant <= top:
                    flags[base + plant:base + top + 1] = ones[:top + 1 - plant]
                    left_out += hi - top
                else:
                    left_out += hi - plant + 1
        if opened and state.round <= 1:
            flags[self.PASS] = 0
        legal = _plain(self)
        legal._market = market
        legal._bid = state.auc_bid
        if left_out:
            legal.unencodable = left_out
        return legal

    def implicit_action(self, index: int, market: list[int], current_bid: int) -> Action:
        """The action behind a legal index of the blocks whose masks are written without
        actions: open and bid (in this market and auction), buy, build, done."""
        if index == self.DONE:
            return Action.done()
        if self.BUILD <= index < self.POWER:
            return self._build_actions[index - self.BUILD]
        if self.BUY <= index < self.BUILD:
            return self._buy_actions[index - self.BUY]
        return self.auction_action(index, market, current_bid)

    def auction_action(self, index: int, market: list[int], current_bid: int) -> Action:
        """The open or bid action behind an index of those blocks, in a market and auction."""
        if self.OPEN <= index < self.BID:
            slot, k = divmod(index - self.OPEN, self.bid_width)
            plant = market[slot]
            return Action.open(plant, plant + OPEN_OFFSETS[k] if self.compact else k)
        k = index - self.BID
        return Action.bid(current_bid + BID_RAISES[k] if self.compact else k)

    # ------------------------------------------------------------------ decoding
    def decode(self, index: Any, legal: EncodedLegal) -> Action:
        """The engine action behind ``index``.

        :raises IllegalEncodedAction: the index is masked out (or outside the space); the
            message names the action, e.g. ``action 1234 (open plant slot 2 bid 40) is not legal now``.
        """
        try:
            i = int(index)
        except (TypeError, ValueError):
            raise IllegalEncodedAction(-1, repr(index), "is not an action index") from None
        if not 0 <= i < self.size:
            raise IllegalEncodedAction(i, "outside the action space",
                                       f"is not an action: the space has {self.size} actions")
        if not legal.mask.item(i):
            raise IllegalEncodedAction(i, self.describe(i))
        return legal.action(i)

    def describe(self, index: int) -> str:
        """The action an index stands for, in words relative to the seat (no game needed)."""
        i = int(index)
        for blk in self.blocks:
            if blk.start <= i < blk.stop:
                return self._describe(blk, i - blk.start)
        return "outside the action space"

    def _describe(self, blk: Block, k: int) -> str:
        name = blk.name
        if name in ("pass", "done"):
            return name
        if name == "open":
            slot, amount = divmod(k, self.bid_width)
            if self.compact:
                return f"open plant slot {slot} bid its number +{OPEN_OFFSETS[amount]}"
            return f"open plant slot {slot} bid {amount}"
        if name == "bid":
            return f"raise the bid by {BID_RAISES[k]}" if self.compact else f"bid {k}"
        if name == "discard":
            slot, coal = divmod(k, self.coal_kept_max + 1)
            return f"discard hand slot {slot} keeping {coal} coal"
        if name == "buy":
            for r, size in enumerate(self.track_sizes):
                if k < size:
                    return f"buy {k + 1} {RESOURCES[r]}"
                k -= size
        if name == "build":
            return f"build city {k} ({self.cities[k]})"
        bits, coal = divmod(k, self.hybrid_coal_max + 1)
        slots = [h for h in range(self.power_hand) if bits >> h & 1]
        if not slots:
            return "power nothing" + (f" with {coal} hybrid coal" if coal else "")
        return f"power hand slots {slots} burning {coal} coal in hybrids"

    def table(self) -> list[tuple[str, int, int, str]]:
        """(block, first index, last index, meaning) for documentation."""
        w = self.bid_width
        if self.compact:
            open_meaning = (f"open slot s of the current market bidding its number + OPEN_OFFSETS[k]: "
                            f"start + s*{w} + k (offsets {list(OPEN_OFFSETS)})")
            bid_meaning = f"raise the current bid by BID_RAISES[k]: start + k (raises {list(BID_RAISES)})"
        else:
            open_meaning = f"open slot s of the current market with bid b: start + s*{w} + b"
            bid_meaning = "raise to b Elektro: start + b"
        meaning = {
            "pass": "pass (auction: leave this auction or this phase's auctions)",
            "done": "done (end buying or building)",
            "open": open_meaning,
            "bid": bid_meaning,
            "discard": f"discard hand slot h keeping c coal: start + h*{self.coal_kept_max + 1} + c",
            "buy": "buy n units of resource r: start + offset(r) + n - 1 "
                   f"(track sizes {list(self.track_sizes)})",
            "build": "build in city i (map order): start + i",
            "power": f"run hand-slot subset m (bit h = slot h) with c hybrid coal: "
                     f"start + m*{self.hybrid_coal_max + 1} + c",
        }
        return [(b.name, b.start, b.stop - 1, meaning[b.name]) for b in self.blocks]


def _state_and_seat(view: GameView | GameState, seat: int | None) -> tuple[GameState, int]:
    """What to read (a view's masked state, or a state as it is) and for which seat."""
    if isinstance(view, GameView):
        state = seen_state(view)
        return state, view.seat if seat is None else seat
    if not isinstance(view, GameState):
        raise TypeError(f"expected a GameState or GameView, not {type(view).__name__}")
    if seat is None:
        current = view.current_player
        if current is None:
            raise ValueError("the game is over: name the seat")
        return view, current
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < view.players:
        raise ValueError(f"no seat {seat!r} in a {view.players}-player game")
    return view, seat
