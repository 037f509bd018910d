"""PostgreSQL's pooled connections: tested before use only after lying idle, and replaced when dead."""

from __future__ import annotations

import time

import pytest
import sqlalchemy as sa

from powergrid.server.storage import db

from .conftest import PG_BASE, needs_postgres

pytestmark = needs_postgres


def _statements(engine: sa.Engine) -> list[str]:
    seen: list[str] = []
    sa.event.listen(engine, "before_cursor_execute", lambda _c, _cur, statement, *_: seen.append(statement))
    return seen


def test_a_connection_in_steady_use_is_not_tested_before_each_transaction() -> None:
    engine = db.make_engine(PG_BASE)
    try:
        seen = _statements(engine)
        for i in range(5):
            with engine.connect() as conn:
                conn.execute(sa.text(f"SELECT {i}"))
        assert seen == [f"SELECT {i}" for i in range(5)]  # no ping between them
    finally:
        engine.dispose()


def test_a_connection_that_died_while_idle_is_replaced_before_use(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(db, "IDLE_PING_S", 0.05)
    engine = db.make_engine(PG_BASE)
    killer = sa.create_engine(PG_BASE)
    try:
        with engine.connect() as conn:
            pid = conn.execute(sa.text("SELECT pg_backend_pid()")).scalar()
        with killer.connect() as conn:  # what a restart of PostgreSQL does to every pooled connection
            assert conn.execute(sa.text(f"SELECT pg_terminate_backend({pid})")).scalar()
        time.sleep(0.1)
        with engine.connect() as conn:
            assert conn.execute(sa.text("SELECT pg_backend_pid()")).scalar() != pid
    finally:
        engine.dispose()
        killer.dispose()
