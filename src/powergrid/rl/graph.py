"""The map as a graph for feature extractors (graph networks, convolutions over cities).

Cities are in map order, the order of the observation's per-city fields and of the ``build``
action block, so row ``i`` of every array here is city ``i`` there.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..rules import GameMap, load_map, load_map_file


@dataclass(frozen=True, eq=False)
class MapGraph:
    """``cities`` (names, map order); ``adjacency`` (C x C float32, 1 where two cities share a
    direct connection, symmetric, 0 on the diagonal); ``costs`` (C x C float32, the connection's
    Elektro cost, 0 where none); ``edges`` (E x 2 int64, each connection once, lower index
    first) with ``edge_costs`` (E,); ``positions`` (C x 2 float32, the board drawing's x and y,
    scaled into [0, 1] by the largest coordinate); ``regions`` (C int64, the index of each city's
    region in ``region_names``)."""

    cities: tuple[str, ...]
    adjacency: np.ndarray
    costs: np.ndarray
    edges: np.ndarray
    edge_costs: np.ndarray
    positions: np.ndarray
    regions: np.ndarray
    region_names: tuple[str, ...]


def graph_of(game_map: GameMap) -> MapGraph:
    n = len(game_map.cities)
    costs = np.zeros((n, n), np.float32)
    adjacency = np.zeros((n, n), np.float32)
    edges = np.array([(min(a, b), max(a, b)) for a, b, _ in game_map.connections], np.int64).reshape(-1, 2)
    edge_costs = np.array([c for _, _, c in game_map.connections], np.float32)
    for (a, b), cost in zip(edges, edge_costs, strict=True):
        costs[a, b] = costs[b, a] = cost
        adjacency[a, b] = adjacency[b, a] = 1.0
    raw = np.array([game_map.positions.get(c, (0.0, 0.0)) for c in game_map.cities], np.float32)
    scale = float(np.abs(raw).max()) or 1.0
    names = game_map.region_names
    regions = np.array([names.index(r) for r in game_map.city_region], np.int64)
    return MapGraph(tuple(game_map.cities), adjacency, costs, edges, edge_costs,
                    raw / scale, regions, names)


def map_graph(map: str = "germany", map_file: str | None = None) -> MapGraph:
    """The graph of a packaged map (``"germany"``, ``"usa"``) or of a map file."""
    return graph_of(load_map_file(map_file) if map_file is not None else load_map(map))
