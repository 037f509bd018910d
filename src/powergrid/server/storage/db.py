"""The database: tables (created by the Alembic migrations), engines, and running the migrations."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Connection,
    DateTime,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    UniqueConstraint,
    create_engine,
    event,
    true,
)
from sqlalchemy.exc import DisconnectionError, OperationalError

T = TypeVar("T")

metadata = MetaData()

#: how long a SQLite connection waits for another's write lock before it fails
SQLITE_BUSY_TIMEOUT_MS = 30_000
#: a pooled PostgreSQL connection unused this long is tested before it is used again (make_engine)
IDLE_PING_S = 1.0

#: one row per game: its config (with the seed) never changes; version/status/round/to_act follow the log
games = Table(
    "games", metadata,
    Column("id", String(32), primary_key=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("map", String(64), nullable=False),
    Column("players", Integer, nullable=False),
    Column("variant", String(32), nullable=False),
    Column("config", Text, nullable=False),
    Column("version", Integer, nullable=False),
    Column("status", String(16), nullable=False),
    Column("round", Integer, nullable=False),
    Column("to_act", Integer, nullable=True),
    #: public games list their open seats for anyone; private ones are joined only by seat links
    Column("public", Boolean, nullable=False, default=False),
    #: the creator chose the seed (every seat is told)
    Column("seeded", Boolean, nullable=False, default=False),
    #: the creating client's key (a hash, see limits.client_key), for the per-client limits
    Column("creator", String(64), nullable=True),
    #: milliseconds a bot waits before each of its moves (its job's not-before time)
    Column("bot_pace_ms", Integer, nullable=False, server_default="0"),
    #: whether a seat may take back its last actions (docs/rules.md, Undo); the creator's choice
    Column("allow_undo", Boolean, nullable=False, server_default=true()),
    #: how long the bots wait after a person's action that may be taken back (games/undo_window.py);
    #: null: the server's setting (games from before the creator chose it)
    Column("undo_window_ms", Integer, nullable=True),
    #: time.time() of the last change (creation or action): abandoned games expire from it
    Column("updated_at", Float, nullable=True),
    #: none, live or correspondence (null: none); the clock's numbers and the stand-in are in ``clock``
    Column("time_control", String(16), nullable=True),
    #: JSON: time control, stand-in bot, when the clocks started, who acted first (games/clocks.py)
    Column("clock", Text, nullable=True),
)

seats = Table(
    "seats", metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("kind", String(8), nullable=False),
    Column("bot", String(64), nullable=True),
    Column("bot_seed", BigInteger, nullable=True),
    Column("token_hash", String(64), nullable=True),
    Column("claimed", Boolean, nullable=False),
    #: a seat of a public game that anyone may take (it has no token until taken)
    Column("open", Boolean, nullable=False, default=False),
    #: the display name its person gave (1-24 characters, games/names.py); null: shown by colour
    Column("name", String(64), nullable=True),
    PrimaryKeyConstraint("game_id", "seat"),
)

#: the append-only log (actions and ``undo`` entries); the (game_id, seq) key lets exactly one
#: writer take each sequence number
actions = Table(
    "actions", metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("action", Text, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    #: the server clock's time of the append (the players' clocks are computed from it)
    Column("at", Float, nullable=True),
    #: the seat to act after this entry (null: nobody): the clocks replay without the game
    Column("to_act", Integer, nullable=True),
    PrimaryKeyConstraint("game_id", "seq"),
)

#: state.to_dict() after log entry ``seq`` (derived data: loading works without any of them), with
#: the undo window then (``Ledger.to_dict()``; null in snapshots older than undo)
snapshots = Table(
    "snapshots", metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("state", Text, nullable=False),
    Column("history", Text, nullable=False),
    Column("ledger", Text, nullable=True),
    PrimaryKeyConstraint("game_id", "seq"),
)

_ID = BigInteger().with_variant(Integer(), "sqlite")

#: work for worker processes: claimed under a lease, done exactly once (see jobs.py)
jobs = Table(
    "jobs", metadata,
    Column("id", _ID, primary_key=True, autoincrement=True),
    Column("kind", String(32), nullable=False),
    Column("lane", String(16), nullable=False),
    Column("key", String(128), nullable=False),
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), nullable=True),
    Column("version", Integer, nullable=True),
    Column("client", String(64), nullable=True),
    Column("payload", Text, nullable=False),
    Column("status", String(12), nullable=False),
    Column("not_before", Float, nullable=False),
    #: claimed lowest first among due jobs (jobs.INTERACTIVE, jobs.BACKGROUND)
    Column("priority", Integer, nullable=False, server_default="0"),
    Column("lease_until", Float, nullable=True),
    Column("worker", String(64), nullable=True),
    Column("attempts", Integer, nullable=False),
    Column("result", Text, nullable=True),
    Column("created_at", Float, nullable=False),
    Column("finished_at", Float, nullable=True),
    UniqueConstraint("kind", "key", name="uq_jobs_kind_key"),
)

#: "<game> <version>" messages for the other processes, where the database has no LISTEN (SQLite)
notices = Table(
    "notices", metadata,
    Column("id", _ID, primary_key=True, autoincrement=True),
    Column("message", String(64), nullable=False),
    Column("at", Float, nullable=False),
)

MIGRATIONS = Path(__file__).with_name("migrations")


def make_engine(url: str, sqlite_synchronous: str = "FULL", autocheckpoint: bool = True) -> Engine:
    """An engine for SQLite (WAL, waits for locks) or PostgreSQL (psycopg 3). ``autocheckpoint=False``:
    SQLite's commits never copy the WAL back into the database (``Store.checkpoint`` must)."""
    if sqlite_synchronous not in ("OFF", "NORMAL", "FULL", "EXTRA"):
        raise ValueError(f"SQLite synchronous must be OFF, NORMAL, FULL or EXTRA, not {sqlite_synchronous!r}")
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False,
                                                  "timeout": SQLITE_BUSY_TIMEOUT_MS / 1000},
                               pool_size=8, max_overflow=8)

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_conn, _record):  # type: ignore[no-untyped-def]
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute(f"PRAGMA synchronous={sqlite_synchronous}")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
            if not autocheckpoint:
                cur.execute("PRAGMA wal_autocheckpoint=0")
            cur.close()

        return engine
    engine = create_engine(url, pool_size=10, max_overflow=10)
    _ping_when_idle(engine)
    return engine


def autocommit(engine: Engine) -> Connection:
    """A connection for reads, and for writes of one statement: on PostgreSQL each statement is its
    own transaction (a read sees what it would see in a read-committed transaction: each
    statement there takes its own snapshot). A read is then one round trip, where a transaction
    made it three (BEGIN, the query, and ROLLBACK when the connection goes back to the pool), each
    a wake-up of the server and of the caller's thread. SQLite's transactions cost no round trip:
    its connections are left as they are."""
    conn = engine.connect()
    if engine.dialect.name == "postgresql":
        conn.execution_options(isolation_level="AUTOCOMMIT")
    return conn


#: how long a write waits between its looks at SQLite's write lock (``sqlite_write``): the first
#: wait, doubled after each look up to the longest
SQLITE_LOCK_POLL_S = (0.0005, 0.001)


def is_locked(exc: OperationalError) -> bool:
    """Whether SQLite refused a statement because another connection holds its lock."""
    message = str(exc.orig)
    return "locked" in message or "busy" in message


def sqlite_write(engine: Engine, write: Callable[[Connection], T], patience_s: float | None = None) -> T:
    """Run ``write`` in a transaction of its own; on SQLite, while another connection holds the
    write lock, try again after half a millisecond, then every millisecond, for ``patience_s``
    (default: the busy timeout; 0: one try, the lock's refusal raised as ``OperationalError``).
    SQLite's own wait sleeps 1, 2, 5, 10, 15, 20, 25, 25... ms between its looks: where two web
    processes and the bot workers all write, a bot worker's batch kept missing the short gaps
    between the others' commits and waited tens of milliseconds for the lock. The whole
    transaction is tried again (on SQLite nothing of it was written); on PostgreSQL it is one try."""
    if engine.dialect.name != "sqlite":
        with engine.begin() as conn:
            return write(conn)
    if patience_s is None:
        patience_s = SQLITE_BUSY_TIMEOUT_MS / 1000
    deadline = time.monotonic() + patience_s
    wait, longest = SQLITE_LOCK_POLL_S
    with engine.connect() as conn:
        driver = conn.connection.driver_connection  # (through SQLAlchemy it would begin a transaction)
        assert driver is not None
        driver.execute("PRAGMA busy_timeout=0")
        try:
            while True:
                try:
                    with conn.begin():
                        return write(conn)
                except OperationalError as exc:
                    if not is_locked(exc) or time.monotonic() >= deadline:
                        raise
                time.sleep(wait)
                wait = min(longest, wait * 2)
        finally:
            driver.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")


def _ping_when_idle(engine: Engine) -> None:
    """PostgreSQL: test a pooled connection before use (a server restart leaves the pool's
    connections dead) only if it has lain unused for ``IDLE_PING_S``. SQLAlchemy's
    ``pool_pre_ping`` tests it at every checkout: a round trip more for every transaction, a
    seventh of a busy bot worker's time. A connection found dead is replaced (SQLAlchemy's
    checkout retry); one that died within the second fails its statement, and the caller's usual
    error handling applies (a request's 503, a job tried again)."""

    @event.listens_for(engine, "checkin")
    def _used(_dbapi_conn, record):  # type: ignore[no-untyped-def]
        record.info["used_at"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _ping(dbapi_conn, record, _proxy):  # type: ignore[no-untyped-def]
        if time.monotonic() - record.info.get("used_at", float("-inf")) < IDLE_PING_S:
            return
        try:
            alive = engine.dialect.do_ping(dbapi_conn)
        except Exception as exc:
            raise DisconnectionError(f"a pooled connection was dead: {exc}") from exc
        if not alive:
            raise DisconnectionError("a pooled connection was dead")


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest migration (safe to run from several processes at once)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        if engine.dialect.name == "postgresql":
            # two servers starting together must not both create the tables
            conn.exec_driver_sql("SELECT pg_advisory_xact_lock(712001)")
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")
