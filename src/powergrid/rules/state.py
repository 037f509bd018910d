"""GameState: everything about one game, cheap to clone, mutated by ``apply``."""

from __future__ import annotations

from sys import getrefcount
from typing import TYPE_CHECKING, Any

from . import auction, building, bureaucracy, purchase
from .actions import Action
from .catalog import RESOURCES, STEP3
from .errors import IllegalAction
from .phase import AUCTION, BUILD, BUREAUCRACY, OVER, Phase
from .phase import RESOURCES as RESOURCES_PHASE
from .scenario import Scenario

if TYPE_CHECKING:
    from .config import GameConfig
    from .view import GameView

#: A log entry: a tuple whose first item names the event (see events.py).
Event = tuple[Any, ...]


def events_after(node: tuple[Any, ...] | None, stop: tuple[Any, ...] | None = None) -> list[Event]:
    """The events of a log from ``stop`` (an earlier log of the same game, or None for its
    start) up to ``node``, oldest first. A log is a chain of tuples, the newest first: each
    is an event's items followed by the log before it (one tuple an event, not an event
    within a link: every move logs, and each tuple is one more object for the collector)."""
    out: list[Event] = []
    while node is not stop and node is not None:
        out.append(node[:-1])
        node = node[-1]
    out.reverse()
    return out

#: the ``_shared`` mark of a state whose lists belong to another (a view's state)
BORROWED: Any = ("borrowed",)


def _count_held_by_a_local() -> int:
    """``sys.getrefcount`` of an object that only a local name holds, as this interpreter counts
    it (2 up to CPython 3.13: the name and the call's argument; a version that lends the name
    to the call without a reference counts 1)."""
    reader = object.__new__(_Probe)
    return getrefcount(reader)


class _Probe:
    pass


#: ``sys.getrefcount`` of a reader that only the releasing code holds (a local name), measured
#: rather than assumed. A state holds its reader itself rather than a weak reference to it:
#: making and dropping two weak references cost about a fiftieth of a bot's move, and a
#: reader that nobody else holds is then known from its count (the check is CPython's, as
#: the rest of this module's tuning is).
_HELD_HERE = _count_held_by_a_local()
#: the same while the state's own slot holds it too (``apply``)
_HELD_HERE_AND_SLOT = _HELD_HERE + 1


class GameState:
    """A game in progress. Build one with :func:`powergrid.new_game`."""

    __slots__ = (
        "scn", "rng", "round", "step", "phase", "order", "money", "plants", "res", "cities",
        "reach", "houses", "market_res", "supply", "market", "deck", "known_top", "known_bottom",
        "removed", "boxed", "step3_pending", "step3_next", "turn", "auc_done", "auc_any",
        "auc_plant", "auc_bid", "auc_leader", "auc_in", "auc_turn", "discard_seat", "new_plant",
        "powered", "winners_", "decisions", "_log", "_shared", "__weakref__",
    )

    scn: Scenario
    rng: int
    round: int
    step: int
    phase: int
    order: tuple[int, ...]
    money: list[int]
    plants: list[tuple[int, ...]]
    res: list[int]
    cities: list[tuple[int, ...]]
    reach: list[tuple[int, ...] | None]
    houses: list[tuple[int, ...]]
    market_res: list[int]
    supply: list[int]
    market: list[int]
    deck: list[int]
    known_top: int
    known_bottom: int
    removed: tuple[int, ...]
    boxed: tuple[int, ...]
    step3_pending: bool
    step3_next: bool
    turn: int
    auc_done: int
    auc_any: bool
    auc_plant: int
    auc_bid: int
    auc_leader: int
    auc_in: int
    auc_turn: int
    discard_seat: int
    new_plant: int
    powered: list[int]
    winners_: tuple[int, ...] | None
    decisions: int
    _log: tuple[Any, ...] | None
    #: who reads this state without a copy (see :meth:`share`, :meth:`release`): None, BORROWED
    #: in a shared copy (its lists are another state's), else the reader itself (a view or a
    #: shared copy), which still reads this state if anything but this state holds it
    _shared: Any

    # ------------------------------------------------------------------ copying
    def clone(self) -> GameState:
        """An independent copy (hand-written; inner tuples are immutable and shared)."""
        c = object.__new__(GameState)
        c.scn = self.scn
        c.rng = self.rng
        c.round = self.round
        c.step = self.step
        c.phase = self.phase
        c.order = self.order
        c.money = self.money[:]
        c.plants = self.plants[:]
        c.res = self.res[:]
        c.cities = self.cities[:]
        c.reach = self.reach[:]
        c.houses = self.houses[:]
        c.market_res = self.market_res[:]
        c.supply = self.supply[:]
        c.market = self.market[:]
        c.deck = self.deck[:]
        c.known_top = self.known_top
        c.known_bottom = self.known_bottom
        c.removed = self.removed
        c.boxed = self.boxed
        c.step3_pending = self.step3_pending
        c.step3_next = self.step3_next
        c.turn = self.turn
        c.auc_done = self.auc_done
        c.auc_any = self.auc_any
        c.auc_plant = self.auc_plant
        c.auc_bid = self.auc_bid
        c.auc_leader = self.auc_leader
        c.auc_in = self.auc_in
        c.auc_turn = self.auc_turn
        c.discard_seat = self.discard_seat
        c.new_plant = self.new_plant
        c.powered = self.powered[:]
        c.winners_ = self.winners_
        c.decisions = self.decisions
        c._log = self._log
        c._shared = None
        return c

    __copy__ = clone

    def share(self) -> GameState:
        """A read-only copy that shares this state's lists until this state next changes.

        Views read it: taking one copies no list, and only a copy still alive when the game
        moves on costs a copy then (see :meth:`release`).
        """
        if self._shared is not None:
            self.release()
        c = self.borrowed()
        self._shared = c
        return c

    def borrowed(self) -> GameState:
        """A copy holding this state's lists, marked as borrowing them (see :meth:`share`); the
        caller sees to it that this state copies its lists before it next changes."""
        return self._lent(self.scn, self.rng, self.deck, self.removed)

    def _lent(self, scn: Scenario, rng: int, deck: list[int], removed: tuple[int, ...]) -> GameState:
        """:meth:`borrowed` with this scenario, generator, deck and removed plants (a view's
        masked copy is made in one step, on every move of a bot game)."""
        c = object.__new__(GameState)
        c.scn = scn
        c.rng = rng
        c.round = self.round
        c.step = self.step
        c.phase = self.phase
        c.order = self.order
        c.money = self.money
        c.plants = self.plants
        c.res = self.res
        c.cities = self.cities
        c.reach = self.reach
        c.houses = self.houses
        c.market_res = self.market_res
        c.supply = self.supply
        c.market = self.market
        c.deck = deck
        c.known_top = self.known_top
        c.known_bottom = self.known_bottom
        c.removed = removed
        c.boxed = self.boxed
        c.step3_pending = self.step3_pending
        c.step3_next = self.step3_next
        c.turn = self.turn
        c.auc_done = self.auc_done
        c.auc_any = self.auc_any
        c.auc_plant = self.auc_plant
        c.auc_bid = self.auc_bid
        c.auc_leader = self.auc_leader
        c.auc_in = self.auc_in
        c.auc_turn = self.auc_turn
        c.discard_seat = self.discard_seat
        c.new_plant = self.new_plant
        c.powered = self.powered
        c.winners_ = self.winners_
        c.decisions = self.decisions
        c._log = self._log
        c._shared = BORROWED
        return c

    def shown(self, scn: Scenario, deck: list[int], removed: tuple[int, ...]) -> GameState:
        """A copy as a view shows it (this scenario, deck and removed plants, no generator),
        holding this state's other lists as :meth:`share` does; it replaces this state's
        reader (the view that asked for it, the one :meth:`release` would hand a copy)."""
        c = self._lent(scn, 0, deck, removed)
        self._shared = c
        return c

    def release(self) -> None:
        """Before this state changes: whatever still reads it (a view, a shared copy) stops."""
        reader = self._shared
        if reader is None:
            return
        self._shared = None
        if reader is not BORROWED:
            if getrefcount(reader) <= _HELD_HERE:
                return  # nothing else holds the reader: it is gone with this reference
            if type(reader) is not GameState:
                # a view still unread (its ``_game`` is this state): it keeps a copy holding
                # this state's lists (masked when first read), and this state copies them below
                reader._game = self.borrowed()
        # this state's lists are (or may be) read elsewhere: take private copies (``copy()``
        # costs less than ``[:]``, which makes a slice object)
        self.money = self.money.copy()
        self.plants = self.plants.copy()
        self.res = self.res.copy()
        self.cities = self.cities.copy()
        self.reach = self.reach.copy()
        self.houses = self.houses.copy()
        self.market_res = self.market_res.copy()
        self.supply = self.supply.copy()
        self.market = self.market.copy()
        self.deck = self.deck.copy()
        self.powered = self.powered.copy()

    # The log is a chain of nested tuples as deep as the game is long, too deep for pickle's
    # recursion: it is pickled as a flat tuple of events and chained again when loaded.
    def __getstate__(self) -> dict[str, Any]:
        saved = {name: getattr(self, name) for name in _SAVED}
        saved["_log"] = tuple(self.events)
        return saved

    def __setstate__(self, saved: dict[str, Any]) -> None:
        chain: tuple[Any, ...] | None = None
        for event in saved.pop("_log", ()):
            chain = (*event, chain)
        for name, value in saved.items():
            object.__setattr__(self, name, value)
        self._log = chain
        self._shared = None

    def __deepcopy__(self, memo: dict[int, Any]) -> GameState:
        # clone copies every mutable part; the rest (tuples, the scenario, the log) is immutable.
        return self.clone()

    # ------------------------------------------------------------------ reading
    @property
    def config(self) -> GameConfig:
        return self.scn.config

    @property
    def players(self) -> int:
        return self.scn.config.players

    @property
    def seating(self) -> tuple[int, ...]:
        """The fixed order used for bidding (docs/rules.md, Setup 2)."""
        return self.scn.seating

    @property
    def regions(self) -> tuple[str, ...]:
        return self.scn.board.regions

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def winners(self) -> tuple[int, ...]:
        """Winning seats once the game is over (several on a shared win), else ()."""
        return self.winners_ or ()

    @property
    def current_player(self) -> int | None:
        """The seat that must act now; None when the game is over."""
        phase = self.phase
        if phase == AUCTION:
            if self.discard_seat >= 0:
                return self.discard_seat
            if self.auc_plant:
                return self.auc_turn
            return auction.opener(self)
        if phase == RESOURCES_PHASE or phase == BUILD:
            return self.order[-1 - self.turn]
        if phase == BUREAUCRACY:
            return self.order[self.turn]
        return None

    @property
    def phase_name(self) -> str:
        return str(Phase(self.phase))

    def current_market(self) -> list[int]:
        """Plants open to auction: the lowest four, or all of them in Step 3."""
        if self.step == 3:
            return self.market[:]
        return [p for p in self.market[:4] if p != STEP3]

    def future_market(self) -> list[int]:
        if self.step == 3:
            return []
        return self.market[4:]

    def resources_of(self, seat: int) -> tuple[int, int, int, int]:
        r = self.res
        i = 4 * seat
        return r[i], r[i + 1], r[i + 2], r[i + 3]

    def max_cities(self) -> int:
        return max(len(c) for c in self.cities)

    def price(self, resource: int | str) -> int | None:
        """Price of the next unit of a resource, or None when sold out."""
        index = resource if isinstance(resource, int) else RESOURCES.index(resource)
        count = self.market_res[index]
        if count == 0:
            return None
        return self.scn.catalog.tracks[index].slot_prices[self.scn.capacity[index] - count]

    def build_cost(self, seat: int, city: int | str) -> int | None:
        """What ``seat`` would pay now to build in ``city``; None when not allowed."""
        index = self.scn.city_by_name[city] if isinstance(city, str) else city
        return building.cost(self, seat, index)

    def powerable(self, seat: int) -> int:
        """Most cities the seat can power now with its plants and resources, capped by its cities."""
        return bureaucracy.best_powered(self, seat)

    @property
    def log(self) -> list[str]:
        """The game so far, in words."""
        from .events import describe
        return [describe(self.scn, e) for e in self.events]

    @property
    def events(self) -> list[Event]:
        return events_after(self._log)

    def actions_taken(self) -> list[Action]:
        """Every action applied so far, in order (enough to replay the game)."""
        return [e[2] for e in self.events if e[0] == "act"]

    def note(self, event: Event) -> None:
        self._log = (*event, self._log)

    # ------------------------------------------------------------------ playing
    def legal_actions(self) -> list[Action]:
        """Every action the current player may take now (empty when the game is over)."""
        phase = self.phase
        if phase == AUCTION:
            return auction.legal(self)
        if phase == BUILD:
            return building.legal(self, self.order[-1 - self.turn])
        if phase == RESOURCES_PHASE:
            return purchase.legal(self, self.order[-1 - self.turn])
        if phase == BUREAUCRACY:
            return bureaucracy.legal(self, self.order[self.turn])
        return []

    def apply(self, action: Action) -> None:
        """Apply the current player's action.

        :raises IllegalAction: the action is not allowed now; the state is unchanged.
        """
        phase = self.phase
        if not isinstance(action, Action):
            raise IllegalAction(self.current_player, action, self.phase_name,
                                "not an Action (use parse_action for text)")
        if phase == OVER:
            raise IllegalAction(None, action, "over", "the game is over")
        shared = self._shared
        if shared is not None:
            if shared is not BORROWED and getrefcount(shared) <= _HELD_HERE_AND_SLOT:
                self._shared = None  # nothing else holds its reader (release() written out)
            else:
                self.release()
        # the seat to act, as current_player finds it (written out: this runs on every move)
        if phase == AUCTION:
            seat = self.discard_seat
            if seat < 0:
                seat = self.auc_turn if self.auc_plant else auction.opener(self)
            auction.apply(self, seat, action)
        elif phase == RESOURCES_PHASE:
            purchase.apply(self, self.order[-1 - self.turn], action)
        elif phase == BUILD:
            building.apply(self, self.order[-1 - self.turn], action)
        else:
            bureaucracy.apply(self, self.order[self.turn], action)
        self.decisions += 1

    def is_legal(self, action: Action) -> bool:
        return action in self.legal_actions()

    def view(self, seat: int) -> GameView:
        """What ``seat`` may know: everything but the deck order and the removed plants."""
        return _views.make_view(self, seat)

    def to_dict(self) -> dict[str, Any]:
        from .serialize import state_to_dict
        return state_to_dict(self)

    @classmethod
    def from_dict(cls, data: Any) -> GameState:
        """Load a state saved by :meth:`to_dict`.

        :raises CorruptState: the data is malformed or inconsistent.
        """
        from .serialize import state_from_dict
        state: GameState = state_from_dict(data)
        return state

    def __repr__(self) -> str:
        return (f"<GameState {self.scn.map.name} {self.players}p round {self.round} "
                f"step {self.step} phase {self.phase_name} to act: {self.current_player}>")

    def illegal(self, seat: int | None, action: Action, reason: str) -> IllegalAction:
        return IllegalAction(seat, action, self.phase_name, reason)


#: what pickling and deep copies keep (the sharing mark is about this process's objects)
_SAVED = tuple(n for n in GameState.__slots__ if n not in ("_shared", "__weakref__"))

from . import view as _views  # noqa: E402  (view.py imports GameState; read at call time)
