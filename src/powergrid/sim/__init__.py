"""Bot games and tournaments, on a local process pool or a Ray cluster (docs/tournaments.md)."""

from .backends import BACKENDS, run_local, run_ray
from .game import GameResult, GameSpec, play_game
from .records import GameRecord, Seat, game_record, load_game_record
from .seeds import bot_seed, derive_seed, game_seed
from .stats import BotSummary, elo_ratings, summarize, wilson_interval
from .tournament import Tournament, plan_tournament, run_tournament

__all__ = [
    "BACKENDS", "BotSummary", "GameRecord", "GameResult", "GameSpec", "Seat", "Tournament",
    "bot_seed", "derive_seed", "elo_ratings", "game_record", "game_seed", "load_game_record",
    "plan_tournament", "play_game", "run_local", "run_ray", "run_tournament", "summarize",
    "wilson_interval",
]
