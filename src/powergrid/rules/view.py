"""Per-seat views (no deck order, no removed plants) and determinization for search bots."""

from __future__ import annotations

import random
from typing import Any

from .catalog import STEP3, UNKNOWN, catalog
from .scenario import public_scenario, sampled_scenario
from .state import GameState

_HIDDEN = frozenset({"apply", "rng", "removed", "deck", "clone", "scn_rng"})


def _mask(state: GameState) -> GameState:
    masked = state.clone()
    deck = masked.deck
    size = len(deck)
    bottom = state.known_bottom
    hidden_end = size - state.known_top
    if bottom < hidden_end:
        # Everyone knows where the Step 3 card lies (RULES.md, Setup 5 and Step 3).
        step3_at = deck.index(STEP3) if STEP3 in deck else -1
        deck[bottom:hidden_end] = [UNKNOWN] * (hidden_end - bottom)
        if step3_at >= 0:
            deck[step3_at] = STEP3
    masked.removed = (UNKNOWN,) * len(state.removed)
    masked.rng = 0
    masked.scn = public_scenario(state.scn)
    return masked


class GameView:
    """What one seat may know. Reads like a GameState (``money``, ``plants``, ``market``,
    ``legal_actions()``...), but cannot be applied to and hides the deck order."""

    __slots__ = ("_state", "seat")
    _state: GameState
    seat: int

    def __init__(self, masked: GameState, seat: int) -> None:
        object.__setattr__(self, "_state", masked)
        object.__setattr__(self, "seat", seat)

    def __getattr__(self, name: str) -> Any:
        # Dunder and private lookups (copy, pickle, ...) must not fall through to the state:
        # while unpickling, ``_state`` is not yet set and the lookup would recurse.
        if name.startswith("_"):
            raise AttributeError(name)
        if name in _HIDDEN:
            raise AttributeError(f"a view does not reveal {name!r}")
        return getattr(self._state, name)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a view is read-only")

    def __reduce__(self) -> tuple[Any, ...]:
        return (GameView, (self._state, self.seat))

    def __copy__(self) -> GameView:
        return self  # read-only: a copy may share the masked state

    def __deepcopy__(self, memo: dict[int, Any]) -> GameView:
        return GameView(self._state.clone(), self.seat)

    def legal_actions(self) -> list[Any]:
        return self._state.legal_actions()

    @property
    def public_state(self) -> GameState:
        """The state as this seat sees it: hidden deck cards are -1 and removed plants are -1.

        Reading it is as fast as reading a GameState; applying actions to it is only sound
        until a card must be drawn (use :func:`determinize` for look-ahead).
        """
        return self._state

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameView):
            return NotImplemented
        return self.seat == other.seat and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    @property
    def deck_size(self) -> int:
        return len(self._state.deck)

    @property
    def deck_top_known(self) -> list[int]:
        """Known cards on top of the deck, top first (13 before round 1's first draw)."""
        deck = self._state.deck
        return [deck[-1 - i] for i in range(self._state.known_top)]

    @property
    def deck_bottom_known(self) -> list[int]:
        """Plants put under the deck since the last shuffle, bottom first."""
        return self._state.deck[:self._state.known_bottom]

    @property
    def step3_in_deck(self) -> bool:
        return STEP3 in self._state.deck

    @property
    def removed_count(self) -> int:
        return len(self._state.removed)

    def to_dict(self, include_log: bool = True) -> dict[str, Any]:
        """The view as JSON (format ``powergrid.view``): no generator, no seed, hidden cards -1.

        ``include_log=False`` leaves the log out (it grows with the game; clients that keep
        their own copy of it need not pay for it on every update).
        """
        from .serialize import state_to_dict
        data = state_to_dict(self._state, include_log)
        data["format"] = "powergrid.view"
        data["seat"] = self.seat
        del data["rng"]
        del data["config"]["seed"]
        return data

    def __repr__(self) -> str:
        return f"<GameView seat {self.seat} of {self._state!r}>"


def make_view(state: GameState, seat: int) -> GameView:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players:
        raise ValueError(f"no seat {seat!r} in a {state.players}-player game")
    return GameView(_mask(state), seat)


def unseen_plants(view: GameView | GameState) -> list[int]:
    """Plants whose place the viewer cannot know: in the hidden deck part or removed at setup."""
    s = view._state if isinstance(view, GameView) else view
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
    s = view._state.clone()
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
