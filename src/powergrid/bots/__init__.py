"""Bots: ``make_bot("random" | "heuristic" | "mcts" | "mcts:fast" | "mcts:strong", seed)``.

Names are ``kind`` or ``kind:level``; see docs/bots.md.
"""

from __future__ import annotations

from collections.abc import Callable

from .base import Bot
from .heuristic import HeuristicBot
from .random_bot import RandomBot
from .search import LEVELS, SearchBot

_PLAIN: dict[str, Callable[[int], Bot]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
}


def make_bot(spec: str, seed: int = 0) -> Bot:
    """A bot from its name, e.g. ``random``, ``heuristic``, ``mcts``, ``mcts:fast``, ``mcts:strong``.

    :raises ValueError: unknown bot name or level.
    """
    kind, _, level = spec.strip().partition(":")
    if kind == "mcts":
        level = level or "default"
        if level not in LEVELS:
            raise ValueError(f"bot 'mcts' has no level {level!r}; levels: {', '.join(LEVELS)}")
        return SearchBot(seed, level=level)
    make = _PLAIN.get(kind)
    if make is None:
        raise ValueError(f"unknown bot {spec!r}; the bots are {', '.join(bot_names())}")
    if level:
        raise ValueError(f"bot {kind!r} has no level {level!r}")
    return make(seed)


def bot_names() -> list[str]:
    """Every name make_bot accepts."""
    return sorted(_PLAIN) + ["mcts"] + [f"mcts:{lv}" for lv in LEVELS if lv != "default"]


__all__ = ["Bot", "HeuristicBot", "RandomBot", "SearchBot", "make_bot", "bot_names"]
