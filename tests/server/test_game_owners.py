"""`powergrid serve --workers 2`: every request that names a game is answered by that game's one
owner process (server/owners.py), whichever process accepted its connection; a connection handed
over keeps working; when an owner is gone the other process answers its games."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import time
import zlib
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from powergrid.server.fanout.owners import ABSENT_S, Owners, requested_game

from .conftest import auth
from .servers import ServerProcess

pytestmark = pytest.mark.timeout(120)

PID = "x-powergrid-process"


def test_a_request_line_names_its_game() -> None:
    assert requested_game(b"POST /api/games/abc-_9/actions HTTP/1.1\r\nHost: x\r\n") == "abc-_9"
    assert requested_game(b"GET /api/games/abc/ws?seat=1 HTTP/1.1\r\n") == "abc"
    assert requested_game(b"GET /game/abc HTTP/1.1\r\n") == "abc"
    assert requested_game(b"GET /api/games/abc HTTP/1.1\r\n") == "abc"
    assert requested_game(b"GET /api/games HTTP/1.1\r\n") is None  # the lobby
    assert requested_game(b"POST /api/games HTTP/1.1\r\n") is None
    assert requested_game(b"GET /api/games/abc/view HTTP/1.1") is None  # the line has not ended
    assert requested_game(b"GET /api/games/a%20b/view HTTP/1.1\r\n") is None  # no such id
    assert requested_game(b"GET /api/server/stats HTTP/1.1\r\n") is None


def test_connections_handed_to_an_owner_as_it_closes_are_passed_on_not_dropped(tmp_path: Path) -> None:
    """A process that leaves (a restart, a scale-down) stops taking connections, and those already
    queued for it go to another process instead of being closed unanswered."""
    adopted: dict[int, list[tuple[socket.socket, bytes]]] = {0: [], 1: []}
    first = Owners(tmp_path, 2, lambda conn, data: adopted[0].append((conn, data)))
    second = Owners(tmp_path, 2, lambda conn, data: adopted[1].append((conn, data)))
    assert (first.index, second.index) == (0, 1)
    game_id = next(g for g in (f"game{i}" for i in range(100)) if owner_index(g) == 0)
    ours, theirs = socket.socketpair()
    request = f"GET /api/games/{game_id} HTTP/1.1\r\n\r\n".encode()
    try:
        assert second.hand_over(ours.fileno(), request, game_id)  # queued for the game's owner...
        ours.close()  # ...and the sender's copy dropped
        first.close()  # ...which leaves before it reads it
        assert first.passed_on == 1 and adopted[0] == []
        second.receive()
        [(conn, data)] = adopted[1]
        assert data == request
        conn.sendall(b"answered")  # the connection is still open, and now here
        assert theirs.recv(16) == b"answered"
        conn.close()
        # nothing more is handed to the one that left: the other answers its games itself
        spare, _ = socket.socketpair()
        assert not second.hand_over(spare.fileno(), request, game_id)
        spare.close()
    finally:
        theirs.close()
        second.close()


def owner_index(game_id: str) -> int:
    return zlib.crc32(game_id.encode()) % 2


def pids_by_index(url: str) -> dict[int, int]:
    """Each web process's place among the owners, once both have one (each takes it with its
    first connection)."""
    seen: dict[int, int] = {}
    deadline = time.monotonic() + 30
    while len(seen) < 2 and time.monotonic() < deadline:
        stats = httpx.get(url + "/api/server/stats", timeout=5).json()
        if stats["owners"] and stats["owners"]["index"] is not None:
            seen[stats["owners"]["index"]] = stats["pid"]
    assert len(seen) == 2, seen
    return seen


def new_game(url: str) -> dict:
    r = httpx.post(url + "/api/games", json={"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert r.status_code == 201, r.text
    return r.json()


def games_of_both(url: str) -> list[dict]:
    """Games until each process owns at least two."""
    games: list[dict] = []
    while min(sum(owner_index(g["game_id"]) == i for g in games) for i in (0, 1)) < 2:
        games.append(new_game(url))
    return games


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    with ServerProcess(f"sqlite:///{tmp_path}/owners.db", tmp_path / "serve.log", workers=2,
                       POWERGRID_PROCESS_HEADER="1", POWERGRID_BOT_WORKERS="0",
                       POWERGRID_SEARCH_WORKERS="0") as running:
        yield running


def test_each_game_is_answered_by_its_owner(server: ServerProcess) -> None:
    owners = pids_by_index(server.url)
    for game in games_of_both(server.url):
        gid, owner = game["game_id"], owners[owner_index(game["game_id"])]
        token = game["seats"][0]["token"]
        for _ in range(4):  # new connections, accepted by either process
            assert int(httpx.get(f"{server.url}/api/games/{gid}").headers[PID]) == owner
            r = httpx.get(f"{server.url}/api/games/{gid}/view", params={"seat": 0}, headers=auth(token))
            assert r.status_code == 200 and int(r.headers[PID]) == owner
            assert int(httpx.get(f"{server.url}/game/{gid}").headers[PID]) == owner
            with connect(server.url.replace("http", "ws") + f"/api/games/{gid}/ws") as ws:
                assert int(ws.response.headers[PID]) == owner
                assert json.loads(ws.recv(timeout=10))["version"] == 0
        seat = r.json()["to_act"]
        token = game["seats"][seat]["token"]
        legal = httpx.get(f"{server.url}/api/games/{gid}/view", params={"seat": seat},
                          headers=auth(token)).json()["legal"]
        r = httpx.post(f"{server.url}/api/games/{gid}/actions", headers=auth(token),
                       json={"seat": seat, "action": legal[0], "version": 0})
        assert r.status_code == 200 and int(r.headers[PID]) == owner


def test_a_connection_goes_on_with_each_request_at_its_games_owner(server: ServerProcess) -> None:
    owners = pids_by_index(server.url)
    games = games_of_both(server.url)
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        conn.connect()
        first = conn.sock.getsockname()
        for round_ in range(3):
            for game in games:  # the games of both owners, one after another on one connection
                gid = game["game_id"]
                conn.request("GET", f"/api/games/{gid}/view?seat=1",
                             headers={"Authorization": f"Bearer {game['seats'][1]['token']}"})
                answer = conn.getresponse()
                body = json.loads(answer.read())
                assert answer.status == 200 and body["version"] == 0, (round_, body)
                assert int(answer.headers[PID]) == owners[owner_index(gid)]
                assert conn.sock.getsockname() == first  # the same connection all along
        # a request that names no game is answered wherever the connection is
        conn.request("GET", "/api/maps")
        answer = conn.getresponse()
        assert answer.status == 200 and answer.read()
        assert conn.sock.getsockname() == first
    finally:
        conn.close()
    handed = [httpx.get(server.url + "/api/server/stats").json() for _ in range(8)]
    assert any(s["owners"]["handed"] for s in handed) and any(s["owners"]["adopted"] for s in handed)


def test_when_an_owner_is_gone_the_other_process_answers_its_games(server: ServerProcess) -> None:
    owners = pids_by_index(server.url)
    games = games_of_both(server.url)
    os.kill(owners[0], signal.SIGKILL)
    for _ in range(3):
        for game in games:
            gid = game["game_id"]
            r = httpx.get(f"{server.url}/api/games/{gid}/view", params={"seat": 0},
                          headers=auth(game["seats"][0]["token"]), timeout=10)
            assert r.status_code == 200, r.text
            assert int(r.headers[PID]) != owners[0]
            if owner_index(gid) == 1:
                assert int(r.headers[PID]) == owners[1]
    # uvicorn starts another process in its place, which becomes the owner of the dead one's games
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        stats = httpx.get(server.url + "/api/server/stats", timeout=5).json()
        if stats["pid"] not in owners.values() and stats["owners"]["index"] == 0:
            break
    else:
        pytest.fail("no process took the dead owner's place")
    # ...once the other has stopped counting the place as empty (it looks again after ABSENT_S)
    again = next(g for g in games if owner_index(g["game_id"]) == 0)
    deadline = time.monotonic() + ABSENT_S + 10
    while True:
        r = httpx.get(f"{server.url}/api/games/{again['game_id']}")
        assert r.status_code == 200
        if int(r.headers[PID]) == stats["pid"] or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert int(r.headers[PID]) == stats["pid"]
