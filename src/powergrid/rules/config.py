"""GameConfig: everything needed to start a game, and nothing else."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .errors import InvalidConfig, InvalidMap

VARIANTS = ("standard", "first_game")
#: The largest custom map given as data (its JSON, UTF-8): the packaged maps are under 10 kB.
MAX_MAP_DATA_BYTES = 64 * 1024


@dataclass(frozen=True)
class GameConfig:
    """How to set up a game.

    ``regions`` is an explicit choice (validated) or None to draw connected
    regions from the seed; ``map_file`` plays a user's map file instead of ``map``, and
    ``map_data`` a user's map given as data (the file's JSON object; it is kept as canonical JSON
    text, so configs stay hashable and a record carries its map). A config that comes from
    outside (a network request, a record sent by a client) must be read with
    ``from_dict(data, map_files=False)``: it may carry a map as data, never name a file.
    """

    map: str = "germany"
    players: int = 4
    seed: int = 0
    regions: tuple[str, ...] | None = None
    variant: str = "standard"
    map_file: str | None = field(default=None)
    map_data: str | None = field(default=None)

    def __post_init__(self) -> None:
        if not isinstance(self.map, str):
            raise InvalidConfig(f"map must be a name, not {self.map!r}")
        if isinstance(self.players, bool) or not isinstance(self.players, int):
            raise InvalidConfig(f"players must be an integer, not {self.players!r}")
        if not 2 <= self.players <= 6:
            raise InvalidConfig(f"Power Grid is played by 2 to 6 players, not {self.players}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int):
            raise InvalidConfig(f"seed must be an integer, not {self.seed!r}")
        if self.variant not in VARIANTS:
            raise InvalidConfig(f"unknown variant {self.variant!r}; the variants are {', '.join(VARIANTS)}")
        if self.regions is not None:
            if isinstance(self.regions, str) or not all(isinstance(r, str) for r in self.regions):
                raise InvalidConfig(f"regions must be a list of region names, not {self.regions!r}")
            object.__setattr__(self, "regions", tuple(self.regions))
        if self.map_file is not None and not isinstance(self.map_file, str):
            raise InvalidConfig(f"map_file must be a path, not {type(self.map_file).__name__}")
        if self.map_data is not None:
            if self.map_file is not None:
                raise InvalidConfig("give a map as map_file or as map_data, not both")
            object.__setattr__(self, "map_data", canonical_map_data(self.map_data))

    def to_dict(self) -> dict[str, Any]:
        out = {"map": self.map, "players": self.players, "seed": self.seed,
               "regions": list(self.regions) if self.regions is not None else None,
               "variant": self.variant, "map_file": self.map_file}
        if self.map_data is not None:  # only then: every other config's JSON is as it always was
            out["map_data"] = json.loads(self.map_data)
        return out

    @classmethod
    def from_dict(cls, data: Any, *, map_files: bool = True) -> GameConfig:
        """The config of ``data`` (as :meth:`to_dict` writes it). With ``map_files=False`` (every
        config that arrives from outside the process) naming a file is refused: only maps as data."""
        if not isinstance(data, dict):
            raise InvalidConfig(f"a config must be an object, not {type(data).__name__}")
        unknown = set(data) - {"map", "players", "seed", "regions", "variant", "map_file", "map_data"}
        if unknown:
            raise InvalidConfig(f"unknown config field(s): {', '.join(sorted(unknown))}")
        if not map_files and data.get("map_file") is not None:
            raise InvalidConfig("map_file is not accepted here: a config from outside may not name a file; "
                                "send the map itself as map_data")
        regions = data.get("regions")
        return cls(map=data.get("map", "germany"), players=data.get("players", 4),
                   seed=data.get("seed", 0),
                   regions=tuple(regions) if isinstance(regions, list) else regions,
                   variant=data.get("variant", "standard"), map_file=data.get("map_file"),
                   map_data=data.get("map_data"))


def canonical_map_data(data: Any) -> str:
    """A map given as data (a JSON object, or its text) as canonical JSON text, size-bounded.
    Its content is validated when a game is set up on it (``maps.parse_map``)."""
    if isinstance(data, str):
        if len(data) > MAX_MAP_DATA_BYTES:
            raise InvalidMap(f"map_data is over {MAX_MAP_DATA_BYTES} bytes")
        try:
            data = json.loads(data)
        except (json.JSONDecodeError, RecursionError):
            raise InvalidMap("map_data is not valid JSON") from None
    if not isinstance(data, dict):
        raise InvalidMap(f"map_data must be a map's JSON object, not {type(data).__name__}")
    try:
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError):
        raise InvalidMap("map_data holds something that is not JSON") from None
    if len(text.encode("utf-8")) > MAX_MAP_DATA_BYTES:
        raise InvalidMap(f"map_data is over {MAX_MAP_DATA_BYTES} bytes")
    return text
