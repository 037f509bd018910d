"""The game WebSocket: live views in order, actions over the socket, refusals, reconnecting."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from .conftest import assert_no_secrets, auth, create, error_code, true_state
from .play import view


@contextmanager
def seat_socket(client: TestClient, gid: str, seat: int, token: str, query: str = "") -> Iterator[Any]:
    """A seat's socket: ?seat=N in the URL, the token in the first message (never in the URL)."""
    with client.websocket_connect(f"/api/games/{gid}/ws?seat={seat}{query}") as ws:
        ws.send_json({"type": "auth", "token": token})
        yield ws

pytestmark = pytest.mark.timeout(120)


def test_spectator_sees_each_action_with_words(client: TestClient) -> None:
    game = create(client, 3)
    gid = game["game_id"]
    tokens = {s["seat"]: s["token"] for s in game["seats"]}
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        first = ws.receive_json()
        assert first["type"] == "state" and first["version"] == 0 and first["last"] is None
        assert first["seat"] is None and "legal" not in first
        seat = first["to_act"]
        r = client.post(f"/api/games/{gid}/actions", headers=auth(tokens[seat]),
                        json={"seat": seat, "action": "open 3 5", "version": 0})
        assert r.status_code == 200
        pushed = ws.receive_json()
        assert pushed["type"] == "state" and pushed["version"] == 1
        assert pushed["last"]["seat"] == seat and pushed["last"]["action"] == "open 3 5"
        assert f"P{seat}" in pushed["last"]["text"] and "open 3 5" in pushed["last"]["text"]
        assert pushed["state"]["auction"]["bid"] == 5
        state = true_state(client, gid)
        assert_no_secrets(pushed, state)


def test_seat_socket_acts_and_gets_errors(client: TestClient) -> None:
    game = create(client, 2)
    gid = game["game_id"]
    tokens = {s["seat"]: s["token"] for s in game["seats"]}
    seat = client.get(f"/api/games/{gid}").json()["to_act"]
    other = 1 - seat
    with seat_socket(client, gid, seat, tokens[seat]) as ws, \
            seat_socket(client, gid, other, tokens[other]) as ws2:
        mine = ws.receive_json()
        assert mine["legal"] and mine["seat"] == seat and mine["to_act"] == seat
        theirs = ws2.receive_json()
        assert "legal" not in theirs
        ws.send_text("not json")
        assert error_code_ws(ws.receive_json()) == "malformed_request"
        ws.send_json({"type": "dance", "text": "hi"})
        assert error_code_ws(ws.receive_json()) == "malformed_request"
        ws.send_json({"type": "action", "action": "open 3 3", "version": 9})
        assert error_code_ws(ws.receive_json()) == "stale_version"
        ws.send_json({"type": "action", "action": "fly away", "version": 0})
        assert error_code_ws(ws.receive_json()) == "malformed_action"
        ws2.send_json({"type": "action", "action": "open 3 3", "version": 0})
        assert error_code_ws(ws2.receive_json()) == "not_your_turn"
        assert client.get(f"/api/games/{gid}").json()["version"] == 0
        ws.send_json({"type": "action", "action": "open 3 3", "version": 0})
        for sock in (ws, ws2):
            msg = sock.receive_json()
            assert msg["type"] == "state" and msg["version"] == 1 and msg["last"]["action"] == "open 3 3"
        assert ("legal" in msg) and msg["to_act"] == other


def test_an_action_with_an_id_is_answered_after_its_new_view(client: TestClient) -> None:
    # the browser acts over its socket: it needs to know which message was taken or refused, and
    # to hold the new view (with the next legal actions) when the answer comes
    game = create(client, 2)
    gid = game["game_id"]
    tokens = {s["seat"]: s["token"] for s in game["seats"]}
    seat = client.get(f"/api/games/{gid}").json()["to_act"]
    with seat_socket(client, gid, seat, tokens[seat]) as ws:
        assert ws.receive_json()["version"] == 0
        ws.send_json({"type": "action", "action": "open 3 3", "version": 0, "id": 7})
        first, second = ws.receive_json(), ws.receive_json()
        assert first["type"] == "state" and first["version"] == 1 and first["last"]["action"] == "open 3 3"
        assert second["type"] == "done" and second["id"] == 7 and second["version"] == 1
        assert second["ms"] >= 0  # the server's time on it
        ws.send_json({"type": "action", "action": "open 3 3", "version": 0, "id": "again"})
        refused = ws.receive_json()
        assert refused["type"] == "error" and refused["id"] == "again"
        assert refused["error"]["code"] == "stale_version"
        ws.send_json({"type": "action", "action": "open 4 4", "version": 1, "id": {"not": "an id"}})
        assert ws.receive_json()["id"] is None  # an id that is not a short text or an integer is dropped
    assert client.get(f"/api/games/{gid}").json()["version"] == 1  # taken once, refused twice


def error_code_ws(message: dict) -> str:
    assert message["type"] == "error", message
    return message["error"]["code"]


@pytest.mark.parametrize(("query", "first", "code", "close"), [
    ("?seat=0", {"type": "auth", "token": "wrong"}, "wrong_token", 4403),
    ("?seat=0", {"type": "action", "action": "pass"}, "missing_token", 4401),
    ("?seat=0", {"type": "auth", "token": ""}, "missing_token", 4401),
    ("?seat=0", {"type": "auth", "token": "x", "seat": 1}, "malformed_request", 4400),
    ("?seat=5", None, "unknown_seat", 4404),
    ("?seat=abc", None, "malformed_request", 4400),
    ("?token=x", None, "malformed_request", 4400),
    ("?seat=0&token=TOKEN0", None, "malformed_request", 4400),  # the right token, but in the URL
])
def test_socket_refusals(client: TestClient, query: str, first: dict | None, code: str, close: int) -> None:
    game = create(client, 2)
    query = query.replace("TOKEN0", game["seats"][0]["token"])
    with client.websocket_connect(f"/api/games/{game['game_id']}/ws{query}") as ws:
        if first is not None:
            ws.send_json(first)
        assert error_code_ws(ws.receive_json()) == code
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == close


def test_socket_unknown_game(client: TestClient) -> None:
    with client.websocket_connect("/api/games/nothing-here/ws") as ws:
        assert error_code_ws(ws.receive_json()) == "unknown_game"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4404


def test_spectator_cannot_act(client: TestClient) -> None:
    game = create(client, 2)
    with client.websocket_connect(f"/api/games/{game['game_id']}/ws") as ws:
        ws.receive_json()
        ws.send_json({"type": "action", "action": "pass", "version": 0})
        assert error_code_ws(ws.receive_json()) == "missing_token"


def test_reconnect_gets_the_current_view_at_once(client: TestClient) -> None:
    game = create(client, 2)
    gid = game["game_id"]
    tokens = {s["seat"]: s["token"] for s in game["seats"]}
    seat = client.get(f"/api/games/{gid}").json()["to_act"]
    with seat_socket(client, gid, 1 - seat, tokens[1 - seat]) as ws:
        assert ws.receive_json()["version"] == 0
    # while it was away: two actions
    client.post(f"/api/games/{gid}/actions", headers=auth(tokens[seat]),
                json={"seat": seat, "action": "open 4 6", "version": 0})
    v = view(client, gid, 1 - seat, tokens[1 - seat])
    assert v["version"] == 1
    with seat_socket(client, gid, 1 - seat, tokens[1 - seat], "&since=0") as ws:
        again = ws.receive_json()
        assert again["version"] == 1 and again["last"]["action"] == "open 4 6"
        assert again["legal"] == v["legal"]


def test_watch_an_all_bot_game_version_by_version(client: TestClient) -> None:
    # paced: a watcher more than FRAMES_KEPT versions behind is sent the latest (by design), and at
    # pace 0 on a loaded machine the bots could run that far ahead of this test's reading
    game = create(client, 2, [{"kind": "bot", "bot": "random"}] * 2, seed=31, bot_pace_ms=5)
    gid = game["game_id"]
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        first = ws.receive_json()
        versions = [first["version"]]
        last = first
        while not last["state"]["game_over"]:
            last = ws.receive_json()
            assert last["type"] == "state"
            versions.append(last["version"])
    assert versions == list(range(versions[0], versions[-1] + 1))  # every view, in order
    assert last["state"]["winners"] and last["to_act"] is None
    state = true_state(client, gid)
    assert_no_secrets(last, state)
    assert error_code(client.get("/api/games/x")) == "unknown_game"


def test_a_program_may_authenticate_with_a_header(client: TestClient) -> None:
    game = create(client, 2)
    gid, token = game["game_id"], game["seats"][1]["token"]
    with client.websocket_connect(f"/api/games/{gid}/ws?seat=1", headers=auth(token)) as ws:
        first = ws.receive_json()
        assert first["type"] == "state" and first["seat"] == 1


def test_a_seat_socket_that_never_authenticates_is_closed(tmp_path: object) -> None:
    from powergrid.server import Settings, create_app
    from powergrid.server.common.limits import Limits

    settings = Settings(database_url=f"sqlite:///{tmp_path}/g.db", redis_url=None,
                        limits=Limits(header_timeout=0.3))
    with TestClient(create_app(settings)) as client:
        game = create(client, 2)
        with client.websocket_connect(f"/api/games/{game['game_id']}/ws?seat=0") as ws:
            message = ws.receive_json()  # nothing sent: the deadline passes
            assert error_code_ws(message) == "missing_token" and "within 0.3 s" in message["error"]["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4401


def test_a_socket_gets_what_another_process_appended_while_it_authenticated(client: TestClient) -> None:
    # a bot worker's move that lands between the socket's first look at the game and its being
    # watched was announced while nobody here watched: it must still reach the socket
    game = create(client, 2)
    gid = game["game_id"]
    service = client.app.state.service  # type: ignore[attr-defined]
    seat = client.get(f"/api/games/{gid}").json()["to_act"]
    live = client.portal.call(service.fresh, gid)  # type: ignore[union-attr]
    assert live.version == 0 and not live.watchers
    # another process appends version 1 and announces it; this process ignores games it doesn't watch
    assert service.store.append(gid, 1, seat, "open 3 3", status="playing", round_=1, to_act=1 - seat)
    service.on_notify(gid, 1)
    assert live.version == 0
    attached, wake = client.portal.call(service.attach, live)  # type: ignore[union-attr]
    assert attached is live and live.version == 1 and live in [service.cache.get(gid)]
    service.unwatch(live, wake)


async def announce(service: Any, live: Any, seat: int, busy: bool) -> tuple[int, int]:
    """Another process's move (version 1 of ``live``'s game), appended and announced with no turn
    of the loop between (PostgreSQL's own notice of it comes later): the game's version just after
    the announcement, and a moment later. ``busy``: with the game's lock held meanwhile."""
    if busy:
        await live.lock.acquire()
    assert service.store.append(live.game_id, 1, seat, "open 3 3", status="playing", round_=1,
                                to_act=1 - seat)
    service.on_notify(live.game_id, 1, (seat, "open 3 3", None))
    at_once = live.version
    if busy:
        live.lock.release()
    for _ in range(20):
        await asyncio.sleep(0.01)
    return at_once, live.version


def test_an_announced_move_of_a_watched_game_is_applied_at_once_unless_the_game_is_busy(
        client: TestClient) -> None:
    # a bot worker's move, announced with its entry: applied in the same turn of the loop as the
    # announcement (its watchers hear of it a turn sooner); while the game's lock is held (an action
    # of this process on its way), a task applies it once the lock is free
    service = client.app.state.service  # type: ignore[attr-defined]
    for busy in (False, True):
        game = create(client, 2)
        gid = game["game_id"]
        seat = client.get(f"/api/games/{gid}").json()["to_act"]
        live = client.portal.call(service.fresh, gid)  # type: ignore[union-attr]
        wake = service.watch(live)

        at_once, later = client.portal.call(announce, service, live, seat, busy)  # type: ignore[union-attr]
        assert (at_once, later) == ((0, 1) if busy else (1, 1))
        assert wake.is_set() and live.latest.last == {"seat": seat, "action": "open 3 3",
                                                      "text": live.latest.last["text"]}
        service.unwatch(live, wake)


def test_a_socket_watches_the_game_the_cache_holds(client: TestClient) -> None:
    # the cache dropped the game while the socket authenticated: actions go to the cached object,
    # so that is the one the socket must watch
    game = create(client, 2)
    gid = game["game_id"]
    tokens = {s["seat"]: s["token"] for s in game["seats"]}
    service = client.app.state.service  # type: ignore[attr-defined]
    seat = client.get(f"/api/games/{gid}").json()["to_act"]
    stale = client.portal.call(service.fresh, gid)  # type: ignore[union-attr]
    service.cache.forget(gid)
    assert client.get(f"/api/games/{gid}").json()["version"] == 0  # loaded again: a new object
    attached, wake = client.portal.call(service.attach, stale)  # type: ignore[union-attr]
    assert attached is not stale and attached is service.cache.get(gid)
    r = client.post(f"/api/games/{gid}/actions", headers=auth(tokens[seat]),
                    json={"seat": seat, "action": "open 3 3", "version": 0})
    assert r.status_code == 200 and wake.is_set()
    service.unwatch(attached, wake)


def test_the_server_times_a_bots_reply_from_the_persons_action_to_its_socket(client: TestClient) -> None:
    """/api/server/stats ``bot_reply_ms``: a person's action, then the bot's answer on the socket."""
    import random

    from .play import choose

    game = create(client, 2, [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}], seed=8, bot_pace_ms=0)
    gid = game["game_id"]
    client.get("/api/server/stats", params={"reset": True})
    rng = random.Random(3)
    answered = 0
    with seat_socket(client, gid, 0, game["seats"][0]["token"]) as ws:
        mine = ws.receive_json()
        while answered < 3:
            if mine["to_act"] == 0:
                acted = mine["version"]
                ws.send_json({"type": "action", "action": choose(mine["legal"], rng), "version": acted})
            mine = ws.receive_json()
            while mine["type"] != "state":
                mine = ws.receive_json()
            if mine["last"]["seat"] == 1 and mine["version"] == acted + 2:
                answered += 1  # the bot answered the action at once
    replies = client.get("/api/server/stats").json()["bot_reply_ms"]
    assert replies["samples"] >= answered and replies["p99"] >= replies["p50"] > 0
