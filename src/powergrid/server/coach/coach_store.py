"""The coach's tables: whether a game allows hints and how many, the hints each seat asked for,
and each finished game's analysis (built a few decisions per job; see coach_jobs.py).

Every function is blocking (SQLAlchemy Core); the routes call them from worker threads.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Engine,
    Float,
    ForeignKey,
    Integer,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from ..common.errors import ApiError
from ..storage import db
from ..storage.jobs import JobSpec, enqueue

#: a game's coach settings (no row: hints on unless the game is public, DEFAULT_HINTS_PER_SEAT)
coach_games = Table(
    "coach_games", db.metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("hints", Boolean, nullable=False),
    Column("hints_per_seat", Integer, nullable=False),
)

#: one row per hint given: (game, seat, version) once, however often it is asked again
hints = Table(
    "hints", db.metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("version", Integer, nullable=False),
    Column("created_at", Float, nullable=False),
    PrimaryKeyConstraint("game_id", "seat", "version"),
)

#: a finished game's analysis: progress while it is built, then the result (JSON)
analyses = Table(
    "analyses", db.metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("status", String(12), nullable=False),
    Column("done", Integer, nullable=False),
    Column("total", Integer, nullable=True),
    Column("decisions", Text, nullable=False),
    Column("result", Text, nullable=True),
    Column("updated_at", Float, nullable=False),
    #: the hashed key of the client that started it (analyses in progress are bounded per client)
    Column("client", String(64), nullable=True),
)

DEFAULT_HINTS_PER_SEAT = 10
HINT, ANALYSIS = "hint", "analysis"
QUEUED, RUNNING, DONE = "queued", "running", "done"


@dataclass(frozen=True)
class HintOptions:
    enabled: bool
    per_seat: int


def set_options(engine: Engine, game_id: str, enabled: bool, per_seat: int) -> None:
    with engine.begin() as conn:
        conn.execute(insert(coach_games).values(game_id=game_id, hints=enabled, hints_per_seat=per_seat))


def options(engine: Engine, game_id: str) -> HintOptions:
    with engine.connect() as conn:
        row = conn.execute(select(coach_games).where(coach_games.c.game_id == game_id)).first()
        if row is None:  # a game from before the coach, or whose settings were not stored
            public = conn.execute(select(db.games.c.public).where(db.games.c.id == game_id)).scalar()
            return HintOptions(not public, DEFAULT_HINTS_PER_SEAT)
    return HintOptions(bool(row.hints), int(row.hints_per_seat))


def hint_key(game_id: str, seat: int, version: int) -> str:
    return f"{game_id}:{seat}:{version}"


def request_hint(engine: Engine, game_id: str, seat: int, version: int, limit: int, job: JobSpec) -> bool:
    """Count the hint and enqueue its job in one transaction; False if this seat already asked at
    this version (nothing is counted twice).

    :raises ApiError: hint_limit, the seat has used all its hints.
    """
    h = hints.c
    try:
        with engine.begin() as conn:
            asked = select(h.seat).where(h.game_id == game_id, h.seat == seat, h.version == version)
            if conn.execute(asked).first():
                return False
            used = conn.execute(select(func.count()).select_from(hints)
                                .where(h.game_id == game_id, h.seat == seat)).scalar_one()
            if used >= limit:
                raise ApiError("hint_limit", f"seat {seat} has used all {limit} hints of this game")
            conn.execute(insert(hints).values(game_id=game_id, seat=seat, version=version,
                                              created_at=time.time()))
            enqueue(conn, job)
    except IntegrityError:
        return False  # a simultaneous request of the same seat and version counted it first
    return True


def hints_used(engine: Engine, game_id: str) -> dict[int, int]:
    """Hints each seat asked for (seats that asked none are left out)."""
    h = hints.c
    with engine.connect() as conn:
        rows = conn.execute(select(h.seat, func.count().label("n")).where(h.game_id == game_id)
                            .group_by(h.seat)).all()
    return {int(r.seat): int(r.n) for r in rows}


def job_outcome(engine: Engine, kind: str, key: str) -> tuple[str, Any] | None:
    """(status, result) of a job, or None when there is none."""
    j = db.jobs.c
    with engine.connect() as conn:
        row = conn.execute(select(j.status, j.result).where(j.kind == kind, j.key == key)).first()
    if row is None:
        return None
    return str(row.status), (json.loads(row.result) if row.result else None)


# ---------------------------------------------------------------- analyses
#: seconds a client refused for a full analysis queue is told to wait (an analysis takes minutes)
ANALYSIS_RETRY_S = 60


def start_analysis(engine: Engine, game_id: str, job: JobSpec, client: str | None = None,
                   per_client: int = 0, most: int = 0) -> None:
    """Queue the game's analysis unless it exists (it is computed once per game).

    :raises ApiError: ``analysis_limit`` when ``client`` has ``per_client`` analyses in progress,
        ``analysis_queue_full`` when ``most`` analyses are in progress on the server (0: no bound).
    """
    try:
        with engine.begin() as conn:
            if conn.execute(select(analyses.c.game_id).where(analyses.c.game_id == game_id)).first():
                return
            if most > 0 and _in_progress(conn, None) >= most:
                raise ApiError("analysis_queue_full",
                               f"{most} analyses are queued or running: try again later", ANALYSIS_RETRY_S)
            if client is not None and per_client > 0 and _in_progress(conn, client) >= per_client:
                raise ApiError("analysis_limit", f"{per_client} analyses asked for from this address are "
                               "still in progress: wait for one to finish", ANALYSIS_RETRY_S)
            conn.execute(insert(analyses).values(game_id=game_id, status=QUEUED, done=0, total=None,
                                                 decisions="[]", result=None, updated_at=time.time(),
                                                 client=client))
            enqueue(conn, job)
    except IntegrityError:
        return  # a simultaneous request queued it first


def _in_progress(conn: Any, client: str | None) -> int:
    """Analyses with a job queued or running (of one client, or of all): one failed for good, whose
    last job was given up, no longer counts."""
    j, a = db.jobs.c, analyses.c
    live = (select(func.count()).select_from(db.jobs)
            .where(j.kind == ANALYSIS, j.status.in_((QUEUED, RUNNING))))
    if client is not None:
        live = live.where(j.game_id.in_(select(a.game_id).where(a.client == client)))
    return int(conn.execute(live).scalar_one())


def analysis_row(engine: Engine, game_id: str) -> Any:
    with engine.connect() as conn:
        return conn.execute(select(analyses).where(analyses.c.game_id == game_id)).first()


def save_progress(engine: Engine, game_id: str, start: int, decisions: list[dict[str, Any]], total: int,
                  result: dict[str, Any] | None, next_job: JobSpec | None, done_job: int) -> bool:
    """Store the decisions judged from ``start`` on (only if nobody else has: the update needs
    ``done == start``), and either the result or the next job; finish this job. False if another
    worker got there first."""
    from ..storage.jobs import mark_done

    a = analyses.c
    with engine.begin() as conn:
        row = conn.execute(select(a.decisions).where(a.game_id == game_id, a.done == start)).first()
        if row is None:
            mark_done(conn, done_job, {"skipped": "already judged"})
            return False
        every = json.loads(row.decisions) + decisions
        changed = conn.execute(update(analyses).where(a.game_id == game_id, a.done == start).values(
            status=DONE if result is not None else RUNNING, done=len(every), total=total,
            decisions=json.dumps(every), result=None if result is None else json.dumps(result),
            updated_at=time.time()))
        if changed.rowcount != 1:
            return False
        if next_job is not None:
            enqueue(conn, next_job)
        mark_done(conn, done_job, {"judged": len(decisions)})
    return True
