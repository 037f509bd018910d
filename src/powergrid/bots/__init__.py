"""Bots: ``make_bot(name, seed)`` with a name from :func:`bot_names` (``random``, ``heuristic``,
``greedy``, ``bold``, ``pimc``, ``expert``, ``expert:fast``), the plan search's other levels
(``pimc:fast``, ``pimc:strong``: rated, not offered),
``learned`` (the trained baseline policy, 2 and 4 players) or a former name (``mcts``,
``mcts:fast``, ``mcts:strong`` for the plan search; ``expert:strong`` for the default ``expert``).

Names are ``kind`` or ``kind:level``; see docs/bots.md.
"""

from __future__ import annotations

from collections.abc import Callable

from . import expert
from .base import Bot
from .expert import ExpertBot
from .greedy import GreedyBot
from .heuristic import BoldBot, HeuristicBot
from .names import ALIASES, canonical, split
from .random_bot import RandomBot
from .search import KIND as SEARCH_KIND
from .search import LEVELS, RankedPlan, SearchBot, rank_plans

_PLAIN: dict[str, Callable[[int], Bot]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "greedy": GreedyBot,
    "bold": BoldBot,
}

#: the trained baseline policy (powergrid.rl.learned, numpy): imported when first asked for, so
#: that the bots need numpy only when it plays. Not in :func:`bot_names` (the lists the server
#: and the terminal offer): it has weights for 2 and 4 players only.
LEARNED = "learned"


def make_bot(spec: str, seed: int = 0) -> Bot:
    """A bot from its name, e.g. ``random``, ``heuristic``, ``greedy``, ``pimc``, ``pimc:fast``,
    ``pimc:strong`` (or the aliases ``mcts``, ``mcts:fast``, ``mcts:strong``).

    :raises ValueError: unknown bot name or level.
    """
    kind, level = split(spec)
    if kind == SEARCH_KIND:
        level = level or "default"
        if level not in LEVELS:
            raise ValueError(f"bot {SEARCH_KIND!r} has no level {level!r}; levels: {', '.join(LEVELS)}")
        return SearchBot(seed, level=level)
    if kind == LEARNED and not level:
        from ..rl.learned import LearnedBot
        return LearnedBot(seed)
    if kind == expert.KIND:
        level = level or "default"
        if level not in expert.LEVELS:
            raise ValueError(f"bot {expert.KIND!r} has no level {level!r}; "
                             f"levels: {', '.join(expert.LEVELS)}")
        return ExpertBot(seed, level=level)
    make = _PLAIN.get(kind)
    if make is None:
        raise ValueError(f"unknown bot {spec!r}; the bots are {', '.join(bot_names())}")
    if level:
        raise ValueError(f"bot {kind!r} has no level {level!r}")
    return make(seed)


def searches(spec: str) -> bool:
    """Whether the bot of that name searches (thinks for long: the server gives it its own lane)."""
    return split(spec)[0] in (SEARCH_KIND, expert.KIND)


#: levels that make_bot plays and the published ladder rates but the lobby and ``--bots`` do not
#: offer: they play about as strongly as ``pimc`` itself (docs/bots.md, "Ladder"), so offering
#: them as a weaker and a stronger level would mislead; matches, research and old records use them
UNOFFERED: tuple[str, ...] = tuple(f"{SEARCH_KIND}:{lv}" for lv in LEVELS if lv != "default")


def bot_names() -> list[str]:
    """Every bot name the lobby and the command line offer: each kind's levels are ordered by
    strength on the published ladder. make_bot also plays :data:`UNOFFERED` and former names."""
    return (sorted(_PLAIN) + [SEARCH_KIND]
            + [expert.KIND] + [f"{expert.KIND}:{lv}" for lv in expert.LEVELS if lv != "default"])


def rated_names() -> list[str]:
    """Every bot name the published ladder rates: :func:`bot_names` and :data:`UNOFFERED`."""
    return bot_names() + list(UNOFFERED)


__all__ = ["ALIASES", "BoldBot", "Bot", "ExpertBot", "GreedyBot", "HeuristicBot", "RandomBot", "RankedPlan",
           "SearchBot", "UNOFFERED", "bot_names", "canonical", "make_bot", "rank_plans",
           "rated_names", "searches"]
