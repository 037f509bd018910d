"""A change message carries the log entry it announces: a second process that holds the game at the
version before applies it from the message, without reading the log back (it reads the log for an
undo, or when it has missed a version)."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from powergrid.server import Settings, create_app
from powergrid.server.fanout.pubsub import SEATS_CHANGED, _parse, message

from .conftest import auth, create
from .play import choose

pytestmark = pytest.mark.timeout(120)


@pytest.mark.parametrize("entry", [None, (0, "pass"), (2, "bid 13 27"), (5, "build Berlin Hamburg"),
                                   (1, "undo")])
def test_a_message_reads_back_as_it_was_written(entry: Any) -> None:
    assert _parse(message("g123", 42, entry)) == ("g123", 42, entry)
    assert _parse(message("g123", SEATS_CHANGED)) == ("g123", SEATS_CHANGED, None)
    assert _parse("g123 nonsense") is None


def next_state(ws: Any, version: int) -> dict[str, Any]:
    while True:
        found = ws.receive_json()
        if found["type"] == "state" and found["version"] >= version:
            return found


def test_a_watching_process_applies_announced_actions_without_reading_the_log(settings: Settings) -> None:
    if not settings.is_sqlite:
        pytest.skip("two apps in one test process share the fan-out through SQLite's notices table")
    with TestClient(create_app(settings)) as one, \
            TestClient(create_app(dataclasses.replace(settings))) as two:
        game = create(one, 2, seed=21)
        gid = game["game_id"]
        tokens = {s["seat"]: s["token"] for s in game["seats"]}
        store = two.app.state.service.store  # type: ignore[attr-defined]
        reads: list[int] = []
        read_log = store.entries_after  # the log as the cache reads it (with the entries' times)
        with two.websocket_connect(f"/api/games/{gid}/ws?seat=0") as ws:
            ws.send_json({"type": "auth", "token": tokens[0]})
            current = next_state(ws, 0)

            def counted(game_id: str, seq: int, upto: int | None = None) -> Any:
                reads.append(seq)
                return read_log(game_id, seq, upto)

            store.entries_after = counted
            rng = random.Random(4)
            for _ in range(12):
                seat = current["to_act"]
                legal = one.get(f"/api/games/{gid}/view", headers=auth(tokens[seat]),
                                params={"seat": seat}).json()["legal"]
                r = one.post(f"/api/games/{gid}/actions", headers=auth(tokens[seat]),
                             json={"seat": seat, "action": choose(legal, rng), "version": current["version"]})
                assert r.status_code == 200, r.text
                current = next_state(ws, r.json()["version"])
                assert current["version"] == r.json()["version"]
            assert reads == []  # every action came with its message
            mover = one.get(f"/api/games/{gid}").json()["last"]["seat"]
            r = one.post(f"/api/games/{gid}/undo", headers=auth(tokens[mover]),
                         json={"seat": mover, "version": current["version"]})
            assert r.status_code == 200, r.text
            next_state(ws, r.json()["version"])
            assert reads, "an undo is read from the log"
        held = two.app.state.service.cache[gid].state.to_dict()  # type: ignore[attr-defined]
        assert held == one.app.state.service.cache[gid].state.to_dict()  # type: ignore[attr-defined]
