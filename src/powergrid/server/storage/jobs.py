"""The job queue: work for worker processes, kept in the database (SQLite or PostgreSQL).

A job has a ``kind`` (``bot_turn``, ``hint``, ``analysis``), a ``lane`` (workers take only the
lanes they are given, so cheap work never waits behind search), a ``key`` unique within its kind
(a job is enqueued once: a bot turn's key is ``<game>:<version>``), a JSON payload, a not-before
time and a priority. Due jobs are claimed in (priority, not-before, id) order: a bot turn or a
hint (``INTERACTIVE``: someone waits on it) goes before every queued analysis (``BACKGROUND``),
however long the analyses have waited.

Claiming takes one due queued job under a *lease*: ``status`` becomes ``running`` with
``lease_until`` set. On PostgreSQL the candidate row is locked with ``FOR UPDATE SKIP LOCKED`` so
concurrent workers pass each other; on SQLite (one writer at a time) a conditional ``UPDATE ...
WHERE status = 'queued'`` that must change exactly one row does the same. A worker that dies
leaves its job ``running`` until the lease runs out; then a claiming worker puts it back in the
queue and it is claimed again (the pool that started a worker which died puts its jobs back in
the queue at once: ``release``). Whatever the job's effect is must therefore be idempotent: a bot
turn's move is an append at a fixed version, which exactly one writer can make.

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

from sqlalchemy import Connection, Engine, bindparam, delete, func, or_, select, text, update
from sqlalchemy.dialects import postgresql, sqlite

from . import db

QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"

#: the PostgreSQL channel told of every enqueued job (delivered on commit, only if it commits)
JOBS_CHANNEL = "powergrid_jobs"

#: lanes: ``quick`` (random and heuristic bots, cheap), ``search`` (MCTS bots, seconds of CPU)
QUICK, SEARCH = "quick", "search"

#: priorities, lowest claimed first: work someone waits on (bot turns, hints), then background work
#: (analyses of finished games)
INTERACTIVE, BACKGROUND = 0, 1

#: a person's deadline (bots/deadlines.py): once the game has moved past the version it was queued
#: at, it could only be skipped, so every later entry of the game finishes it
#: (``finish_superseded``) and the queue holds one deadline a game, not one an action
DEADLINE = "deadline"
#: where a queued deadline of a game is found (literal, as the partial index
#: ``ix_jobs_queued_deadlines`` is defined: a bound parameter would not match it)
QUEUED_DEADLINE_SQL = f"jobs.kind = '{DEADLINE}' AND jobs.status = '{QUEUED}'"


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
    #: among due jobs of a lane, lower first (INTERACTIVE, BACKGROUND)
    priority: int = INTERACTIVE


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
    enqueue_all(conn, [spec])


def enqueue_all(conn: Connection, specs: list[JobSpec]) -> None:
    """``enqueue`` for several jobs, in one statement."""
    if not specs:
        return
    at = time.time()
    values = [{"b_kind": spec.kind, "b_lane": spec.lane, "b_key": spec.key, "b_game_id": spec.game_id,
               "b_version": spec.version, "b_client": spec.client, "b_payload": json.dumps(spec.payload),
               "b_not_before": spec.not_before, "b_priority": spec.priority, "b_created_at": at}
              for spec in specs]
    if conn.dialect.name == "postgresql":
        conn.execute(_INSERT_PG, values)
        conn.exec_driver_sql(f"NOTIFY {JOBS_CHANNEL}")
    else:
        conn.execute(_INSERT_SQLITE, values)


def mark_all_done(conn: Connection, job_ids: list[int]) -> None:
    """``mark_done`` (with no result) for several jobs, in one statement."""
    if job_ids:
        at = time.time()
        conn.execute(_MARK_DONE, [{"b_id": job_id, "b_finished_at": at, "b_result": None}
                                  for job_id in job_ids])


def finish_superseded(conn: Connection, entries: list[tuple[str, int]]) -> None:
    """Mark done the queued deadlines of each (game, version written) that are older than it."""
    if entries:
        conn.execute(_FINISH_SUPERSEDED, [{"b_game": game_id, "b_version": version, "b_at": time.time()}
                                          for game_id, version in entries])


def mark_done(conn: Connection, job_id: int, result: Any = None) -> None:
    """Finish the job in the caller's transaction (the same one that stores its effect)."""
    conn.execute(_MARK_DONE, {"b_id": job_id, "b_finished_at": time.time(),
                              "b_result": None if result is None else json.dumps(result)})


# Statements built once: a bot worker claims a job per bot move, and building the expressions each
# time cost more than the database did (the values are bound parameters).
_J = db.jobs
_NEW_JOB = {name: bindparam(f"b_{name}") for name in ("kind", "lane", "key", "game_id", "version", "client",
                                                     "payload", "not_before", "priority", "created_at")}
_INSERT_PG = postgresql.insert(_J).values(**_NEW_JOB, status=QUEUED, attempts=0).on_conflict_do_nothing()
_INSERT_SQLITE = sqlite.insert(_J).values(**_NEW_JOB, status=QUEUED, attempts=0).on_conflict_do_nothing()
# A claim takes queued jobs alone; a running job whose lease ran out is first put back in the
# queue (``_REQUEUE_EXPIRED``, ``JobQueue._requeue_expired``). The status is written into the
# statements, not bound: psycopg prepares a statement it runs often, and PostgreSQL's plan for a
# prepared claim that did not know the statuses (and took running jobs too, by an OR) walked the
# index over every job of the lane, finished ones included: a claim cost 1.7 ms of the
# database's CPU a minute into a busy load test, and more the longer it ran. The partial index
# of queued jobs (``ix_jobs_queued``) holds only what a claim looks for.
_QUEUED = text(f"jobs.status = '{QUEUED}'")
_REQUEUE_EXPIRED = (update(_J).where(_J.c.lane == bindparam("b_lane"), text(f"jobs.status = '{RUNNING}'"),
                                     _J.c.lease_until < bindparam("b_now"))
                    .values(status=QUEUED, lease_until=None))
_TAKE = (update(_J).where(_J.c.id == bindparam("b_id"), _QUEUED)
         .values(status=RUNNING, lease_until=bindparam("b_lease_until"), worker=bindparam("b_worker"),
                 attempts=_J.c.attempts + 1))
_GIVE_UP = (update(_J).where(_J.c.id == bindparam("b_id"))
            .values(status=FAILED, finished_at=bindparam("b_now"), lease_until=None,
                    result=bindparam("b_result")))
_MARK_DONE = (update(_J).where(_J.c.id == bindparam("b_id"))
              .values(status=DONE, finished_at=bindparam("b_finished_at"), lease_until=None,
                      result=bindparam("b_result")))
_FINISH_SUPERSEDED = (update(_J).where(text(QUEUED_DEADLINE_SQL), _J.c.game_id == bindparam("b_game"),
                                        _J.c.version < bindparam("b_version"))
                      .values(status=DONE, finished_at=bindparam("b_at")))
_NEXT_DUE = select(func.min(_J.c.not_before)).where(_J.c.lane == bindparam("b_lane"), _QUEUED)
_RELEASE = (update(_J).where(_J.c.worker == bindparam("b_worker"), _J.c.status == RUNNING)
            .values(status=QUEUED, lease_until=None))
_RENEW = (update(_J).where(_J.c.id == bindparam("b_id"), _J.c.worker == bindparam("b_worker"),
                           _J.c.status == RUNNING)
          .values(lease_until=bindparam("b_lease_until")))


def _claim_postgres(candidates: Any) -> Any:
    """PostgreSQL: lease the lane's next due jobs in one statement, each locked by the claim and
    skipped by the others' (the rows come back in no order)."""
    picked = candidates.with_only_columns(_J.c.id).cte("picked")
    return (update(_J).where(_J.c.id == picked.c.id)
            .values(status=RUNNING, lease_until=bindparam("b_lease_until"), worker=bindparam("b_worker"),
                    attempts=_J.c.attempts + 1)
            .returning(*_J.c))


def _candidates(lane: str, search_per_client: int, postgres: bool) -> Any:
    """The query for a lane's next due jobs (a few more than wanted: on SQLite another worker may
    take some between the read and the lease)."""
    query = (select(_J).where(_J.c.lane == lane, _QUEUED, _J.c.not_before <= bindparam("b_now"))
             .order_by(_J.c.priority, _J.c.not_before, _J.c.id).limit(bindparam("b_most")))
    if lane == SEARCH and search_per_client > 0:
        busy = (select(_J.c.client).where(_J.c.lane == SEARCH, _J.c.status == RUNNING,
                                          _J.c.lease_until >= bindparam("b_now"), _J.c.client.is_not(None))
                .group_by(_J.c.client).having(func.count() >= search_per_client))
        query = query.where(or_(_J.c.client.is_(None), _J.c.client.not_in(busy)))
    if postgres:
        query = query.with_for_update(skip_locked=True, of=_J)
    return query


class JobQueue:
    """Claiming, renewing and finishing jobs (blocking calls: workers run them in their own thread)."""

    def __init__(self, engine: Engine, lease_s: float = 15.0, search_per_client: int = 1,
                 max_attempts: int = 5) -> None:
        self.engine = engine
        self.lease_s = lease_s
        self.search_per_client = search_per_client
        self.max_attempts = max_attempts
        self._queries: dict[str, Any] = {}
        #: how often a lane's expired leases are looked for (``_requeue_expired``)
        self.requeue_every_s = min(1.0, lease_s / 4)
        self._requeue_at: dict[str, float] = {}

    def enqueue(self, spec: JobSpec) -> None:
        with self.engine.begin() as conn:
            enqueue(conn, spec)

    def claim(self, worker: str, lanes: list[str]) -> Job | None:
        """The next due job of the first lane that has one, leased to ``worker``; None if none is due."""
        found = self.claim_some(worker, lanes, 1)
        return found[0] if found else None

    def claim_some(self, worker: str, lanes: list[str], most: int) -> list[Job]:
        """Due jobs of the first lane that has any, leased to ``worker`` in one transaction, oldest
        first; [] if none is due. From the quick lane up to ``most``: when its queue is long, one
        commit leases several bot turns (and one append commits their moves); from another lane
        one, since a search's seconds would hold back the jobs taken with it."""
        for lane in lanes:
            found = self._claim_in(worker, lane, most if lane == QUICK else 1)
            if found:
                return found
        return []

    def _requeue_expired(self, lane: str, now: float) -> None:
        """Put the lane's running jobs whose lease ran out back in the queue (at most every
        ``requeue_every_s`` a lane: a worker that died mid-job is rare, and its job was late by a
        whole lease already)."""
        if now < self._requeue_at.get(lane, 0.0):
            return
        self._requeue_at[lane] = now + self.requeue_every_s
        with self.engine.begin() as conn:
            conn.execute(_REQUEUE_EXPIRED, {"b_lane": lane, "b_now": now})

    def _claim_in(self, worker: str, lane: str, most: int) -> list[Job]:
        most = max(1, most)
        self._requeue_expired(lane, time.time())
        query = self._queries.get(lane)
        if query is None:
            postgres = self.engine.dialect.name == "postgresql"
            query = _candidates(lane, self.search_per_client, postgres)
            if postgres:
                query = _claim_postgres(query)
            self._queries[lane] = query
        now = time.time()
        claimed: list[Job] = []
        if self.engine.dialect.name == "postgresql":
            # one statement, its own transaction: no BEGIN and COMMIT round trips around it (a job
            # given up after it is another statement; a crash between the two only claims it again)
            with db.autocommit(self.engine) as conn:
                rows = conn.execute(query, {"b_now": now, "b_most": most, "b_worker": worker,
                                            "b_lease_until": now + self.lease_s}).all()
                for row in sorted(rows, key=lambda r: (r.priority, r.not_before, r.id)):
                    if row.attempts > self.max_attempts:
                        conn.execute(_GIVE_UP, {"b_id": row.id, "b_now": now, "b_result": json.dumps(
                            {"error": f"given up after {row.attempts - 1} attempts"})})
                        continue
                    claimed.append(Job(row.id, row.kind, row.lane, row.key, row.game_id, row.version,
                                       row.client, json.loads(row.payload), row.attempts, worker))
            return claimed
        return db.sqlite_write(self.engine, lambda conn: self._take(conn, query, worker, now, most))

    def _take(self, conn: Connection, query: Any, worker: str, now: float, most: int) -> list[Job]:
        """SQLite: lease up to ``most`` of the jobs ``query`` finds, one conditional update each."""
        claimed: list[Job] = []
        for row in conn.execute(query, {"b_now": now, "b_most": most + 3}).all():
            taken = conn.execute(_TAKE, {"b_id": row.id, "b_now": now, "b_worker": worker,
                                         "b_lease_until": now + self.lease_s})
            if taken.rowcount != 1:
                continue  # SQLite: another worker took it between our read and our write
            if row.attempts + 1 > self.max_attempts:
                conn.execute(_GIVE_UP, {"b_id": row.id, "b_now": now, "b_result": json.dumps(
                    {"error": f"given up after {row.attempts} attempts"})})
                continue
            claimed.append(Job(row.id, row.kind, row.lane, row.key, row.game_id, row.version, row.client,
                               json.loads(row.payload), row.attempts + 1, worker))
            if len(claimed) == most:
                break
        return claimed

    def waits_ahead(self, lane: str, priority: int) -> bool:
        """Whether a due job of the lane that this worker could claim comes before work of this
        priority: a long background job (an analysis) then stops early and queues its rest."""
        query = self._queries.get(f"ahead:{lane}")
        if query is None:
            query = self._queries[f"ahead:{lane}"] = (
                _candidates(lane, self.search_per_client, postgres=False).with_only_columns(_J.c.id)
                .where(_J.c.priority < bindparam("b_priority")))
        with db.autocommit(self.engine) as conn:
            return conn.execute(query, {"b_now": time.time(), "b_most": 1, "b_priority": priority}).first() \
                is not None

    def next_due(self, lanes: list[str]) -> float | None:
        """When the soonest queued job of these lanes is due (a paced bot's turn waits), or None."""
        with db.autocommit(self.engine) as conn:  # a lane a statement: each the first row of an index
            dues = [conn.execute(_NEXT_DUE, {"b_lane": lane}).scalar() for lane in lanes]
        found = [float(due) for due in dues if due is not None]
        return min(found) if found else None

    def renew(self, job: Job) -> bool:
        """Extend the lease of a job still being worked on; False if it was lost (expired and taken)."""
        with self.engine.begin() as conn:
            result = conn.execute(_RENEW, {"b_id": job.id, "b_worker": job.worker,
                                           "b_lease_until": time.time() + self.lease_s})
            return result.rowcount == 1

    def release(self, worker: str) -> int:
        """Put the jobs leased to ``worker`` back in the queue, due as they were, without waiting for
        their leases to run out: only for a worker known to be dead (its process has exited). How many."""
        with self.engine.begin() as conn:
            released = int(conn.execute(_RELEASE, {"b_worker": worker}).rowcount or 0)
            if released and conn.dialect.name == "postgresql":
                conn.exec_driver_sql(f"NOTIFY {JOBS_CHANNEL}")
        return released

    def postpone(self, job: Job, not_before: float) -> bool:
        """Put a claimed job back in the queue, due at ``not_before`` (a deadline job that came
        early by this worker's clock), without counting the attempt; False if it was lost."""
        with self.engine.begin() as conn:
            result = conn.execute(update(_J).where(_J.c.id == job.id, _J.c.worker == job.worker,
                                                   _J.c.status == RUNNING)
                                  .values(status=QUEUED, lease_until=None, not_before=not_before,
                                          attempts=_J.c.attempts - 1))
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
        with db.autocommit(self.engine) as conn:
            return {row.status: row.n for row in conn.execute(
                select(j.c.status, func.count().label("n")).group_by(j.c.status))}
