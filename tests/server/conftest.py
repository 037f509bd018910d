"""Fixtures: the server app on SQLite and on PostgreSQL (a fresh schema per test), helpers."""

from __future__ import annotations

import os
import secrets
import socket
import threading
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

warnings.filterwarnings("ignore", message=".*httpx.*")
# apps started inside the test process keep CPython's collector as it is: freezing (collector.py)
# would keep every earlier test's objects for good; server processes the tests start use the default
os.environ["POWERGRID_GC_THRESHOLD"] = "0"
# bots answer a person after their pace alone, as they did before the undo window: the tests drive
# games as fast as they can (test_undo_window.py sets its own window; so may a test's server)
os.environ["POWERGRID_UNDO_WINDOW_MS"] = "0"

from fastapi.testclient import TestClient  # noqa: E402

from powergrid.server import Settings, create_app  # noqa: E402
from powergrid.server.common.limits import Limits  # noqa: E402

PG_BASE = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def postgres_reason() -> str | None:
    """None if the PostgreSQL server answers, else why the PostgreSQL runs are skipped."""
    try:
        import psycopg

        with psycopg.connect("postgresql://postgres@127.0.0.1:5432/test", connect_timeout=3):
            return None
    except Exception as exc:  # no server, no driver, refused login...
        return f"PostgreSQL at 127.0.0.1:5432/test is unreachable: {exc}"


_PG_REASON = postgres_reason()
needs_postgres = pytest.mark.skipif(_PG_REASON is not None, reason=_PG_REASON or "")


def pg_schema_url() -> Iterator[str]:
    """A SQLAlchemy URL whose connections live in a new schema; the schema is dropped afterwards."""
    import psycopg

    schema = "t_" + secrets.token_hex(6)
    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/test", autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield f"{PG_BASE}?options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect("postgresql://postgres@127.0.0.1:5432/test", autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=needs_postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/games.db"
    else:
        yield from pg_schema_url()


@pytest.fixture
def pg_url() -> Iterator[str]:
    if _PG_REASON is not None:
        pytest.skip(_PG_REASON)
    yield from pg_schema_url()


@pytest.fixture
def settings(database_url: str) -> Settings:
    # the tests drive games as fast as they can from one address: no request rate (test_limits tests it)
    return Settings(database_url=database_url, redis_url=None, snapshot_every=20, bot_pace_ms=0,
                    poll_ms=10, idle_expiry_hours=0, limits=Limits(requests_per_second=0))


@contextmanager
def bot_worker(settings: Settings, lanes: tuple[str, ...] = ("search", "quick")) -> Iterator[Any]:
    """A bot worker in a thread of the test process (the server starts processes; a thread is
    enough to play the jobs here)."""
    from powergrid.server.bots.bot_worker import BotWorker

    worker = BotWorker(settings, list(lanes), name="test-worker")
    stop = threading.Event()
    thread = threading.Thread(target=worker.run, args=(stop,), daemon=True)
    thread.start()
    try:
        yield worker
    finally:
        stop.set()
        worker.bell.ring()
        thread.join(30)
        worker.bell.close()
        worker.engine.dispose()


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as c, bot_worker(settings):
        yield c


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client: TestClient, players: int = 3, seats: list[dict[str, Any]] | None = None,
           seed: int = 11, **extra: Any) -> dict[str, Any]:
    body = {"map": "germany", "players": players, "seed": seed,
            "seats": seats if seats is not None else [{"kind": "human"}] * players, **extra}
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def error_code(response: Any) -> str:
    return response.json()["error"]["code"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def hidden_lists(state: Any) -> list[list[int]]:
    """The secret parts of a true state: the unknown deck order and the removed plants."""
    view = state.view(0)
    known = len(view.deck_top_known) + len(view.deck_bottom_known)
    out = []
    if len(state.deck) - known >= 2:
        out.append(list(state.deck))
    if len(state.removed) >= 1:
        out.append(list(state.removed))
    return out


def assert_no_secrets(payload: Any, state: Any) -> None:
    """No list in the payload equals the true deck or removed plants, no seed is sent, and every
    deck card the view cannot know is -1."""
    secrets_ = hidden_lists(state)

    def walk(x: Any, path: str) -> None:
        if isinstance(x, dict):
            assert "seed" not in x, f"a seed is sent at {path}"
            assert "rng" not in x, f"the generator is sent at {path}"
            for k, v in x.items():
                walk(v, f"{path}.{k}")
        elif isinstance(x, list):
            assert x not in secrets_ or not x, f"a hidden card list is sent at {path}: {x}"
            for i, v in enumerate(x):
                walk(v, f"{path}[{i}]")

    walk(payload, "$")
    s = payload.get("state", payload)
    if "removed" in s:
        assert all(p == -1 for p in s["removed"])
    if "deck" in s:
        deck = s["deck"]
        assert len(deck) == len(state.deck)
        view = state.view(0)
        top, bottom = len(view.deck_top_known), len(view.deck_bottom_known)
        for i, card in enumerate(deck):
            if not (i < bottom or i >= len(deck) - top or state.deck[i] == 99):
                assert card == -1, f"deck slot {i} revealed"


def true_state(client: TestClient, game_id: str) -> Any:
    """The server's true state of a game (finished games leave the cache: then from the database)."""
    service = client.app.state.service  # type: ignore[attr-defined]
    live = service.cache.get(game_id)
    if live is not None:
        return live.state
    from powergrid.server.games.snapshots import load_frames

    return load_frames(service.store, service.store.game(game_id))[-1].state


def run_migration(engine: Any, step: str, target: str) -> None:
    """Alembic's ``upgrade`` or ``downgrade`` (``step``) of the server's migrations to ``target``."""
    from alembic import command
    from alembic.config import Config

    from powergrid.server.storage import db

    cfg = Config()
    cfg.set_main_option("script_location", str(db.MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        getattr(command, step)(cfg, target)
