"""A real server killed with SIGKILL mid-game: after a restart every acknowledged action is there."""

from __future__ import annotations

import random
import time
from pathlib import Path

import httpx
import pytest

from powergrid.server.storage import db
from powergrid.server.storage.store import Store

from .conftest import auth
from .play import choose
from .servers import ServerProcess

pytestmark = pytest.mark.timeout(150)


@pytest.mark.long
def test_sigkill_loses_nothing_acknowledged(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/crash.db"
    log = tmp_path / "server.log"
    rng = random.Random(3)
    server = ServerProcess(url, log, POWERGRID_SNAPSHOT_EVERY="7")
    try:
        with httpx.Client(base_url=server.url, timeout=10) as http:
            human = http.post("/api/games", json={"map": "usa", "players": 3, "seed": 77, "seats": [
                {"kind": "human"}, {"kind": "human"}, {"kind": "human"}]}).json()
            bots = http.post("/api/games", json={"map": "germany", "players": 3, "seed": 5, "bot_pace_ms": 50,
                                                 "seats": [{"kind": "bot", "bot": "heuristic"}] * 3}).json()
            gid = human["game_id"]
            tokens = {s["seat"]: s["token"] for s in human["seats"]}
            acknowledged: list[str] = []
            version = 0
            for _ in range(25):
                seat = http.get(f"/api/games/{gid}").json()["to_act"]
                legal = http.get(f"/api/games/{gid}/view", params={"seat": seat},
                                 headers=auth(tokens[seat])).json()["legal"]
                action = choose(legal, rng)
                r = http.post(f"/api/games/{gid}/actions", headers=auth(tokens[seat]),
                              json={"seat": seat, "action": action, "version": version})
                assert r.status_code == 200
                acknowledged.append(action)
                version = r.json()["version"]
            before_kill = http.get(f"/api/games/{gid}").json()
            bots_before = http.get(f"/api/games/{bots['game_id']}").json()
        assert not bots_before["state"]["game_over"], "the bot game should still be running"
        server.kill()
    finally:
        server.stop()

    with ServerProcess(url, log) as again, httpx.Client(base_url=again.url, timeout=10) as http:
        after = http.get(f"/api/games/{gid}").json()
        assert after["version"] == version == len(acknowledged)
        assert after["state"] == before_kill["state"]
        logged = Store(db.make_engine(url)).actions_after(gid, 0)  # the record waits for the end
        assert [text for _seq, _seat, text in logged] == acknowledged
        # the game goes on from there
        seat = after["to_act"]
        legal = http.get(f"/api/games/{gid}/view", params={"seat": seat}, headers=auth(tokens[seat])).json()
        r = http.post(f"/api/games/{gid}/actions", headers=auth(tokens[seat]),
                      json={"seat": seat, "action": legal["legal"][0], "version": version})
        assert r.status_code == 200 and r.json()["version"] == version + 1
        # the bot game resumed by itself and plays to the end
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            state = http.get(f"/api/games/{bots['game_id']}").json()
            if state["state"]["game_over"]:
                break
            time.sleep(0.2)
        assert state["state"]["game_over"] and state["version"] > bots_before["version"]
