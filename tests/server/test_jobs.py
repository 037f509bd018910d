"""The job queue: each job claimed once under a lease, lanes, the per-client search cap, not-before."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
from sqlalchemy import Engine, select

from powergrid.server.storage import db
from powergrid.server.storage.jobs import BACKGROUND, QUICK, SEARCH, JobQueue, JobSpec

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    engine = db.make_engine(database_url)
    db.migrate(engine)
    yield engine
    engine.dispose()


def spec(key: str, lane: str = QUICK, client: str | None = None, not_before: float = 0.0) -> JobSpec:
    return JobSpec(kind="test", lane=lane, key=key, payload={"n": key}, client=client, not_before=not_before)


def test_a_job_is_enqueued_once_per_key(engine: Engine) -> None:
    queue = JobQueue(engine)
    queue.enqueue(spec("a"))
    queue.enqueue(spec("a"))
    assert queue.counts() == {"queued": 1}


@pytest.mark.parametrize("most", [1, 3])  # one job a claim, or a quick worker's batches
def test_each_job_is_claimed_by_one_of_many_racing_workers(engine: Engine, most: int) -> None:
    queue = JobQueue(engine, lease_s=60)
    for i in range(12):
        queue.enqueue(spec(f"j{i}"))
    claimed: list[list[int]] = [[] for _ in range(4)]
    barrier = threading.Barrier(4)

    def work(index: int) -> None:
        barrier.wait()
        while found := queue.claim_some(f"w{index}", [QUICK], most):
            claimed[index].extend(job.id for job in found)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    ids = [i for c in claimed for i in c]
    assert len(ids) == 12 and len(set(ids)) == 12  # every job once, none twice
    assert queue.claim("late", [QUICK]) is None  # all leased


def test_an_expired_lease_is_claimed_again_and_a_lost_lease_cannot_be_renewed(engine: Engine) -> None:
    queue = JobQueue(engine, lease_s=2.0)  # long enough for a loaded machine's two claims
    queue.enqueue(spec("a"))
    first = queue.claim("w1", [QUICK])
    assert first is not None and first.attempts == 1
    assert queue.claim("w2", [QUICK]) is None  # leased to w1
    time.sleep(2.2)
    again = queue.claim("w2", [QUICK])
    assert again is not None and again.id == first.id and again.attempts == 2
    assert not queue.renew(first)  # w1's lease is gone
    assert queue.renew(again)
    queue.done(again, {"ok": True})
    assert queue.counts() == {"done": 1}


def test_a_job_that_keeps_failing_is_given_up(engine: Engine) -> None:
    queue = JobQueue(engine, lease_s=0.05, max_attempts=2)
    queue.enqueue(spec("a"))
    for _ in range(2):
        assert queue.claim("w", [QUICK]) is not None
        time.sleep(0.1)
    assert queue.claim("w", [QUICK]) is None
    assert queue.counts() == {"failed": 1}


def test_lanes_keep_quick_work_from_waiting_behind_search(engine: Engine) -> None:
    queue = JobQueue(engine, search_per_client=0)
    queue.enqueue(spec("s1", SEARCH))
    queue.enqueue(spec("s2", SEARCH))
    queue.enqueue(spec("q1", QUICK))
    quick = queue.claim("quick-worker", [QUICK])
    assert quick is not None and quick.key == "q1"
    assert queue.claim("quick-worker", [QUICK]) is None  # a quick worker never takes search work
    first = queue.claim("search-worker", [SEARCH, QUICK])
    assert first is not None and first.lane == SEARCH


def test_one_client_gets_one_search_job_at_a_time(engine: Engine) -> None:
    queue = JobQueue(engine, search_per_client=1)
    queue.enqueue(spec("a1", SEARCH, client="alice"))
    queue.enqueue(spec("a2", SEARCH, client="alice"))
    queue.enqueue(spec("b1", SEARCH, client="bob"))
    first = queue.claim("w1", [SEARCH])
    second = queue.claim("w2", [SEARCH])
    assert first is not None and second is not None
    assert {first.key, second.key} == {"a1", "b1"}  # alice's second waits for her first
    assert queue.claim("w3", [SEARCH]) is None
    queue.done(first if first.key == "a1" else second)
    third = queue.claim("w3", [SEARCH])
    assert third is not None and third.key == "a2"


def test_a_job_is_not_taken_before_its_time(engine: Engine) -> None:
    queue = JobQueue(engine)
    queue.enqueue(spec("later", not_before=time.time() + 3600))
    queue.enqueue(spec("now"))
    job = queue.claim("w", [QUICK])
    assert job is not None and job.key == "now"
    assert queue.claim("w", [QUICK]) is None
    with engine.connect() as conn:
        statuses = dict(conn.execute(select(db.jobs.c.key, db.jobs.c.status)).all())
    assert statuses == {"later": "queued", "now": "running"}


def test_a_due_bot_turn_is_claimed_before_every_queued_analysis(engine: Engine) -> None:
    """Analyses are queued due at once (not_before 0) and a bot turn after its pace: ordered by
    not-before alone, 20 analyses (each re-queueing its next part) held a person's bot 246 s."""
    from dataclasses import replace

    from powergrid.server.coach.coach_jobs import analysis_job

    queue = JobQueue(engine, search_per_client=1)
    for i in range(20):
        queue.enqueue(replace(analysis_job(f"g{i}", 0), game_id=None))  # as the route queues them
    due = time.time() + 2.0
    queue.enqueue(spec("turn", SEARCH, client="alice", not_before=due))  # paced
    first = queue.claim("w1", [SEARCH])
    assert first is not None and first.kind == "analysis"  # the turn is not due yet: no idling
    assert not queue.waits_ahead(SEARCH, BACKGROUND)
    time.sleep(max(0.0, due - time.time()) + 0.05)
    assert queue.waits_ahead(SEARCH, BACKGROUND)  # the running analysis stops early for it
    queue.done(first)
    turn = queue.claim("w1", [SEARCH])
    assert turn is not None and turn.key == "turn"
    queue.done(turn)
    assert not queue.waits_ahead(SEARCH, BACKGROUND)
    second = queue.claim("w1", [SEARCH])
    assert second is not None and second.kind == "analysis"


def test_a_long_job_keeps_its_lease_and_a_quick_one_is_never_renewed(engine: Engine) -> None:
    from powergrid.server.bots.bot_worker import LeaseKeeper

    queue = JobQueue(engine, lease_s=2.0)
    renewed: list[int] = []

    class Counting(JobQueue):
        def renew(self, job):  # type: ignore[no-untyped-def]
            renewed.append(job.id)
            return queue.renew(job)

    keeper = LeaseKeeper(Counting(engine, lease_s=2.0), every=2.0 / 3, name="w1")
    try:
        queue.enqueue(spec("quick"))
        queue.enqueue(spec("long"))
        quick = queue.claim("w1", [QUICK])
        assert quick is not None
        keeper.holding(quick)  # done before the keeper's next look
        keeper.holding(None)
        queue.done(quick)
        long = queue.claim("w1", [QUICK])
        assert long is not None and long.key == "long"
        keeper.holding(long)
        time.sleep(3.0)  # past the 2 s lease: only the renewals keep it
        assert queue.claim("w2", [QUICK]) is None
        keeper.holding(None)
        assert renewed and set(renewed) == {long.id}
    finally:
        keeper.stop()


def test_every_search_bot_name_takes_the_search_lane() -> None:
    """A search bot in the quick lane would make every cheap bot wait behind its seconds of thinking:
    the lane follows what the bot is, under its name or any alias."""
    from powergrid.bots import ALIASES, SearchBot, bot_names, make_bot
    from powergrid.bots.expert import ExpertBot
    from powergrid.server.games.bot_turns import lane_of

    names = bot_names() + [f"{alias}{level}" for alias in ALIASES for level in ("", ":fast", ":strong")]
    for name in names:
        expected = SEARCH if isinstance(make_bot(name, 0), (SearchBot, ExpertBot)) else QUICK
        assert lane_of(name) == expected, name
    assert {lane_of(n) for n in names} == {QUICK, SEARCH}
