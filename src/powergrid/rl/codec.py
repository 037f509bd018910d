"""The fixed ``Discrete`` action space: every legal engine action as one integer, and back.

The codec knows the shapes of actions, never the rules: which actions are legal always comes
from ``view.legal_actions()``. An index names an action relative to what the seat sees —
"plant slot 2 of the current market", "the second plant in my hand" — so one policy output
means the same thing in every game.

Blocks, in index order (``ActionCodec.blocks`` gives the exact ranges)::

    pass                          1
    done                          1
    open  slot s (0..5), bid b    6 x (cap + 1)   b = absolute Elektro, 0..cap
    bid   b                       cap + 1
    discard hand slot h, coal c   HAND x (COAL_KEPT + 1)   keep c coal (the rest of the keep is
                                                            fixed by c: the most oil that fits)
    buy   resource r, n units     sum of track sizes (24 + 24 + 24 + 12)
    build city i                  number of cities on the map (map order)
    power plant subset, coal c    2**POWER_HAND x (HYBRID_COAL + 1)   subset = bits over hand
                                                            slots; c = coal burned by hybrids

Bids above ``bid_cap`` cannot be expressed: they are left out of the mask (counted in
``EncodedLegal.unencodable``). The minimum opening bid (the plant's number, at most 50) and
``pass`` are always expressible, so the mask is never empty while the seat must act.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..rules import RESOURCES, Action, GameView, PowerGridError, catalog
from .views import seen_state

#: Plants shown in the current market: four, or six in Step 3.
MARKET_SLOTS = 6
DEFAULT_BID_CAP = 255


class IllegalEncodedAction(PowerGridError):
    """An action index whose mask entry is 0 (not legal now, or not an action at all)."""

    code = "illegal_encoded_action"

    def __init__(self, index: int, description: str, reason: str = "is not legal now") -> None:
        self.index = index
        self.description = description
        super().__init__(f"action {index} ({description}) {reason}")


class ActionNotEncodable(PowerGridError):
    """An engine action the fixed action space cannot express (a bid above the cap)."""

    code = "action_not_encodable"


def _hand_limit() -> int:
    return max(r.max_plants for r in catalog().player_counts.values())


def _largest_sum(values: list[int], count: int) -> int:
    return sum(sorted(values, reverse=True)[:count])


@dataclass
class EncodedLegal:
    """The legal actions of one decision with their indices and the mask built from them."""

    mask: np.ndarray
    actions: list[Action]
    indices: list[int]
    #: legal actions left out because the action space cannot express them (bids above the cap)
    unencodable: int = 0


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


class ActionCodec:
    """Maps engine actions to indices of a fixed ``Discrete(size)`` space and back."""

    def __init__(self, cities: list[str] | tuple[str, ...], bid_cap: int = DEFAULT_BID_CAP) -> None:
        if isinstance(bid_cap, bool) or not isinstance(bid_cap, int) or not 50 <= bid_cap <= 10_000:
            raise ValueError(f"bid_cap must be an integer from 50 to 10000, not {bid_cap!r}")
        cat = catalog()
        self.cities = tuple(cities)
        self.city_index = {name: i for i, name in enumerate(self.cities)}
        self.bid_cap = bid_cap
        hand = _hand_limit()
        #: plants held while discarding (the limit plus the one just bought)
        self.discard_hand = hand + 1
        #: plants held while powering
        self.power_hand = hand
        coal_storage = [2 * p.burn for p in cat.plants.values() if p.kind in ("coal", "hybrid")]
        self.coal_kept_max = _largest_sum(coal_storage, hand)
        self.hybrid_coal_max = _largest_sum([p.burn for p in cat.plants.values() if p.kind == "hybrid"], hand)
        self.track_sizes = tuple(t.capacity for t in cat.tracks)
        bids = bid_cap + 1
        shapes = [
            ("pass", ()), ("done", ()),
            ("open", (MARKET_SLOTS, bids)),
            ("bid", (bids,)),
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

    # ------------------------------------------------------------------ encoding
    def _context(self, view: GameView) -> tuple[dict[int, int], tuple[int, ...]]:
        seen = seen_state(view)
        market = {p: i for i, p in enumerate(seen.current_market())}
        return market, seen.plants[view.seat]

    def encode(self, view: GameView, action: Action) -> int:
        """The index of ``action`` for the seat of ``view`` (legal or not).

        :raises ActionNotEncodable: a bid above the cap, or an action naming something the
            seat does not see (a plant not in the current market or hand, an unknown city).
        """
        market, hand = self._context(view)
        index = self._encode(action, market, hand)
        if index < 0:
            raise ActionNotEncodable(f"{action} cannot be expressed in this action space"
                                     + (f" (bids are capped at {self.bid_cap})"
                                        if action.kind in ("open", "bid") else ""))
        return index

    def _encode(self, a: Action, market: dict[int, int], hand: tuple[int, ...]) -> int:
        kind = a.kind
        cap = self.bid_cap
        if kind == "open":
            slot = market.get(a.plant)
            if slot is None or a.amount > cap:
                return -1
            return self.OPEN + slot * (cap + 1) + a.amount
        if kind == "bid":
            return self.BID + a.amount if a.amount <= cap else -1
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

    def legal(self, view: GameView) -> EncodedLegal:
        """The seat's legal actions, their indices and the ``np.int8`` mask.

        Call it only for the seat that must act (``view.current_player == view.seat``).
        """
        actions = seen_state(view).legal_actions()
        market, hand = self._context(view)
        indices: list[int] = []
        kept: list[Action] = []
        encode = self._encode
        open_base, bid_base, width, cap = self.OPEN, self.BID, self.bid_cap + 1, self.bid_cap
        for a in actions:
            kind = a.kind
            # The two large kinds (every bid amount) get an inline fast path.
            if kind == "bid":
                i = bid_base + a.amount if a.amount <= cap else -1
            elif kind == "open":
                i = open_base + market[a.plant] * width + a.amount if a.amount <= cap else -1
            else:
                i = encode(a, market, hand)
            if i >= 0:
                indices.append(i)
                kept.append(a)
        mask = np.zeros(self.size, dtype=np.int8)
        mask[indices] = 1
        return EncodedLegal(mask, kept, indices, len(actions) - len(kept))

    # ------------------------------------------------------------------ decoding
    def decode(self, index: int, legal: EncodedLegal) -> Action:
        """The engine action behind ``index``.

        :raises IllegalEncodedAction: the index is masked out (or outside the space); the
            message names the action, e.g. ``action 1234 (open plant slot 2 bid 40) is not legal now``.
        """
        i = int(index)
        if not 0 <= i < self.size:
            raise IllegalEncodedAction(i, "outside the action space",
                                       f"is not an action: the space has {self.size} actions")
        if not legal.mask[i]:
            raise IllegalEncodedAction(i, self.describe(i))
        return legal.actions[legal.indices.index(i)]

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
            slot, amount = divmod(k, self.bid_cap + 1)
            return f"open plant slot {slot} bid {amount}"
        if name == "bid":
            return f"bid {k}"
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
        meaning = {
            "pass": "pass (auction: leave this auction or this phase's auctions)",
            "done": "done (end buying or building)",
            "open": f"open slot s of the current market with bid b: start + s*{self.bid_cap + 1} + b",
            "bid": "raise to b Elektro: start + b",
            "discard": f"discard hand slot h keeping c coal: start + h*{self.coal_kept_max + 1} + c",
            "buy": "buy n units of resource r: start + offset(r) + n - 1 "
                   f"(track sizes {list(self.track_sizes)})",
            "build": "build in city i (map order): start + i",
            "power": f"run hand-slot subset m (bit h = slot h) with c hybrid coal: "
                     f"start + m*{self.hybrid_coal_max + 1} + c",
        }
        return [(b.name, b.start, b.stop - 1, meaning[b.name]) for b in self.blocks]
