"""Lifecycle: abandoned games expire, finished games leave memory, the cache keeps to its MB bound,
the lobby list is read once per interval."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from powergrid.server import Settings, create_app
from powergrid.server.storage import db

from .conftest import auth, create, error_code
from .play import play

pytestmark = pytest.mark.timeout(120)


def age(settings: Settings, game_id: str, seconds: float) -> None:
    engine = db.make_engine(settings.database_url)
    try:
        with engine.begin() as conn:
            conn.execute(update(db.games).where(db.games.c.id == game_id)
                         .values(updated_at=time.time() - seconds))
    finally:
        engine.dispose()


def test_abandoned_games_expire_and_finished_ones_stay(settings: Settings) -> None:
    settings = replace(settings, idle_expiry_hours=1)
    with TestClient(create_app(settings)) as client:
        service = client.app.state.service  # type: ignore[attr-defined]
        abandoned = create(client, 2, seed=1)["game_id"]
        recent = create(client, 2, seed=2)["game_id"]
        finished = create(client, 2, [{"kind": "bot", "bot": "random"}] * 2, seed=3)["game_id"]
        from .conftest import bot_worker

        with bot_worker(settings):
            deadline = time.monotonic() + 90
            while not client.get(f"/api/games/{finished}").json()["state"]["game_over"]:
                assert time.monotonic() < deadline, "the bot game did not finish"
                time.sleep(0.1)
        for gid in (abandoned, finished):
            age(settings, gid, 2 * 3600)
        gone = client.portal.call(service.expire)  # type: ignore[attr-defined]
        assert gone == [abandoned]
        assert error_code(client.get(f"/api/games/{abandoned}")) == "unknown_game"
        assert client.get(f"/api/games/{recent}").status_code == 200
        record = client.get(f"/api/games/{finished}/record")
        assert record.status_code == 200 and record.json()["actions"]


def test_a_finished_game_leaves_memory(client: TestClient) -> None:
    game = create(client, 2, [{"kind": "bot", "bot": "random"}] * 2, seed=4)
    gid = game["game_id"]
    deadline = time.monotonic() + 90
    while not client.get(f"/api/games/{gid}").json()["state"]["game_over"]:
        assert time.monotonic() < deadline
        time.sleep(0.1)
    cache = client.app.state.service.cache  # type: ignore[attr-defined]
    time.sleep(0.1)  # the last notice is applied
    assert gid not in cache
    assert client.get(f"/api/games/{gid}").json()["state"]["game_over"]  # still served, from the database


def test_the_cache_keeps_to_its_memory_bound_but_never_drops_a_watched_game(settings: Settings) -> None:
    settings = replace(settings, cache_mb=1)  # about three games
    with TestClient(create_app(settings)) as client:
        cache = client.app.state.service.cache  # type: ignore[attr-defined]
        watched = create(client, 3, seed=5)
        with client.websocket_connect(f"/api/games/{watched['game_id']}/ws") as ws:
            ws.receive_json()
            ids = [create(client, 3, seed=6 + i)["game_id"] for i in range(8)]
            assert cache.size_bytes() <= 1024 * 1024
            assert watched["game_id"] in cache and ids[-1] in cache and ids[0] not in cache
            assert client.get(f"/api/games/{ids[0]}").status_code == 200  # loaded again on demand
        after = play(client, watched, 5)
        assert after["version"] >= 5


def test_the_lobby_is_read_once_per_interval(settings: Settings) -> None:
    settings = replace(settings, lobby_cache_s=60)
    with TestClient(create_app(settings)) as client:
        store = client.app.state.service.store  # type: ignore[attr-defined]
        reads = []
        original = store.list_games
        store.list_games = lambda limit=100: reads.append(limit) or original(limit)
        game = create(client, 2, seed=9)
        for _ in range(5):
            assert [g["game_id"] for g in client.get("/api/games").json()["games"]] == [game["game_id"]]
        assert len(reads) == 1
        client.get(f"/api/games/{game['game_id']}/view", params={"seat": 0},
                   headers=auth(game["seats"][0]["token"]))  # the seat is taken: the lobby changes
        create(client, 2, seed=10)  # a new game: read again
        assert len(client.get("/api/games").json()["games"]) == 2 and len(reads) == 2
