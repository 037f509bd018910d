"""Server settings, read from arguments or ``POWERGRID_*`` environment variables."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from .clock import Clock, SystemClock
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
    #: SQLite's `synchronous` (WAL mode): NORMAL keeps every acknowledged action through a crash of
    #: the server (it is in the WAL before the answer) and may lose the last ones on a power cut;
    #: FULL also survives a power cut, at the price of a disk flush per action (docs/server.md)
    sqlite_synchronous: str = field(
        default_factory=lambda: os.environ.get("POWERGRID_SQLITE_SYNCHRONOUS", "NORMAL").upper())
    #: a snapshot of the full state is stored every this many actions
    snapshot_every: int = field(default_factory=lambda: _env_int("POWERGRID_SNAPSHOT_EVERY", 50))
    #: request bodies larger than this are refused with 413 body_too_large
    max_body_bytes: int = field(default_factory=lambda: _env_int("POWERGRID_MAX_BODY_BYTES", 16 * 1024))
    #: memory for live games per process, in MB (games are dropped least recently used first)
    cache_mb: int = field(default_factory=lambda: _env_int("POWERGRID_CACHE_MB", 256))
    #: net allocations between collections of the young generation in each server process (and
    #: bot worker); 0 keeps CPython's default of 700 (collector.py)
    gc_threshold: int = field(default_factory=lambda: _env_int("POWERGRID_GC_THRESHOLD", 50_000))
    #: a web process collects its young generation every this many ms (collector.py: at a steady
    #: load the threshold hardly fires, and then walks every game's frames); 0: only the threshold
    gc_sweep_ms: float = field(default_factory=lambda: _env_float("POWERGRID_GC_SWEEP_MS", 100.0))
    #: ...and its older generation every this many seconds (the whole heap every tenth time)
    gc_older_s: float = field(default_factory=lambda: _env_float("POWERGRID_GC_OLDER_S", 60.0))
    #: how long, in ms, a web process's event loop may keep the interpreter lock while one of its
    #: threads (a PostgreSQL batch, the notices' reader) waits for it; 0 keeps CPython's 5 ms
    switch_interval_ms: float = field(default_factory=lambda: _env_float("POWERGRID_SWITCH_INTERVAL_MS", 1.0))
    #: whether a creator may choose a game's seed (such a game is shown as seeded to everyone)
    chosen_seeds: bool = field(
        default_factory=lambda: os.environ.get("POWERGRID_CHOSEN_SEEDS", "1") not in ("0", "false"))
    #: with several web processes on one port (`powergrid serve --workers N`), hand each request that
    #: names a game to the game's one owner process (owners.py), so that one process applies its actions
    game_owners: bool = field(
        default_factory=lambda: os.environ.get("POWERGRID_GAME_OWNERS", "1") not in ("0", "false"))
    #: answers (and WebSocket handshakes) say which process gave them (X-Powergrid-Process: pid),
    #: for tests and for looking into a server
    process_header: bool = field(
        default_factory=lambda: os.environ.get("POWERGRID_PROCESS_HEADER", "0") not in ("0", "false", ""))
    #: per-client limits and timeouts (limits.py; POWERGRID_LIMITS=0 turns the per-client ones off)
    limits: Limits = field(default_factory=Limits)

    # ---------------------------------------------------------------- bots (jobs for bot workers)
    #: default pause before each bot move in games with a person in them (all-bot games: 0)
    bot_pace_ms: int = field(default_factory=lambda: _env_int("POWERGRID_BOT_PACE_MS", 800))
    #: the largest pause a game may ask for
    bot_pace_max_ms: int = field(default_factory=lambda: _env_int("POWERGRID_BOT_PACE_MAX_MS", 5000))
    #: after a person's action that they may take back, in a game that allows undo, a bot to act
    #: next waits this long from the action, so the person can take it back (games/undo_window.py);
    #: 0: bots answer after their pause alone
    undo_window_ms: int = field(default_factory=lambda: _env_int("POWERGRID_UNDO_WINDOW_MS", 5000))
    #: the most quick-lane bot turns a worker takes at once when they queue up: one commit leases
    #: them and one commits their moves, instead of two each (a disk flush each on PostgreSQL)
    bot_batch: int = field(default_factory=lambda: _env_int("POWERGRID_BOT_BATCH", 16))
    #: bot-worker processes `powergrid serve` starts for the quick lane (random, heuristic bots)
    bot_workers: int = field(default_factory=lambda: _env_int("POWERGRID_BOT_WORKERS", 1))
    #: bot-worker processes `powergrid serve` starts for the search lane (mcts bots; they help the
    #: quick lane when idle)
    search_workers: int = field(default_factory=lambda: _env_int("POWERGRID_SEARCH_WORKERS", 1))
    #: the most forward-model calls a search bot may spend on one move
    search_budget_max: int = field(default_factory=lambda: _env_int("POWERGRID_SEARCH_BUDGET_MAX", 16000))
    #: search-bot turns of one client's games thought about at the same time
    search_per_client: int = field(default_factory=lambda: _env_int("POWERGRID_SEARCH_PER_CLIENT", 1))
    #: seconds a worker holds a job before another may take it over (renewed while it works)
    job_lease_s: float = field(default_factory=lambda: _env_float("POWERGRID_JOB_LEASE_S", 15.0))
    #: how often an idle worker looks for jobs, and a web process for changes on SQLite, when no
    #: ring wakes it first: processes on this machine ring each other (doorbell.py), so this only
    #: bounds the wait for what no ring announces (a worker on another machine, a lapsed lease)
    poll_ms: int = field(default_factory=lambda: _env_int("POWERGRID_POLL_MS", 250))

    # ---------------------------------------------------------------- lifecycle
    #: games in play untouched this long are deleted (0: never); finished games are kept
    idle_expiry_hours: float = field(default_factory=lambda: _env_float("POWERGRID_IDLE_EXPIRY_HOURS", 72.0))
    #: seconds the lobby list is reused before it is read again
    lobby_cache_s: float = field(default_factory=lambda: _env_float("POWERGRID_LOBBY_CACHE_S", 2.0))

    # ---------------------------------------------------------------- clocks and absent players
    #: in a game with a live clock, a person whose every socket has been closed this long is
    #: played by the game's stand-in bot until they come back (games/absence.py)
    absence_grace_s: float = field(default_factory=lambda: _env_float("POWERGRID_ABSENCE_GRACE_S", 60.0))
    #: where the games' clocks read the time (tests give a ManualClock)
    clock: Clock = field(default_factory=SystemClock)

    @property
    def is_postgres(self) -> bool:
        return self.database_url.startswith("postgresql")

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")

    @property
    def appends_on_loop(self) -> bool:
        """Whether a web process writes its appends on the event loop when the database's lock is
        free: SQLite with no disk flush per commit (group_commit.py). Its connections then leave
        checkpoints (which do flush the disk) to a thread."""
        return self.is_sqlite and self.sqlite_synchronous in ("OFF", "NORMAL")
