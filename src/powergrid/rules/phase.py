"""The phases of a round (docs/rules.md, A round: five phases)."""

from __future__ import annotations

from enum import IntEnum


class Phase(IntEnum):
    """Phase 1 (player order) is instantaneous and never waits for a decision."""

    AUCTION = 2
    RESOURCES = 3
    BUILD = 4
    BUREAUCRACY = 5
    OVER = 6

    def __str__(self) -> str:
        return self.name.lower()


AUCTION, RESOURCES, BUILD, BUREAUCRACY, OVER = (int(p) for p in Phase)
