"""PostgreSQL's plans for the job queue's hot statements stay cheap on tables it knows nothing about.

psycopg prepares a statement a connection runs often, and PostgreSQL may then plan it once for
any values; where the tables were never analyzed (autovacuum off, or a table that grew fast) it
plans them as tiny. The claim once read the index by lane and not-before alone and walked every
finished job of its lane. Here the claim runs through ``JobQueue`` with every statement prepared
and its generic plan forced, planned on an empty queue and run again beside 20,000 finished jobs;
``auto_explain`` sends each plan back as a notice: the pages a claim reads must not grow with the
finished jobs (the claim before the fix read 411 of them, this one about 20).
"""

from __future__ import annotations

import json
import time
from typing import Any

import sqlalchemy
from sqlalchemy import insert

from powergrid.server.storage import db
from powergrid.server.storage.jobs import DONE, QUICK, JobQueue, JobSpec

FINISHED = 20_000


def _plans_engine(pg_url: str, plans: list[dict[str, Any]]) -> sqlalchemy.Engine:
    engine = db.make_engine(pg_url)

    @sqlalchemy.event.listens_for(engine, "connect")
    def _explained(dbapi_conn: Any, _record: Any) -> None:
        def notice(diagnostic: Any) -> None:
            text = diagnostic.message_primary or ""
            if "{" in text and "Plan" in text:
                plans.append(json.loads(text[text.index("{"):]))

        dbapi_conn.add_notice_handler(notice)
        dbapi_conn.prepare_threshold = 0  # every statement prepared, as a busy connection's are
        was = dbapi_conn.autocommit
        dbapi_conn.autocommit = True
        for setting in ("LOAD 'auto_explain'", "SET auto_explain.log_min_duration = 0",
                        "SET auto_explain.log_analyze = on", "SET auto_explain.log_buffers = on",
                        "SET auto_explain.log_format = json", "SET auto_explain.log_level = notice",
                        "SET plan_cache_mode = force_generic_plan"):
            dbapi_conn.execute(setting)
        dbapi_conn.autocommit = was

    return engine


def _blocks(plan: dict[str, Any]) -> int:
    node = plan["Plan"] if "Plan" in plan else plan
    return int(node.get("Shared Hit Blocks", 0)) + int(node.get("Shared Read Blocks", 0))


def test_a_claim_reads_the_same_few_pages_however_many_jobs_are_finished(pg_url: str) -> None:
    plans: list[dict[str, Any]] = []
    engine = _plans_engine(pg_url, plans)
    db.migrate(engine)
    queue = JobQueue(engine, lease_s=60)
    # the claim and the look at the queue's head are planned while the queue is empty, as on a
    # server that has just started (a prepared statement keeps its plan while the table grows)
    queue.enqueue(JobSpec("test", QUICK, "first"))
    assert queue.claim("w", [QUICK]) is not None
    assert queue.claim("w", [QUICK]) is None
    assert queue.next_due([QUICK]) is None
    now = time.time()
    with engine.begin() as conn:
        conn.execute(insert(db.jobs), [
            {"kind": "bot_turn", "lane": QUICK, "key": f"old:{i}", "payload": "{}", "status": DONE,
             "not_before": now - 60, "attempts": 1, "created_at": now - 60, "finished_at": now - 59}
            for i in range(FINISHED)])
    for i in range(8):
        queue.enqueue(JobSpec("test", QUICK, f"due{i}"))
    plans.clear()
    claimed = [queue.claim("w", [QUICK]) for _ in range(8)]
    assert all(job is not None for job in claimed)
    claims = [p for p in plans if "picked" in p.get("Query Text", "")]
    assert len(claims) == 8
    # the finished jobs' pages are several hundred: a claim that walked them would read them all
    assert max(_blocks(p) for p in claims) < 60, [_blocks(p) for p in claims]
    plans.clear()
    assert queue.next_due([QUICK]) is None  # nothing queued: the look at the head is as cheap
    assert max(_blocks(p) for p in plans) < 30, [_blocks(p) for p in plans]
    engine.dispose()
