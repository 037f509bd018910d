"""GameConfig: everything needed to start a game, and nothing else."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import InvalidConfig

VARIANTS = ("standard", "first_game")


@dataclass(frozen=True)
class GameConfig:
    """How to set up a game.

    ``regions`` is an explicit choice (validated) or None to draw connected
    regions from the seed; ``map_file`` plays a user's map instead of ``map``.
    """

    map: str = "germany"
    players: int = 4
    seed: int = 0
    regions: tuple[str, ...] | None = None
    variant: str = "standard"
    map_file: str | None = field(default=None)

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

    def to_dict(self) -> dict[str, Any]:
        return {"map": self.map, "players": self.players, "seed": self.seed,
                "regions": list(self.regions) if self.regions is not None else None,
                "variant": self.variant, "map_file": self.map_file}

    @classmethod
    def from_dict(cls, data: Any) -> GameConfig:
        if not isinstance(data, dict):
            raise InvalidConfig(f"a config must be an object, not {type(data).__name__}")
        unknown = set(data) - {"map", "players", "seed", "regions", "variant", "map_file"}
        if unknown:
            raise InvalidConfig(f"unknown config field(s): {', '.join(sorted(unknown))}")
        regions = data.get("regions")
        return cls(map=data.get("map", "germany"), players=data.get("players", 4),
                   seed=data.get("seed", 0),
                   regions=tuple(regions) if isinstance(regions, list) else regions,
                   variant=data.get("variant", "standard"), map_file=data.get("map_file"))
