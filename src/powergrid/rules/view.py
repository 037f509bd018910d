"""Per-seat views (no deck order, no removed plants) and determinization for search bots."""

from __future__ import annotations

import random
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from .catalog import STEP3, UNKNOWN, catalog
from .scenario import public_scenario, sampled_scenario
from .state import BORROWED, GameState

_HIDDEN = frozenset({"apply", "rng", "removed", "deck", "clone", "scn_rng"})


def _mask(state: GameState, masked: GameState) -> GameState:
    """``masked`` (a copy of ``state``) as every seat sees it: deck order, removed plants,
    generator and seed hidden."""
    masked.scn, masked.deck, masked.removed = _masked_parts(state)
    masked.rng = 0
    return masked


def _masked_parts(state: GameState) -> tuple[Any, list[int], tuple[int, ...]]:
    """What a view shows of ``state`` in place of its scenario, deck and removed plants."""
    deck = state.deck
    bottom = state.known_bottom
    hidden_end = len(deck) - state.known_top
    scn = state.scn
    public = scn.__dict__.get("_public") or public_scenario(scn)
    removed = _unknown(len(state.removed))
    if bottom < hidden_end:
        shown = deck[:bottom]
        shown += _unknowns(hidden_end - bottom)
        shown += deck[hidden_end:]
        # Everyone knows where the Step 3 card lies (docs/rules.md, Setup 5 and Step 3): on
        # top of the plants put under the deck, unless the deck has run down into them.
        if deck[bottom] == STEP3:
            shown[bottom] = STEP3
        elif STEP3 in deck:
            shown[deck.index(STEP3)] = STEP3
        # the deck changes far more rarely than views are taken: what was shown is kept
        _LAST_SHOWN[0] = (scn, state.removed, deck[:], bottom, hidden_end, public, removed, shown)
        return public, shown, removed
    return public, deck, removed


#: (a scenario, removed plants, a deck, its known bottom, where its hidden part ends; what a
#: view shows for the scenario, the removed plants and the deck): the last masked with
#: something of the deck hidden (one tuple, replaced whole: views taken in several threads
#: never mix two)
_LAST_SHOWN: list[Any] = [(None, None, None, -1, -1, None, None, None)]
_UNKNOWNS: dict[int, tuple[int, ...]] = {}
_UNKNOWN_LISTS: dict[int, list[int]] = {}


def _unknown(count: int) -> tuple[int, ...]:
    hidden = _UNKNOWNS.get(count)
    if hidden is None:
        hidden = _UNKNOWNS[count] = (UNKNOWN,) * count
    return hidden


def _unknowns(count: int) -> list[int]:
    """``count`` hidden cards (a shared list: only ever copied from)."""
    hidden = _UNKNOWN_LISTS.get(count)
    if hidden is None:
        hidden = _UNKNOWN_LISTS[count] = [UNKNOWN] * count
    return hidden


class GameView:
    """What one seat may know. Reads like a GameState (``money``, ``plants``, ``market``,
    ``legal_actions()``...), but cannot be applied to and hides the deck order.

    A view costs almost nothing to take: until something is read from it, it only points at
    the game (``legal_actions()`` is answered from there). The first read builds the masked
    state, which shares the game's lists until the game changes; if the game changes while
    the view is still alive and unread, the view first keeps a copy holding the game's lists,
    masked when first read. Either way
    a view shows the game as it was when taken, and nothing it hands out leads to what it
    hides. Its lists are read-only: change a copy, never them.
    """

    # The view writes only its own private slots; it has no __dict__ and ``seat`` is a property,
    # so every public name is read-only without a __setattr__ hook (which would make each
    # view's three writes a descriptor call: views are taken on every move of a bot game).
    __slots__ = ("_state", "_game", "_seat", "__weakref__")
    _state: GameState | None
    _game: GameState | None
    _seat: int

    def __init__(self, masked: GameState, seat: int) -> None:
        self._state = masked
        self._game = None
        self._seat = seat

    @property
    def seat(self) -> int:
        return self._seat

    def _seen(self) -> GameState:
        """The masked state (built on first read)."""
        masked = self._state
        if masked is None:
            game = self._game
            assert game is not None
            self._game = None
            if game._shared is BORROWED:  # the copy kept by GameState.release: nobody else reads it
                masked = _mask(game, game)
            else:
                # the masked copy reads the game's lists in this view's place (GameState.shown
                # written out: this runs on every move of a bot game); its scenario, deck and
                # removed plants are the last shown while the game's are unchanged
                deck = game.deck
                last = _LAST_SHOWN[0]
                if (last[0] is game.scn and last[1] is game.removed and last[3] == game.known_bottom
                        and last[4] == len(deck) - game.known_top and last[2] == deck):
                    masked = game._lent(last[5], 0, last[7], last[6])
                else:
                    scn, deck, removed = _masked_parts(game)
                    masked = game._lent(scn, 0, deck, removed)
                game._shared = masked
            self._state = masked
        return masked

    if TYPE_CHECKING:
        # Every public name of GameState reads through (properties made below the class, not a
        # __getattr__ hook: with one, CPython looks up every attribute of a view, its own
        # slots included, through a slow generic path).
        def __getattr__(self, name: str) -> Any: ...

    def __reduce__(self) -> tuple[Any, ...]:
        return (GameView, (self._seen(), self.seat))

    def __copy__(self) -> GameView:
        return self  # read-only: a copy may share the masked state

    def __deepcopy__(self, memo: dict[int, Any]) -> GameView:
        return GameView(self._seen().clone(), self.seat)

    def legal_actions(self) -> list[Any]:
        game = self._game
        if game is not None:
            return game.legal_actions()  # the game has not changed since the view was taken
        return self._seen().legal_actions()

    def seen_by(self) -> tuple[GameState, int]:
        """(:attr:`public_state`, :attr:`seat`) in one call: what a bot reads on every move (a
        property is a slow lookup in CPython 3.11, a method call on a view is not)."""
        masked = self._state
        return (masked if masked is not None else self._seen()), self._seat

    @property
    def public_state(self) -> GameState:
        """The state as this seat sees it: hidden deck cards are -1 and removed plants are -1.

        Reading it is as fast as reading a GameState; applying actions to it is only sound
        until a card must be drawn (use :func:`determinize` for look-ahead).
        """
        masked = self._state
        return masked if masked is not None else self._seen()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameView):
            return NotImplemented
        return self.seat == other.seat and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    @property
    def deck_size(self) -> int:
        return len(self._seen().deck)

    @property
    def deck_top_known(self) -> list[int]:
        """Known cards on top of the deck, top first (13 before round 1's first draw)."""
        deck = self._seen().deck
        return [deck[-1 - i] for i in range(self._seen().known_top)]

    @property
    def deck_bottom_known(self) -> list[int]:
        """Plants put under the deck since the last shuffle, bottom first."""
        return self._seen().deck[:self._seen().known_bottom]

    @property
    def step3_in_deck(self) -> bool:
        return STEP3 in self._seen().deck

    @property
    def removed_count(self) -> int:
        return len(self._seen().removed)

    def to_dict(self, include_log: bool = True) -> dict[str, Any]:
        """The view as JSON (format ``powergrid.view``): no generator, no seed, hidden cards -1.

        ``include_log=False`` leaves the log out (it grows with the game; clients that keep
        their own copy of it need not pay for it on every update).
        """
        from .serialize import state_to_dict
        data = state_to_dict(self._seen(), include_log)
        data["format"] = "powergrid.view"
        data["seat"] = self.seat
        del data["rng"]
        del data["config"]["seed"]
        return data

    def __repr__(self) -> str:
        return f"<GameView seat {self.seat} of {self._seen()!r}>"


_new_view = object.__new__


def make_view(state: GameState, seat: int) -> GameView:
    if type(seat) is not int or not 0 <= seat < len(state.money):
        raise ValueError(f"no seat {seat!r} in a {state.players}-player game")
    if state._shared is not None:
        state.release()
    view: GameView = _new_view(GameView)
    view._state = None
    view._game = state
    view._seat = seat
    state._shared = view  # (and the view holds the state: a cycle the next change breaks)
    return view


def unseen_plants(view: GameView | GameState) -> list[int]:
    """Plants whose place the viewer cannot know: in the hidden deck part or removed at setup."""
    s = view._seen() if isinstance(view, GameView) else view
    visible = set(s.market) | set(s.boxed)
    for plants in s.plants:
        visible.update(plants)
    visible.update(p for p in s.deck if p != UNKNOWN)
    return sorted(p for p in catalog().plants if p not in visible)


def determinize(view: GameView, rng: random.Random | int | None = None) -> GameState:
    """A full state consistent with the view: the hidden deck part, the removed plants and
    the generator for future shuffles are sampled, never read from the true game."""
    if not isinstance(view, GameView):
        raise TypeError("determinize needs a GameView (state.view(seat))")
    if not isinstance(rng, random.Random):
        rng = random.Random(rng)
    s = view._seen().clone()
    pool = unseen_plants(view)
    rng.shuffle(pool)
    slots = [i for i, p in enumerate(s.deck) if p == UNKNOWN]
    if len(pool) != len(slots) + len(s.removed):
        raise ValueError("the view is inconsistent: unseen plants do not match the hidden slots")
    for i, plant in zip(slots, pool, strict=False):
        s.deck[i] = plant
    s.removed = tuple(pool[len(slots):])
    s.rng = rng.getrandbits(64)
    s.scn = sampled_scenario(s.scn)
    return s


# ``state.view(seat)`` is make_view itself (one call less on every move of a bot game).
setattr(GameState, "view", make_view)  # noqa: B010  (GameState.view documents it)


def _reads(name: str) -> property:
    get = attrgetter(name)

    def read(view: GameView) -> Any:
        masked = view._state
        return get(masked if masked is not None else view._seen())

    read.__name__ = name
    read.__doc__ = f"The masked state's ``{name}``."
    return property(read)


def _refuses(name: str) -> property:
    def refuse(view: GameView) -> Any:
        raise AttributeError(f"a view does not reveal {name!r}")

    refuse.__name__ = name
    return property(refuse)


# A view reads like a GameState: every public name of GameState that the view does not define
# itself reads from the masked state, but the hidden ones, which raise AttributeError.
for _name in sorted(set(dir(GameState)) | _HIDDEN):
    if not _name.startswith("_") and _name not in GameView.__dict__:
        setattr(GameView, _name, _refuses(_name) if _name in _HIDDEN else _reads(_name))
del _name
