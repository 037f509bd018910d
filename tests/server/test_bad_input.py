"""Garbage ids get 404 on every route and backend; socket messages the server will not read get an
error and a clean close code, logged once, without a traceback."""

from __future__ import annotations

import logging
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from .conftest import auth, create, error_code

pytestmark = pytest.mark.timeout(120)

GARBAGE_IDS = ["abc\x00def", "\x00", "a" * 33, "ab cd", "Köln", "a.b", "x'; DROP TABLE games; --", "a\nb",
               "\udcff"]


def path_id(game_id: str) -> str:
    return quote(game_id.encode("utf-8", "surrogatepass"), safe="")


@pytest.mark.parametrize("game_id", GARBAGE_IDS, ids=range(len(GARBAGE_IDS)))
def test_garbage_ids_are_unknown_games_everywhere(client: TestClient, game_id: str) -> None:
    real = create(client, 2)
    token = real["seats"][0]["token"]
    gid = path_id(game_id)
    answers = {
        "state": client.get(f"/api/games/{gid}"),
        "view": client.get(f"/api/games/{gid}/view", params={"seat": 0}, headers=auth(token)),
        "action": client.post(f"/api/games/{gid}/actions", json={"seat": 0, "action": "pass"},
                              headers=auth(token)),
        "record": client.get(f"/api/games/{gid}/record"),
        "claim": client.post(f"/api/games/{gid}/seats/0/claim"),
        "page": client.get(f"/game/{gid}"),
        "replay page": client.get(f"/replay/{gid}"),
        "log": client.get(f"/api/games/{gid}/log"),
        "replay": client.get(f"/api/games/{gid}/replay"),
        "replay step": client.get(f"/api/games/{gid}/replay/0"),
        "hints": client.get(f"/api/games/{gid}/hints", params={"seat": 0}, headers=auth(token)),
        "ask hint": client.post(f"/api/games/{gid}/hints", json={"seat": 0}, headers=auth(token)),
        "analysis": client.get(f"/api/games/{gid}/analysis"),
        "start analysis": client.post(f"/api/games/{gid}/analysis"),
    }
    for route, r in answers.items():
        assert r.status_code == 404 and error_code(r) == "unknown_game", (route, r.status_code, r.text)
    for query in ("", "?seat=0"):
        with client.websocket_connect(f"/api/games/{gid}/ws{query}") as ws:
            if query:
                ws.send_json({"type": "auth", "token": token})
            message = ws.receive_json()
            assert message["error"]["code"] == "unknown_game"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4404
    # nothing else was touched
    assert [g["game_id"] for g in client.get("/api/games").json()["games"]] == [real["game_id"]]


def test_a_nul_in_a_seat_or_version_is_a_bad_request(client: TestClient) -> None:
    game = create(client, 2)
    gid, token = game["game_id"], game["seats"][0]["token"]
    r = client.get(f"/api/games/{gid}/view?seat=0%00", headers=auth(token))
    assert r.status_code == 400 and error_code(r) == "malformed_request"
    r = client.post(f"/api/games/{gid}/actions", json={"seat": 0, "action": "open\x00 3 3"},
                    headers=auth(token))
    assert r.status_code == 400 and error_code(r) in ("malformed_action", "not_your_turn")
    r = client.post("/api/games", json={"players": 2, "map": "germ\x00any"})
    assert r.status_code in (404, 422)


BAD_MESSAGES = [
    ("binary", lambda ws: ws.send_bytes(b"\x00\xffnot text"), "binary_message", 1003),
    ("oversized", lambda ws: ws.send_text('{"type": "action", "action": "' + "x" * 20000 + '"}'),
     "body_too_large", 1009),
    ("deeply nested", lambda ws: ws.send_text("[" * 8000 + "]" * 8000), "nesting_too_deep", 1007),
    ("nested object", lambda ws: ws.send_text('{"type": {"a": {"b": {"c": {"d": 1}}}}}'),
     "nesting_too_deep", 1007),
]


@pytest.mark.parametrize(("send", "code", "close"), [m[1:] for m in BAD_MESSAGES],
                         ids=[m[0] for m in BAD_MESSAGES])
@pytest.mark.parametrize("when", ["playing", "authenticating", "watching"])
def test_unreadable_socket_messages_close_cleanly(client: TestClient, caplog: pytest.LogCaptureFixture,
                                                  send: object, code: str, close: int, when: str) -> None:
    game = create(client, 2)
    gid, token = game["game_id"], game["seats"][0]["token"]
    url = f"/api/games/{gid}/ws" + ("" if when == "watching" else "?seat=0")
    caplog.set_level(logging.INFO, logger="powergrid")
    with client.websocket_connect(url) as ws:
        if when == "playing":
            ws.send_json({"type": "auth", "token": token})
        if when != "authenticating":
            assert ws.receive_json()["type"] == "state"
        send(ws)  # type: ignore[operator]
        message = ws.receive_json()
        assert message["type"] == "error" and message["error"]["code"] == code
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == close
    records = [r for r in caplog.records if r.name.startswith("powergrid")]
    assert len(records) == 1 and code in records[0].getMessage(), [r.getMessage() for r in records]
    assert records[0].exc_info is None and records[0].levelno == logging.WARNING
    # the game is untouched and still served
    assert client.get(f"/api/games/{gid}").json()["version"] == 0


def test_invalid_json_is_refused_and_the_socket_stays(client: TestClient) -> None:
    game = create(client, 2)
    with client.websocket_connect(f"/api/games/{game['game_id']}/ws") as ws:
        ws.receive_json()
        for text in ("not json", "[1, 2]", '"text"', "{\"type\": \"action\", \"action\": 5}"):
            ws.send_text(text)
            assert ws.receive_json()["error"]["code"] == "malformed_request"
        ws.send_json({"type": "action", "action": "pass"})
        assert ws.receive_json()["error"]["code"] == "missing_token"  # still open and reading
