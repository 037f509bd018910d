"""Two server processes on one PostgreSQL database: an action posted to one reaches a WebSocket
client of the other within a second (LISTEN/NOTIFY, or Redis pub/sub when configured)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from .conftest import auth, error_code
from .servers import ServerProcess

pytestmark = pytest.mark.timeout(120)

REDIS = "redis://127.0.0.1:6379/0"


def redis_reason() -> str | None:
    try:
        import redis

        redis.Redis.from_url(REDIS, socket_connect_timeout=2).ping()
        return None
    except Exception as exc:
        return f"Redis at {REDIS} is unreachable: {exc}"


@pytest.mark.parametrize("fanout", ["notify", "redis"])
def test_action_on_one_server_reaches_a_socket_on_the_other(pg_url: str, tmp_path: Path, fanout: str) -> None:
    env = {}
    if fanout == "redis":
        reason = redis_reason()
        if reason:
            pytest.skip(reason)
        env["POWERGRID_REDIS_URL"] = REDIS
    with ServerProcess(pg_url, tmp_path / "a.log", **env) as a, \
            ServerProcess(pg_url, tmp_path / "b.log", **env) as b:
        game = httpx.post(a.url + "/api/games", json={"players": 2, "seed": 4, "seats": [
            {"kind": "human"}, {"kind": "human"}]}).json()
        gid = game["game_id"]
        tokens = {s["seat"]: s["token"] for s in game["seats"]}
        ws_url = b.url.replace("http", "ws") + f"/api/games/{gid}/ws"
        with connect(ws_url) as ws:
            pushed = json.loads(ws.recv(timeout=10))
            assert pushed["version"] == 0
            version = 0
            for _ in range(5):
                seat = pushed["to_act"]
                legal = httpx.get(a.url + f"/api/games/{gid}/view", params={"seat": seat},
                                  headers=auth(tokens[seat])).json()["legal"]
                r = httpx.post(a.url + f"/api/games/{gid}/actions", headers=auth(tokens[seat]),
                               json={"seat": seat, "action": legal[0], "version": version})
                assert r.status_code == 200
                pushed = json.loads(ws.recv(timeout=1.0))  # on the other process, within a second
                version += 1
                assert pushed["type"] == "state" and pushed["version"] == version
                assert pushed["last"]["action"] == legal[0]
        # and b serves the game as a does
        assert httpx.get(b.url + f"/api/games/{gid}").json()["state"] == \
            httpx.get(a.url + f"/api/games/{gid}").json()["state"]


def test_an_open_seat_taken_on_one_server_is_taken_on_the_other(pg_url: str, tmp_path: Path) -> None:
    with ServerProcess(pg_url, tmp_path / "a.log") as a, ServerProcess(pg_url, tmp_path / "b.log") as b:
        game = httpx.post(a.url + "/api/games", json={"players": 2, "public": True, "seats": [
            {"kind": "human"}, {"kind": "human", "open": True}]}).json()
        gid = game["game_id"]
        assert httpx.get(a.url + f"/api/games/{gid}").status_code == 200  # a has it in memory
        claimed = httpx.post(b.url + f"/api/games/{gid}/seats/1/claim").json()
        codes = []
        for _ in range(50):  # the NOTIFY arrives within milliseconds; allow for a busy machine
            r = httpx.get(a.url + f"/api/games/{gid}/view", params={"seat": 1},
                          headers=auth(claimed["token"]))
            codes.append(r.status_code)
            if r.status_code == 200:
                break
            time.sleep(0.1)
        assert codes[-1] == 200
        r = httpx.post(a.url + f"/api/games/{gid}/seats/1/claim")
        assert r.status_code == 409 and error_code(r) == "seat_taken"
        # the creator's link seat was never in question
        r = httpx.get(a.url + f"/api/games/{gid}/view", params={"seat": 0},
                      headers=auth(game["seats"][0]["token"]))
        assert r.status_code == 200
