"""The rules engine: the complete 2004 Power Grid, pure Python, deterministic from a seed."""

from .actions import Action, parse_action
from .auction import default_discard
from .bureaucracy import default_action as default_power
from .bureaucracy import options as power_options
from .catalog import RESOURCES, STEP3, Plant, catalog
from .config import MAX_MAP_DATA_BYTES, GameConfig
from .errors import (
    CorruptState,
    IllegalAction,
    InvalidConfig,
    InvalidMap,
    InvalidRegions,
    MalformedAction,
    PowerGridError,
    UndoRefused,
    UnknownMap,
    UnsupportedVersion,
)
from .maps import GameMap, load_map, load_map_data, load_map_file
from .phase import Phase
from .replay import replay
from .setup import new_game
from .state import GameState
from .undo import UNDO, Ledger, Taken, Timeline, replay_log
from .view import GameView, determinize

__all__ = [
    "Action", "CorruptState", "GameConfig", "MAX_MAP_DATA_BYTES", "GameMap", "GameState", "GameView",
    "IllegalAction",
    "InvalidConfig", "InvalidMap", "InvalidRegions", "MalformedAction", "Phase", "Plant",
    "PowerGridError", "RESOURCES", "STEP3", "UnknownMap", "UnsupportedVersion", "catalog",
    "default_discard", "default_power", "determinize", "load_map", "load_map_data", "load_map_file",
    "new_game",
    "parse_action", "power_options",
    "replay",
    "UNDO", "Ledger", "Taken", "Timeline", "UndoRefused", "replay_log",
]
