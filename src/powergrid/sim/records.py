"""Game records: config + action log + who played each seat; enough to replay a game exactly.

The format (shared with ``powergrid show`` and ``powergrid play --save``)::

    {"format": "powergrid.game", "version": 1,
     "config": GameConfig.to_dict(),
     "actions": ["open 3 3", "pass", ...],   # the game's log: actions, and "undo" entries
     "bots": [{"seat": 0, "bot": "heuristic", "seed": 123}, {"seat": 1, "bot": "human", "seed": null}]}
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..rules import Action, CorruptState, GameConfig, GameState, PowerGridError, UnsupportedVersion
from ..rules.undo import replay_log

FORMAT = "powergrid.game"
VERSION = 1
HUMAN = "human"


@dataclass(frozen=True)
class Seat:
    """Who plays a seat: a bot spec with its seed, or ``human`` (seed None)."""

    seat: int
    spec: str
    seed: int | None = None

    @property
    def is_human(self) -> bool:
        return self.spec == HUMAN

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "bot": self.spec, "seed": self.seed}


def game_record(config: GameConfig, actions: Iterable[Action | str], seats: Sequence[Seat]) -> dict[str, Any]:
    """The record of a game (finished or not)."""
    return {"format": FORMAT, "version": VERSION, "config": config.to_dict(),
            "actions": [str(a) for a in actions], "bots": [s.to_dict() for s in seats]}


@dataclass(frozen=True)
class GameRecord:
    config: GameConfig
    actions: list[str]
    seats: list[Seat]

    def replay(self) -> GameState:
        """The game state after every recorded action.

        :raises CorruptState: an action (or an ``undo``) does not apply where it falls in the log.
        """
        try:
            return replay_log(self.config, self.actions).state
        except PowerGridError as exc:
            raise CorruptState(f"the record does not replay: {exc}") from exc


def load_game_record(data: Any) -> GameRecord:
    """Read a record written by :func:`game_record`.

    :raises CorruptState: not a game record, or malformed.
    :raises UnsupportedVersion: a newer version of the format.
    """
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise CorruptState(f"not a game record (expected format {FORMAT!r})")
    if data.get("version") != VERSION:
        raise UnsupportedVersion(f"game record version {data.get('version')!r} is not supported "
                                 f"(this program reads version {VERSION})")
    try:
        config = GameConfig.from_dict(data.get("config"))
    except PowerGridError as exc:
        raise CorruptState(f"bad config in the record: {exc}") from exc
    actions = data.get("actions")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise CorruptState("the record's actions must be a list of action texts")
    seats = []
    raw_seats = data.get("bots") or []
    if not isinstance(raw_seats, list):
        raise CorruptState("the record's bots must be a list")
    for i, item in enumerate(raw_seats):
        if isinstance(item, str):
            seats.append(Seat(i, item))
            continue
        spec = item.get("bot", item.get("spec")) if isinstance(item, dict) else None
        if not isinstance(spec, str):
            raise CorruptState(f"bad seat entry {item!r} in the record")
        seed = item.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise CorruptState(f"bad seed {seed!r} in the record")
        seats.append(Seat(int(item.get("seat", i)), spec, seed))
    return GameRecord(config, list(actions), seats)
