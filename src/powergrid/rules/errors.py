"""Named errors of the rules engine.

Every error is a ``ValueError`` subclass so callers that only care about bad
input can catch one type; the server maps the class names to its error codes.
"""

from __future__ import annotations

from typing import Any


class PowerGridError(ValueError):
    """Base class of every error the engine raises on bad input."""

    code = "powergrid_error"


class InvalidConfig(PowerGridError):
    """A game configuration that cannot start a game."""

    code = "invalid_config"


class UnknownMap(InvalidConfig):
    """A map name that is not one of the packaged maps."""

    code = "unknown_map"


class InvalidRegions(InvalidConfig):
    """Regions of the wrong number, unknown, repeated or not connected."""

    code = "invalid_regions"


class InvalidMap(PowerGridError):
    """A map file that fails validation."""

    code = "invalid_map"


class MalformedAction(PowerGridError):
    """Text that is not an action in the notation (see docs/actions.md)."""

    code = "malformed_action"


class IllegalAction(PowerGridError):
    """A well-formed action that the rules do not allow now.

    Carries who tried what, in which phase, and why not.
    """

    code = "illegal_action"

    def __init__(self, seat: int | None, action: Any, phase: str, reason: str) -> None:
        self.seat = seat
        self.action = action
        self.phase = phase
        self.reason = reason
        who = "nobody (the game is over)" if seat is None else f"seat {seat}"
        super().__init__(f"{who} may not '{action}' in phase {phase}: {reason}")


class CorruptState(PowerGridError):
    """A saved state that is malformed or inconsistent."""

    code = "corrupt_state"


class UnsupportedVersion(CorruptState):
    """A saved state written by an incompatible format version."""

    code = "unsupported_version"


class UndoRefused(PowerGridError):
    """A request to take back an action that may not be taken back (see docs/engine.md, Undo).

    ``reason`` names why: ``nothing_to_undo``, ``not_your_action``, ``another_player_acted``,
    ``new_information`` or ``game_over``. ``facts`` says it without words, for clients that word
    it themselves (``Ledger.refusal``): ``by`` (a seat), ``action`` (a notation), ``revealed``.
    """

    code = "undo_refused"

    def __init__(self, seat: int | None, reason: str, message: str,
                 facts: dict[str, Any] | None = None) -> None:
        self.seat = seat
        self.reason = reason
        self.facts: dict[str, Any] = dict(facts or {})
        super().__init__(message)
