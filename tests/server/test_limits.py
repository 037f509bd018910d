"""Every per-client limit and its named error (429 with Retry-After), and who counts as a client."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update
from starlette.websockets import WebSocketDisconnect

from powergrid.server import Settings, create_app
from powergrid.server.common.clients import ClientAddresses
from powergrid.server.common.limits import Limits
from powergrid.server.storage import db

from .conftest import bot_worker, error_code

pytestmark = pytest.mark.timeout(120)

PROXY = "10.0.0.1"
HUMANS = [{"kind": "human"}, {"kind": "human"}]
WITH_BOT = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
ALL_BOTS = [{"kind": "bot", "bot": "random"}] * 2


@contextmanager
def server(database_url: str, lanes: tuple[str, ...] = ("search", "quick"), **limits: object
           ) -> Iterator[TestClient]:
    """The app with these limits (the rest off), reached through a trusted proxy at PROXY, and a bot
    worker on these lanes."""
    values: dict[str, object] = {"games_per_minute": 0, "server_games_per_minute": 0, "active_games": 0,
                                 "bot_games": 0, "requests_per_second": 0, "sockets_per_client": 0,
                                 "messages_per_second": 0, "analyses_per_client": 0, "analysis_queue": 0,
                                 "trusted_proxies": [PROXY], **limits}
    settings = Settings(database_url=database_url, redis_url=None, limits=Limits(**values))  # type: ignore[arg-type]
    with TestClient(create_app(settings), client=(PROXY, 40000)) as client, bot_worker(settings, lanes):
        yield client


def as_client(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


def new_game(client: TestClient, address: str, seats: list[dict] = HUMANS) -> object:
    return client.post("/api/games", json={"players": len(seats), "seats": seats}, headers=as_client(address))


def assert_429(response: object, code: str, most: int = 60) -> int:
    assert response.status_code == 429, response.text  # type: ignore[attr-defined]
    assert error_code(response) == code
    retry = int(response.headers["Retry-After"])  # type: ignore[attr-defined]
    assert 1 <= retry <= most and response.json()["error"]["retry_after"] == retry  # type: ignore[attr-defined]
    return retry


def wait_over(client: TestClient, gid: str, limit: float = 60) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if client.get(f"/api/games/{gid}").json()["state"]["game_over"]:
            return
        time.sleep(0.05)
    raise AssertionError("the bot game did not finish")


# ------------------------------------------------------------------ games
def test_games_per_minute(database_url: str) -> None:
    with server(database_url, games_per_minute=3) as client:
        for _ in range(3):
            assert new_game(client, "203.0.113.5").status_code == 201
        r = new_game(client, "203.0.113.5")
        assert_429(r, "creation_rate_limited")
        assert "3 new games a minute" in r.json()["error"]["message"]
        assert len(client.get("/api/games").json()["games"]) == 3  # nothing was created
        assert new_game(client, "203.0.113.6").status_code == 201  # another client is not affected
        # a minute later the client may create games again
        with client.app.state.service.store.engine.begin() as conn:  # type: ignore[attr-defined]
            conn.execute(update(db.games).values(created_at=datetime.now(UTC) - timedelta(seconds=61)))
        assert new_game(client, "203.0.113.5").status_code == 201


def test_games_per_minute_for_the_whole_server(database_url: str) -> None:
    with server(database_url, server_games_per_minute=3) as client:
        for n in range(3):
            assert new_game(client, f"203.0.113.{n}").status_code == 201
        assert_429(new_game(client, "203.0.113.9"), "server_busy")


def test_active_games_per_client(database_url: str) -> None:
    with server(database_url, active_games=2) as client:
        first = new_game(client, "203.0.113.5", ALL_BOTS).json()
        assert new_game(client, "203.0.113.5").status_code == 201
        assert_429(new_game(client, "203.0.113.5"), "active_games_limit")
        assert new_game(client, "203.0.113.7").status_code == 201
        wait_over(client, first["game_id"])  # a finished game no longer counts
        assert new_game(client, "203.0.113.5").status_code == 201


def test_bot_games_per_client(database_url: str) -> None:
    with server(database_url, bot_games=1) as client:
        assert new_game(client, "203.0.113.5", WITH_BOT).status_code == 201
        r = new_game(client, "203.0.113.5", ALL_BOTS)
        assert_429(r, "bot_games_limit")
        assert new_game(client, "203.0.113.5", HUMANS).status_code == 201  # games without bots still may be
        assert new_game(client, "203.0.113.8", WITH_BOT).status_code == 201


def test_ipv6_clients_count_by_their_64_network(database_url: str) -> None:
    with server(database_url, games_per_minute=1) as client:
        assert new_game(client, "2001:db8:1:2::1").status_code == 201
        assert_429(new_game(client, "2001:db8:1:2::ffff"), "creation_rate_limited")
        assert new_game(client, "2001:db8:1:3::1").status_code == 201


# ------------------------------------------------------------------ requests
def test_requests_per_second(database_url: str) -> None:
    with server(database_url, requests_per_second=0.5, request_burst=3) as client:
        for _ in range(3):
            assert client.get("/api/maps", headers=as_client("198.51.100.1")).status_code == 200
        r = client.get("/api/maps", headers=as_client("198.51.100.1"))
        assert assert_429(r, "rate_limited", most=2) >= 1
        assert client.get("/api/maps", headers=as_client("198.51.100.2")).status_code == 200


def test_a_client_cannot_pose_as_another_without_a_trusted_proxy(database_url: str) -> None:
    settings = Settings(database_url=database_url, redis_url=None,
                        limits=Limits(games_per_minute=1, requests_per_second=0))
    with TestClient(create_app(settings), client=("198.51.100.9", 1)) as client:
        assert new_game(client, "203.0.113.1").status_code == 201
        assert_429(new_game(client, "203.0.113.2"), "creation_rate_limited")  # the header is ignored


def test_limits_off() -> None:
    assert not Limits(enabled=False).on(5) and Limits(enabled=True).on(5) and not Limits(enabled=True).on(0)


def test_client_addresses_behind_proxies() -> None:
    addresses = ClientAddresses(["10.0.0.0/8", "192.0.2.1"], "x-forwarded-for")

    def scope(peer: str, header: str | None) -> dict:
        headers = [(b"x-forwarded-for", header.encode())] if header is not None else []
        return {"client": (peer, 1), "headers": headers}

    assert addresses.of_scope(scope("10.1.1.1", "203.0.113.4")) == "203.0.113.4"
    # a client's own X-Forwarded-For entries come first: the rightmost untrusted hop is the client
    assert addresses.of_scope(scope("10.1.1.1", "1.2.3.4, 203.0.113.4, 192.0.2.1")) == "203.0.113.4"
    assert addresses.of_scope(scope("198.51.100.3", "203.0.113.4")) == "198.51.100.3"  # untrusted peer
    assert addresses.of_scope(scope("10.1.1.1", "not-an-address")) == "10.1.1.1"
    assert addresses.of_scope(scope("10.1.1.1", None)) == "10.1.1.1"
    assert addresses.of_peer("::ffff:203.0.113.9") == "203.0.113.9"
    assert addresses.of_peer("2001:db8::1") == "2001:db8::/64"


# ------------------------------------------------------------------ analyses
def test_analyses_per_client_and_for_the_whole_server(database_url: str) -> None:
    # the worker takes no search work: the analyses stay queued
    with server(database_url, lanes=("quick",), analyses_per_client=1, analysis_queue=2) as client:
        heuristic = [{"kind": "bot", "bot": "heuristic"}] * 2
        games = [new_game(client, "203.0.113.5", heuristic).json()["game_id"] for _ in range(3)]
        for gid in games:
            wait_over(client, gid)

        def analyse(gid: str, address: str) -> object:
            return client.post(f"/api/games/{gid}/analysis", headers=as_client(address))

        assert analyse(games[0], "203.0.113.5").status_code == 202
        assert_429(analyse(games[1], "203.0.113.5"), "analysis_limit")
        assert client.get(f"/api/games/{games[1]}/analysis").json()["status"] == "none"  # nothing queued
        assert analyse(games[0], "203.0.113.5").status_code == 202  # the same analysis: not counted again
        assert analyse(games[1], "203.0.113.6").status_code == 202
        full = analyse(games[2], "203.0.113.7")
        assert full.status_code == 503 and error_code(full) == "analysis_queue_full"
        assert int(full.headers["Retry-After"]) >= 1
        assert client.get(f"/api/games/{games[2]}/analysis").json()["status"] == "none"


# ------------------------------------------------------------------ sockets
def test_sockets_per_client(database_url: str) -> None:
    with server(database_url, sockets_per_client=2) as client:
        gid = new_game(client, "203.0.113.5").json()["game_id"]
        url = f"/api/games/{gid}/ws"
        with client.websocket_connect(url) as one, client.websocket_connect(url) as two:
            one.receive_json()
            two.receive_json()
            with client.websocket_connect(url) as three:
                message = three.receive_json()
                assert message["type"] == "error" and message["error"]["code"] == "socket_limit"
                assert message["error"]["retry_after"] >= 1
                with pytest.raises(WebSocketDisconnect) as closed:
                    three.receive_json()
                assert closed.value.code == 4429
        with client.websocket_connect(url) as again:  # closed sockets no longer count
            assert again.receive_json()["type"] == "state"


def test_a_clients_handshakes_and_socket_messages_count_with_its_requests(database_url: str) -> None:
    """One client reconnected 535 times in 10 s and had 10,700 socket actions read: per socket, each
    new socket started with a full bucket. Its handshakes and messages share its request bucket."""
    with server(database_url, requests_per_second=0.2, request_burst=4) as client:
        gid = new_game(client, "203.0.113.5").json()["game_id"]  # another client's request
        url = f"/api/games/{gid}/ws"
        me = as_client("198.51.100.1")

        def refused(message: dict) -> None:
            assert message["type"] == "error" and message["error"]["code"] == "rate_limited"
            assert message["error"]["retry_after"] >= 1

        with client.websocket_connect(url, headers=me) as ws:  # 1
            assert ws.receive_json()["type"] == "state"
            with client.websocket_connect(url, headers=me) as other:  # 2
                assert other.receive_json()["type"] == "state"
                other.send_json({"type": "action", "action": "pass"})  # 3: read (and refused: a spectator)
                assert other.receive_json()["error"]["code"] == "missing_token"
            ws.send_json({"type": "action", "action": "pass"})  # 4
            assert ws.receive_json()["error"]["code"] == "missing_token"
            ws.send_json({"type": "action", "action": "pass", "id": 7})  # 5: over (this socket sent one)
            answer = ws.receive_json()
            refused(answer)
            assert answer["id"] == 7
            with client.websocket_connect(url, headers=me) as again:  # a reconnect counts too
                refused(again.receive_json())
                with pytest.raises(WebSocketDisconnect) as closed:
                    again.receive_json()
                assert closed.value.code == 4429
        assert_429(client.get("/api/maps", headers=me), "rate_limited", most=5)  # one bucket for all three
        with client.websocket_connect(url, headers=as_client("198.51.100.2")) as theirs:  # others are served
            assert theirs.receive_json()["type"] == "state"


def test_socket_message_rate(database_url: str) -> None:
    with server(database_url, messages_per_second=0.2, message_burst=2) as client:
        game = new_game(client, "203.0.113.5").json()
        with client.websocket_connect(f"/api/games/{game['game_id']}/ws") as ws:
            ws.receive_json()
            for _ in range(2):  # a spectator's actions are refused, but they were read
                ws.send_json({"type": "action", "action": "pass"})
                assert ws.receive_json()["error"]["code"] == "missing_token"
            ws.send_json({"type": "action", "action": "pass", "id": 5})
            answer = ws.receive_json()
            refused = answer["error"]
            assert refused["code"] == "message_rate_limited" and refused["retry_after"] >= 1
            assert answer["id"] == 5  # its sender (the browser) waits on the answer to that id
            # a client that keeps flooding (more refusals in a row than the burst) is told, then closed
            for _ in range(2):
                ws.send_json({"type": "action", "action": "pass"})
                assert ws.receive_json()["error"]["code"] == "message_rate_limited"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4429
