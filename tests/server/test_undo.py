"""Taking back over the API: the undo route, its named refusals, bots, snapshots, restarts, replays."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import delete, select

import powergrid as pg
from powergrid.server import Settings, create_app
from powergrid.server.games.snapshots import load_frames
from powergrid.server.storage import db

from .conftest import auth, bot_worker, create, error_code, true_state
from .play import view

pytestmark = pytest.mark.timeout(180)


class Table:
    """One game driven through the API, every seat's token at hand."""

    def __init__(self, client: TestClient, game: dict[str, Any]) -> None:
        self.client = client
        self.gid = game["game_id"]
        self.tokens = {s["seat"]: s["token"] for s in game["seats"] if s.get("token")}

    def public(self) -> dict[str, Any]:
        return self.client.get(f"/api/games/{self.gid}").json()  # type: ignore[no-any-return]

    def view(self, seat: int) -> dict[str, Any]:
        return view(self.client, self.gid, seat, self.tokens[seat])

    def to_act(self) -> int:
        return int(self.public()["to_act"])

    def act(self, action: str, seat: int | None = None) -> dict[str, Any]:
        seat = self.to_act() if seat is None else seat
        current = self.view(seat)
        r = self.client.post(f"/api/games/{self.gid}/actions", headers=auth(self.tokens[seat]),
                             json={"seat": seat, "action": action, "version": current["version"]})
        assert r.status_code == 200, r.text
        return r.json()  # type: ignore[no-any-return]

    def undo(self, seat: int, version: int | None = None, token: str | None = None) -> Any:
        if version is None:
            version = self.public()["version"]
        headers = auth(token if token is not None else self.tokens[seat])
        return self.client.post(f"/api/games/{self.gid}/undo", headers=headers,
                                json={"seat": seat, "version": version})

    def calm_step(self) -> dict[str, Any]:
        """The seat to act passes or is done if it may, else takes its first legal action."""
        seat = self.to_act()
        legal = self.view(seat)["legal"]
        calm = [a for a in legal if a in ("pass", "done")]
        return self.act(calm[0] if calm else legal[0], seat)

    def until_phase(self, phase: int) -> None:
        for _ in range(200):
            if self.public()["state"]["phase"] == phase:
                return
            self.calm_step()
        raise AssertionError(f"phase {phase} never came")


def state_json(client: TestClient, gid: str) -> dict[str, Any]:
    return true_state(client, gid).to_dict()  # type: ignore[no-any-return]


def test_undo_of_a_bid_restores_the_state_and_tells_the_seat(client: TestClient) -> None:
    table = Table(client, create(client, 3))
    opener = table.to_act()
    table.act("open 3 3")
    bidder = table.to_act()
    before = state_json(client, table.gid)
    bid = table.act("bid 4")
    assert bid["can_undo"] is True and bid["undo"] == {"actions": ["bid 4"], "refused": None}

    r = table.undo(bidder, bid["version"])
    assert r.status_code == 200, r.text
    reply = r.json()
    assert reply["version"] == bid["version"] + 1  # an entry of its own: history is never deleted
    assert reply["last"] == {"seat": bidder, "action": "undo", "undone": "bid 4",
                             "text": f"P{bidder} takes back 'bid 4'"}
    assert reply["to_act"] == bidder and "bid 4" in reply["legal"]
    assert reply["state"]["auction"]["bid"] == 3
    assert state_json(client, table.gid) == before
    assert reply["can_undo"] is False and reply["undo"]["refused"]["code"] == "not_your_action"

    # the opener saw the bid: too late for it, even though the bid was taken back
    r = table.undo(opener, reply["version"])
    assert r.status_code == 409 and error_code(r) == "another_player_acted"
    assert r.json()["error"]["by"] == bidder and r.json()["error"]["action"] == "open 3 3"
    assert table.public()["version"] == reply["version"]


def test_undo_of_a_build_gives_the_city_and_the_money_back(client: TestClient) -> None:
    table = Table(client, create(client, 3))
    table.until_phase(4)
    seat = table.to_act()
    before = state_json(client, table.gid)
    first = table.view(seat)
    city = next(a for a in first["legal"] if a.startswith("build "))[len("build "):]
    money = first["state"]["players"][seat]["money"]
    built = table.act(f"build {city}", seat)
    assert city in built["state"]["players"][seat]["cities"]
    assert built["state"]["players"][seat]["money"] == money - first["build_costs"][city]
    assert built["can_undo"] is True

    r = table.undo(seat, built["version"])
    assert r.status_code == 200, r.text
    back = r.json()
    assert city not in back["state"]["players"][seat]["cities"]
    assert back["state"]["players"][seat]["money"] == money
    assert state_json(client, table.gid) == before
    assert back["can_undo"] is False and back["undo"]["refused"]["code"] == "not_your_action"


def test_two_builds_are_taken_back_newest_first(client: TestClient) -> None:
    table = Table(client, create(client, 3))
    table.until_phase(4)
    seat = table.to_act()
    first_city = next(a for a in table.view(seat)["legal"] if a.startswith("build "))
    one = table.act(first_city, seat)
    second_city = next(a for a in one["legal"] if a.startswith("build "))
    two = table.act(second_city, seat)
    assert two["undo"]["actions"] == [first_city, second_city]
    r = table.undo(seat, two["version"])
    assert r.json()["last"]["undone"] == second_city and r.json()["undo"]["actions"] == [first_city]
    r = table.undo(seat, r.json()["version"])
    assert r.json()["last"]["undone"] == first_city and r.json()["can_undo"] is False


def test_refused_after_new_information(client: TestClient) -> None:
    table = Table(client, create(client, 3))
    table.act("open 3 3")
    table.act("pass")
    last = table.to_act()
    won = table.act("pass", last)  # the auction ends: plant 3 is bought and a new plant is drawn
    assert any(e[0] == "drawn" for e in won["state"]["log"][-4:])
    assert won["can_undo"] is False
    r = table.undo(last, won["version"])
    assert r.status_code == 409 and error_code(r) == "new_information"
    assert "drawn" in r.json()["error"]["message"]
    # the facts behind the words, for a client that words them itself
    drawn = next(e[1] for e in won["state"]["log"][-4:] if e[0] == "drawn")
    assert r.json()["error"] == {**r.json()["error"], "by": last, "action": "pass", "revealed": "plant",
                                 "plant": drawn}
    assert table.public()["version"] == won["version"]
    mine = table.view(last)
    assert mine["can_undo"] is False and mine["undo"]["refused"]["code"] == "new_information"


def test_refused_for_another_seats_action_and_with_nothing_taken(client: TestClient) -> None:
    table = Table(client, create(client, 3))
    first = table.to_act()
    r = table.undo(first, 0)
    assert r.status_code == 409 and error_code(r) == "nothing_to_undo"
    opened = table.act("open 3 3")
    other = opened["to_act"]
    r = table.undo(other, opened["version"])
    assert r.status_code == 409 and error_code(r) == "not_your_action"
    assert r.json()["error"]["by"] == first and r.json()["error"]["action"] == "open 3 3"
    refused = table.view(other)["undo"]["refused"]  # the view says the same
    assert refused == {"code": "not_your_action", "message": r.json()["error"]["message"], "by": first,
                       "action": "open 3 3"}


def test_refused_when_the_creator_turned_it_off(client: TestClient) -> None:
    game = create(client, 3, allow_undo=False)
    assert game["allow_undo"] is False
    table = Table(client, game)
    seat = table.to_act()
    opened = table.act("open 3 3", seat)
    assert opened["can_undo"] is False and opened["undo"]["refused"]["code"] == "undo_off"
    assert opened["state"]["allow_undo"] is False
    r = table.undo(seat, opened["version"])
    assert r.status_code == 403 and error_code(r) == "undo_off"
    assert table.public()["version"] == opened["version"]
    # the default is on, and says so
    assert create(client, 3)["allow_undo"] is True


def test_stale_version_wrong_token_and_bad_bodies_change_nothing(client: TestClient) -> None:
    table = Table(client, create(client, 3))
    seat = table.to_act()
    opened = table.act("open 3 3", seat)
    v = opened["version"]
    r = table.undo(seat, v - 1)
    assert r.status_code == 409 and error_code(r) == "stale_version"
    r = table.undo(seat, v + 5)
    assert r.status_code == 409 and error_code(r) == "stale_version"
    other = next(s for s in table.tokens if s != seat)
    r = table.undo(seat, v, token=table.tokens[other])
    assert r.status_code == 403 and error_code(r) == "wrong_token"
    r = client.post(f"/api/games/{table.gid}/undo", json={"seat": seat, "version": v})
    assert r.status_code == 401 and error_code(r) == "missing_token"
    r = client.post(f"/api/games/{table.gid}/undo", headers=auth(table.tokens[seat]), json={"seat": seat})
    assert r.status_code == 400 and error_code(r) == "malformed_request"
    r = client.post("/api/games/nosuchgame/undo", headers=auth(table.tokens[seat]),
                    json={"seat": seat, "version": v})
    assert r.status_code == 404 and error_code(r) == "unknown_game"
    assert table.public()["version"] == v
    assert table.view(seat)["can_undo"] is True
    # a second click on the same version: the first takes the action back, the second is stale
    assert table.undo(seat, v).status_code == 200
    r = table.undo(seat, v)
    assert r.status_code == 409 and error_code(r) == "stale_version"


def test_undo_reaches_the_sockets(client: TestClient) -> None:
    table = Table(client, create(client, 3))
    seat = table.to_act()
    with client.websocket_connect(f"/api/games/{table.gid}/ws") as ws:
        assert ws.receive_json()["version"] == 0
        table.act("open 3 5", seat)
        assert ws.receive_json()["version"] == 1
        assert table.undo(seat, 1).status_code == 200
        pushed = ws.receive_json()
        assert pushed["version"] == 2 and pushed["last"]["action"] == "undo"
        assert pushed["to_act"] == seat
        assert "can_undo" not in pushed  # spectators are not told about seats' undo windows


def test_a_queued_bot_turn_is_dropped_after_an_undo(settings: Settings) -> None:
    with TestClient(create_app(settings)) as client, bot_worker(settings) as worker:
        game = create(client, 2, seats=[{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}],
                      seed=5, bot_pace_ms=1500)
        table = Table(client, game)
        deadline = time.time() + 30
        while table.to_act() != 0:  # the bot may open the game
            assert time.time() < deadline
            time.sleep(0.05)
        current = table.view(0)
        opened = table.act(next(a for a in current["legal"] if a.startswith(("open ", "bid "))), 0)
        assert opened["to_act"] == 1 and opened["can_undo"]  # the bot's turn is queued, paced
        r = table.undo(0, opened["version"])
        assert r.status_code == 200, r.text
        undone = r.json()["version"]
        engine = client.app.state.service.store.engine  # type: ignore[attr-defined]
        jobs = db.jobs
        while True:  # the bot's job for the version the undo took is done without a move
            with engine.connect() as conn:
                row = conn.execute(select(jobs.c.status, jobs.c.result).where(
                    jobs.c.game_id == table.gid, jobs.c.version == opened["version"])).first()
            if row is not None and row.status == "done":
                break
            assert time.time() < deadline + 10, row
            time.sleep(0.05)
        assert "skipped" in row.result
        assert worker.done >= 1
        now = table.public()
        assert now["version"] == undone and now["to_act"] == 0
        # and the game goes on: the human acts, the bot answers
        again = table.act(next(a for a in table.view(0)["legal"] if a.startswith(("open ", "bid "))), 0)
        while table.public()["version"] == again["version"]:
            assert time.time() < deadline + 30
            time.sleep(0.05)
        assert table.public()["last"]["seat"] == 1


def play_with_undos(table: Table, steps: int, seed: int) -> list[str]:
    """Random play where a seat that may take back does so a third of the time; the log entries."""
    rng = random.Random(seed)
    for _ in range(steps):
        current = table.public()
        if current["state"]["game_over"]:
            break
        seat = current["to_act"]
        mine = table.view(seat)
        last = current["last"]
        if last is not None and last["seat"] in table.tokens:
            theirs = table.view(last["seat"])
            if theirs["can_undo"] and rng.random() < 0.35:
                assert table.undo(last["seat"], theirs["version"]).status_code == 200
                continue
        legal = mine["legal"]
        builds = [a for a in legal if a.startswith("build ")]
        action = rng.choice(builds) if builds and rng.random() < 0.7 else rng.choice(legal)
        table.act(action, seat)
    store = table.client.app.state.service.store  # type: ignore[attr-defined]
    return [text for _seq, _seat, text in store.actions_after(table.gid, 0)]


@pytest.mark.parametrize("every", [1, 7])
def test_a_stored_game_with_undos_replays_to_the_live_state(database_url: str, every: int) -> None:
    from powergrid.server.common.limits import Limits
    settings = Settings(database_url=database_url, redis_url=None, snapshot_every=every, bot_pace_ms=0,
                        poll_ms=10, idle_expiry_hours=0, limits=Limits(requests_per_second=0))
    with TestClient(create_app(settings)) as client:
        table = Table(client, create(client, 3, seed=21))
        log = play_with_undos(table, 160, seed=every)
        assert log.count("undo") >= 5
        service = client.app.state.service  # type: ignore[attr-defined]
        live = service.cache.get(table.gid)
        row = service.store.game(table.gid)
        config = pg.GameConfig.from_dict(row.config)
        replayed = pg.replay_log(config, log)
        assert replayed.state.to_dict() == live.state.to_dict()
        assert replayed.ledger == live.latest.ledger
        time.sleep(0.3)  # snapshots are saved in the background
        loaded = load_frames(service.store, row)[-1]  # from the latest snapshot (every `every` entries)
        assert loaded.version == live.version == len(log)
        assert loaded.state.to_dict() == live.state.to_dict() and loaded.ledger == live.latest.ledger
        assert loaded.history == live.latest.history
        with service.store.engine.begin() as conn:
            conn.execute(delete(db.snapshots).where(db.snapshots.c.game_id == table.gid))
        from_start = load_frames(service.store, row)[-1]
        assert from_start.state.to_dict() == live.state.to_dict() and from_start.ledger == live.latest.ledger
        # the replay viewer steps through the standing actions: its last step is the game now
        index = client.get(f"/api/games/{table.gid}/replay").json()
        assert index["steps"] == len(live.state.actions_taken()) < len(log)
        end = client.get(f"/api/games/{table.gid}/replay/{index['steps']}").json()
        assert end["state"]["players"] == table.public()["state"]["players"]


@pytest.mark.parametrize("every", [1, 50])
def test_after_a_restart_the_undo_window_is_restored(database_url: str, every: int) -> None:
    from powergrid.server.common.limits import Limits
    settings = Settings(database_url=database_url, redis_url=None, snapshot_every=every, bot_pace_ms=0,
                        poll_ms=10, idle_expiry_hours=0, limits=Limits(requests_per_second=0))
    with TestClient(create_app(settings)) as client:
        table = Table(client, create(client, 3))
        table.until_phase(4)
        seat = table.to_act()
        before = state_json(client, table.gid)
        one = table.act(next(a for a in table.view(seat)["legal"] if a.startswith("build ")), seat)
        two = table.act(next(a for a in one["legal"] if a.startswith("build ")), seat)
        time.sleep(0.2)  # the snapshot (every entry with every=1) is saved in the background
    with TestClient(create_app(settings)) as client:  # a new process: nothing in memory
        table.client = client
        mine = table.view(seat)
        assert mine["version"] == two["version"] and mine["undo"]["actions"] == two["undo"]["actions"]
        assert table.undo(seat, mine["version"]).status_code == 200
        client.app.state.service.cache.forget(table.gid)  # type: ignore[attr-defined]
        r = table.undo(seat, mine["version"] + 1)
        assert r.status_code == 200, r.text
        assert state_json(client, table.gid) == before
        client.app.state.service.cache.forget(table.gid)  # type: ignore[attr-defined]
        r = table.undo(seat, mine["version"] + 2)  # the action before the builds was another seat's
        assert r.status_code == 409 and error_code(r) == "not_your_action"


def test_the_replay_viewer_reads_a_record_with_undo_entries(client: TestClient) -> None:
    config = pg.GameConfig(map="germany", players=3, seed=4)
    timeline = pg.Timeline(config)
    timeline.apply("open 3 3")
    timeline.apply("undo")
    timeline.apply("open 4 4")
    record = {"config": config.to_dict(), "actions": timeline.log}
    r = client.post("/api/replay", json={"record": record, "index": True})
    assert r.status_code == 200, r.text
    assert r.json()["steps"] == 1 and r.json()["index"][0][4] == "open 4 4"
    bad = {"config": config.to_dict(), "actions": ["undo"]}
    r = client.post("/api/replay", json={"record": bad})
    assert r.status_code == 422 and error_code(r) == "invalid_record"
