"""What each bot is like, in two figures: its strength on the published ladder and its speed.

The ratings come from ``ladder.json``, written by ``benchmarks/ladder.py --write`` from a
round robin of every bot and level (docs/bots.md, "Ladder"): Elo scale, the heuristic 1500.
The speeds are CPU seconds per searched decision on the 2-core development machine
(docs/bots.md); a bot that does not search answers at once.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from .names import canonical, split

LADDER_FILE = "ladder.json"

#: CPU seconds per searched decision, 2-player Germany against pimc, 6 games each on the 2-core
#: machine with a ladder running beside it: ``python benchmarks/bot_time.py --bots
#: pimc:fast,pimc,pimc:strong,expert:fast,expert --games 6 --seed 9300`` (docs/bots.md, "Time")
SECONDS: dict[str, float] = {"pimc:fast": 0.011, "pimc": 0.048, "pimc:strong": 0.2,
                             "expert:fast": 0.023, "expert": 0.056}

#: what kind of player each bot is, in a few words (English; the lobby has them translated)
KINDS: dict[str, str] = {"random": "plays any legal move", "greedy": "plays for income",
                         "bold": "a bolder heuristic", "heuristic": "rule-based",
                         "pimc": "plan search", "expert": "evaluator-guided search"}


@dataclass(frozen=True)
class Facts:
    name: str
    kind: str                  # KINDS' words
    elo: int | None            # on the ladder (None: not on it)
    low: int | None            # its 95% interval, Elo scale
    high: int | None
    seconds: float             # per searched decision; 0 for a bot that does not search

    @property
    def margin(self) -> int | None:
        """Half the width of the rating's 95% interval (None: not rated; 0: the ladder's anchor).
        Shown beside the rating: levels whose intervals overlap are not told apart by the ladder."""
        if self.low is None or self.high is None:
            return None
        return round((self.high - self.low) / 2)

    def rating(self) -> str:
        """``Elo 1702 ±60`` (``Elo 1500`` for the anchor)."""
        return f"Elo {self.elo} ±{self.margin}" if self.margin else f"Elo {self.elo}"

    def words(self) -> str:
        """``plan search, Elo 1702 ±60, ~0.08 s a move`` (English)."""
        parts = [self.kind]
        if self.elo is not None:
            parts.append(self.rating())
        parts.append(f"~{self.seconds:g} s a move" if self.seconds else "instant")
        return ", ".join(parts)

    def short(self) -> str:
        """``Elo 1702 ±60, ~0.08 s`` (English)."""
        speed = f"~{self.seconds:g} s" if self.seconds else "instant"
        return speed if self.elo is None else f"{self.rating()}, {speed}"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "elo": self.elo, "low": self.low, "high": self.high,
                "margin": self.margin, "seconds": self.seconds}


@lru_cache(maxsize=1)
def ladder() -> dict[str, Any]:
    """The published ladder: ``{"seed", "games", "command", "ratings": {bot: {elo, low, high}}}``."""
    data: dict[str, Any] = json.loads(resources.files(__package__).joinpath(LADDER_FILE).read_text())
    return data


def facts(name: str) -> Facts:
    """The figures of a bot name (``pimc``, ``expert:fast``, a former name such as ``mcts`` or
    ``expert:strong``)."""
    kind = split(name)[0]
    full = canonical(name)
    rated = ladder()["ratings"].get(full)
    return Facts(full, KINDS.get(kind, kind), rated and rated["elo"], rated and rated["low"],
                 rated and rated["high"], SECONDS.get(full, 0.0))


def summary() -> str:
    """Every bot with its figures, for the command line's help: ``random (Elo 744, instant), ...``."""
    from . import bot_names

    rated = ladder()["ratings"]
    names = sorted(bot_names(), key=lambda n: (rated.get(n, {}).get("elo", 0), n))
    return ", ".join(f"{n} ({facts(n).short()})" for n in names)


__all__ = ["Facts", "facts", "ladder", "summary"]
