"""Two simultaneous actions on one game: exactly one wins, in one process and across processes."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from powergrid.server import Settings, create_app
from powergrid.server.storage import db
from powergrid.server.storage.store import SeatRow, Store

from .conftest import auth, create, error_code

pytestmark = pytest.mark.timeout(120)


def count_actions(settings: Settings, game_id: str) -> int:
    engine = db.make_engine(settings.database_url)
    try:
        with engine.connect() as conn:
            return conn.execute(select(func.count()).select_from(db.actions)
                                .where(db.actions.c.game_id == game_id)).scalar_one()
    finally:
        engine.dispose()


def race(calls: list) -> list:
    """Run the calls together, released at the same moment."""
    barrier = threading.Barrier(len(calls))

    def run(call):  # type: ignore[no-untyped-def]
        barrier.wait()
        return call()

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(run, calls))


def test_simultaneous_posts_in_one_process(client: TestClient, settings: Settings) -> None:
    game = create(client, 3)
    gid = game["game_id"]
    seat = client.get(f"/api/games/{gid}").json()["to_act"]
    token = game["seats"][seat]["token"]
    bids = [f"open 3 {amount}" for amount in range(3, 11)]
    responses = race([lambda a=a: client.post(f"/api/games/{gid}/actions", headers=auth(token),
                                              json={"seat": seat, "action": a, "version": 0}) for a in bids])
    won = [r for r in responses if r.status_code == 200]
    assert len(won) == 1
    assert all(r.status_code == 409 and error_code(r) == "stale_version" for r in responses if r not in won)
    state = client.get(f"/api/games/{gid}").json()
    assert state["version"] == 1 and state["last"]["action"] == won[0].json()["last"]["action"]
    assert count_actions(settings, gid) == 1


def post_call(client: TestClient, gid: str, seat: int, token: str, action: str, version: int):  # type: ignore[no-untyped-def]
    return lambda: client.post(f"/api/games/{gid}/actions", headers=auth(token),
                               json={"seat": seat, "action": action, "version": version})


def test_simultaneous_posts_to_two_servers(settings: Settings) -> None:
    """Two app instances (as two processes would be) on one database: the unique key decides."""
    with TestClient(create_app(settings)) as a, TestClient(create_app(settings)) as b:
        game = create(a, 2)
        gid = game["game_id"]
        seat = a.get(f"/api/games/{gid}").json()["to_act"]
        token = game["seats"][seat]["token"]
        assert b.get(f"/api/games/{gid}").json()["version"] == 0  # b has it cached at version 0
        for _ in range(4):
            version = a.get(f"/api/games/{gid}").json()["version"]
            assert b.get(f"/api/games/{gid}").json()["version"] == version
            legal = a.get(f"/api/games/{gid}/view", params={"seat": seat},
                          headers=auth(token)).json()["legal"]
            calls = [post_call(c, gid, seat, token, x, version) for c, x in zip((a, b), (legal[0], legal[-1]),
                                                                                   strict=True)]
            responses = race(calls)
            codes = sorted(r.status_code for r in responses)
            assert codes == [200, 409], [r.text for r in responses]
            assert count_actions(settings, gid) == version + 1
            seat = a.get(f"/api/games/{gid}").json()["to_act"]
            token = game["seats"][seat]["token"]
        # both servers agree on the whole game
        assert a.get(f"/api/games/{gid}").json()["state"] == b.get(f"/api/games/{gid}").json()["state"]


def test_the_unique_key_lets_one_writer_take_each_number(settings: Settings) -> None:
    engines = [db.make_engine(settings.database_url) for _ in range(4)]
    try:
        db.migrate(engines[0])
        stores = [Store(e) for e in engines]
        config = {"map": "germany", "players": 2, "seed": 1, "regions": None, "variant": "standard",
                  "map_file": None}
        stores[0].create_game("g1", config, [SeatRow(0, "human", None, None, None, False),
                                             SeatRow(1, "human", None, None, None, False)], 0)
        for seq in range(1, 6):
            results = race([lambda s=s, i=i, seq=seq: s.append("g1", seq, 0, f"open 3 {i + 3}",
                                                               status="playing", round_=1, to_act=0)
                            for i, s in enumerate(stores)])
            assert results.count(True) == 1
        assert [seq for seq, _, _ in stores[1].actions_after("g1", 0)] == [1, 2, 3, 4, 5]
    finally:
        for e in engines:
            e.dispose()
