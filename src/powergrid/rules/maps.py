"""Maps: cities, regions, connections; validation; the board for chosen regions."""

from __future__ import annotations

import hashlib
import itertools
import json
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from .errors import InvalidMap, InvalidRegions, UnknownMap

PACKAGED_MAPS = ("germany", "usa")
#: Cost standing for "no path" between two cities.
NO_PATH = 1 << 30


@dataclass(frozen=True, eq=False)
class GameMap:
    """A validated map: cities (in a fixed order), regions and connections."""

    name: str
    cities: tuple[str, ...]
    city_region: tuple[str, ...]
    regions: dict[str, tuple[int, ...]]
    connections: tuple[tuple[int, int, int], ...]
    positions: dict[str, tuple[float, float]]
    digest: str

    @property
    def region_names(self) -> tuple[str, ...]:
        return tuple(self.regions)

    def city_index(self, name: str) -> int:
        try:
            return self.cities.index(name)
        except ValueError:
            raise KeyError(name) from None

    def region_adjacency(self) -> dict[str, set[str]]:
        """Regions joined by a direct connection between their cities."""
        adjacent: dict[str, set[str]] = {r: set() for r in self.regions}
        for a, b, _ in self.connections:
            ra, rb = self.city_region[a], self.city_region[b]
            if ra != rb:
                adjacent[ra].add(rb)
                adjacent[rb].add(ra)
        return adjacent

    def connected_region_sets(self, count: int) -> list[tuple[str, ...]]:
        """Every connected choice of ``count`` regions, in a stable order."""
        adjacent = self.region_adjacency()
        return [combo for combo in itertools.combinations(self.region_names, count)
                if _regions_connected(combo, adjacent)]


def _regions_connected(chosen: tuple[str, ...] | list[str], adjacent: dict[str, set[str]]) -> bool:
    if not chosen:
        return False
    seen = {chosen[0]}
    frontier = [chosen[0]]
    wanted = set(chosen)
    while frontier:
        region = frontier.pop()
        for other in adjacent[region] & wanted:
            if other not in seen:
                seen.add(other)
                frontier.append(other)
    return seen == wanted


def parse_map(data: Any, source: str = "map") -> GameMap:
    """Validate a map given as decoded JSON; raise :class:`InvalidMap` naming the fault."""
    def fail(why: str) -> InvalidMap:
        return InvalidMap(f"{source}: {why}")

    if not isinstance(data, dict):
        raise fail("the map must be a JSON object")
    name = data.get("map", source)
    regions = data.get("regions")
    if not isinstance(regions, dict) or not regions:
        raise fail("'regions' must be a non-empty object of region name -> list of cities")
    cities: list[str] = []
    city_region: list[str] = []
    region_cities: dict[str, tuple[int, ...]] = {}
    for region, members in regions.items():
        if not isinstance(members, list) or not members:
            raise fail(f"region {region!r} must list at least one city")
        indices = []
        for city in members:
            if not isinstance(city, str) or not city.strip():
                raise fail(f"region {region!r} has a city name that is not a non-empty string: {city!r}")
            if city in cities:
                raise fail(f"city {city!r} is listed twice")
            indices.append(len(cities))
            cities.append(city)
            city_region.append(region)
        region_cities[region] = tuple(indices)
    index = {c: i for i, c in enumerate(cities)}
    raw_connections = data.get("connections")
    if not isinstance(raw_connections, list):
        raise fail("'connections' must be a list of [city, city, cost]")
    connections = []
    seen_pairs: set[tuple[int, int]] = set()
    for entry in raw_connections:
        if not (isinstance(entry, list | tuple) and len(entry) == 3):
            raise fail(f"connection {entry!r} is not [city, city, cost]")
        a, b, cost = entry
        for city in (a, b):
            if city not in index:
                raise fail(f"connection {entry!r} names unknown city {city!r}")
        if isinstance(cost, bool) or not isinstance(cost, int):
            raise fail(f"connection {entry!r} has a cost that is not an integer")
        if cost < 0:
            raise fail(f"connection {entry!r} has a negative cost")
        if a == b:
            raise fail(f"connection {entry!r} joins a city to itself")
        pair = (min(index[a], index[b]), max(index[a], index[b]))
        if pair in seen_pairs:
            raise fail(f"connection {a} - {b} is listed twice")
        seen_pairs.add(pair)
        connections.append((index[a], index[b], cost))
    # Connectivity of the whole graph.
    neighbours: dict[int, list[int]] = {i: [] for i in range(len(cities))}
    for a, b, _ in connections:
        neighbours[a].append(b)
        neighbours[b].append(a)
    reached = {0}
    stack = [0]
    while stack:
        for nxt in neighbours[stack.pop()]:
            if nxt not in reached:
                reached.add(nxt)
                stack.append(nxt)
    if len(reached) != len(cities):
        lost = sorted(cities[i] for i in range(len(cities)) if i not in reached)
        raise fail(f"the map is not connected: {', '.join(lost[:5])} cannot be reached from {cities[0]}")
    positions: dict[str, tuple[float, float]] = {}
    raw_positions = data.get("positions", {})
    if not isinstance(raw_positions, dict):
        raise fail("'positions' must be an object of city -> [x, y]")
    for city, xy in raw_positions.items():
        if city not in index:
            raise fail(f"position given for unknown city {city!r}")
        if not (isinstance(xy, list | tuple) and len(xy) == 2
                and all(isinstance(v, int | float) and not isinstance(v, bool) for v in xy)):
            raise fail(f"position of {city!r} is not [x, y]")
        positions[city] = (float(xy[0]), float(xy[1]))
    digest = hashlib.sha256(json.dumps(
        [cities, city_region, connections], ensure_ascii=False).encode()).hexdigest()[:16]
    return GameMap(str(name), tuple(cities), tuple(city_region), region_cities,
                   tuple(connections), positions, digest)


@cache
def load_map(name: str) -> GameMap:
    """One of the packaged maps, by name (``germany`` or ``usa``)."""
    key = name.lower()
    if key not in PACKAGED_MAPS:
        raise UnknownMap(f"unknown map {name!r}; the maps are: {', '.join(PACKAGED_MAPS)}")
    text = resources.files("powergrid.rules.data").joinpath(f"{key}.json").read_text("utf-8")
    game_map = parse_map(json.loads(text), key)
    return GameMap(key, game_map.cities, game_map.city_region, game_map.regions,
                   game_map.connections, game_map.positions, game_map.digest)


def load_map_file(path: str | Path) -> GameMap:
    """A user's map file, validated."""
    try:
        text = Path(path).read_text("utf-8")
    except OSError as exc:
        raise InvalidMap(f"{path}: cannot read the map file ({exc.strerror})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidMap(f"{path}: not valid JSON ({exc})") from None
    return parse_map(data, str(path))


@lru_cache(maxsize=32)
def load_map_data(text: str) -> GameMap:
    """A user's map given as data (canonical JSON text, ``GameConfig.map_data``), validated."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise InvalidMap("map_data is not valid JSON") from None
    return parse_map(data, "map_data")


def check_regions(game_map: GameMap, regions: tuple[str, ...], count: int) -> None:
    """Raise :class:`InvalidRegions` unless ``regions`` is a legal choice (docs/rules.md, Setup 1)."""
    unknown = [r for r in regions if r not in game_map.regions]
    if unknown:
        raise InvalidRegions(f"unknown region(s) {', '.join(map(repr, unknown))} on map "
                             f"{game_map.name}; the regions are {', '.join(game_map.regions)}")
    if len(set(regions)) != len(regions):
        raise InvalidRegions(f"a region is chosen twice: {', '.join(regions)}")
    if len(regions) != count:
        raise InvalidRegions(f"{count} regions are played with this many players, "
                             f"but {len(regions)} were chosen")
    if not _regions_connected(list(regions), game_map.region_adjacency()):
        raise InvalidRegions(f"the chosen regions {', '.join(regions)} do not form one connected area")


@dataclass(frozen=True, eq=False)
class Board:
    """A map with its regions in play: which cities are open and what paths cost."""

    map: GameMap
    regions: tuple[str, ...]
    in_play: tuple[int, ...]
    distance: tuple[tuple[int, ...], ...]


@cache
def board_for(game_map: GameMap, regions: tuple[str, ...]) -> Board:
    """Cheapest path costs between in-play cities, through in-play cities only."""
    n = len(game_map.cities)
    in_play = tuple(sorted(i for r in regions for i in game_map.regions[r]))
    open_city = [False] * n
    for i in in_play:
        open_city[i] = True
    dist = [[NO_PATH] * n for _ in range(n)]
    for i in in_play:
        dist[i][i] = 0
    for a, b, cost in game_map.connections:
        if open_city[a] and open_city[b] and cost < dist[a][b]:
            dist[a][b] = dist[b][a] = cost
    for k in in_play:
        dk = dist[k]
        for i in in_play:
            di = dist[i]
            dik = di[k]
            if dik >= NO_PATH:
                continue
            for j in in_play:
                via = dik + dk[j]
                if via < di[j]:
                    di[j] = via
    return Board(game_map, tuple(regions), in_play, tuple(tuple(row) for row in dist))
