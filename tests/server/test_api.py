"""Every HTTP endpoint and every named error, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import random

import pytest
from fastapi.testclient import TestClient

import powergrid as pg
from powergrid.server import Settings, create_app
from powergrid.server.games.views import LOG_LINES

from .conftest import assert_no_secrets, auth, create, error_code, true_state
from .play import choose, play, view

pytestmark = pytest.mark.timeout(120)


def replay(record: dict) -> pg.GameState:
    actions = [pg.parse_action(a) for a in record["actions"]]
    return pg.replay(pg.GameConfig.from_dict(record["config"]), actions)


# ------------------------------------------------------------------ maps
def test_maps(client: TestClient) -> None:
    assert client.get("/api/maps").json() == {"maps": ["germany", "usa"]}
    m = client.get("/api/maps/germany").json()
    assert len(m["cities"]) == 42 and {"name", "region", "x", "y"} <= set(m["cities"][0])
    assert all(0 <= c["x"] <= 1 and 0 <= c["y"] <= 1 for c in m["cities"])
    assert set(m["regions"]) == set(m["region_colours"]) == set(m["adjacency"])
    assert {"a": "Flensburg", "b": "Kiel", "cost": 4} in m["connections"]
    assert m["regions_per_players"]["4"] == 4
    r = client.get("/api/maps/atlantis")
    assert r.status_code == 404 and error_code(r) == "unknown_map"


def test_bots_lists_every_bot_the_lobby_may_offer(client: TestClient) -> None:
    from powergrid.bots import bot_names
    bots = client.get("/api/bots").json()["bots"]
    assert sorted(bots) == sorted(bot_names())
    assert bots[0] == "random" and bots.index("heuristic") < bots.index("pimc") < bots.index("expert:fast") \
        < bots.index("expert")
    assert "pimc:strong" not in bots and "pimc:fast" not in bots  # rated, not offered


def test_bots_say_what_each_is_like_strength_and_speed(client: TestClient) -> None:
    answer = client.get("/api/bots").json()
    about = answer["about"]
    assert set(about) == set(answer["bots"])
    assert about["heuristic"]["elo"] == 1500 and about["heuristic"]["seconds"] == 0
    assert about["expert"]["kind"] == "evaluator-guided search" and 0 < about["expert"]["seconds"] < 1
    assert about["expert"]["margin"] == round((about["expert"]["high"] - about["expert"]["low"]) / 2) > 0
    for name, facts in about.items():  # every bot is on the published ladder, inside its interval
        assert facts["low"] <= facts["elo"] <= facts["high"], name


# ------------------------------------------------------------------ creating
def test_create_gives_tokens_to_human_seats_only(client: TestClient) -> None:
    game = create(client, 3, [{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "human"}])
    assert game["version"] == 0 and game["spectator_link"] == f"/game/{game['game_id']}"
    human = [s for s in game["seats"] if s["kind"] == "human"]
    assert [s["seat"] for s in human] == [0, 2]
    for s in human:
        assert len(s["token"]) >= 32  # 24 random bytes
        # the token rides in the fragment, which browsers never send to the server
        assert s["link"] == f"/game/{game['game_id']}#seat={s['seat']}&token={s['token']}"
    assert game["seats"][1] == {"seat": 1, "kind": "bot", "bot": "random"}
    assert human[0]["token"] != human[1]["token"]


@pytest.mark.parametrize("body", [
    {"players": 7},
    {"players": 1},
    {"map": "atlantis"},
    {"variant": "speed"},
    {"regions": ["green", "nowhere", "red"]},
    {"players": 3, "regions": ["green", "purple", "brown"]},  # not connected
    {"players": 3, "seats": [{"kind": "human"}]},
    {"players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "grandmaster"}]},
    {"players": 2, "seats": [{"kind": "human"}, {"kind": "bot"}]},
    {"players": 2, "seats": [{"kind": "alien"}, {"kind": "human"}]},
    {"players": 2, "colour": "red"},
    {"seed": -1},
    {"players": "four"},
    {"players": 2, "undo_window_ms": -1},
    {"players": 2, "undo_window_ms": 30_001},
])
def test_create_refuses_bad_configs(client: TestClient, body: dict) -> None:
    before = client.get("/api/games").json()["games"]
    r = client.post("/api/games", json=body)
    assert r.status_code == 422, r.text
    assert error_code(r) == "invalid_config" and r.json()["error"]["message"]
    assert client.get("/api/games").json()["games"] == before


def test_create_refuses_malformed_json(client: TestClient) -> None:
    r = client.post("/api/games", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400 and error_code(r) == "malformed_request"
    r = client.post("/api/games", json=[1, 2])
    assert r.status_code == 400 and error_code(r) == "malformed_request"


def test_oversized_body(client: TestClient) -> None:
    r = client.post("/api/games", content=b"{" + b" " * 20000 + b"}",
                    headers={"content-type": "application/json"})
    assert r.status_code == 413 and error_code(r) == "body_too_large"
    assert client.get("/api/games").json()["games"] == []


def test_unknown_route(client: TestClient) -> None:
    r = client.get("/api/nothing")
    assert r.status_code == 404 and error_code(r) == "not_found"


# ------------------------------------------------------------------ listing, public state
def test_list(client: TestClient) -> None:
    game = create(client, 2)
    gid = game["game_id"]
    listed = client.get("/api/games").json()["games"]
    assert [g["game_id"] for g in listed] == [gid]
    entry = listed[0]
    assert entry["status"] == "waiting" and entry["open_seats"] == [] and entry["map"] == "germany"
    assert entry["public"] is False and entry["seeded"] is True
    assert entry["players"] == 2 and entry["round"] == 1 and "created_at" in entry
    assert all("token" not in s for s in entry["seats"])
    # using a seat's token marks it claimed; once both are, the game is no longer waiting
    view(client, gid, 0, game["seats"][0]["token"])
    assert [s["claimed"] for s in client.get("/api/games").json()["games"][0]["seats"]] == [True, False]
    view(client, gid, 1, game["seats"][1]["token"])
    assert client.get("/api/games").json()["games"][0]["status"] == "playing"


def test_bot_seat_cannot_be_claimed(client: TestClient) -> None:
    game = create(client, 2, [{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    r = client.post(f"/api/games/{game['game_id']}/seats/1/claim")
    assert r.status_code == 409 and error_code(r) == "seat_taken"


def test_public_state(client: TestClient) -> None:
    game = create(client, 3)
    r = client.get(f"/api/games/{game['game_id']}")
    assert r.status_code == 200
    data = r.json()
    assert data["seat"] is None and data["version"] == 0 and data["game_id"] == game["game_id"]
    assert "legal" not in data and data["to_act"] in (0, 1, 2)
    assert "token" not in json.dumps(data["seats"])
    state = data["state"]
    assert state["format"] == "powergrid.view" and state["seat"] is None
    for key in ("log_text", "current_market", "future_market", "prices", "plants", "powerable", "capacity",
                "deck_size", "step3_in_deck", "houses", "history", "game_over", "winners"):
        assert key in state, key
    assert state["current_market"] == [3, 4, 5, 6] and state["future_market"] == [7, 8, 9, 10]
    assert state["prices"]["coal"][0] == [1, True] and state["prices"]["uranium"][0] == [1, False]
    assert state["prices"]["uranium"][-1] == [16, True]
    assert state["plants"]["3"] == {"kind": "oil", "burn": 2, "cities": 1}
    assert state["history"] == {"money": [[50, 50, 50]], "cities": [[0, 0, 0]]}
    assert_no_secrets(data, true_state(client, game["game_id"]))
    r = client.get("/api/games/does-not-exist")
    assert r.status_code == 404 and error_code(r) == "unknown_game"


# ------------------------------------------------------------------ views and tokens
def test_view_needs_the_seats_token(client: TestClient) -> None:
    game = create(client, 3)
    gid, t0, t1 = game["game_id"], game["seats"][0]["token"], game["seats"][1]["token"]
    url = f"/api/games/{gid}/view"
    r = client.get(url, params={"seat": 0})
    assert r.status_code == 401 and error_code(r) == "missing_token"
    r = client.get(url, params={"seat": 0}, headers={"Authorization": f"Basic {t0}"})
    assert r.status_code == 401 and error_code(r) == "missing_token"
    r = client.get(url, params={"seat": 0}, headers=auth(t1))
    assert r.status_code == 403 and error_code(r) == "wrong_token"
    r = client.get(url, params={"seat": 0}, headers=auth(t0 + "x"))
    assert r.status_code == 403 and error_code(r) == "wrong_token"
    r = client.get(url, params={"seat": 3}, headers=auth(t0))
    assert r.status_code == 404 and error_code(r) == "unknown_seat"
    r = client.get(url, params={"seat": -1}, headers=auth(t0))
    assert r.status_code == 404 and error_code(r) == "unknown_seat"
    r = client.get(url, headers=auth(t0))
    assert r.status_code == 400 and error_code(r) == "malformed_request"
    r = client.get(url, params={"seat": "zero"}, headers=auth(t0))
    assert r.status_code == 400 and error_code(r) == "malformed_request"
    r = client.get("/api/games/nope/view", params={"seat": 0}, headers=auth(t0))
    assert r.status_code == 404 and error_code(r) == "unknown_game"
    tokens = {s["seat"]: s["token"] for s in game["seats"]}
    to_act = client.get(f"/api/games/{gid}").json()["to_act"]
    for seat, token in tokens.items():
        v = view(client, gid, seat, token)
        assert v["seat"] == seat and v["state"]["seat"] == seat and v["to_act"] == to_act
        assert ("legal" in v) == (seat == to_act)
    legal = view(client, gid, to_act, tokens[to_act])["legal"]
    state = true_state(client, gid)
    assert legal == [str(a) for a in state.legal_actions()]


# ------------------------------------------------------------------ actions
def test_action_errors_change_nothing(client: TestClient) -> None:
    game = create(client, 3)
    gid = game["game_id"]
    tokens = {s["seat"]: s["token"] for s in game["seats"]}
    before = client.get(f"/api/games/{gid}").json()
    seat = before["to_act"]
    other = (seat + 1) % 3
    url = f"/api/games/{gid}/actions"

    def refused(status: int, code: str, **kwargs: object) -> None:
        r = client.post(url, **kwargs)
        assert r.status_code == status and error_code(r) == code, r.text
        assert r.json()["error"]["message"]
        now = client.get(f"/api/games/{gid}").json()
        assert (now["version"], now["state"]) == (before["version"], before["state"])

    good = {"seat": seat, "action": "open 3 3", "version": 0}
    refused(401, "missing_token", json=good)
    refused(403, "wrong_token", json=good, headers=auth(tokens[other]))
    refused(403, "wrong_token", json={**good, "seat": other}, headers=auth(tokens[seat]))
    refused(404, "unknown_seat", json={**good, "seat": 7}, headers=auth(tokens[seat]))
    refused(409, "stale_version", json={**good, "version": 5}, headers=auth(tokens[seat]))
    refused(409, "not_your_turn", json={**good, "seat": other}, headers=auth(tokens[other]))
    refused(400, "malformed_action", json={**good, "action": "dance wildly"}, headers=auth(tokens[seat]))
    refused(400, "illegal_action", json={**good, "action": "open 3 2"}, headers=auth(tokens[seat]))
    refused(400, "illegal_action", json={**good, "action": "build Köln"}, headers=auth(tokens[seat]))
    refused(400, "malformed_request", json={"seat": seat}, headers=auth(tokens[seat]))
    refused(400, "malformed_request", json={**good, "extra": 1}, headers=auth(tokens[seat]))
    refused(400, "malformed_request", content=b'{"seat": 0, "action": "pass"', headers={
        **auth(tokens[seat]), "content-type": "application/json"})
    refused(413, "body_too_large", json={**good, "action": "x" * 17000}, headers=auth(tokens[seat]))
    r = client.post("/api/games/nope/actions", json=good, headers=auth(tokens[seat]))
    assert r.status_code == 404 and error_code(r) == "unknown_game"
    # and the good one works, once
    r = client.post(url, json=good, headers=auth(tokens[seat]))
    assert r.status_code == 200, r.text
    after = r.json()
    assert after["version"] == 1 and after["seat"] == seat and after["last"]["action"] == "open 3 3"
    assert after["last"]["seat"] == seat and "open 3 3" in after["last"]["text"]
    r = client.post(url, json=good, headers=auth(tokens[seat]))
    assert r.status_code == 409 and error_code(r) == "stale_version"


def test_phase_extras_and_no_secrets_over_a_whole_game(client: TestClient) -> None:
    game = create(client, 2, seed=3)
    gid = game["game_id"]
    seen: list[dict] = []
    final = play(client, game, 5000, seed=2, seen=seen)
    assert final["state"]["game_over"] and final["state"]["winners"]
    assert final["to_act"] is None and "legal" not in final
    builds = [v for v in seen if v.get("legal") and v["state"]["phase"] == 4]
    powers = [v for v in seen if v.get("legal") and v["state"]["phase"] == 5]
    assert builds and all("build_costs" in v for v in builds)
    assert powers and all(v["default_power"] in v["legal"] for v in powers)
    some = next(v for v in builds if any(a.startswith("build") for a in v["legal"]))
    assert {a[len("build "):] for a in some["legal"] if a.startswith("build")} == set(some["build_costs"])
    # replaying every step is expensive: check secrets on a sample against the true state now
    state = true_state(client, gid)
    for v in seen[-50:]:
        assert_no_secrets(v, state)
    houses = final["state"]["houses"]
    assert houses == {state.scn.map.cities[c]: list(seats) for c, seats in enumerate(state.houses) if seats}
    for seat, player in enumerate(final["state"]["players"]):
        assert sorted(c for c, seats in houses.items() if seat in seats) == sorted(player["cities"])
    tail = final["state"]
    assert len(tail["log"]) == len(tail["log_text"]) == LOG_LINES < tail["log_total"]
    history = final["state"]["history"]
    assert len(history["money"]) == len(history["cities"]) >= final["state"]["round"]
    assert history["cities"][-1] == [len(p["cities"]) for p in final["state"]["players"]]
    r = client.post(f"/api/games/{gid}/actions", json={"seat": 0, "action": "pass"},
                    headers=auth(game["seats"][0]["token"]))
    assert r.status_code == 409 and error_code(r) == "game_over"
    assert client.get("/api/games").json()["games"][0]["status"] == "over"
    record = client.get(f"/api/games/{gid}/record").json()  # anyone, once over
    assert record["format"] == "powergrid.game" and record["config"]["seed"] == 3
    replayed = replay(record)
    assert replayed.to_dict() == state.to_dict() == record["final"]


def test_secrets_never_leak_in_early_game(client: TestClient) -> None:
    game = create(client, 4, seed=8)
    gid = game["game_id"]
    tokens = {s["seat"]: s["token"] for s in game["seats"]}
    for step in range(40):
        state = true_state(client, gid)
        for seat, token in tokens.items():
            assert_no_secrets(view(client, gid, seat, token), state)
        assert_no_secrets(client.get(f"/api/games/{gid}").json(), state)
        play(client, game, 1, seed=step)


def test_record_is_refused_to_everyone_while_playing(client: TestClient) -> None:
    game = create(client, 2, [{"kind": "human"}, {"kind": "bot", "bot": "random"}], seed=4)
    gid = game["game_id"]
    play(client, game, 3)
    for headers in ({}, auth("not-a-token"), auth(game["seats"][0]["token"])):
        r = client.get(f"/api/games/{gid}/record", headers=headers)
        assert r.status_code == 409 and error_code(r) == "game_not_over", r.text
        assert set(r.json()) == {"error"}
    assert error_code(client.get("/api/games/nope/record")) == "unknown_game"


def test_record_replays_with_powergrid_show(client: TestClient, tmp_path: object) -> None:
    from pathlib import Path

    from powergrid.cli.common import load_game

    game = create(client, 2, [{"kind": "bot", "bot": "random"}] * 2, seed=9)
    gid = game["game_id"]
    final = wait_over(client, gid)
    path = Path(str(tmp_path)) / "game.json"
    path.write_text(json.dumps(client.get(f"/api/games/{gid}/record").json()))
    assert load_game(path).to_dict() == true_state(client, gid).to_dict()
    assert final["state"]["game_over"]


def wait_over(client: TestClient, gid: str, limit: float = 60) -> dict:
    import time

    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        data = client.get(f"/api/games/{gid}").json()
        if data["state"]["game_over"]:
            return data
        time.sleep(0.05)
    raise AssertionError("the bot game did not finish")


# ------------------------------------------------------------------ bots, snapshots, reloading
def test_all_bot_game_runs_to_the_end(client: TestClient) -> None:
    game = create(client, 3, [{"kind": "bot", "bot": "random"}] * 3, seed=21)
    final = wait_over(client, game["game_id"])
    state = final["state"]
    assert state["winners"] and final["version"] == state["decisions"]
    assert final["last"]["text"]


def test_bots_answer_a_human_at_once(client: TestClient) -> None:
    game = create(client, 3, [{"kind": "human"}, {"kind": "bot", "bot": "random"},
                              {"kind": "bot", "bot": "random"}], seed=5)
    after = play(client, game, 30)
    assert after["version"] >= 30


def test_reload_from_snapshot_and_log(settings: Settings) -> None:
    """A new server on the same database continues the game exactly (snapshot every 20 actions)."""
    with TestClient(create_app(settings)) as c1:
        game = create(c1, 3, seed=6)
        mid = play(c1, game, 47)
        expected = c1.app.state.service.cache[game["game_id"]].state.to_dict()  # type: ignore[attr-defined]
    with TestClient(create_app(settings)) as c2:
        gid = game["game_id"]
        again = c2.get(f"/api/games/{gid}").json()
        assert again["version"] == mid["version"] == 47
        assert again["state"] == mid["state"] or again["state"]["players"] == mid["state"]["players"]
        assert c2.app.state.service.cache[gid].state.to_dict() == expected  # type: ignore[attr-defined]
        assert again["state"]["history"] == mid["state"]["history"]
        seat = again["to_act"]
        token = game["seats"][seat]["token"]
        legal = view(c2, gid, seat, token)["legal"]
        r = c2.post(f"/api/games/{gid}/actions", headers=auth(token),
                    json={"seat": seat, "action": choose(legal, random.Random(0)), "version": 47})
        assert r.status_code == 200 and r.json()["version"] == 48


def test_pages_and_openapi(client: TestClient) -> None:
    for path in ("/", "/game/abc"):
        r = client.get(path)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert client.get("/docs").status_code == 200
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/api/games", "/api/games/{game_id}/actions", "/api/games/{game_id}/view",
            "/api/games/{game_id}/record", "/api/maps/{name}"} <= set(paths)
    r = client.put("/api/games")
    assert r.status_code == 405 and error_code(r) == "method_not_allowed"


def test_every_route_is_described_in_the_openapi(client: TestClient) -> None:
    """Each API operation carries its route's docstring (a statement before the docstring would
    silently drop it from /docs)."""
    paths = client.get("/openapi.json").json()["paths"]
    undescribed = [f"{method.upper()} {path}" for path, ops in paths.items() if path.startswith("/api/")
                   for method, op in ops.items() if not op.get("description")]
    assert undescribed == []
    assert paths["/api/games/{game_id}/actions"]["post"]["description"].startswith("Take an action")
    assert paths["/api/games/{game_id}/view"]["get"]["description"].startswith("A seat's view")


def test_server_stats_count_the_collectors_pauses_and_reset(client: TestClient) -> None:
    import gc

    client.get("/api/server/stats", params={"reset": True})
    # gc.collect() does nothing (no callback) while the server's thread is inside a collection of
    # its own (CPython runs one at a time): ask until two have run, as a collection is rarely that long
    for _ in range(50):
        gc.collect()
        stats = client.get("/api/server/stats").json()
        if stats["gc"]["collections"] >= 2:
            break
    assert stats["gc"]["collections"] >= 2 and stats["gc"]["total_ms"] >= stats["gc"]["max_ms"] > 0
    assert set(stats["loop_lag_ms"]) == {"p50", "p99", "max", "samples"}
    gc.disable()  # no collection of its own between the reset and the look (the server is in-process)
    try:
        client.get("/api/server/stats", params={"reset": True})
        assert client.get("/api/server/stats").json()["gc"]["collections"] == 0
    finally:
        gc.enable()


def test_server_stats_count_the_appends_and_where_they_were_written(client: TestClient,
                                                                   settings: Settings) -> None:
    before = client.get("/api/server/stats").json()["appends"]
    play(client, create(client), 6)
    after = client.get("/api/server/stats").json()["appends"]
    written = after["entries"] - before["entries"]
    commits = after["commits"] - before["commits"]
    assert written == 6 and 1 <= commits <= 6  # one request at a time here: each its own commit
    # SQLite with no flush per commit (the default) writes on the loop; PostgreSQL in a thread
    assert after["on_loop"] - before["on_loop"] == (commits if settings.is_sqlite else 0)
