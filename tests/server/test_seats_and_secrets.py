"""Private and public games, open seats and seat links, seeds, and the record: the hidden-information
defaults of an online game (on SQLite and PostgreSQL)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from powergrid.server import Settings, create_app

from .conftest import auth, create, error_code
from .play import play, view

pytestmark = pytest.mark.timeout(120)


def post_game(client: TestClient, **body: object) -> dict:
    r = client.post("/api/games", json={"map": "germany", "players": 3, **body})
    assert r.status_code == 201, r.text
    return r.json()


def listed(client: TestClient, gid: str) -> dict:
    return next(g for g in client.get("/api/games").json()["games"] if g["game_id"] == gid)


# ------------------------------------------------------------------ private and public games
def test_games_are_private_by_default(client: TestClient) -> None:
    game = post_game(client)
    gid = game["game_id"]
    assert game["public"] is False
    assert all(s["kind"] == "human" and s["token"] and s["link"] for s in game["seats"])
    entry = listed(client, gid)
    assert entry["public"] is False and entry["open_seats"] == []
    for seat in range(3):  # nobody takes a seat without its link
        r = client.post(f"/api/games/{gid}/seats/{seat}/claim")
        assert r.status_code == 409 and error_code(r) == "seat_not_open", r.text
    # every link still plays its seat
    for s in game["seats"]:
        assert view(client, gid, s["seat"], s["token"])["seat"] == s["seat"]


def test_open_seats_need_a_public_game(client: TestClient) -> None:
    open_seat = {"kind": "human", "open": True}
    r = client.post("/api/games", json={"players": 2, "seats": [{"kind": "human"}, open_seat]})
    assert r.status_code == 422 and error_code(r) == "invalid_config"
    open_bot = {"kind": "bot", "bot": "random", "open": True}
    r = client.post("/api/games", json={"players": 2, "public": True, "seats": [{"kind": "human"}, open_bot]})
    assert r.status_code == 422 and error_code(r) == "invalid_config"
    assert client.get("/api/games").json()["games"] == []


def test_a_public_game_lists_its_open_seats_for_anyone(client: TestClient) -> None:
    game = post_game(client, public=True, seats=[{"kind": "human"}, {"kind": "human", "open": True},
                                                 {"kind": "bot", "bot": "random"}])
    gid = game["game_id"]
    mine, open_seat, bot = game["seats"]
    assert mine["token"] and mine["link"] == f"/game/{gid}#seat=0&token={mine['token']}"
    assert open_seat == {"seat": 1, "kind": "human", "open": True}  # no token, no link: not the creator's
    assert bot == {"seat": 2, "kind": "bot", "bot": "random"}
    entry = listed(client, gid)
    assert entry["public"] is True and entry["open_seats"] == [1] and entry["status"] == "waiting"
    assert [s.get("open") for s in entry["seats"]] == [False, True, None]
    # the creator's link seat is not open, even before its link is used
    r = client.post(f"/api/games/{gid}/seats/0/claim")
    assert r.status_code == 409 and error_code(r) == "seat_not_open"
    # a stranger takes the open seat, once
    taken = client.post(f"/api/games/{gid}/seats/1/claim")
    assert taken.status_code == 200, taken.text
    stranger = taken.json()
    assert stranger["seat"] == 1 and stranger["link"] == f"/game/{gid}#seat=1&token={stranger['token']}"
    assert view(client, gid, 1, stranger["token"])["seat"] == 1
    again = client.post(f"/api/games/{gid}/seats/1/claim")
    assert again.status_code == 409 and error_code(again) == "seat_taken"
    assert listed(client, gid)["open_seats"] == []
    # the stranger's token is seat 1's only; the creator's link still plays seat 0
    r = client.get(f"/api/games/{gid}/view", params={"seat": 0}, headers=auth(stranger["token"]))
    assert r.status_code == 403 and error_code(r) == "wrong_token"
    assert view(client, gid, 0, mine["token"])["seat"] == 0
    r = client.post(f"/api/games/{gid}/seats/2/claim")
    assert r.status_code == 409 and error_code(r) == "seat_taken"


def test_a_seat_link_never_stops_working(client: TestClient) -> None:
    """The issue's case: a stranger claimed an invited player's seat before its link was first used."""
    game = post_game(client, public=True, seats=[{"kind": "human"}, {"kind": "human"},
                                                 {"kind": "human", "open": True}])
    gid = game["game_id"]
    invited = game["seats"][1]
    for seat in (0, 1):
        r = client.post(f"/api/games/{gid}/seats/{seat}/claim")
        assert r.status_code == 409 and error_code(r) == "seat_not_open"
    assert client.post(f"/api/games/{gid}/seats/2/claim").status_code == 200
    assert view(client, gid, 1, invited["token"])["seat"] == 1  # first use, after every claim
    assert listed(client, gid)["seats"][1]["claimed"] is True


def test_an_open_seat_cannot_be_played_before_it_is_taken(client: TestClient) -> None:
    game = post_game(client, public=True, players=2,
                     seats=[{"kind": "human"}, {"kind": "human", "open": True}])
    gid = game["game_id"]
    r = client.get(f"/api/games/{gid}/view", params={"seat": 1}, headers=auth(game["seats"][0]["token"]))
    assert r.status_code == 403 and error_code(r) == "wrong_token"
    with client.websocket_connect(f"/api/games/{gid}/ws?seat=1") as ws:
        ws.send_json({"type": "auth", "token": ""})
        assert ws.receive_json()["error"]["code"] == "missing_token"


# ------------------------------------------------------------------ seeds
def test_the_server_draws_the_seed_and_nobody_is_told(client: TestClient) -> None:
    games = [post_game(client, seats=[{"kind": "human"}] * 3) for _ in range(3)]
    decks = set()
    for game in games:
        assert game["seeded"] is False
        gid = game["game_id"]
        assert listed(client, gid)["seeded"] is False
        public = client.get(f"/api/games/{gid}").json()
        assert public["seeded"] is False and "seed" not in public["state"]["config"]
        decks.add(tuple(client.app.state.service.cache[gid].state.deck))  # type: ignore[attr-defined]
    assert len(decks) == 3  # three different deals


def test_a_chosen_seed_is_shown_to_everyone(client: TestClient) -> None:
    game = create(client, 3, seed=1234)
    gid = game["game_id"]
    assert game["seeded"] is True
    assert listed(client, gid)["seeded"] is True
    assert client.get(f"/api/games/{gid}").json()["seeded"] is True
    # the seed itself stays hidden until the end, like every seed
    r = client.get(f"/api/games/{gid}/record", headers=auth(game["seats"][0]["token"]))
    assert r.status_code == 409 and error_code(r) == "game_not_over"


def test_a_server_may_refuse_chosen_seeds(tmp_path: object) -> None:
    settings = Settings(database_url=f"sqlite:///{tmp_path}/g.db", redis_url=None, chosen_seeds=False)
    with TestClient(create_app(settings)) as client:
        r = client.post("/api/games", json={"players": 2, "seed": 5})
        assert r.status_code == 422 and error_code(r) == "invalid_config" and "seed" in r.text
        assert client.post("/api/games", json={"players": 2}).status_code == 201


# ------------------------------------------------------------------ the record
def test_the_record_is_served_to_nobody_until_the_end(client: TestClient) -> None:
    game = create(client, 2, seed=3)
    gid = game["game_id"]
    tokens = [s["token"] for s in game["seats"]]
    play(client, game, 10)
    for headers in ({}, auth(tokens[0]), auth(tokens[1])):
        r = client.get(f"/api/games/{gid}/record", headers=headers)
        assert r.status_code == 409 and error_code(r) == "game_not_over"
    play(client, game, 5000, seed=2)
    record = client.get(f"/api/games/{gid}/record").json()  # anyone, once over
    assert record["config"]["seed"] == 3 and record["final"]["phase"] == 6
