"""A web process's appends are committed together: the actions queued while a transaction runs go
into the next one. Each entry keeps its own answer (written, or its number taken), and a failure
reaches every entry of its batch without stopping later ones."""

from __future__ import annotations

import asyncio
import concurrent.futures
import dataclasses
from pathlib import Path

import pytest
import sqlalchemy
from sqlalchemy import select

import powergrid as pg
from powergrid.server import Settings
from powergrid.server.storage import db, jobs
from powergrid.server.storage.group_commit import GroupCommit
from powergrid.server.storage.jobs import QUICK, JobQueue, JobSpec
from powergrid.server.storage.store import Move, SeatRow, Store

pytestmark = pytest.mark.timeout(120)


def two_people_games(store: Store, count: int) -> list[tuple[str, pg.GameState]]:
    games = []
    for i in range(count):
        config = pg.GameConfig(map="germany", players=3, seed=500 + i)
        state = pg.new_game(config)
        gid = f"group{i:03d}"
        seats = [SeatRow(0, "human", None, None, "h0", True), SeatRow(1, "human", None, None, "h1", True),
                 SeatRow(2, "bot", "heuristic", 7, None, True)]
        store.create_game(gid, config.to_dict(), seats, state.current_player)
        games.append((gid, state))
    return games


def first_move(gid: str, state: pg.GameState, seq: int = 1) -> Move:
    seat = state.current_player
    assert seat is not None
    action = state.legal_actions()[0]
    after = state.clone()
    after.apply(action)
    job = None
    if after.current_player == 2:
        job = JobSpec("bot_turn", QUICK, f"{gid}:{seq}", {"game_id": gid}, game_id=gid, version=seq)
    return Move(gid, seq, seat, str(action), "playing", after.round, after.current_player, job)


@pytest.fixture
def store(settings: Settings) -> Store:
    engine = db.make_engine(settings.database_url)
    db.migrate(engine)
    return Store(engine)


def test_appends_queued_together_share_a_transaction_and_each_is_written(store: Store) -> None:
    games = two_people_games(store, 40)
    appends = GroupCommit(store)

    async def all_at_once() -> list[bool]:
        return await asyncio.gather(*(appends.append(first_move(gid, state)) for gid, state in games))

    assert asyncio.run(all_at_once()) == [True] * 40
    # all queued before the writer first ran
    assert appends.stats() == {"commits": 1, "entries": 40, "on_loop": 0}
    for gid, state in games:
        assert store.actions_after(gid, 0) == [(1, state.current_player, str(state.legal_actions()[0]))]
        assert store.game(gid).version == 1  # type: ignore[union-attr]
    with store.engine.connect() as conn:  # each entry's next job too (a bot's turn), in its batch
        keys = sorted(r.key for r in conn.execute(select(db.jobs.c.key)))
    expected = sorted(m.next_job.key for m in (first_move(g, s) for g, s in games) if m.next_job is not None)
    assert expected and keys == expected


def test_a_taken_number_refuses_only_that_entry(store: Store) -> None:
    games = two_people_games(store, 6)
    taken_gid, taken_state = games[2]
    assert store.append_moves([first_move(taken_gid, taken_state)]) == [True]  # another writer won
    appends = GroupCommit(store)

    async def all_at_once() -> list[bool]:
        return await asyncio.gather(*(appends.append(first_move(gid, state)) for gid, state in games))

    assert asyncio.run(all_at_once()) == [True, True, False, True, True, True]
    with store.engine.connect() as conn:
        notices = [r.message for r in conn.execute(select(db.notices.c.message))] if store.notices else []
    if store.notices:  # one notice per entry written, the taken one's only from its first writer
        assert sorted(notices) == sorted(f"{gid} 1 {m.seat} {m.action}"
                                         for gid, m in ((g, first_move(g, s)) for g, s in games))


def test_a_failing_batch_fails_each_of_its_entries_and_the_next_batch_still_runs(store: Store) -> None:
    games = two_people_games(store, 4)
    appends = GroupCommit(store)
    real = store.append_moves
    calls = []

    def failing_once(moves: list[Move]) -> list[bool]:
        calls.append(len(moves))
        if len(calls) == 1:
            raise RuntimeError("the database went away")
        return real(moves)

    store.append_moves = failing_once  # type: ignore[method-assign]

    async def run() -> tuple[list[object], bool]:
        alone = asyncio.ensure_future(appends.append(first_move(*games[0])))
        await asyncio.sleep(0)  # its request queues it and starts the writer
        await asyncio.sleep(0)  # the writer takes it, alone, and waits for the database
        queued = [asyncio.ensure_future(appends.append(first_move(*game))) for game in games[1:3]]
        first = await asyncio.gather(alone, *queued, return_exceptions=True)
        later = await appends.append(first_move(*games[3]))
        return first, later

    first, later = asyncio.run(run())
    assert isinstance(first[0], RuntimeError)  # the failed batch: its one entry
    assert first[1:] == [True, True]  # queued behind it: the next transaction
    assert later is True
    assert calls == [1, 2, 1]
    assert [len(store.actions_after(gid, 0)) for gid, _ in games] == [0, 1, 1, 1]


def test_a_batch_the_executor_refuses_fails_its_entries_instead_of_hanging(store: Store) -> None:
    games = two_people_games(store, 2)
    appends = GroupCommit(store)  # every batch goes to a thread

    async def run() -> list[object]:
        executor = concurrent.futures.ThreadPoolExecutor(1)
        asyncio.get_running_loop().set_default_executor(executor)
        executor.shutdown()  # as when the server stops
        return await asyncio.wait_for(asyncio.gather(
            *(appends.append(first_move(gid, state)) for gid, state in games), return_exceptions=True), 10)

    answers = asyncio.run(run())
    assert all(isinstance(a, RuntimeError) for a in answers), answers
    assert [len(store.actions_after(gid, 0)) for gid, _ in games] == [0, 0]


def test_on_sqlite_a_batch_is_written_on_the_loop_when_the_lock_is_free(store: Store) -> None:
    if store.engine.dialect.name != "sqlite":
        pytest.skip("SQLite only: PostgreSQL's commit waits for its disk, so it is written in a thread")
    games = two_people_games(store, 5)
    appends = GroupCommit(store, on_loop=True)

    async def one_by_one() -> list[bool]:
        return [await appends.append(first_move(gid, state)) for gid, state in games]

    assert asyncio.run(one_by_one()) == [True] * 5
    assert appends.stats() == {"commits": 5, "entries": 5, "on_loop": 5}
    assert all(len(store.actions_after(gid, 0)) == 1 for gid, _ in games)


def test_on_sqlite_the_requests_of_a_turn_are_answered_in_the_next(tmp_path: Path) -> None:
    """With uvloop (what ``powergrid serve`` runs), the entries queued by one turn's requests are
    written within that turn, so the requests go on in the next turn; a writer task would have
    run in the next turn and woken them in the one after."""
    engine = db.make_engine(f"sqlite:///{tmp_path}/turns.db", "NORMAL")
    db.migrate(engine)
    store = Store(engine)
    uvloop = pytest.importorskip("uvloop")
    games = two_people_games(store, 8)
    appends = GroupCommit(store, on_loop=True)
    turns = 0

    def count_turns() -> None:
        nonlocal turns
        turns += 1
        asyncio.get_running_loop().call_soon(count_turns)

    async def request(gid: str, state: pg.GameState) -> tuple[bool, int]:
        began = turns
        ok = await appends.append(first_move(gid, state))
        return ok, turns - began

    async def one_turn_of_requests() -> list[tuple[bool, int]]:
        asyncio.get_running_loop().call_soon(count_turns)
        await asyncio.sleep(0)
        tasks = [asyncio.ensure_future(request(gid, state)) for gid, state in games]
        return await asyncio.gather(*tasks)

    answers = uvloop.run(one_turn_of_requests())
    assert [ok for ok, _ in answers] == [True] * 8
    assert {waited for _, waited in answers} == {1}
    assert appends.stats() == {"commits": 1, "entries": 8, "on_loop": 1}


def test_on_sqlite_a_taken_lock_sends_the_batch_to_a_thread_and_the_loop_runs_on(store: Store,
                                                                                 settings: Settings) -> None:
    if store.engine.dialect.name != "sqlite":
        pytest.skip("SQLite only")
    import sqlite3
    import threading

    games = two_people_games(store, 2)
    appends = GroupCommit(store, on_loop=True)
    other = sqlite3.connect(settings.database_url.removeprefix("sqlite:///"), isolation_level=None,
                            check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")  # another process's write in progress
    threading.Timer(0.3, other.execute, ("COMMIT",)).start()

    async def run() -> tuple[bool, int]:
        ticks = 0

        async def tick() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        ticker = asyncio.create_task(tick())
        ok = await appends.append(first_move(*games[0]))
        ticker.cancel()
        return ok, ticks

    ok, ticks = asyncio.run(run())
    other.close()
    assert ok is True
    assert appends.stats() == {"commits": 1, "entries": 1, "on_loop": 0}
    assert ticks >= 10  # the loop went on while the thread waited for the lock (0.3 s)
    assert len(store.actions_after(games[0][0], 0)) == 1
    # the connection that met the lock waits for it again next time (its timeout was restored)
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == db.SQLITE_BUSY_TIMEOUT_MS


def test_each_written_entry_is_announced_once_in_order(settings: Settings) -> None:
    """PostgreSQL: one NOTIFY per entry written, sent by one statement for the batch; SQLite: one
    row per entry in the notices table."""
    engine = db.make_engine(settings.database_url)
    db.migrate(engine)
    postgres = engine.dialect.name == "postgresql"
    store = Store(engine, notify_channel="group_commit_test" if postgres else None, notices=not postgres)
    games = two_people_games(store, 5)
    taken_gid, taken_state = games[1]
    assert store.append_moves([first_move(taken_gid, taken_state)]) == [True]
    listener = None
    if postgres:
        import psycopg

        listener = psycopg.connect(settings.database_url.replace("+psycopg", ""), autocommit=True)
        listener.execute("LISTEN group_commit_test")
    else:
        with engine.begin() as conn:
            conn.execute(db.notices.delete())
    moves = [first_move(gid, state) for gid, state in games]
    assert store.append_moves(moves) == [True, False, True, True, True]
    expected = [f"{m.game_id} 1 {m.seat} {m.action}" for i, m in enumerate(moves) if i != 1]
    if listener is not None:
        heard = [n.payload for n in listener.notifies(timeout=1.0, stop_after=len(expected))]
        listener.close()
    else:
        with engine.connect() as conn:
            heard = [r.message for r in conn.execute(select(db.notices.c.message).order_by(db.notices.c.id))]
    assert heard == expected


def test_on_postgresql_a_batch_is_one_statement(pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The entries, the games' rows, the next jobs, the finished jobs and both kinds of notice,
    in one statement: a taken number still refuses only its own entry and leaves its job running."""
    engine = db.make_engine(pg_url)
    try:
        db.migrate(engine)
        store = Store(engine, notify_channel="one_statement_test")
        games = two_people_games(store, 4)
        queue = JobQueue(engine, lease_s=60)
        for gid, _ in games:  # the jobs that made these moves (a bot worker's batch)
            queue.enqueue(JobSpec("test", QUICK, f"made:{gid}"))
        made_by = {job.key.removeprefix("made:"): job.id for job in queue.claim_some("w", [QUICK], 8)}
        taken_gid, taken_state = games[1]
        assert store.append_moves([first_move(taken_gid, taken_state)]) == [True]
        import psycopg

        listener = psycopg.connect(pg_url.replace("+psycopg", ""), autocommit=True)
        monkeypatch.setattr(jobs, "JOBS_CHANNEL", "one_statement_jobs")  # (other processes ring the real one)
        listener.execute("LISTEN one_statement_test")
        listener.execute("LISTEN one_statement_jobs")
        statements: list[str] = []
        sqlalchemy.event.listen(engine, "before_cursor_execute",
                                lambda _c, _cur, st, *_: statements.append(st))
        moves = [dataclasses.replace(first_move(gid, state), done_job=made_by[gid]) for gid, state in games]
        assert store.append_moves(moves) == [True, False, True, True]
        assert len(statements) == 1 and statements[0].lstrip().startswith("WITH")
        kept = [m for i, m in enumerate(moves) if i != 1]
        bells = 1 if any(m.next_job is not None for m in kept) else 0
        notes = listener.notifies(timeout=1.0, stop_after=len(kept) + bells + 1)
        heard = [(n.channel, n.payload) for n in notes]
        listener.close()
        assert [p for c, p in heard if c == "one_statement_jobs"] == [""] * bells  # one for the next jobs
        entries = [p for c, p in heard if c == "one_statement_test"]
        assert entries == [f"{m.game_id} 1 {m.seat} {m.action}" for m in kept]
        with engine.connect() as conn:
            status = {r.key: r.status for r in conn.execute(select(db.jobs.c.key, db.jobs.c.status))}
            versions = {r.id: r.to_act for r in conn.execute(select(db.games.c.id, db.games.c.to_act))}
        for i, (gid, _) in enumerate(games):
            assert status[f"made:{gid}"] == ("running" if i == 1 else "done")
            assert versions[gid] == moves[1 if i == 1 else i].to_act
        assert {k for k in status if not k.startswith("made:")} == {
            m.next_job.key for m in moves if m.next_job is not None}
    finally:
        engine.dispose()


@pytest.mark.parametrize("synchronous", ["NORMAL", "FULL"])
def test_a_web_process_that_writes_on_the_loop_checkpoints_from_a_thread(tmp_path, synchronous: str) -> None:
    """A checkpoint flushes the disk, so the connections of a process writing on its event loop
    leave it to the service's thread; with FULL (a flush per commit anyway) nothing changes."""
    import dataclasses

    from fastapi.testclient import TestClient

    from powergrid.server import create_app

    from .conftest import create
    from .play import play

    settings = dataclasses.replace(Settings(), database_url=f"sqlite:///{tmp_path}/cp.db",
                                   sqlite_synchronous=synchronous)
    app = create_app(settings)
    with TestClient(app) as client:
        play(client, create(client), 8)
        store = app.state.service.store
        with store.engine.connect() as conn:
            auto = conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar()
        busy, frames, copied = store.checkpoint()
        assert app.state.service.appends.on_loop is (synchronous == "NORMAL")
    if synchronous == "NORMAL":
        assert auto == 0
        assert busy == 0 and frames > 0 and copied == frames  # the 8 actions' pages, copied back
    else:
        assert auto == 1000  # SQLite's default: each commit checkpoints when the log is long
