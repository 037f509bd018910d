"""A quick worker takes several bot turns at once when they queue up: one commit leases them, one
commits their moves. The games must come out exactly as when each turn is its own job."""

from __future__ import annotations

import dataclasses

import pytest
import sqlalchemy
from sqlalchemy import select

import powergrid as pg
from powergrid.server import Settings
from powergrid.server.bots.bot_worker import BotWorker
from powergrid.server.games.bot_turns import derive_seed, turn_job
from powergrid.server.storage import db
from powergrid.server.storage.jobs import QUICK, SEARCH, JobQueue, JobSpec
from powergrid.server.storage.store import GameRow, Move, SeatRow, Store

pytestmark = pytest.mark.timeout(120)


def bot_games(store: Store, count: int, bots: str = "heuristic", prefix: str = "batch") -> list[str]:
    ids = []
    for i in range(count):
        config = pg.GameConfig(map="germany", players=3, seed=1000 + i)
        state = pg.new_game(config)
        gid = f"{prefix}{i:03d}"
        seats = [SeatRow(s, "bot", bots, derive_seed(config.seed, s), None, True) for s in range(3)]
        row = GameRow(gid, None, config.to_dict(), seats, 0, "playing", 1)  # type: ignore[arg-type]
        store.create_game(gid, config.to_dict(), seats, state.current_player,
                          first_job=turn_job(row, 0, state.current_player))
        ids.append(gid)
    return ids


def logs(store: Store, ids: list[str]) -> dict[str, list[tuple[int, int, str]]]:
    return {gid: store.actions_after(gid, 0) for gid in ids}


def work_until_idle(worker: BotWorker, turns: int) -> list[int]:
    """Run the worker's claim-and-play loop for about ``turns`` turns; the batch sizes it took."""
    sizes: list[int] = []
    while sum(sizes) < turns:
        claimed = worker.queue.claim_some(worker.name, worker.lanes, worker.settings.bot_batch)
        if not claimed:
            break
        sizes.append(len(claimed))
        if len(claimed) == 1:
            worker.work(claimed[0])
        else:
            worker.play_turns(claimed)
    return sizes


def test_a_batch_of_turns_plays_the_same_games_as_one_turn_at_a_time(settings: Settings, tmp_path) -> None:
    results = {}
    for batch in (1, 8):
        url = (f"sqlite:///{tmp_path}/b{batch}.db" if settings.is_sqlite else settings.database_url)
        engine = db.make_engine(url)
        db.migrate(engine)
        if not settings.is_sqlite:  # one PostgreSQL schema: start each run on empty tables
            with engine.begin() as conn:
                for table in (db.jobs, db.snapshots, db.actions, db.seats, db.games):
                    conn.execute(table.delete())
        store = Store(engine)
        ids = bot_games(store, 12)
        worker = BotWorker(dataclasses.replace(settings, database_url=url, bot_batch=batch), [QUICK])
        sizes = work_until_idle(worker, 600)
        results[batch] = logs(store, ids)
        if batch == 1:
            assert set(sizes) == {1}
        else:
            assert max(sizes) == 8  # 12 games each waiting for a bot: the worker took 8 at once
        with engine.connect() as conn:  # every turn's job done once, none left running
            statuses = [r.status for r in conn.execute(select(db.jobs.c.status))]
        assert statuses.count("running") == 0 and statuses.count("done") == sum(sizes)
        worker.engine.dispose()
        engine.dispose()
    assert sum(len(log) for log in results[1].values()) >= 500
    assert results[8] == results[1]


def test_a_taken_number_in_a_batch_leaves_that_move_out_and_keeps_the_others(engine_store: Store) -> None:
    store = engine_store
    ids = bot_games(store, 3, bots="random")
    queue = JobQueue(store.engine)
    claimed = queue.claim_some("w", [QUICK], 8)
    assert len(claimed) == 3
    store.append(ids[1], 1, 0, "pass", status="playing", round_=1, to_act=1)  # a person got there first
    moves = [Move(gid, 1, 0, "pass", "playing", 1, 1, done_job=job.id,
                  next_job=JobSpec("bot_turn", QUICK, f"{gid}:1", {"seat": 1}, game_id=gid, version=1))
             for gid, job in zip(ids, claimed, strict=True)]
    assert store.append_moves(moves) == [True, False, True]
    assert [len(store.actions_after(gid, 0)) for gid in ids] == [1, 1, 1]
    with store.engine.connect() as conn:
        rows = {r.key: r.status for r in conn.execute(select(db.jobs.c.key, db.jobs.c.status))}
    # the kept moves finished their jobs and queued the next; the taken one did neither
    assert rows[f"{ids[0]}:0"] == rows[f"{ids[2]}:0"] == "done"
    assert rows[f"{ids[1]}:0"] == "running"
    assert f"{ids[0]}:1" in rows and f"{ids[2]}:1" in rows and f"{ids[1]}:1" not in rows


def test_the_quick_lane_is_taken_in_batches_the_search_lane_one_at_a_time(engine_store: Store) -> None:
    queue = JobQueue(engine_store.engine, lease_s=60)
    for i in range(10):
        queue.enqueue(JobSpec("test", QUICK, f"q{i}"))
        queue.enqueue(JobSpec("test", SEARCH, f"s{i}", client=f"c{i}"))
    first = queue.claim_some("search-worker", [SEARCH, QUICK], 4)
    assert [j.key for j in first] == ["s0"]
    quick = queue.claim_some("quick-worker", [QUICK], 4)
    assert [j.key for j in quick] == ["q0", "q1", "q2", "q3"]  # the oldest first


def test_a_claim_on_postgresql_is_one_statement(pg_url: str) -> None:
    """Each round trip is a wait in a worker that is mostly waiting: the lease of a batch is one
    ``UPDATE ... RETURNING`` over the rows the claim locked (SQLite's writes take no round trip);
    expired leases are put back in the queue by another statement, at most once a second a lane."""
    engine = db.make_engine(pg_url)
    db.migrate(engine)
    engine_store = Store(engine)
    queue = JobQueue(engine_store.engine, lease_s=60)
    queue.requeue_every_s = 3600.0  # however slow the machine, the second claim comes within it
    for i in range(6):
        queue.enqueue(JobSpec("test", QUICK, f"one{i}"))
    statements: list[str] = []
    listen = sqlalchemy.event.listens_for(engine_store.engine, "before_cursor_execute")
    listen(lambda _conn, _cur, statement, *_: statements.append(statement))
    claimed = queue.claim_some("w", [QUICK], 4)
    assert [j.key for j in claimed] == ["one0", "one1", "one2", "one3"]
    assert all(j.attempts == 1 and j.worker == "w" for j in claimed)
    assert [s.split()[0] for s in statements if not s.startswith("SET")] == ["UPDATE", "WITH"]
    statements.clear()
    assert [j.key for j in queue.claim_some("w2", [QUICK], 4)] == ["one4", "one5"]
    assert [s.split()[0] for s in statements] == ["WITH"]  # the claim alone
    engine.dispose()


def test_a_batch_catches_up_all_its_games_in_one_query(settings: Settings, engine_store: Store) -> None:
    """Between a worker's turns, other seats act: the worker brings all the games of a batch up to
    date with one statement, to exactly the states the log makes."""
    store = engine_store
    ids = bot_games(store, 4, prefix="behind")
    worker = BotWorker(dataclasses.replace(settings, database_url=str(store.engine.url)), [QUICK])
    try:
        for gid in ids:
            assert worker.game(gid) is not None  # held at version 0
        expected = {}
        for i, gid in enumerate(ids[:3]):  # the fourth game stays where it is
            state = pg.new_game(pg.GameConfig(map="germany", players=3, seed=1000 + i))
            for seq in range(1, i + 2):  # one, two and three entries behind
                seat = state.current_player
                action = state.legal_actions()[-1]
                state.apply(action)
                assert store.append(gid, seq, seat, str(action), status="playing", round_=state.round,
                                    to_act=state.current_player)
            expected[gid] = state
        statements: list[str] = []
        listen = sqlalchemy.event.listens_for(worker.engine, "before_cursor_execute")
        listen(lambda _conn, _cur, statement, *_: statements.append(statement))
        assert worker.catch_up(ids) == set(ids)
        assert len([s for s in statements if "actions" in s]) == 1, statements
        for i, gid in enumerate(ids):
            frames = worker.games[gid][1]
            assert frames[-1].version == (i + 1 if i < 3 else 0)
            if gid in expected:
                assert frames[-1].state.to_dict() == expected[gid].to_dict()
    finally:
        worker.engine.dispose()


@pytest.fixture
def engine_store(database_url: str):  # type: ignore[no-untyped-def]
    engine = db.make_engine(database_url)
    db.migrate(engine)
    yield Store(engine)
    engine.dispose()
