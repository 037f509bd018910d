"""The two routes every move takes are served by PlayRoutes (play_routes.py), past FastAPI's routing;
whatever they are sent, they must answer exactly as the FastAPI routes that document them."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from powergrid.server import Settings, create_app
from powergrid.server.api.play_routes import PlayRoutes
from powergrid.server.common.clock import ManualClock
from powergrid.server.common.limits import Limits

from .conftest import auth


def app_without_play_routes(settings: Settings) -> Any:
    app = create_app(settings)
    app.user_middleware = [m for m in app.user_middleware if m.cls is not PlayRoutes]
    return app


def answer(r: Any, game_id: str) -> tuple[int, Any]:
    """What a client reads: the status and the body (the game's own id taken out)."""
    body = r.json()
    if isinstance(body, dict):
        body.pop("game_id", None)
    return r.status_code, json.dumps(body, sort_keys=True).replace(game_id, "<game>")


def session(client: TestClient) -> list[tuple[int, Any]]:
    """The same requests, good and bad, to the action and view routes of a new 3-person game."""
    game = client.post("/api/games", json={"map": "germany", "players": 3, "seed": 5,
                                           "seats": [{"kind": "human"}] * 3}).json()
    gid = game["game_id"]
    tokens = {s["seat"]: s["token"] for s in game["seats"]}
    seat = client.get(f"/api/games/{gid}").json()["to_act"]
    other = (seat + 1) % 3
    base = f"/api/games/{gid}"
    good = {"seat": seat, "action": "open 3 3", "version": 0}
    out = []

    def post(**kwargs: Any) -> None:
        out.append(answer(client.post(f"{base}/actions", **kwargs), gid))

    def get(query: str, token: str | None) -> None:
        out.append(answer(client.get(f"{base}/view{query}", headers=auth(token) if token else {}), gid))

    get(f"?seat={seat}", tokens[seat])
    get(f"?seat={other}", tokens[other])
    get(f"?seat=0{seat}", tokens[seat])  # a leading zero
    get(f"?seat={seat}", tokens[other])  # another seat's token
    get(f"?seat={seat}", None)
    get("?seat=-1", tokens[seat])
    get("?seat=x", tokens[seat])
    get("", tokens[seat])
    get(f"?seat={seat}&seat={other}", tokens[seat])
    get("?seat=9", tokens[seat])
    post(json={**good, "version": 7}, headers=auth(tokens[seat]))  # stale
    post(json={**good, "seat": other}, headers=auth(tokens[other]))  # not its turn
    post(json=good, headers=auth(tokens[other]))  # wrong token
    post(json=good)  # no token
    post(json={**good, "action": "open 99 3"}, headers=auth(tokens[seat]))  # illegal
    post(json={**good, "action": "dance"}, headers=auth(tokens[seat]))  # not an action
    post(json={**good, "extra": 1}, headers=auth(tokens[seat]))
    post(json={"seat": seat}, headers=auth(tokens[seat]))
    post(json={**good, "seat": str(seat)}, headers=auth(tokens[seat]))  # a number in a string
    post(json=[good], headers=auth(tokens[seat]))
    post(content=b'{"seat": 0, "action": "pass"', headers={**auth(tokens[seat]),
                                                            "content-type": "application/json"})
    post(content=json.dumps(good).encode(), headers={**auth(tokens[seat]), "content-type": "text/plain"})
    post(content=json.dumps(good).encode(), headers=auth(tokens[seat]))  # no content type
    post(json={**good, "action": "x" * 301}, headers=auth(tokens[seat]))
    post(json=good, headers=auth(tokens[seat]))  # accepted
    post(json=good, headers=auth(tokens[seat]))  # the same again: stale now
    get(f"?seat={seat}", tokens[seat])
    post(json={"seat": other, "action": "pass", "version": 1}, headers=auth(tokens[other]))
    return out


@pytest.fixture
def plain_settings(tmp_path: Any) -> tuple[Settings, Settings]:
    def make(name: str) -> Settings:
        # the same clock in both: the views carry the server's times of the entries (clocks)
        return Settings(database_url=f"sqlite:///{tmp_path}/{name}.db", redis_url=None, bot_pace_ms=0,
                        poll_ms=10, idle_expiry_hours=0, limits=Limits(requests_per_second=0),
                        clock=ManualClock(1_800_000_000.0))
    return make("fast"), make("fastapi")


def test_play_routes_answer_exactly_as_the_fastapi_routes(plain_settings: tuple[Settings, Settings]) -> None:
    fast, plain = plain_settings
    with TestClient(create_app(fast)) as client:
        served = session(client)
    with TestClient(app_without_play_routes(plain)) as client:
        documented = session(client)
    assert [status for status, _ in served] == [status for status, _ in documented]
    for mine, theirs in zip(served, documented, strict=True):
        assert mine == theirs
    assert {status for status, _ in served} >= {200, 400, 403, 404, 409}
