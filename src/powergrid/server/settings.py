"""Server settings, read from arguments or ``POWERGRID_*`` environment variables."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from .limits import Limits

DEFAULT_DATABASE_URL = "sqlite:///./powergrid.db"


def _env_float(name: str, default: float) -> float:
    value = os.environ.get(name)
    return float(value) if value not in (None, "") else default


def _env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    return int(value) if value not in (None, "") else default


@dataclass
class Settings:
    """How one server process runs. Every field has a ``POWERGRID_<NAME>`` variable."""

    database_url: str = field(default_factory=lambda: os.environ.get("POWERGRID_DATABASE_URL")
                              or DEFAULT_DATABASE_URL)
    #: redis://... to fan out through Redis pub/sub instead of PostgreSQL LISTEN/NOTIFY
    redis_url: str | None = field(default_factory=lambda: os.environ.get("POWERGRID_REDIS_URL") or None)
    #: a snapshot of the full state is stored every this many actions
    snapshot_every: int = field(default_factory=lambda: _env_int("POWERGRID_SNAPSHOT_EVERY", 50))
    #: request bodies larger than this are refused with 413 body_too_large
    max_body_bytes: int = field(default_factory=lambda: _env_int("POWERGRID_MAX_BODY_BYTES", 16 * 1024))
    #: seconds a bot waits before each move (0: as fast as it can; raise it to watch bot games)
    bot_delay: float = field(default_factory=lambda: _env_float("POWERGRID_BOT_DELAY", 0.0))
    #: threads that run bots' decisions, off the event loop
    bot_threads: int = field(default_factory=lambda: _env_int("POWERGRID_BOT_THREADS", 4))
    #: live games kept in memory
    cache_size: int = field(default_factory=lambda: _env_int("POWERGRID_CACHE_SIZE", 2000))
    #: whether a creator may choose a game's seed (such a game is shown as seeded to everyone)
    chosen_seeds: bool = field(
        default_factory=lambda: os.environ.get("POWERGRID_CHOSEN_SEEDS", "1") not in ("0", "false"))
    #: per-client limits and timeouts (limits.py; POWERGRID_LIMITS=0 turns the per-client ones off)
    limits: Limits = field(default_factory=Limits)

    @property
    def is_postgres(self) -> bool:
        return self.database_url.startswith("postgresql")

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")
