"""Clocks and absent players over the API (SQLite and PostgreSQL): clocks reproduced from the stored
times after a restart and by a second process, time-outs handing seats to the stand-in, Leave,
taking a seat back, the deadline racing an action, sockets gone, abandoned games.

The server's clock is a ManualClock: time passes when a test says so. A deadline job is due at
its deadline by the machine's clock, so a test that moves the server's clock past a deadline makes
the queued deadline jobs due (``deadlines_due``) for the worker to claim."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import orjson
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from powergrid.server import Settings, create_app
from powergrid.server.common.clock import ManualClock
from powergrid.server.games import absence, clocks
from powergrid.server.storage import db

from .conftest import auth, bot_worker, create, error_code
from .play import view
from .waiting import wait_for

pytestmark = pytest.mark.timeout(180)

LIVE_60 = {"kind": "live", "bank_s": 60, "increment_s": 5}


@pytest.fixture
def timed(settings: Settings) -> Settings:
    return replace(settings, clock=ManualClock(1_800_000_000.0), absence_grace_s=0.2)



def deadlines_due(settings: Settings) -> int:
    """The machine's clock catches up with the server's: queued deadline jobs are due now."""
    engine = db.make_engine(settings.database_url)
    try:
        with engine.begin() as conn:
            return int(conn.execute(update(db.jobs).where(db.jobs.c.kind == absence.DEADLINE,
                                                          db.jobs.c.status == "queued")
                                    .values(not_before=0)).rowcount or 0)
    finally:
        engine.dispose()


def log_of(settings: Settings, gid: str) -> list[tuple[int, int, str]]:
    engine = db.make_engine(settings.database_url)
    try:
        with engine.connect() as conn:
            a = db.actions
            return [tuple(r) for r in conn.execute(select(a.c.seq, a.c.seat, a.c.action)
                                                   .where(a.c.game_id == gid).order_by(a.c.seq))]
    finally:
        engine.dispose()


class Table:
    def __init__(self, client: TestClient, game: dict[str, Any], clock: ManualClock) -> None:
        self.client, self.clock = client, clock
        self.gid = game["game_id"]
        self.tokens = {s["seat"]: s["token"] for s in game["seats"] if s.get("token")}

    def public(self) -> dict[str, Any]:
        return self.client.get(f"/api/games/{self.gid}").json()  # type: ignore[no-any-return]

    def view(self, seat: int) -> dict[str, Any]:
        return view(self.client, self.gid, seat, self.tokens[seat])

    def post(self, seat: int, action: str, version: int | None = None) -> Any:
        if version is None:
            version = self.public()["version"]
        return self.client.post(f"/api/games/{self.gid}/actions", headers=auth(self.tokens[seat]),
                                json={"seat": seat, "action": action, "version": version})

    def act(self, action: str | None = None, think: float = 0.0) -> dict[str, Any]:
        """The seat to act takes ``action`` (default: pass/done if it may, else its first legal one)
        after thinking ``think`` seconds of the server's clock."""
        seat = self.public()["to_act"]
        legal = self.view(seat)["legal"]
        if action is None:
            calm = [a for a in legal if a in ("pass", "done")]
            action = calm[0] if calm else legal[0]
        self.clock.advance(think)
        r = self.post(seat, action)
        assert r.status_code == 200, r.text
        return r.json()  # type: ignore[no-any-return]

    def seat_call(self, route: str, seat: int) -> Any:
        return self.client.post(f"/api/games/{self.gid}/{route}", headers=auth(self.tokens[seat]),
                                json={"seat": seat})

    def clocks(self) -> dict[str, Any]:
        return self.public()["clocks"]  # type: ignore[no-any-return]


def run_out(table: Table, timed: Settings, seat: int) -> tuple[int, list[tuple[int, int, str]]]:
    """The seat to act thinks until its deadline and the deadline job runs: the version before, and
    the log once it holds the time-out notice and the stand-in's move after it."""
    version = table.public()["version"]
    timed.clock.advance(table.clocks()["seats"][seat]["left_s"])  # to the deadline
    deadlines_due(timed)
    wait_for(lambda: len(log_of(timed, table.gid)) > version + 1)  # the notice, then the stand-in's move
    log = log_of(timed, table.gid)
    assert log[version] == (version + 1, seat, "@stand-in time")
    return version, log


@pytest.fixture
def app_and_worker(timed: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(timed)) as client, bot_worker(timed):
        yield client


def new_table(client: TestClient, settings: Settings, players: int = 2, bots: int = 0,
              time_control: dict[str, Any] | None = None, **extra: Any) -> Table:
    seats = [{"kind": "human"}] * (players - bots) + [{"kind": "bot", "bot": "random"}] * bots
    game = create(client, players, seats, seed=31, time_control=time_control or LIVE_60, **extra)
    assert isinstance(settings.clock, ManualClock)
    return Table(client, game, settings.clock)


# ---------------------------------------------------------------------- clocks from stored times
def test_clocks_are_the_stored_times_after_a_restart_and_in_a_second_process(timed: Settings) -> None:
    timed = replace(timed, snapshot_every=5)  # the restart loads from a snapshot, the clocks from the log
    with TestClient(create_app(timed)) as client:
        table = new_table(client, timed, 3, time_control={"kind": "live", "bank_s": 600, "increment_s": 10})
        first = table.public()["to_act"]
        assert table.clocks()["running"] == first and table.clocks()["deadline"] == timed.clock.now() + 600
        thinking = [7.25, 3.5, 11.0, 0.5, 2.0, 9.75, 4.0, 1.25]
        spent = [0.0, 0.0, 0.0]
        gains = [0, 0, 0]
        for think in thinking:
            seat = table.public()["to_act"]
            table.act(think=think)
            spent[seat] += think
            gains[seat] += 10
        shown = table.clocks()
        for seat in range(3):
            expected = 600 - spent[seat] + gains[seat]
            if shown["running"] == seat:
                assert shown["deadline"] == pytest.approx(timed.clock.now() + expected, abs=1e-6)
            assert shown["seats"][seat]["left_s"] == pytest.approx(expected, abs=1e-3)
        before = client.get(f"/api/games/{table.gid}").json()
        record_clocks = client.app.state.service.cache.get(table.gid).latest.clock  # type: ignore[attr-defined]
        # another web process (its own cache) sees the same clocks, while this one runs
        with TestClient(create_app(timed)) as other:
            assert other.get(f"/api/games/{table.gid}").json()["clocks"] == before["clocks"]
    with TestClient(create_app(timed)) as again:  # a restart: loaded from the snapshot and the log
        after = again.get(f"/api/games/{table.gid}").json()
        assert after["version"] == before["version"] and after["clocks"] == before["clocks"]
        service = again.app.state.service  # type: ignore[attr-defined]
        loaded = service.cache.get(table.gid).latest.clock
        assert loaded == record_clocks
        row = service.store.game(table.gid)
        replayed = clocks.replay(absence.first_clocks(row), service.store.entries_after(table.gid, 0))
        assert replayed == record_clocks  # the log alone, without the game


# ---------------------------------------------------------------------- time-outs and stand-ins
def test_a_timed_out_seat_is_played_by_the_stand_in_until_its_person_takes_it_back(
        app_and_worker: TestClient, timed: Settings) -> None:
    client = app_and_worker
    table = new_table(client, timed, 3, bots=1)
    wait_for(lambda: table.public()["to_act"] in table.tokens)
    seat, version = table.public()["to_act"], table.public()["version"]
    timed.clock.advance(59)
    assert deadlines_due(timed) >= 1
    # the worker claims the deadline too early by the server's clock: it is put back, nothing changes
    wait_for(lambda: _deadline_due_at(timed, table.gid, version) > 0)
    assert table.public()["version"] == version and table.clocks()["seats"][seat]["stand_in"] is None
    timed.clock.advance(2)  # past the 60 s
    deadlines_due(timed)
    wait_for(lambda: table.clocks()["seats"][seat]["stand_in"] == "time")
    log = log_of(timed, table.gid)
    assert log[version] == (version + 1, seat, "@stand-in time")
    # the stand-in plays the seat's turns (a bot worker's moves), as the seat
    wait_for(lambda: any(s == seat and not a.startswith("@")
                         for _v, s, a in log_of(timed, table.gid)[version + 1:]))
    r = table.post(seat, "pass")
    assert r.status_code == 409 and error_code(r) == "seat_taken_over"
    # the person takes the seat back: at least a minute in the bank, and the bots wait for them
    r = table.seat_call("return", seat)
    assert r.status_code == 200, r.text
    assert r.json()["last"]["action"] == "@back"
    shown = r.json()["clocks"]
    assert shown["seats"][seat]["stand_in"] is None and shown["seats"][seat]["left_s"] >= 60
    assert error_code(table.seat_call("return", seat)) == "seat_not_taken_over"
    wait_for(lambda: table.public()["to_act"] in table.tokens)
    now = table.public()
    to_act = now["to_act"]
    queued = _jobs_at(timed, table.gid, now["version"])
    assert [kind for kind, _ in queued] == ["deadline"], queued  # a person's deadline, no bot's turn
    record = table.client.get(f"/api/games/{table.gid}/record")
    assert record.status_code == 409  # still in play
    assert to_act in table.tokens


def _deadline_due_at(settings: Settings, gid: str, version: int) -> float:
    """The not-before time of the queued deadline job at ``version`` (0: made due, not yet looked at)."""
    engine = db.make_engine(settings.database_url)
    try:
        with engine.connect() as conn:
            j = db.jobs
            found = conn.execute(select(j.c.not_before).where(
                j.c.kind == absence.DEADLINE, j.c.game_id == gid, j.c.version == version,
                j.c.status == "queued")).scalar()
            return float(found or 0)
    finally:
        engine.dispose()


def _jobs_at(settings: Settings, gid: str, version: int) -> list[tuple[str, str]]:
    engine = db.make_engine(settings.database_url)
    try:
        with engine.connect() as conn:
            j = db.jobs
            return [(r.kind, r.status) for r in conn.execute(
                select(j.c.kind, j.c.status).where(j.c.game_id == gid, j.c.version == version))]
    finally:
        engine.dispose()


def test_an_action_after_the_deadline_is_refused_and_hands_the_seat_over(timed: Settings) -> None:
    with TestClient(create_app(timed)) as client:  # no worker: the web process sees the deadline itself
        table = new_table(client, timed, 2)
        seat, version = table.public()["to_act"], table.public()["version"]
        legal = table.view(seat)["legal"]
        timed.clock.advance(60)  # exactly at the deadline: too late
        r = table.post(seat, legal[0], version)
        assert r.status_code == 409 and error_code(r) == "seat_taken_over"
        assert log_of(timed, table.gid) == [(1, seat, "@stand-in time")]
        assert _jobs_at(timed, table.gid, version + 1) == [("bot_turn", "queued")]  # the stand-in's turn


def test_leave_hands_the_seat_over_and_every_person_leaving_abandons_the_game(
        app_and_worker: TestClient, timed: Settings) -> None:
    client = app_and_worker
    table = new_table(client, timed, 3, bots=1, time_control={"kind": "none"}, stand_in="random")
    people = sorted(table.tokens)
    assert table.clocks()["kind"] == "none" and table.clocks()["stand_in_bot"] == "random"
    r = table.seat_call("leave", people[0])
    assert r.status_code == 200, r.text
    assert r.json()["last"]["text"] == f"P{people[0]} left: the random bot plays for P{people[0]}"
    assert error_code(table.seat_call("leave", people[0])) == "seat_taken_over"
    # only the other person is waited for: the game goes on to their turn
    wait_for(lambda: table.public()["to_act"] == people[1])
    lobby = {g["game_id"]: g for g in client.get("/api/games").json()["games"]}
    assert lobby[table.gid]["status"] in ("playing", "waiting")  # not abandoned: a person is left
    r = table.seat_call("leave", people[1])
    assert r.status_code == 200
    over = table.public()
    assert over["clocks"]["abandoned"] is True
    version = over["version"]
    assert error_code(table.post(people[1], "pass", version)) == "game_over"
    assert error_code(table.seat_call("return", people[0])) == "game_over"
    assert table.public()["version"] == version  # nothing more is played
    wait_for(lambda: {g["game_id"]: g for g in client.get("/api/games").json()["games"]}[table.gid]["status"]
             == "abandoned")
    record = client.get(f"/api/games/{table.gid}/record")
    assert record.status_code == 200  # abandoned: over for good, the record (and seed) may be given out
    assert [n["notice"] for n in record.json()["notices"]] == ["@stand-in left", "@stand-in left"]
    assert record.json()["abandoned"] is True


# ---------------------------------------------------------------------- the race
@pytest.mark.parametrize("first", ["deadline", "action"])
def test_the_deadline_and_an_action_at_the_same_moment_never_both_happen(timed: Settings, first: str) -> None:
    """The deadline job fires while a person's action is between its checks and its append (or just
    after it was written): exactly one of them is in the log, the other is refused or skipped."""
    from powergrid.server.bots.bot_worker import BotWorker

    with TestClient(create_app(timed)) as client:
        table = new_table(client, timed, 2)
        seat, version = table.public()["to_act"], table.public()["version"]
        action = table.view(seat)["legal"][0]
        timed.clock.advance(59.999)  # the action arrives just before the deadline
        service = client.app.state.service  # type: ignore[attr-defined]
        worker = BotWorker(timed, ["quick"], name="race-worker")

        def fire_deadline() -> None:
            timed.clock.advance(0.002)  # the deadline comes while the action is on its way
            deadlines_due(timed)
            job = worker.queue.claim(worker.name, ["quick"])
            assert job is not None and job.kind == absence.DEADLINE
            worker.work(job)

        appends = service.appends
        original = appends.append

        async def racing(move: Any) -> bool:
            if first == "deadline":
                await asyncio.to_thread(fire_deadline)
                return await original(move)
            ok = await original(move)
            await asyncio.to_thread(fire_deadline)
            return ok

        appends.append = racing
        try:
            r = table.post(seat, action, version)
        finally:
            appends.append = original
            worker.engine.dispose()
        log = log_of(timed, table.gid)
        if first == "deadline":
            assert r.status_code == 409 and error_code(r) == "seat_taken_over"
            assert log == [(version + 1, seat, "@stand-in time")]
            assert table.clocks()["seats"][seat]["stand_in"] == "time"
        else:
            assert r.status_code == 200, r.text
            assert log == [(version + 1, seat, action)]
            assert table.clocks()["seats"][seat]["stand_in"] is None
        assert _jobs_at(timed, table.gid, version) == [("deadline", "done")]  # claimed once, finished


def test_each_entry_finishes_the_deadlines_it_passed_so_one_a_game_is_queued(timed: Settings) -> None:
    """A deadline queued at an earlier version could only be skipped: the entry that moves the game
    on marks it done in its own transaction, and the queue holds one deadline per game."""
    with TestClient(create_app(timed)) as client:  # no worker: nothing claims a deadline meanwhile
        table = new_table(client, timed, 3)
        for _ in range(8):
            table.act(think=1.0)
        version = table.public()["version"]
        engine = db.make_engine(timed.database_url)
        try:
            with engine.connect() as conn:
                j = db.jobs
                rows = conn.execute(select(j.c.version, j.c.status).where(
                    j.c.kind == absence.DEADLINE, j.c.game_id == table.gid).order_by(j.c.version)).all()
        finally:
            engine.dispose()
        assert [tuple(r) for r in rows if r.status == "queued"] == [(version, "queued")]
        assert {r.status for r in rows if r.version < version} == {"done"}
        assert len(rows) == version + 1  # one for each position a person was to act at
        # the one still queued fires as before: the seat goes to its stand-in
        timed.clock.advance(table.clocks()["deadline"] - timed.clock.now())
        seat = table.public()["to_act"]
        r = table.post(seat, table.view(seat)["legal"][0], version)
        assert r.status_code == 409 and error_code(r) == "seat_taken_over"


# ---------------------------------------------------------------------- correspondence, sockets
def test_a_correspondence_turn_runs_into_the_vacation_before_the_stand_in(app_and_worker: TestClient,
                                                                          timed: Settings) -> None:
    client = app_and_worker
    table = new_table(client, timed, 2, time_control={"kind": "correspondence", "turn_s": 3600,
                                                      "vacation_s": 7200})
    seat = table.public()["to_act"]
    timed.clock.advance(3600 + 1800)  # half an hour over the turn: from the vacation
    deadlines_due(timed)
    wait_for(lambda: _deadline_due_at(timed, table.gid, 0) > 0)  # too early: put back
    assert table.clocks()["seats"][seat]["stand_in"] is None
    table.act()
    shown = table.clocks()
    assert shown["seats"][seat]["vacation_s"] == pytest.approx(5400)
    other = shown["running"]
    assert other != seat and shown["deadline"] == pytest.approx(timed.clock.now() + 3600 + 7200)
    timed.clock.advance(3600 + 7200)
    deadlines_due(timed)
    wait_for(lambda: table.clocks()["seats"][other]["stand_in"] == "time")


def test_a_live_seat_whose_sockets_are_gone_is_played_until_it_reconnects(app_and_worker: TestClient,
                                                                          timed: Settings) -> None:
    client = app_and_worker
    table = new_table(client, timed, 2)
    seat = sorted(table.tokens)[1]

    def connect() -> Any:
        ws = client.websocket_connect(f"/api/games/{table.gid}/ws?seat={seat}")
        socket = ws.__enter__()
        socket.send_json({"type": "auth", "token": table.tokens[seat]})
        assert socket.receive_json()["type"] == "state"
        return ws

    ws = connect()
    ws.__exit__(None, None, None)
    wait_for(lambda: table.clocks()["seats"][seat]["stand_in"] == "away")
    notices = [(s, a) for _v, s, a in log_of(timed, table.gid) if a.startswith("@")]
    assert notices == [(seat, "@stand-in away")]  # (the stand-in may have moved for it since)
    ws = connect()  # back: the seat is theirs again without a button
    wait_for(lambda: table.clocks()["seats"][seat]["stand_in"] is None)
    notices = [(s, a) for _v, s, a in log_of(timed, table.gid) if a.startswith("@")]
    assert notices == [(seat, "@stand-in away"), (seat, "@back")]
    ws.__exit__(None, None, None)


def test_bad_clock_requests_are_refused_by_name(timed: Settings) -> None:
    with TestClient(create_app(timed)) as client:
        for body in ({"time_control": {"kind": "live", "bank_s": 1}}, {"time_control": {"kind": "sudden"}},
                     {"time_control": {"kind": "live", "turn_s": 600}}, {"stand_in": "nobody"}):
            r = client.post("/api/games", json={"players": 2, **body})
            assert r.status_code == 422 and error_code(r) == "invalid_config", (body, r.text)
        table = new_table(client, timed, 2)
        seat = sorted(table.tokens)[0]
        r = client.post(f"/api/games/{table.gid}/leave", headers=auth(table.tokens[1 - seat]),
                        json={"seat": seat})
        assert error_code(r) == "wrong_token"
        assert error_code(table.seat_call("return", seat)) == "seat_not_taken_over"
        assert log_of(timed, table.gid) == []
        assert client.get("/api/clock").json()["now"] == timed.clock.now()
        lobby = client.get("/api/games").json()["games"]
        assert lobby[0]["time_control"] == {"kind": "live", "bank_s": 60.0, "increment_s": 5.0}


DECISIONS = {"opener": lambda v: any(a.startswith("open") for a in v["legal"]),
             "bidder": lambda v: any(a.startswith("bid") for a in v["legal"]),
             "resources": lambda v: v["state"]["phase"] == 3, "build": lambda v: v["state"]["phase"] == 4,
             "power": lambda v: v["state"]["phase"] == 5}


@pytest.mark.parametrize("decision", list(DECISIONS))
def test_a_time_out_in_each_kind_of_decision_hands_it_to_the_stand_in(
        app_and_worker: TestClient, timed: Settings, decision: str) -> None:
    client = app_and_worker
    table = new_table(client, timed, 2)
    for _ in range(300):
        seat = table.public()["to_act"]
        if DECISIONS[decision](table.view(seat)):
            break
        table.act()
    else:
        raise AssertionError(f"no {decision} decision came")
    version, log = run_out(table, timed, seat)
    assert log[version + 1][1] == seat and not log[version + 1][2].startswith("@")
    r = table.seat_call("return", seat)
    assert r.status_code == 200, r.text
    assert r.json()["clocks"]["seats"][seat]["stand_in"] is None


def _buyer_policy(view: dict[str, Any], seat: int, buyer: int) -> str:
    """``buyer`` opens the cheapest plant whenever it may and lets others' auctions go; everybody
    else buys only when the rules make them (round 1) and passes or is done otherwise: ``buyer``
    gains a plant every round, and must discard over the limit in round 4 (3 players: 3 plants)."""
    legal = view["legal"]
    opens = sorted((int(a.split()[1]), int(a.split()[2]), a) for a in legal if a.startswith("open"))
    if seat == buyer and opens:
        return opens[0][2]
    calm = [a for a in legal if a in ("pass", "done")]
    if calm:
        return calm[0]
    return opens[0][2] if opens else legal[0]


def test_a_time_out_in_a_discard_hands_it_to_the_stand_in(app_and_worker: TestClient,
                                                          timed: Settings) -> None:
    client = app_and_worker
    table = new_table(client, timed, 3)
    buyer = 0
    for _ in range(400):
        seat = table.public()["to_act"]
        view = table.view(seat)
        if any(a.startswith("discard") for a in view["legal"]):
            break
        table.act(_buyer_policy(view, seat, buyer))
    else:
        raise AssertionError("no discard decision came")
    assert seat == buyer and len(view["state"]["players"][seat]["plants"]) == 4
    version, log = run_out(table, timed, seat)
    assert log[version + 1][1] == seat and log[version + 1][2].startswith("discard ")
    assert len(table.view(seat)["state"]["players"][seat]["plants"]) == 3
    r = table.seat_call("return", seat)
    assert r.status_code == 200, r.text
    assert r.json()["clocks"]["seats"][seat]["stand_in"] is None


def test_an_untimed_games_clocks_move_only_version_time_and_seat_to_act_until_a_notice() -> None:
    start = clocks.Clocks.of_game({"started_at": 100.0, "first": 0}, 3, frozenset({0, 1}))
    moved = start.after(0, "open 3 3", 105.0, 1).after(1, "pass", None, 2)
    assert moved == replace(start, version=2, at=105.0, to_act=2)
    assert moved.shown["running"] is None and moved.shown["at"] is None
    assert orjson.loads(moved.shown_json) == moved.shown
    assert moved.shown_json is start.shown_json  # nothing shown moved: encoded once for every version
    handed = moved.after(1, "@stand-in left", 110.0, 2)
    assert handed.stand_ins == (None, "left", None) and handed.notices == ((3, 1, "@stand-in left", 110.0),)
    back = handed.after(1, "@back", 120.0, 2).after(2, "pass", 121.0, 0)
    assert back.stand_ins == (None, None, None) and back.version == 5 and back.at == 121.0
    notices = [[3, 1, "@stand-in left", 110.0], [4, 1, "@back", 120.0]]
    assert orjson.loads(back.shown_json)["notices"] == notices
