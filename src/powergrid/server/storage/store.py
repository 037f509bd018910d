"""Event-sourced storage: a game is its config, seats and an append-only action log (+ snapshots).

Every method is blocking (SQLAlchemy Core); the service calls them from worker threads.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, and_, bindparam, case, delete, func, insert, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError, OperationalError

from ..fanout.doorbell import JOBS, NOTICES, Bells
from ..fanout.pubsub import message
from . import db, jobs
from .jobs import JobSpec

_INSERT_ACTION = insert(db.actions)
#: a game's ``updated_at`` moves on only when it is this many seconds old: it is indexed (the idle
#: games' expiry, hours) and only sorts "My games" besides, and an update that changes no indexed
#: column is PostgreSQL's cheap kind (HOT: no index entry written, the old row version reclaimed
#: from its page without a vacuum), where one per action bloated every index of a busy game
UPDATED_AT_STEP_S = 10.0
_UPDATE_GAME = (update(db.games).where(db.games.c.id == bindparam("b_id"))
                .values(version=bindparam("b_version"), status=bindparam("b_status"),
                        round=bindparam("b_round"), to_act=bindparam("b_to_act"),
                        updated_at=case(
                            (db.games.c.updated_at >= bindparam("b_updated_at") - UPDATED_AT_STEP_S,
                             db.games.c.updated_at), else_=bindparam("b_updated_at"))))
#: for a batch of moves: a taken number skips that move instead of failing the transaction
#: (RETURNING says whether it was written: psycopg's rowcount is -1 for it)
_INSERT_ACTIONS_UNLESS_TAKEN = {
    name: dialect.insert(db.actions).on_conflict_do_nothing().returning(db.actions.c.game_id,
                                                                        db.actions.c.seq)
    for name, dialect in (("postgresql", postgresql), ("sqlite", sqlite))}
_INSERT_NOTICE = insert(db.notices)

#: Store._write_moves_postgres: its arrays, one item per entry, and their types
_MOVE_ARRAYS = {"game_id": "text", "seq": "int", "seat": "int", "action": "text", "status": "text",
                "round": "int", "to_act": "int", "done_job": "bigint", "message": "text",
                "kind": "text", "lane": "text", "key": "text", "job_game": "text", "job_version": "int",
                "client": "text", "payload": "text", "not_before": "float8",
                "entry_at": "float8"}
# A data-modifying WITH runs whether or not the query reads it; pg_notify, in a plain one, only
# runs for the rows the query reads (the counts). Notices go in the entries' order.
# ``superseded``'s OFFSET 0 keeps its subquery one look-up per entry in the partial index of queued
# deadlines (flattened into a join, the planner scanned the whole index for each batch while the
# tables had no statistics yet).
_APPEND_POSTGRES_SQL = """
WITH v AS (
  SELECT * FROM unnest({arrays}) WITH ORDINALITY AS v({names}, ord)
), written AS (
  INSERT INTO actions (game_id, seq, seat, action, created_at, at, to_act)
  SELECT game_id, seq, seat, action, %(now)s, entry_at, to_act FROM v ORDER BY ord
  ON CONFLICT DO NOTHING RETURNING game_id, seq
), kept AS (
  SELECT v.* FROM v JOIN written USING (game_id, seq)
), moved AS (
  UPDATE games SET version = kept.seq, status = kept.status, round = kept.round, to_act = kept.to_act,
                   updated_at = CASE WHEN games.updated_at >= %(at)s - {updated_at_step} THEN games.updated_at
                                     ELSE %(at)s END
  FROM kept WHERE games.id = kept.game_id RETURNING 1
), queued AS (
  INSERT INTO jobs (kind, lane, key, game_id, version, client, payload, status, not_before, attempts,
                    created_at)
  SELECT kind, lane, key, job_game, job_version, client, payload, %(queued)s, not_before, 0, %(at)s
  FROM kept WHERE kind IS NOT NULL ORDER BY ord
  ON CONFLICT DO NOTHING RETURNING 1
), finished AS (
  UPDATE jobs SET status = %(done)s, finished_at = %(at)s, lease_until = NULL, result = NULL
  WHERE id IN (SELECT done_job FROM kept WHERE done_job IS NOT NULL) RETURNING 1
), superseded AS (
  UPDATE jobs SET status = %(done)s, finished_at = %(at)s
  FROM (SELECT old.id FROM kept, LATERAL (
          SELECT jobs.id FROM jobs
          WHERE {queued_deadline} AND jobs.game_id = kept.game_id AND jobs.version < kept.seq
          OFFSET 0) AS old
       ) AS passed
  WHERE jobs.id = passed.id RETURNING 1
), bell AS (
  SELECT pg_notify(%(jobs_channel)s, '') FROM (
    SELECT 1 FROM kept WHERE kind IS NOT NULL AND not_before <= %(wake_by)s LIMIT 1) AS any_job
){told}
SELECT game_id, seq, (SELECT count(*) FROM bell){count_told} FROM written
"""
_APPEND_POSTGRES = {
    notify: _APPEND_POSTGRES_SQL.format(
        arrays=", ".join(f"%({name})s::{kind}[]" for name, kind in _MOVE_ARRAYS.items()),
        names=", ".join(_MOVE_ARRAYS),
        queued_deadline=jobs.QUEUED_DEADLINE_SQL, updated_at_step=UPDATED_AT_STEP_S,
        told=(""", told AS (
  SELECT pg_notify(%(channel)s, message) FROM (SELECT message FROM kept ORDER BY ord) AS m
)""" if notify else ""),
        count_told=", (SELECT count(*) FROM told)" if notify else "")
    for notify in (False, True)}
_ACTIONS_AFTER = (select(db.actions.c.seq, db.actions.c.seat, db.actions.c.action)
                  .where(db.actions.c.game_id == bindparam("b_game"), db.actions.c.seq > bindparam("b_seq"))
                  .order_by(db.actions.c.seq))
_ACTIONS_BETWEEN = _ACTIONS_AFTER.where(db.actions.c.seq <= bindparam("b_upto"))
_ENTRIES_AFTER = _ACTIONS_AFTER.add_columns(db.actions.c.at, db.actions.c.to_act)
_ENTRIES_BETWEEN = _ENTRIES_AFTER.where(db.actions.c.seq <= bindparam("b_upto"))

# Each game's entries read from the primary key, game by game: the OFFSET 0 keeps the planner from
# joining the games to the whole table instead, which it did while the table had no statistics
# (2 ms a bot worker's read of a few games, and more as the log grew).
_ENTRIES_AFTER_EACH_POSTGRES = """
SELECT w.game_id, a.seq, a.seat, a.action, a.at, a.to_act
FROM unnest(%s::text[], %s::int[]) AS w(game_id, seq),
LATERAL (SELECT seq, seat, action, at, to_act FROM actions
         WHERE actions.game_id = w.game_id AND actions.seq > w.seq OFFSET 0) AS a
ORDER BY w.game_id, a.seq"""

#: a log entry with its time: (seq, seat, action or ``undo`` or a notice, at, to_act after it)
Entry = tuple[int, int, str, float | None, int | None]


@dataclass(frozen=True)
class Move:
    """One log entry to append with ``Store.append_moves`` (the arguments of ``Store.append``)."""

    game_id: str
    seq: int
    seat: int
    action: str
    status: str
    round: int
    to_act: int | None
    next_job: JobSpec | None = None
    done_job: int | None = None
    #: the server clock's time of the append (games/clocks.py computes the players' clocks from it)
    at: float | None = None


@dataclass
class SeatRow:
    seat: int
    kind: str  # "human" | "bot"
    bot: str | None
    bot_seed: int | None
    token_hash: str | None
    claimed: bool
    #: a public game's seat that anyone may take (no token until taken)
    open: bool = False
    #: the display name its person gave (games/names.py); None: shown by colour alone
    name: str | None = None


@dataclass
class GameRow:
    game_id: str
    created_at: datetime
    config: dict[str, Any]
    seats: list[SeatRow]
    version: int
    status: str
    round: int
    public: bool = False
    seeded: bool = False
    #: the creating client's key (for per-client limits and the search cap)
    creator: str | None = None
    #: milliseconds each bot waits before it moves
    bot_pace_ms: int = 0
    #: whether seats may take back their last actions (the creator's choice)
    allow_undo: bool = True
    #: how long the bots wait after a person's action that may be taken back; None: the server's
    #: setting (games/undo_window.py)
    undo_window_ms: int | None = None
    #: none, live or correspondence (None: none), and the clock's settings (games/clocks.py)
    time_control: str | None = None
    clock: dict[str, Any] | None = None


@dataclass
class Snapshot:
    seq: int
    state: dict[str, Any]
    history: dict[str, Any]
    #: the undo window at ``seq`` (Ledger.to_dict()); None in snapshots older than undo
    ledger: dict[str, Any] | None = None


class Store:
    def __init__(self, engine: Engine, notify_channel: str | None = None, notices: bool = False,
                 bells: Bells | None = None, wake_within_s: float = 0.25) -> None:
        self.engine = engine
        #: a job queued by an append wakes the bot workers only if it is due within this long (the
        #: workers' poll, ``POWERGRID_POLL_MS``): an idle worker looks at least that often and then
        #: sleeps until the next job is due, so a later one (a person's deadline, queued by every
        #: action in a timed game) needs no bell, and ringing for it woke every worker for nothing
        self.wake_within_s = wake_within_s
        #: rung after a commit that queued a job (bot workers) or wrote a notice (SQLite web processes)
        self.bells = bells
        #: with PostgreSQL, each append sends NOTIFY on this channel inside its own transaction
        self.notify_channel = notify_channel
        #: without LISTEN/NOTIFY (SQLite), each append writes its message to the notices table
        self.notices = notices

    # ------------------------------------------------------------------ games
    def create_game(self, game_id: str, config: dict[str, Any], seat_rows: list[SeatRow],
                    to_act: int | None, *, public: bool = False, seeded: bool = False,
                    creator: str | None = None, bot_pace_ms: int = 0, allow_undo: bool = True,
                    undo_window_ms: int | None = None, first_job: JobSpec | None = None,
                    time_control: str | None = None, clock: dict[str, Any] | None = None) -> datetime:
        now = datetime.now(UTC)
        with self.engine.begin() as conn:
            conn.execute(insert(db.games).values(
                id=game_id, created_at=now, map=config["map"], players=config["players"],
                variant=config["variant"], config=json.dumps(config), version=0, status="playing",
                round=1, to_act=to_act, public=public, seeded=seeded, creator=creator,
                bot_pace_ms=bot_pace_ms, allow_undo=allow_undo, undo_window_ms=undo_window_ms,
                updated_at=time.time(),
                time_control=time_control, clock=None if clock is None else json.dumps(clock)))
            conn.execute(insert(db.seats), [
                {"game_id": game_id, "seat": s.seat, "kind": s.kind, "bot": s.bot, "bot_seed": s.bot_seed,
                 "token_hash": s.token_hash, "claimed": s.claimed, "open": s.open, "name": s.name}
                for s in seat_rows])
            if first_job is not None:
                jobs.enqueue(conn, first_job)
        if first_job is not None:
            self.ring(JOBS)
        return now

    def game(self, game_id: str) -> GameRow | None:
        with db.autocommit(self.engine) as conn:
            row = conn.execute(select(db.games).where(db.games.c.id == game_id)).first()
            if row is None:
                return None
            seat_rows = conn.execute(select(db.seats).where(db.seats.c.game_id == game_id)
                                     .order_by(db.seats.c.seat)).all()
        return _game_row(row, seat_rows)

    def list_games(self, limit: int = 100) -> list[GameRow]:
        with db.autocommit(self.engine) as conn:
            rows = conn.execute(select(db.games).order_by(db.games.c.created_at.desc()).limit(limit)).all()
            ids = [r.id for r in rows]
            seat_rows = conn.execute(select(db.seats).where(db.seats.c.game_id.in_(ids))
                                     .order_by(db.seats.c.seat)).all() if ids else []
        by_game: dict[str, list[Any]] = {}
        for s in seat_rows:
            by_game.setdefault(s.game_id, []).append(s)
        return [_game_row(r, by_game.get(r.id, [])) for r in rows]

    def games_waiting_for_bots(self) -> list[str]:
        """Games in play whose next actor is a bot seat and that have no job for it yet."""
        g, s, j = db.games, db.seats, db.jobs
        has_job = (select(j.c.id).where(j.c.kind == "bot_turn", j.c.game_id == g.c.id,
                                        j.c.version == g.c.version).exists())
        query = (select(g.c.id).join(s, and_(s.c.game_id == g.c.id, s.c.seat == g.c.to_act))
                 .where(g.c.status == "playing", s.c.kind == "bot", ~has_job))
        with db.autocommit(self.engine) as conn:
            return [r.id for r in conn.execute(query)]

    def enqueue(self, spec: JobSpec) -> None:
        with self.engine.begin() as conn:
            jobs.enqueue(conn, spec)
        self.ring(JOBS)

    # ------------------------------------------------------------------ expiry
    def expire_idle(self, idle_s: float, limit: int = 500) -> list[str]:
        """Delete games in play untouched for ``idle_s`` seconds (abandoned); finished games stay, and
        so do games with a clock (their deadlines keep them moving, and a correspondence game may
        rightly rest for days) and games that ended abandoned."""
        g = db.games
        cutoff = time.time() - idle_s
        untimed = or_(g.c.time_control.is_(None), g.c.time_control == "none")
        with self.engine.begin() as conn:
            ids = [r.id for r in conn.execute(select(g.c.id).where(
                g.c.status.not_in(("over", "abandoned")), untimed, g.c.updated_at < cutoff).limit(limit))]
            if ids:
                for table in (db.jobs, db.snapshots, db.actions, db.seats):
                    conn.execute(delete(table).where(table.c.game_id.in_(ids)))
                conn.execute(delete(g).where(g.c.id.in_(ids)))
        return ids

    def notices_after(self, last_id: int, limit: int = 2000) -> list[tuple[int, str]]:
        """The change messages written since ``last_id`` (SQLite fan-out)."""
        n = db.notices
        with self.engine.connect() as conn:
            return [(r.id, r.message) for r in conn.execute(
                select(n.c.id, n.c.message).where(n.c.id > last_id).order_by(n.c.id).limit(limit))]

    def last_notice(self) -> int:
        n = db.notices
        with self.engine.connect() as conn:
            return int(conn.execute(select(n.c.id).order_by(n.c.id.desc()).limit(1)).scalar() or 0)

    def prune_notices(self, older_than_s: float) -> None:
        n = db.notices
        with self.engine.begin() as conn:
            newest = select(func.max(n.c.id)).scalar_subquery()  # kept: ids must never go back
            conn.execute(delete(n).where(n.c.at < time.time() - older_than_s, n.c.id < newest))

    # ------------------------------------------------------------------ seats
    def claim_seat(self, game_id: str, seat: int, token_hash: str, name: str | None = None) -> bool:
        """Give an open, unclaimed seat its token (and its person's name); False if it was taken meanwhile."""
        s = db.seats
        with self.engine.begin() as conn:
            result = conn.execute(update(s).where(
                s.c.game_id == game_id, s.c.seat == seat, s.c.kind == "human", s.c.open.is_(True),
                s.c.claimed.is_(False))
                .values(token_hash=token_hash, claimed=True, name=name))
            self._notify(conn, f"{game_id} seats")  # the other processes drop the old token
        self.ring(NOTICES)
        return result.rowcount == 1

    def seats(self, game_id: str) -> list[SeatRow]:
        s = db.seats
        with db.autocommit(self.engine) as conn:
            rows = conn.execute(select(s).where(s.c.game_id == game_id).order_by(s.c.seat)).all()
        return [SeatRow(r.seat, r.kind, r.bot, r.bot_seed, r.token_hash, bool(r.claimed), bool(r.open),
                        r.name) for r in rows]

    def set_seat_name(self, game_id: str, seat: int, name: str) -> None:
        """A human seat's display name (the other processes reload the seats)."""
        s = db.seats
        with self.engine.begin() as conn:
            conn.execute(update(s).where(s.c.game_id == game_id, s.c.seat == seat, s.c.kind == "human")
                         .values(name=name))
            self._notify(conn, f"{game_id} seats")
        self.ring(NOTICES)

    def notify(self, conn: Any, payload: str) -> None:
        """Tell the other processes ``payload`` (a pubsub message) when ``conn``'s transaction commits."""
        self._notify(conn, payload)

    def _notify(self, conn: Any, payload: str) -> None:
        if self.notify_channel:
            # delivered on commit, and only if the transaction commits
            conn.exec_driver_sql("SELECT pg_notify(%(ch)s, %(msg)s)",
                                 {"ch": self.notify_channel, "msg": payload})
        if self.notices:
            conn.execute(_INSERT_NOTICE, {"message": payload, "at": time.time()})

    def _notify_all(self, conn: Any, payloads: list[str]) -> None:
        if self.notify_channel and payloads:
            # one statement for the batch: each statement is a round trip to the server, and the
            # thread making it waits for the interpreter again after each
            conn.exec_driver_sql("SELECT pg_notify(%(ch)s, m) FROM unnest(%(msgs)s::text[]) AS m",
                                 {"ch": self.notify_channel, "msgs": payloads})
        if self.notices and payloads:
            at = time.time()
            conn.execute(_INSERT_NOTICE, [{"message": payload, "at": at} for payload in payloads])

    def mark_claimed(self, game_id: str, seat: int) -> None:
        s = db.seats
        with self.engine.begin() as conn:
            conn.execute(update(s).where(s.c.game_id == game_id, s.c.seat == seat).values(claimed=True))
            self._notify(conn, f"{game_id} seats")
        self.ring(NOTICES)

    def ring(self, kind: str) -> None:
        """After a commit: wake the processes waiting for it (see doorbell.py)."""
        if self.bells is not None and (kind == JOBS or self.notices):
            self.bells.ring(kind)

    # ------------------------------------------------------------------ the log
    def append(self, game_id: str, seq: int, seat: int, action: str, *, status: str, round_: int,
               to_act: int | None, next_job: JobSpec | None = None, done_job: int | None = None,
               at: float | None = None) -> bool:
        """Commit log entry number ``seq`` (an action, or ``undo``); False if that number is taken
        (another writer won).

        In the same transaction: the job the new position calls for (a bot's turn) is enqueued,
        and the job that made this action (``done_job``) is marked done.
        """
        try:
            with self.engine.begin() as conn:
                # statements built once (module level): this is the server's hottest write
                conn.execute(_INSERT_ACTION, {"game_id": game_id, "seq": seq, "seat": seat, "action": action,
                                              "created_at": datetime.now(UTC), "at": at, "to_act": to_act})
                conn.execute(_UPDATE_GAME, {"b_id": game_id, "b_version": seq, "b_status": status,
                                            "b_round": round_, "b_to_act": to_act,
                                            "b_updated_at": time.time()})
                if next_job is not None:
                    jobs.enqueue(conn, next_job)
                if done_job is not None:
                    jobs.mark_done(conn, done_job)
                jobs.finish_superseded(conn, [(game_id, seq)])
                self._notify(conn, message(game_id, seq, (seat, action, at)))
        except IntegrityError:
            return False
        if next_job is not None and self._soon(next_job):
            self.ring(JOBS)
        self.ring(NOTICES)
        return True

    def _soon(self, job: JobSpec) -> bool:
        """Whether a queued job should wake the bot workers now (``wake_within_s``)."""
        return job.not_before <= time.time() + self.wake_within_s

    def append_moves(self, moves: list[Move]) -> list[bool]:
        """Commit several log entries of different games in one transaction (a bot worker's batch
        of turns, or the web process's appends queued together: one commit, so one disk flush, for
        all); for each, False if its number was taken (then, as with ``append``, nothing of that
        entry is written: its job is not marked done).

        Each kind of row is written by one statement for the whole batch (SQLAlchemy's
        ``executemany``): a statement's own cost in Python was most of a small append's."""
        if not moves:
            return []
        try:
            if self.engine.dialect.name == "postgresql" and len({m.game_id for m in moves}) == len(moves):
                with self.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
                    made = self._write_moves_postgres(conn, moves)
            else:
                made = db.sqlite_write(self.engine, lambda conn: self._write_moves(conn, moves))
        except IntegrityError:  # not a taken number (a game deleted meanwhile): one at a time
            return [self.append(m.game_id, m.seq, m.seat, m.action, status=m.status, round_=m.round,
                                to_act=m.to_act, next_job=m.next_job, done_job=m.done_job, at=m.at)
                    for m in moves]
        self._rang(moves, made)
        return made

    def append_moves_unless_busy(self, moves: list[Move]) -> list[bool] | None:
        """``append_moves`` if SQLite's write lock is free at once; None (nothing written) if another
        connection holds it. For the web process's event loop: a write that needs no disk flush
        (``synchronous`` NORMAL or OFF) takes about a tenth of a millisecond per entry, less than
        handing it to a thread and back, but waiting for the lock must not happen on the loop."""
        if not moves:
            return []
        try:
            made = db.sqlite_write(self.engine, lambda conn: self._write_moves(conn, moves), patience_s=0)
        except OperationalError as exc:
            if not db.is_locked(exc):
                raise
            return None
        except IntegrityError:
            return None  # the careful path, one at a time (append_moves)
        self._rang(moves, made)
        return made

    def _write_moves(self, conn: Any, moves: list[Move]) -> list[bool]:
        now, at = datetime.now(UTC), time.time()
        rows = [{"game_id": m.game_id, "seq": m.seq, "seat": m.seat, "action": m.action, "created_at": now,
                 "at": m.at, "to_act": m.to_act} for m in moves]
        written = {(r[0], r[1]) for r in conn.execute(_INSERT_ACTIONS_UNLESS_TAKEN[conn.dialect.name], rows)}
        made = [(m.game_id, m.seq) in written for m in moves]
        kept = [m for m, ok in zip(moves, made, strict=True) if ok]
        if kept:
            conn.execute(_UPDATE_GAME, [{"b_id": m.game_id, "b_version": m.seq, "b_status": m.status,
                                         "b_round": m.round, "b_to_act": m.to_act, "b_updated_at": at}
                                        for m in kept])
            jobs.enqueue_all(conn, [m.next_job for m in kept if m.next_job is not None])
            jobs.mark_all_done(conn, [m.done_job for m in kept if m.done_job is not None])
            jobs.finish_superseded(conn, [(m.game_id, m.seq) for m in kept])
            self._notify_all(conn, [message(m.game_id, m.seq, (m.seat, m.action, m.at)) for m in kept])
        return made

    def _write_moves_postgres(self, conn: Any, moves: list[Move]) -> list[bool]:
        """``_write_moves`` on PostgreSQL as one statement, its own transaction (one game an entry).

        The rows go as arrays, and each kind of row is written by a part of the statement that
        reads the entries whose action was written. Each of the seven statements and the commit
        had been a round trip from a thread that then waited for the interpreter lock again: on a
        busy server a batch took 15 to 30 ms, and every action waited for one or two batches."""
        now, at = datetime.now(UTC), time.time()
        columns: dict[str, list[Any]] = {name: [] for name in _MOVE_ARRAYS}
        for m in moves:
            job = m.next_job
            for name, value in zip(_MOVE_ARRAYS, (
                    m.game_id, m.seq, m.seat, m.action, m.status, m.round, m.to_act, m.done_job,
                    message(m.game_id, m.seq, (m.seat, m.action, m.at)),
                    *((None,) * 8 if job is None else (
                        job.kind, job.lane, job.key, job.game_id, job.version, job.client,
                        json.dumps(job.payload), job.not_before)),
                    m.at),
                    strict=True):
                columns[name].append(value)
        written = {(r[0], r[1]) for r in conn.exec_driver_sql(
            _APPEND_POSTGRES[self.notify_channel is not None],
            {**columns, "now": now, "at": at, "channel": self.notify_channel,
             "jobs_channel": jobs.JOBS_CHANNEL, "queued": jobs.QUEUED, "done": jobs.DONE,
             "wake_by": at + self.wake_within_s})}
        return [(m.game_id, m.seq) in written for m in moves]

    def checkpoint(self) -> tuple[int, int, int]:
        """SQLite: copy what the write-ahead log holds back into the database, without waiting for
        other connections (``wal_checkpoint(PASSIVE)``); (busy, frames in the log, frames copied)."""
        with self.engine.connect() as conn:
            driver = conn.connection.driver_connection
            assert driver is not None
            row = driver.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        return int(row[0]), int(row[1]), int(row[2])

    def _rang(self, moves: list[Move], made: list[bool]) -> None:
        """Wake the bot workers if a written entry queued a job, and the listeners if any was written."""
        queued = (m.next_job for ok, m in zip(made, moves, strict=True) if ok and m.next_job is not None)
        if any(self._soon(job) for job in queued):
            self.ring(JOBS)
        if any(made):
            self.ring(NOTICES)

    def actions_after(self, game_id: str, seq: int, upto: int | None = None) -> list[tuple[int, int, str]]:
        """The log entries (seq, seat, action or ``undo``) after ``seq``, up to ``upto`` if given."""
        with db.autocommit(self.engine) as conn:
            if upto is None:
                rows = conn.execute(_ACTIONS_AFTER, {"b_game": game_id, "b_seq": seq}).all()
            else:
                rows = conn.execute(_ACTIONS_BETWEEN, {"b_game": game_id, "b_seq": seq, "b_upto": upto}).all()
        return [(r.seq, r.seat, r.action) for r in rows]

    def actions_after_each(self, after: dict[str, int]) -> dict[str, list[tuple[int, int, str]]]:
        """For each game, its log entries after the given seq, in one query (a bot worker catching up
        all the games of a batch of turns: one round trip instead of one per game)."""
        if not after:
            return {}
        a = db.actions
        query = (select(a.c.game_id, a.c.seq, a.c.seat, a.c.action)
                 .where(or_(*(and_(a.c.game_id == game_id, a.c.seq > seq) for game_id, seq in after.items())))
                 .order_by(a.c.game_id, a.c.seq))
        found: dict[str, list[tuple[int, int, str]]] = {game_id: [] for game_id in after}
        with db.autocommit(self.engine) as conn:
            for r in conn.execute(query):
                found[r.game_id].append((r.seq, r.seat, r.action))
        return found

    def entries_after(self, game_id: str, seq: int, upto: int | None = None) -> list[Entry]:
        """``actions_after`` with each entry's time and the seat to act after it (the clocks')."""
        with db.autocommit(self.engine) as conn:
            if upto is None:
                rows = conn.execute(_ENTRIES_AFTER, {"b_game": game_id, "b_seq": seq}).all()
            else:
                rows = conn.execute(_ENTRIES_BETWEEN, {"b_game": game_id, "b_seq": seq, "b_upto": upto}).all()
        return [(r.seq, r.seat, r.action, r.at, r.to_act) for r in rows]

    def entries_after_each(self, after: dict[str, int]) -> dict[str, list[Entry]]:
        """``actions_after_each`` with the times (``entries_after``)."""
        if not after:
            return {}
        found: dict[str, list[Entry]] = {game_id: [] for game_id in after}
        with db.autocommit(self.engine) as conn:
            if conn.dialect.name == "postgresql":
                # one statement whatever the number of games (the games and versions as arrays):
                # the general form below is a new statement, compiled anew, for each number of games
                rows = conn.exec_driver_sql(_ENTRIES_AFTER_EACH_POSTGRES,
                                            (list(after), list(after.values()))).all()
            else:
                a = db.actions
                after_own = or_(*(and_(a.c.game_id == game_id, a.c.seq > seq)
                                  for game_id, seq in after.items()))
                rows = conn.execute(select(a.c.game_id, a.c.seq, a.c.seat, a.c.action, a.c.at, a.c.to_act)
                                    .where(after_own).order_by(a.c.game_id, a.c.seq)).all()
        for game_id, seq, seat, action, at, to_act in rows:
            found[game_id].append((seq, seat, action, at, to_act))
        return found

    # ------------------------------------------------------------------ snapshots
    def save_snapshot(self, game_id: str, seq: int, state: dict[str, Any], history: dict[str, Any],
                      ledger: dict[str, Any] | None = None) -> None:
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(db.snapshots).values(
                    game_id=game_id, seq=seq, state=json.dumps(state), history=json.dumps(history),
                    ledger=None if ledger is None else json.dumps(ledger)))
        except IntegrityError:
            pass  # another process saved the same snapshot

    def latest_snapshot(self, game_id: str, upto: int | None = None) -> Snapshot | None:
        """The newest snapshot (at or before log entry ``upto`` if given)."""
        sn = db.snapshots
        query = select(sn).where(sn.c.game_id == game_id)
        if upto is not None:
            query = query.where(sn.c.seq <= upto)
        with db.autocommit(self.engine) as conn:
            row = conn.execute(query.order_by(sn.c.seq.desc()).limit(1)).first()
        if row is None:
            return None
        return Snapshot(row.seq, json.loads(row.state), json.loads(row.history),
                        None if row.ledger is None else json.loads(row.ledger))


def _game_row(row: Any, seat_rows: Any) -> GameRow:
    created = row.created_at
    if created.tzinfo is None:  # SQLite gives naive datetimes back
        created = created.replace(tzinfo=UTC)
    return GameRow(
        game_id=row.id, created_at=created, config=json.loads(row.config),
        seats=[SeatRow(s.seat, s.kind, s.bot, s.bot_seed, s.token_hash, bool(s.claimed), bool(s.open), s.name)
               for s in seat_rows],
        version=row.version, status=row.status, round=row.round, public=bool(row.public),
        seeded=bool(row.seeded), creator=row.creator, bot_pace_ms=row.bot_pace_ms or 0,
        allow_undo=bool(row.allow_undo), undo_window_ms=row.undo_window_ms, time_control=row.time_control,
        clock=None if row.clock is None else json.loads(row.clock))
