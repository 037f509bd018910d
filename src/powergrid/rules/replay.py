"""Replaying a game from its config and action log."""

from __future__ import annotations

from collections.abc import Iterable

from .actions import Action, parse_action
from .config import GameConfig
from .setup import new_game
from .state import GameState


def replay(config: GameConfig, actions: Iterable[Action | str]) -> GameState:
    """The same game again: a new game from ``config`` with each action applied in turn.

    :raises IllegalAction: an action does not apply where it falls in the log.
    :raises MalformedAction: a text action does not parse.
    """
    state = new_game(config)
    for action in actions:
        state.apply(parse_action(action) if isinstance(action, str) else action)
    return state
