"""A change message carries the log entry it announces: a second process that holds the game at the
version before applies it from the message, without reading the log back (it reads the log for an
undo, or when it has missed a version)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient

from powergrid.server import Settings, create_app
from powergrid.server.common.clock import ManualClock
from powergrid.server.fanout.pubsub import SEATS_CHANGED, _parse, message
from powergrid.server.games import absence, clocks

from .conftest import auth, create
from .play import choose

pytestmark = pytest.mark.timeout(120)


@pytest.mark.parametrize("entry", [None, (0, "pass", None), (2, "bid 13 27", None),
                                   (5, "build Berlin Hamburg", 1764255793.1234567), (1, "undo", 0.1 + 0.2),
                                   (3, "pass", 1e-7)])
def test_a_message_reads_back_as_it_was_written(entry: Any) -> None:
    assert _parse(message("g123", 42, entry)) == ("g123", 42, entry)
    assert _parse(message("g123", SEATS_CHANGED)) == ("g123", SEATS_CHANGED, None)
    assert _parse("g123 nonsense") is None
    assert _parse("g123 7 2@nan7 pass") == ("g123", 7, None)  # a time it cannot read: the log is read
    assert _parse("g123 7 2 pass") == ("g123", 7, (2, "pass", None))  # a message without a time


def next_state(ws: Any, version: int) -> dict[str, Any]:
    while True:
        found = ws.receive_json()
        if found["type"] == "state" and found["version"] >= version:
            return found


def act_and_hear(client: TestClient, gid: str, tokens: dict[int, str], current: dict[str, Any],
                 rng: random.Random, ws: Any) -> dict[str, Any]:
    """The seat to act plays a random legal action through ``client``; the state ``ws`` then hears."""
    seat = current["to_act"]
    legal = client.get(f"/api/games/{gid}/view", headers=auth(tokens[seat]),
                       params={"seat": seat}).json()["legal"]
    r = client.post(f"/api/games/{gid}/actions", headers=auth(tokens[seat]),
                    json={"seat": seat, "action": choose(legal, rng), "version": current["version"]})
    assert r.status_code == 200, r.text
    heard = next_state(ws, r.json()["version"])
    assert heard["version"] == r.json()["version"]
    return heard


def count_log_reads(client: TestClient) -> tuple[list[int], Any]:
    """From now on, the versions after which the app reads a game's log (as its cache reads it, with
    the entries' times), and the store's own reading."""
    store = client.app.state.service.store  # type: ignore[attr-defined]
    reads: list[int] = []
    read_log = store.entries_after

    def counted(game_id: str, seq: int, upto: int | None = None) -> Any:
        reads.append(seq)
        return read_log(game_id, seq, upto)

    store.entries_after = counted
    return reads, read_log


@dataclasses.dataclass
class Watched:
    """A game made by the first of two apps on one database and watched by seat 0's socket on the
    second, whose log reads are counted from then on."""

    one: TestClient
    two: TestClient
    gid: str
    tokens: dict[int, str]
    ws: Any
    current: dict[str, Any]
    reads: list[int]
    read_log: Any

    def act(self, rng: random.Random) -> None:
        self.current = act_and_hear(self.one, self.gid, self.tokens, self.current, rng, self.ws)

    def held(self, client: TestClient) -> Any:
        return client.app.state.service.cache[self.gid]  # type: ignore[attr-defined]


@contextmanager
def watched_by_a_second_process(settings: Settings, seed: int, **extra: Any) -> Iterator[Watched]:
    if not settings.is_sqlite:
        pytest.skip("two apps in one test process share the fan-out through SQLite's notices table")
    with TestClient(create_app(settings)) as one, \
            TestClient(create_app(dataclasses.replace(settings))) as two:
        game = create(one, 2, seed=seed, **extra)
        gid = game["game_id"]
        tokens = {s["seat"]: s["token"] for s in game["seats"]}
        with two.websocket_connect(f"/api/games/{gid}/ws?seat=0") as ws:
            ws.send_json({"type": "auth", "token": tokens[0]})
            current = next_state(ws, 0)
            yield Watched(one, two, gid, tokens, ws, current, *count_log_reads(two))


def test_a_watching_process_applies_announced_actions_without_reading_the_log(settings: Settings) -> None:
    with watched_by_a_second_process(settings, 21) as w:
        rng = random.Random(4)
        for _ in range(12):
            w.act(rng)
        assert w.reads == []  # every action came with its message
        mover = w.one.get(f"/api/games/{w.gid}").json()["last"]["seat"]
        r = w.one.post(f"/api/games/{w.gid}/undo", headers=auth(w.tokens[mover]),
                       json={"seat": mover, "version": w.current["version"]})
        assert r.status_code == 200, r.text
        next_state(w.ws, r.json()["version"])
        assert w.reads, "an undo is read from the log"
        assert w.held(w.two).state.to_dict() == w.held(w.one).state.to_dict()


def test_a_watching_process_follows_a_timed_game_from_messages_with_its_clocks(settings: Settings) -> None:
    """The message carries the entry's stored time: a second process applies it and computes the
    clocks the log would give, without reading the log."""
    clock = ManualClock(1_800_000_000.0)
    timed = dataclasses.replace(settings, clock=clock)
    with watched_by_a_second_process(timed, 23, time_control={"kind": "live", "bank_s": 600,
                                                              "increment_s": 10}) as w:
        rng = random.Random(5)
        for think in (3.25, 0.1 + 0.2, 17.0, 1e-3, 8.5, 2.0, 41.125, 0.75):
            clock.advance(think)
            w.act(rng)
        assert w.reads == []  # every entry, with its time, came in its message
        followed = w.held(w.two).latest.clock
        assert followed == w.held(w.one).latest.clock
        assert any(followed.spent)
        assert w.current["clocks"] == w.one.get(f"/api/games/{w.gid}").json()["clocks"]
        store = w.one.app.state.service.store  # type: ignore[attr-defined]
        replayed = clocks.replay(absence.first_clocks(store.game(w.gid)), w.read_log(w.gid, 0))
        assert replayed == followed  # and the log alone gives the same


def test_a_worker_reads_the_entries_after_each_games_own_version(settings: Settings) -> None:
    """``entries_after_each`` (a bot worker's catch-up of the games it holds, one query): each game's
    entries after that game's own version, in order, with their times."""
    with TestClient(create_app(settings)) as client:
        ids, tokens = [], []
        for seed in (41, 42, 43):
            game = create(client, 2, seed=seed)
            ids.append(game["game_id"])
            tokens.append({s["seat"]: s["token"] for s in game["seats"]})
        rng = random.Random(6)
        for gid, seats, moves in zip(ids, tokens, (5, 2, 0), strict=True):
            for _ in range(moves):
                current = client.get(f"/api/games/{gid}").json()
                seat = current["to_act"]
                legal = client.get(f"/api/games/{gid}/view", headers=auth(seats[seat]),
                                   params={"seat": seat}).json()["legal"]
                body = {"seat": seat, "action": choose(legal, rng), "version": current["version"]}
                r = client.post(f"/api/games/{gid}/actions", headers=auth(seats[seat]), json=body)
                assert r.status_code == 200, r.text
        store = client.app.state.service.store  # type: ignore[attr-defined]
        found = store.entries_after_each({ids[0]: 2, ids[1]: 0, ids[2]: 0})
        assert found == {ids[0]: store.entries_after(ids[0], 2), ids[1]: store.entries_after(ids[1], 0),
                         ids[2]: []}
        assert [e[0] for e in found[ids[0]]] == [3, 4, 5] and [e[0] for e in found[ids[1]]] == [1, 2]
        assert all(isinstance(e[3], float) for e in found[ids[0]])
