"""Scenario: the fixed facts of one game, shared (never copied) by all its states."""

from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Any

from . import rng as _rng
from .actions import Action
from .catalog import FIRST_GAME_CITIES, HOUSES_PER_PLAYER, Catalog, PlayerCountRules, catalog
from .config import GameConfig
from .maps import Board, GameMap, board_for, check_regions, load_map, load_map_data, load_map_file


@dataclass(frozen=True, eq=False)
class Scenario:
    config: GameConfig
    catalog: Catalog
    rules: PlayerCountRules
    board: Board
    seating: tuple[int, ...]
    seat_position: tuple[int, ...]
    first_game: bool
    max_houses: int
    end_cities: int
    #: plant number -> (resource index or -1, burn, cities, storage, kind code)
    plant_burn: dict[int, int]
    plant_cities: dict[int, int]
    plant_kind: dict[int, str]
    #: per resource: cumulative prices of the track, cheapest slot first
    price_prefix: tuple[tuple[int, ...], ...]
    capacity: tuple[int, ...]
    build_actions: tuple[Action, ...]
    city_by_name: dict[str, int]
    #: the ways to run each holding of plants with each stock of resources, once worked out
    #: (bureaucracy.options); shared by the public and sampled copies, which have the same plants
    power_memo: dict[tuple[tuple[int, ...], tuple[int, int, int, int]], Any] = field(
        default_factory=dict, repr=False)
    #: the most cities each holding of plants powers with each stock of resources (best_powered:
    #: every state payload the server sends and every search rollout's end ask for it)
    power_best_memo: dict[tuple[tuple[int, ...], tuple[int, int, int, int]], int] = field(
        default_factory=dict, repr=False)
    #: what each holding of plants can store, once worked out (storage.capacities)
    storage_memo: dict[tuple[int, ...], tuple[int, int, int, int, int]] = field(
        default_factory=dict, repr=False)
    #: caches of whoever plays this game (the bots), by their name: they go with the game, where
    #: a module's cache outlived it; shared by the public and sampled copies (which differ from
    #: it only in the seed), as the memos are
    play_memo: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def players(self) -> int:
        return self.config.players

    def __getstate__(self) -> dict[str, Any]:
        # the memos are this process's caches: a pickled scenario starts with empty ones
        saved = dict(self.__dict__)
        saved["power_memo"] = {}
        saved["power_best_memo"] = {}
        saved["storage_memo"] = {}
        saved["play_memo"] = {}
        return saved

    @property
    def map(self) -> GameMap:
        return self.board.map

    def buy_cost(self, resource: int, in_market: int, amount: int) -> int:
        """Price of ``amount`` units bought from a track holding ``in_market`` (cheapest first)."""
        prefix = self.price_prefix[resource]
        start = self.capacity[resource] - in_market
        return prefix[start + amount] - prefix[start]


def public_scenario(scn: Scenario) -> Scenario:
    """The scenario as players see it: the seed (which fixes the deck order) is None."""
    cached: Scenario | None = scn.__dict__.get("_public")
    if cached is None:
        config = copy.copy(scn.config)
        object.__setattr__(config, "seed", None)
        cached = dataclasses.replace(scn, config=config)
        object.__setattr__(cached, "_public", cached)
        object.__setattr__(scn, "_public", cached)
    return cached


def sampled_scenario(scn: Scenario) -> Scenario:
    """The scenario of a determinized state: a valid config whose seed is 0, since the true seed
    is hidden (only the deck it ordered matters from setup on, and that is sampled)."""
    cached: Scenario | None = scn.__dict__.get("_sampled")
    if cached is None:
        cached = dataclasses.replace(scn, config=dataclasses.replace(scn.config, seed=0))
        object.__setattr__(scn, "_sampled", cached)
    return cached


def resolve_map(config: GameConfig) -> GameMap:
    if config.map_data is not None:
        return load_map_data(config.map_data)
    if config.map_file is not None:
        return load_map_file(config.map_file)
    return load_map(config.map)


def make_scenario(config: GameConfig, regions: tuple[str, ...], seating: tuple[int, ...]) -> Scenario:
    cat = catalog()
    rules = cat.player_counts[config.players]
    game_map = resolve_map(config)
    check_regions(game_map, regions, rules.regions)
    board = board_for(game_map, regions)
    first_game = config.variant == "first_game"
    end_cities = FIRST_GAME_CITIES if first_game else rules.end_cities
    if len(board.in_play) < end_cities:
        from .errors import InvalidConfig
        raise InvalidConfig(f"only {len(board.in_play)} cities are in play on {game_map.name}, but the "
                            f"game ends at {end_cities} cities with {config.players} players")
    position = [0] * config.players
    for i, seat in enumerate(seating):
        position[seat] = i
    prefixes = tuple(tuple(accumulate(track.slot_prices, initial=0)) for track in cat.tracks)
    power_memo, power_best_memo, storage_memo = _memos(cat)
    return Scenario(
        config=config, catalog=cat, rules=rules, board=board, seating=seating,
        seat_position=tuple(position), first_game=first_game,
        max_houses=FIRST_GAME_CITIES if first_game else HOUSES_PER_PLAYER,
        end_cities=end_cities,
        plant_burn={n: p.burn for n, p in cat.plants.items()},
        plant_cities={n: p.cities for n, p in cat.plants.items()},
        plant_kind={n: p.kind for n, p in cat.plants.items()},
        price_prefix=prefixes,
        capacity=tuple(track.capacity for track in cat.tracks),
        build_actions=tuple(Action.build(name) for name in game_map.cities),
        city_by_name={name: i for i, name in enumerate(game_map.cities)},
        power_memo=power_memo, power_best_memo=power_best_memo, storage_memo=storage_memo,
    )


def _memos(cat: Catalog) -> tuple[dict[Any, Any], dict[Any, Any], dict[Any, Any]]:
    """The memos of power options, best powering and storage (see Scenario): they depend only
    on the catalog's plants, so every game made from one catalog shares them (a process that
    plays many games works each holding out once, not once a game)."""
    found: tuple[dict[Any, Any], dict[Any, Any], dict[Any, Any]] | None = cat.__dict__.get("_memos")
    if found is None:
        found = ({}, {}, {})
        object.__setattr__(cat, "_memos", found)
    return found


def draw_setup(config: GameConfig) -> tuple[int, tuple[str, ...], tuple[int, ...]]:
    """From the seed: regions (if not given), seating order; returns the generator state too."""
    state = _rng.seed_state(config.seed)
    game_map = resolve_map(config)
    count = catalog().player_counts[config.players].regions
    if config.regions is None:
        choices = game_map.connected_region_sets(count)
        if not choices:
            from .errors import InvalidRegions
            raise InvalidRegions(f"map {game_map.name} has no {count} connected regions")
        state, pick = _rng.below(state, len(choices))
        regions = choices[pick]
    else:
        regions = config.regions
    seating = list(range(config.players))
    state = _rng.shuffle(state, seating)
    return state, tuple(regions), tuple(seating)
