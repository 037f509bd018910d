"""Bots: ``make_bot("random" | ..., seed)``."""

from __future__ import annotations

from .base import Bot
from .random_bot import RandomBot

_KINDS: dict[str, type[Bot]] = {"random": RandomBot}


def make_bot(spec: str, seed: int = 0) -> Bot:
    """A bot from its name, e.g. ``random``.

    :raises ValueError: unknown bot name or level.
    """
    kind, _, level = spec.partition(":")
    cls = _KINDS.get(kind)
    if cls is None:
        raise ValueError(f"unknown bot {spec!r}; the bots are {', '.join(bot_names())}")
    if level:
        raise ValueError(f"bot {kind!r} has no level {level!r}")
    return cls(seed)


def bot_names() -> list[str]:
    return sorted(_KINDS)


__all__ = ["Bot", "RandomBot", "make_bot", "bot_names"]
