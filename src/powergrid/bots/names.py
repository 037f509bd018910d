"""Former bot names and the name each one plays today: said once, for ``make_bot``, the ladder's
figures and the evaluator's ratings alike (docs/bots.md)."""

from __future__ import annotations

#: other names for a bot kind: the plan search was called ``mcts``, though it builds no tree
ALIASES: dict[str, str] = {"mcts": "pimc"}

#: former level names of a kind: ``expert:strong`` searched at every decision at 10,000 calls
#: without stopping early; the default ``expert`` searches at every decision now
LEVEL_ALIASES: dict[str, dict[str, str]] = {"expert": {"strong": "default"}}


def split(name: str) -> tuple[str, str]:
    """``(kind, level)`` of a bot name as it plays today (``level`` as given, "" where none is):
    ``mcts:fast`` gives ``("pimc", "fast")``, ``expert:strong`` gives ``("expert", "default")``."""
    kind, _, level = name.strip().partition(":")
    kind = ALIASES.get(kind, kind)
    return kind, LEVEL_ALIASES.get(kind, {}).get(level, level)


def canonical(name: str) -> str:
    """The name a bot plays under today: ``mcts`` is ``pimc``, ``expert:strong`` and
    ``expert:default`` are ``expert``."""
    kind, level = split(name)
    return f"{kind}:{level}" if level and level != "default" else kind
