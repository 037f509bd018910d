"""``db.sqlite_write``: a write that finds SQLite's lock taken looks again every millisecond (SQLite's
own wait sleeps longer and longer), gives up at the busy timeout, and leaves its connection as it
found it."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import Engine, insert, select
from sqlalchemy.exc import OperationalError

from powergrid.server.storage import db

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def engine(tmp_path: Path) -> Engine:
    engine = db.make_engine(f"sqlite:///{tmp_path}/games.db")
    db.migrate(engine)
    yield engine
    engine.dispose()


def _notice(message: str) -> dict[str, object]:
    return {"message": message, "at": time.time()}


def _hold_the_lock(engine: Engine, taken: threading.Event, release: threading.Event) -> None:
    with engine.begin() as conn:
        conn.execute(insert(db.notices), _notice("holder"))  # the write lock is ours until commit
        taken.set()
        release.wait(10)


def test_a_write_waits_for_the_lock_and_then_commits(engine: Engine) -> None:
    taken, release = threading.Event(), threading.Event()
    holder = threading.Thread(target=_hold_the_lock, args=(engine, taken, release))
    holder.start()
    assert taken.wait(10)
    threading.Timer(0.2, release.set).start()
    done = db.sqlite_write(engine, lambda conn: conn.execute(insert(db.notices), _notice("waiter")).rowcount)
    holder.join()
    assert done == 1
    with engine.connect() as conn:
        assert sorted(r.message for r in conn.execute(select(db.notices))) == ["holder", "waiter"]
        # the connection's busy timeout is back to the engine's for whoever uses it next
        driver = conn.connection.driver_connection
        assert driver.execute("PRAGMA busy_timeout").fetchone()[0] == db.SQLITE_BUSY_TIMEOUT_MS


def test_a_write_gives_up_at_the_busy_timeout_and_writes_nothing(engine: Engine,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(db, "SQLITE_BUSY_TIMEOUT_MS", 300)
    taken, release = threading.Event(), threading.Event()
    holder = threading.Thread(target=_hold_the_lock, args=(engine, taken, release))
    holder.start()
    assert taken.wait(10)
    try:
        with pytest.raises(OperationalError, match="locked|busy"):
            db.sqlite_write(engine, lambda conn: conn.execute(insert(db.notices), _notice("waiter")))
    finally:
        release.set()
        holder.join()
    with engine.connect() as conn:
        assert [r.message for r in conn.execute(select(db.notices))] == ["holder"]


def test_an_error_that_is_not_the_lock_is_raised_at_once(engine: Engine) -> None:
    calls = []

    def failing(conn: object) -> None:
        calls.append(1)
        raise OperationalError("SELECT", {}, Exception("no such table: nowhere"))

    with pytest.raises(OperationalError, match="no such table"):
        db.sqlite_write(engine, failing)
    assert calls == [1]  # tried once
