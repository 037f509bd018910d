"""What a hostile client tried: files named in records, huge and lax numbers, racing hints, huge headers.

Each test here failed on the code before the fix it names (issue: holes a hostile user found).
"""

from __future__ import annotations

import json
import socket
import threading
import time
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import powergrid as pg
from powergrid.server.coach import coach_store
from powergrid.server.coach.coach_jobs import hint_job

from .conftest import auth, create, error_code
from .servers import ServerProcess


def germany_data() -> dict[str, Any]:
    return json.loads(resources.files("powergrid.rules.data").joinpath("germany.json").read_text("utf-8"))


def record(config: dict[str, Any], actions: list[str] | None = None) -> dict[str, Any]:
    return {"record": {"config": config, "actions": actions or []}}


# ---------------------------------------------------------------- records and configs never name a file
@pytest.mark.parametrize("path", ["/etc/passwd", "/etc/shadow", "/dev/zero", "/nonexistent/map.json", "/tmp",
                                  "src/powergrid/rules/data/germany.json"])
def test_a_posted_record_naming_a_file_is_refused_without_reading_it(client: TestClient, path: str) -> None:
    r = client.post("/api/replay", json=record({"map": "germany", "players": 2, "seed": 1, "map_file": path}))
    assert r.status_code == 422 and error_code(r) == "invalid_record"
    message = r.json()["error"]["message"]
    # the same words whatever the path: no oracle of what exists or what it holds
    assert path not in message and "map_file is not accepted" in message
    for leak in ("No such file", "Is a directory", "not valid JSON", "Permission"):
        assert leak not in message


def test_creating_a_game_may_not_name_a_file(client: TestClient) -> None:
    r = client.post("/api/games", json={"players": 2, "map_file": "/etc/passwd"})
    assert r.status_code in (400, 422) and "map_file" in r.text


def test_a_custom_map_arrives_as_data_validated_and_bounded(client: TestClient) -> None:
    data = germany_data()
    game = create(client, players=3, map_data=data)
    state = client.get(f"/api/games/{game['game_id']}").json()
    assert state["version"] == 0
    # the record replays from its own data
    r = client.post("/api/replay", json=record({"map": "germany", "players": 2, "seed": 1, "map_data": data}))
    assert r.status_code == 200, r.text
    # an invalid map is named
    broken = dict(data, connections=[["Nowhere", "Essen", 5]])
    r = client.post("/api/games", json={"players": 2, "seed": 1, "map_data": broken,
                                        "seats": [{"kind": "human"}] * 2})
    assert r.status_code == 422 and error_code(r) == "invalid_config" and "Nowhere" in r.text
    # and a huge one is refused before it is looked at
    huge = dict(data, padding="x" * (pg.MAX_MAP_DATA_BYTES + 1))
    r = client.post("/api/replay", json=record({"map": "germany", "players": 2, "seed": 1, "map_data": huge}))
    assert r.status_code in (413, 422)


def test_the_engine_reads_files_only_when_asked_to() -> None:
    config = {"map": "germany", "players": 2, "seed": 1, "map_file": "/etc/passwd"}
    with pytest.raises(pg.InvalidConfig):
        pg.GameConfig.from_dict(config, map_files=False)
    as_data = pg.GameConfig(players=3, seed=4, map_data=germany_data())
    again = pg.GameConfig.from_dict(json.loads(json.dumps(as_data.to_dict())), map_files=False)
    assert again == as_data and hash(again) == hash(as_data)
    game = pg.new_game(again)
    assert pg.GameState.from_dict(json.loads(json.dumps(game.to_dict()))).to_dict() == game.to_dict()
    with pytest.raises(pg.InvalidMap):
        pg.GameConfig(map_data=[1, 2, 3])  # type: ignore[arg-type]


# ---------------------------------------------------------------- numbers: bounded, strict
def test_a_seat_of_thousands_of_digits_is_a_named_refusal(client: TestClient) -> None:
    game = create(client, players=2)
    token = game["seats"][0]["token"]
    for seat in ("9" * 4301, "0" * 5001 + "1", "9" * 40):
        r = client.get(f"/api/games/{game['game_id']}/view?seat={seat}", headers=auth(token))
        assert 400 <= r.status_code < 500, (seat[:10], r.status_code, r.text)
        assert "error" in r.json()
    r = client.post(f"/api/games/{game['game_id']}/seats/{'9' * 4301}/claim")
    assert 400 <= r.status_code < 500


@pytest.mark.parametrize("field,value", [("version", "0"), ("version", True), ("seat", "0"), ("seat", 0.0),
                                         ("seat", False)])
def test_numbers_are_strict_and_a_lax_one_changes_nothing(client: TestClient, field: str, value: Any) -> None:
    game = create(client, players=2)
    gid, token = game["game_id"], game["seats"][0]["token"]
    view = client.get(f"/api/games/{gid}/view?seat=0", headers=auth(token)).json()
    action = (view["legal"] or ["pass"])[0]
    body: dict[str, Any] = {"seat": 0, "action": action, "version": 0}
    body[field] = value
    r = client.post(f"/api/games/{gid}/actions", headers=auth(token), json=body)
    assert r.status_code == 400 and error_code(r) == "malformed_request", r.text
    undo = {"seat": 0, "version": 0}
    undo[field] = value
    r = client.post(f"/api/games/{gid}/undo", headers=auth(token), json=undo)
    assert r.status_code == 400 and error_code(r) == "malformed_request", r.text
    assert client.get(f"/api/games/{gid}").json()["version"] == 0


def test_a_player_count_as_a_string_creates_nothing(client: TestClient) -> None:
    before = len(client.get("/api/games").json()["games"])
    for players in ("4", 4.0, True):
        r = client.post("/api/games", json={"players": players})
        assert r.status_code == 422 and error_code(r) == "invalid_config", r.text
    assert len(client.get("/api/games").json()["games"]) == before


# ---------------------------------------------------------------- hints asked at once
def test_simultaneous_hint_requests_count_once_and_never_fail(client: TestClient) -> None:
    game = create(client, players=2)
    engine = client.app.state.service.store.engine  # type: ignore[attr-defined]
    gid = game["game_id"]
    for version in range(4):  # a few rounds of the race, each at its own version
        barrier = threading.Barrier(10)
        answers: list[Any] = []

        def ask(version: int = version, barrier: threading.Barrier = barrier,
                answers: list[Any] = answers) -> None:
            barrier.wait()
            try:
                answers.append(coach_store.request_hint(engine, gid, 0, version, 50,
                                                        hint_job(gid, 0, version)))
            except Exception as exc:  # the old check-then-insert raised IntegrityError here
                answers.append(exc)

        threads = [threading.Thread(target=ask) for _ in range(10)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert sorted(map(repr, answers)) == ["False"] * 9 + ["True"], answers
    assert coach_store.hints_used(engine, gid) == {0: 4}


# ---------------------------------------------------------------- headers: bounded in bytes and count
def _exchange(port: int, data: bytes, pause: float = 0.0, chunk: int = 1 << 16) -> bytes:
    """Send ``data`` (in chunks, ``pause`` apart) and read what comes back until the server closes."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    got = b""
    with sock:
        try:
            for start in range(0, len(data), chunk):
                sock.sendall(data[start:start + chunk])
                if pause:
                    time.sleep(pause)
        except OSError:
            pass  # cut while sending: what it answered is read below
        try:
            while True:
                part = sock.recv(65536)
                if not part:
                    break
                got += part
                if b"\r\n\r\n" in got and b"connection: close" not in got.lower():
                    break
        except OSError:
            pass
    return got


def _rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def test_large_slow_and_numerous_headers_are_refused_at_a_bounded_cost(tmp_path: Path) -> None:
    with ServerProcess(f"sqlite:///{tmp_path}/h.db", tmp_path / "server.log",
                       POWERGRID_HEADER_TIMEOUT="30") as server:
        port = server.port
        ok = _exchange(port, b"GET /api/maps HTTP/1.1\r\nHost: p\r\nX-Fine: " + b"a" * 8000 +
                       b"\r\nConnection: close\r\n\r\n")
        assert ok.startswith(b"HTTP/1.1 200"), ok[:200]
        rss = _rss_kb(server.proc.pid)
        # one header of 32 MB: answered 431 long before it is all sent
        huge = b"GET /api/maps HTTP/1.1\r\nHost: p\r\nX-Big: " + b"a" * (32 << 20) + b"\r\n\r\n"
        answer = _exchange(port, huge)
        assert answer.startswith(b"HTTP/1.1 431") and b"headers_too_large" in answer, answer[:200]
        # headers trickled from several connections at once: each is cut at the limit
        trickle = b"GET /api/maps HTTP/1.1\r\nHost: p\r\nX-Slow: " + b"b" * (256 << 10)
        results: list[bytes] = []
        threads = [threading.Thread(target=lambda: results.append(_exchange(port, trickle, 0.01, 4096)))
                   for _ in range(10)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert len(results) == 10 and all(r.startswith(b"HTTP/1.1 431") for r in results), results
        # too many headers
        many = b"GET /api/maps HTTP/1.1\r\nHost: p\r\n" + b"".join(b"X-%d: 1\r\n" % i for i in range(500))
        answer = _exchange(port, many + b"\r\n")
        assert answer.startswith(b"HTTP/1.1 431"), answer[:200]
        assert _rss_kb(server.proc.pid) - rss < 40_000  # kB: nowhere near the 32 MB sent
        # a large body after small headers is a body, not a head: still served
        body = json.dumps(record({"map": "germany", "players": 2, "seed": 1}, ["pass"] * 20000)).encode()
        post = (b"POST /api/replay HTTP/1.1\r\nHost: p\r\nContent-Type: application/json\r\n"
                b"Connection: close\r\nContent-Length: %d\r\n\r\n" % len(body)) + body
        answer = _exchange(port, post)
        assert answer.startswith(b"HTTP/1.1 4") and b"431" not in answer.split(b"\r\n")[0], answer[:200]
