"""The undo window against bots (SQLite and PostgreSQL): after a person's action that they may take
back, the bot to act next waits until its window has passed; an undo inside it takes the action
back and the bots then play on; a window of 0 keeps the bots' pace alone; refusals carry their facts.

The server's clock is a ManualClock: the window passes when a test moves it. A held bot turn is due
at the window's end by the machine's clock too, so a test makes it due (``make_due``) for the worker
to look at it by the server's clock: early, it is put back until the end."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update

import powergrid as pg
from powergrid.server import Settings, create_app
from powergrid.server.common.clock import ManualClock
from powergrid.server.games import undo_window
from powergrid.server.games.bot_turns import BOT_TURN
from powergrid.server.games.frames import advance, first_frame
from powergrid.server.storage import db
from powergrid.server.storage.jobs import QUICK, JobSpec

from .conftest import auth, bot_worker, create, error_code, run_migration
from .play import view
from .waiting import wait_for

pytestmark = pytest.mark.timeout(180)

WINDOW_MS = 60_000  # long: only the test's clock ends it (the machine's clock would take a minute)



def wait_until(read: Callable[[], Any], ok: Callable[[Any], bool]) -> Any:
    """Poll ``read()`` until its value is ``ok``; that value."""
    found: list[Any] = []

    def check() -> bool:
        found[:] = [read()]
        return ok(found[0])

    wait_for(check)
    return found[0]


@pytest.fixture
def windowed(settings: Settings) -> Settings:
    return replace(settings, clock=ManualClock(), undo_window_ms=WINDOW_MS, bot_pace_ms=0)


class BotTable:
    """A person (seat 0) against a bot (seat 1), through the API, with a worker playing the bot."""

    def __init__(self, client: TestClient, settings: Settings, **extra: Any) -> None:
        self.client, self.settings = client, settings
        game = create(client, 2, seats=[{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}], seed=5,
                      **extra)
        self.gid = game["game_id"]
        self.token = game["seats"][0]["token"]
        self.engine = client.app.state.service.store.engine  # type: ignore[attr-defined]

    def public(self) -> dict[str, Any]:
        return self.client.get(f"/api/games/{self.gid}").json()  # type: ignore[no-any-return]

    def mine(self) -> dict[str, Any]:
        return view(self.client, self.gid, 0, self.token)

    def my_turn(self) -> dict[str, Any]:
        """Seat 0's view once it is to act (the bot may open the game)."""
        return wait_until(self.mine, lambda v: v["to_act"] == 0)  # type: ignore[no-any-return]

    def act(self, action: str, version: int) -> dict[str, Any]:
        r = self.client.post(f"/api/games/{self.gid}/actions", headers=auth(self.token),
                             json={"seat": 0, "action": action, "version": version})
        assert r.status_code == 200, r.text
        return r.json()  # type: ignore[no-any-return]

    def undo(self, version: int) -> Any:
        return self.client.post(f"/api/games/{self.gid}/undo", headers=auth(self.token),
                                json={"seat": 0, "version": version})

    def job(self, version: int) -> Any:
        """The bot's turn queued at ``version`` (its row), or None."""
        j = db.jobs
        with self.engine.connect() as conn:
            return conn.execute(select(j).where(j.c.game_id == self.gid, j.c.version == version,
                                                j.c.kind == BOT_TURN)).first()

    def make_due(self, version: int) -> None:
        """The machine's clock catches up with the job: a worker may take it now."""
        j = db.jobs
        with self.engine.begin() as conn:
            conn.execute(update(j).where(j.c.game_id == self.gid, j.c.version == version,
                                         j.c.kind == BOT_TURN, j.c.status == "queued").values(not_before=0))


def opening(current: dict[str, Any]) -> str:
    """An action that makes the bot to act next: opening an auction (or raising the bid)."""
    return next(a for a in current["legal"] if a.startswith(("open ", "bid ")))


def test_the_bot_waits_until_the_persons_undo_window_has_passed(windowed: Settings) -> None:
    clock = windowed.clock
    assert isinstance(clock, ManualClock)
    with TestClient(create_app(windowed)) as client, bot_worker(windowed):
        table = BotTable(client, windowed)
        current = table.my_turn()
        acted = clock.now()
        mine = table.act(opening(current), current["version"])
        version = mine["version"]
        assert mine["to_act"] == 1 and mine["can_undo"]
        until = acted + WINDOW_MS / 1000
        assert mine["undo"]["until"] == pytest.approx(until)  # the browser counts it down
        queued = table.job(version)
        assert queued.status == "queued" and queued.not_before >= until - 1e-6
        assert json.loads(queued.payload)[undo_window.UNTIL] == pytest.approx(until)

        # a worker that takes the turn before the window's end (by the server's clock) puts it back
        clock.advance(WINDOW_MS / 1000 - 1)
        table.make_due(version)
        wait_until(lambda: table.job(version), lambda row: row.status == "queued" and row.not_before > 0)
        assert table.job(version).not_before == pytest.approx(until)
        assert table.public()["version"] == version  # the bot has not moved
        assert table.mine()["can_undo"] is True

        # once it has passed, the bot plays
        clock.advance(1)
        table.make_due(version)
        now = wait_until(table.public, lambda p: p["version"] > version and p["to_act"] == 0)
        assert now["last"]["seat"] == 1
        assert table.job(version).status == "done"

        # too late now: the refusal names whose action and which one, as data
        r = table.undo(now["version"])
        assert r.status_code == 409 and error_code(r) == "not_your_action"
        error = r.json()["error"]
        assert error["by"] == 1 and error["action"] == now["last"]["action"]
        refused = table.mine()["undo"]["refused"]
        assert refused["code"] == "not_your_action" and refused["by"] == 1
        assert refused["action"] == now["last"]["action"]


def test_an_undo_inside_the_window_takes_the_action_back_and_the_bot_then_plays(windowed: Settings) -> None:
    clock = windowed.clock
    assert isinstance(clock, ManualClock)
    with TestClient(create_app(windowed)) as client, bot_worker(windowed):
        table = BotTable(client, windowed)
        current = table.my_turn()
        first = table.act(opening(current), current["version"])
        clock.advance(WINDOW_MS / 1000 / 2)  # half way through the window
        r = table.undo(first["version"])
        assert r.status_code == 200, r.text
        back = r.json()
        assert back["version"] == first["version"] + 1 and back["to_act"] == 0
        assert back["last"] == {"seat": 0, "action": "undo", "undone": first["last"]["action"],
                                "text": f"P0 takes back '{first['last']['action']}'"}
        # the held turn is dropped once a worker looks at it (the game is past its version)
        table.make_due(first["version"])
        wait_for(lambda: table.job(first["version"]).status == "done")
        assert "skipped" in json.loads(table.job(first["version"]).result)
        assert table.public()["version"] == back["version"]

        # the person acts again: a window of its own, then the bot plays as usual
        legal = back["legal"]
        other = next((a for a in legal if a.startswith(("open ", "bid ")) and a != first["last"]["action"]),
                     opening(back))
        second = table.act(other, back["version"])
        assert second["undo"]["until"] == pytest.approx(clock.now() + WINDOW_MS / 1000)
        clock.advance(WINDOW_MS / 1000)
        table.make_due(second["version"])
        wait_for(lambda: table.public()["version"] > second["version"])
        assert table.public()["last"]["seat"] == 1


def test_a_window_of_0_keeps_the_bots_pace_alone(settings: Settings) -> None:
    plain = replace(settings, clock=ManualClock(), undo_window_ms=0, bot_pace_ms=0)
    with TestClient(create_app(plain)) as client, bot_worker(plain):
        table = BotTable(client, plain)
        current = table.my_turn()
        mine = table.act(opening(current), current["version"])
        assert "until" not in mine["undo"]
        # the bot answers by itself: nothing makes its turn due but the machine's clock
        wait_for(lambda: table.public()["version"] > mine["version"])
        assert table.public()["last"]["seat"] == 1
        assert undo_window.UNTIL not in json.loads(table.job(mine["version"]).payload)


def test_the_games_creator_chooses_its_window(settings: Settings) -> None:
    """A game's own window, against the server's: longer on a server without one, none on a server
    with one (``undo_window_ms`` when the game is created)."""
    clock = ManualClock()
    chosen = 30_000  # ms, the most a creator may choose
    plain = replace(settings, clock=clock, undo_window_ms=0, bot_pace_ms=0)
    with TestClient(create_app(plain)) as client, bot_worker(plain):
        table = BotTable(client, plain, undo_window_ms=chosen)
        current = table.my_turn()
        acted = clock.now()
        mine = table.act(opening(current), current["version"])
        assert mine["undo"]["until"] == pytest.approx(acted + chosen / 1000)
        assert table.job(mine["version"]).not_before >= acted + chosen / 1000 - 1e-6
        assert table.public()["version"] == mine["version"]  # held

    windowed = replace(plain, undo_window_ms=chosen)
    with TestClient(create_app(windowed)) as client, bot_worker(windowed):
        table = BotTable(client, windowed, undo_window_ms=0)
        current = table.my_turn()
        mine = table.act(opening(current), current["version"])
        assert "until" not in mine["undo"] and mine["can_undo"]
        wait_for(lambda: table.public()["version"] > mine["version"])  # no test clock needed
        assert table.public()["last"]["seat"] == 1
        # unchosen, a game has the server's; with undo off, none
        assert create(client, 2)["undo_window_ms"] == chosen
        assert create(client, 2, allow_undo=False)["undo_window_ms"] == 0


def test_no_window_where_undo_is_off(windowed: Settings) -> None:
    with TestClient(create_app(windowed)) as client, bot_worker(windowed):
        table = BotTable(client, windowed, allow_undo=False)
        current = table.my_turn()
        mine = table.act(opening(current), current["version"])
        assert "until" not in mine["undo"]
        wait_for(lambda: table.public()["version"] > mine["version"])  # no test clock needed
        assert table.public()["last"]["seat"] == 1


# ---------------------------------------------------------------------- which actions are held
CONFIG = pg.GameConfig(map="germany", players=3, seed=1, regions=("red", "cyan", "green"))


def played(*texts: str) -> list[Any]:
    """The frames of a new game with these actions, each by the seat to act."""
    frames = [first_frame(pg.new_game(CONFIG))]
    for text in texts:
        seat = frames[-1].state.current_player
        assert seat is not None
        frames.append(advance(frames[-1], seat, pg.parse_action(text)))
    return frames


def bot_turn(version: int) -> JobSpec:
    return JobSpec(kind=BOT_TURN, lane=QUICK, key=f"g:{version}", payload={"seat": 1}, game_id="g",
                   version=version, not_before=100.0)


def test_only_an_action_that_may_be_taken_back_holds_only_a_bots_turn() -> None:
    frames = played("open 3 3", "pass", "pass")  # the last pass wins plant 3: plant 13 is drawn
    opener = frames[0].state.current_player
    assert opener is not None
    job, until = undo_window.hold(bot_turn(1), frames[1], opener, 1000.0, 5000)
    assert until == 1005.0 and job is not None
    assert job.not_before == 1005.0 and job.payload == {"seat": 1, undo_window.UNTIL: 1005.0}
    # a bot's own pause longer than the window stays
    job, _ = undo_window.hold(replace(bot_turn(1), not_before=2000.0), frames[1], opener, 1000.0, 5000)
    assert job is not None and job.not_before == 2000.0
    # no window: 0, undo off, an action that brought out new information, not a bot's turn
    assert undo_window.hold(bot_turn(1), frames[1], opener, 1000.0, 0) == (bot_turn(1), None)
    off = replace(frames[1], undo_allowed=False)
    assert undo_window.hold(bot_turn(1), off, opener, 1000.0, 5000) == (bot_turn(1), None)
    last = frames[2].state.current_player
    assert last is not None and frames[3].ledger.undoable(last) == ()
    assert undo_window.hold(bot_turn(3), frames[3], last, 1000.0, 5000) == (bot_turn(3), None)
    deadline = replace(bot_turn(1), kind="deadline")
    assert undo_window.hold(deadline, frames[1], opener, 1000.0, 5000) == (deadline, None)
    assert undo_window.hold(None, frames[1], opener, 1000.0, 5000) == (None, None)
    # a worker reads the end from the payload, by the server's clock
    assert undo_window.still_open({undo_window.UNTIL: 1005.0}, 1004.9) == 1005.0
    assert undo_window.still_open({undo_window.UNTIL: 1005.0}, 1005.0) is None
    assert undo_window.still_open({"seat": 1}, 0.0) is None



def test_the_undo_window_migration_goes_down_and_up_again(database_url: str) -> None:
    from sqlalchemy import inspect

    engine = db.make_engine(database_url)
    try:
        db.migrate(engine)

        def columns() -> set[str]:
            return {c["name"] for c in inspect(engine).get_columns("games")}

        assert "undo_window_ms" in columns()
        run_migration(engine, "downgrade", "0009")
        assert "undo_window_ms" not in columns() and "allow_undo" in columns()
        run_migration(engine, "upgrade", "head")
        assert "undo_window_ms" in columns()
    finally:
        engine.dispose()
