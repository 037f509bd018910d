"""The job queue: work for worker processes, kept in the database (SQLite or PostgreSQL).

A job has a ``kind`` (``bot_turn``; ``hint`` and ``analysis`` may follow), a ``lane`` (workers
take only the lanes they are given, so cheap work never waits behind search), a ``key`` unique
within its kind (a job is enqueued once: a bot turn's key is ``<game>:<version>``), a JSON
payload and a not-before time.

Claiming takes one due job under a *lease*: ``status`` becomes ``running`` with ``lease_until``
set. On PostgreSQL the candidate row is locked with ``FOR UPDATE SKIP LOCKED`` so concurrent
workers pass each other; on SQLite (one writer at a time) a conditional ``UPDATE ... WHERE
status = 'queued' OR lease expired`` that must change exactly one row does the same. A worker
that dies leaves its job ``running`` until the lease runs out; then another worker claims it
again. Whatever the job's effect is must therefore be idempotent: a bot turn's move is an append
at a fixed version, which exactly one writer can make.

Enqueueing takes the caller's connection, so a job is stored in the same transaction as the
change that calls for it (a bot turn with the action that makes it the bot's turn): never lost.
On PostgreSQL that transaction also sends ``NOTIFY powergrid_jobs``, which wakes workers on other
machines at once (``job_notices.py``); on one machine the committing process rings them
(``doorbell.py``).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, Engine, and_, delete, func, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite

from . import db

QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"

#: the PostgreSQL channel told of every enqueued job (delivered on commit, only if it commits)
JOBS_CHANNEL = "powergrid_jobs"

#: lanes: ``quick`` (random and heuristic bots, cheap), ``search`` (MCTS bots, seconds of CPU)
QUICK, SEARCH = "quick", "search"


@dataclass(frozen=True)
class JobSpec:
    """A job to enqueue."""

    kind: str
    lane: str
    key: str
    payload: dict[str, Any] = field(default_factory=dict)
    game_id: str | None = None
    version: int | None = None
    #: who asked for it (a client key), for the per-client cap on the search lane
    client: str | None = None
    #: time.time() before which no worker takes it
    not_before: float = 0.0


@dataclass
class Job:
    """A claimed job."""

    id: int
    kind: str
    lane: str
    key: str
    game_id: str | None
    version: int | None
    client: str | None
    payload: dict[str, Any]
    attempts: int
    worker: str


def enqueue(conn: Connection, spec: JobSpec) -> None:
    """Add the job in the caller's transaction; nothing happens if its (kind, key) exists."""
    table = db.jobs
    values = dict(kind=spec.kind, lane=spec.lane, key=spec.key, game_id=spec.game_id, version=spec.version,
                  client=spec.client, payload=json.dumps(spec.payload), status=QUEUED,
                  not_before=spec.not_before, attempts=0, created_at=time.time())
    dialect = conn.dialect.name
    if dialect == "postgresql":
        conn.execute(postgresql.insert(table).values(**values).on_conflict_do_nothing())
        conn.exec_driver_sql(f"NOTIFY {JOBS_CHANNEL}")
    else:
        conn.execute(sqlite.insert(table).values(**values).on_conflict_do_nothing())


def mark_done(conn: Connection, job_id: int, result: Any = None) -> None:
    """Finish the job in the caller's transaction (the same one that stores its effect)."""
    conn.execute(update(db.jobs).where(db.jobs.c.id == job_id).values(
        status=DONE, finished_at=time.time(), lease_until=None,
        result=None if result is None else json.dumps(result)))


class JobQueue:
    """Claiming, renewing and finishing jobs (blocking calls: workers run them in their own thread)."""

    def __init__(self, engine: Engine, lease_s: float = 15.0, search_per_client: int = 1,
                 max_attempts: int = 5) -> None:
        self.engine = engine
        self.lease_s = lease_s
        self.search_per_client = search_per_client
        self.max_attempts = max_attempts

    def enqueue(self, spec: JobSpec) -> None:
        with self.engine.begin() as conn:
            enqueue(conn, spec)

    def claim(self, worker: str, lanes: list[str]) -> Job | None:
        """The next due job of the first lane that has one, leased to ``worker``; None if none is due."""
        for lane in lanes:
            job = self._claim_in(worker, lane)
            if job is not None:
                return job
        return None

    def _claim_in(self, worker: str, lane: str) -> Job | None:
        j = db.jobs
        now = time.time()
        claimable = or_(j.c.status == QUEUED, and_(j.c.status == RUNNING, j.c.lease_until < now))
        query = (select(j).where(j.c.lane == lane, claimable, j.c.not_before <= now)
                 .order_by(j.c.not_before, j.c.id).limit(4))
        if lane == SEARCH and self.search_per_client > 0:
            busy = (select(j.c.client).where(j.c.lane == SEARCH, j.c.status == RUNNING,
                                             j.c.lease_until >= now, j.c.client.is_not(None))
                    .group_by(j.c.client).having(func.count() >= self.search_per_client))
            query = query.where(or_(j.c.client.is_(None), j.c.client.not_in(busy)))
        postgres = self.engine.dialect.name == "postgresql"
        if postgres:
            query = query.with_for_update(skip_locked=True, of=j)
        with self.engine.begin() as conn:
            for row in conn.execute(query).all():
                taken = conn.execute(update(j).where(j.c.id == row.id, claimable).values(
                    status=RUNNING, lease_until=now + self.lease_s, worker=worker, attempts=j.c.attempts + 1))
                if taken.rowcount != 1:
                    continue  # SQLite: another worker took it between our read and our write
                if row.attempts + 1 > self.max_attempts:
                    conn.execute(update(j).where(j.c.id == row.id).values(
                        status=FAILED, finished_at=now, lease_until=None,
                        result=json.dumps({"error": f"given up after {row.attempts} attempts"})))
                    continue
                return Job(row.id, row.kind, row.lane, row.key, row.game_id, row.version, row.client,
                           json.loads(row.payload), row.attempts + 1, worker)
        return None

    def next_due(self, lanes: list[str]) -> float | None:
        """When the soonest queued job of these lanes is due (a paced bot's turn waits), or None."""
        j = db.jobs
        with self.engine.connect() as conn:
            due = conn.execute(select(func.min(j.c.not_before)).where(
                j.c.lane.in_(lanes), j.c.status == QUEUED)).scalar()
        return None if due is None else float(due)

    def renew(self, job: Job) -> bool:
        """Extend the lease of a job still being worked on; False if it was lost (expired and taken)."""
        j = db.jobs
        with self.engine.begin() as conn:
            result = conn.execute(update(j).where(j.c.id == job.id, j.c.worker == job.worker,
                                                  j.c.status == RUNNING)
                                  .values(lease_until=time.time() + self.lease_s))
            return result.rowcount == 1

    def done(self, job: Job, result: Any = None) -> None:
        with self.engine.begin() as conn:
            mark_done(conn, job.id, result)

    def prune(self, older_than_s: float) -> int:
        """Forget finished jobs older than that; how many."""
        j = db.jobs
        with self.engine.begin() as conn:
            result = conn.execute(delete(j).where(j.c.status.in_((DONE, FAILED)),
                                                  j.c.finished_at < time.time() - older_than_s))
            return int(result.rowcount or 0)

    def counts(self) -> dict[str, int]:
        """Jobs per status (for tests and the worker's log)."""
        j = db.jobs
        with self.engine.connect() as conn:
            return {row.status: row.n for row in conn.execute(
                select(j.c.status, func.count().label("n")).group_by(j.c.status))}
