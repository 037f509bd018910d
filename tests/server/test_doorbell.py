"""Processes wake each other with a ring, not a tight poll (server/doorbell.py): a bot's reply and
its fan-out arrive at once although the fallback poll is a minute."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from websockets.sync.client import connect

from powergrid.server import Settings
from powergrid.server.fanout.doorbell import JOBS, NOTICES, Bells

from .conftest import auth, needs_postgres
from .servers import SERVE, ServerProcess

pytestmark = pytest.mark.timeout(120)


def test_a_ring_wakes_every_other_bell_of_its_kind(tmp_path: Path) -> None:
    mine, theirs = Bells(tmp_path), Bells(tmp_path)
    job_bell, notice_bell, own_bell = theirs.bell(JOBS), theirs.bell(NOTICES), mine.bell(JOBS)
    try:
        assert not job_bell.wait(0.05)  # nothing rang: the timeout passes
        mine.ring(JOBS)
        assert job_bell.wait(5)
        assert not notice_bell.wait(0.05)  # another kind
        assert not own_bell.wait(0.05)  # a process knows what it committed itself
        mine.ring(JOBS)
        mine.ring(JOBS)
        assert job_bell.wait(5) and not job_bell.wait(0.05)  # rings pile into one wake-up
    finally:
        for bell in (job_bell, notice_bell, own_bell):
            bell.close()
        mine.close()
        theirs.close()


def test_ringing_a_bell_whose_queue_is_full_never_blocks(tmp_path: Path) -> None:
    # a worker busy in a long search is rung by every queued job; its stop signal then rings its own
    # bell from the signal handler, which must not wait for the worker to read (it never would)
    bells = Bells(tmp_path)
    bell = Bells(tmp_path).bell(JOBS)
    try:
        for _ in range(5000):
            bells.ring(JOBS)
        ringing = threading.Thread(target=bell.ring, daemon=True)
        ringing.start()
        ringing.join(10)
        assert not ringing.is_alive()
        assert bell.wait(1) and not bell.wait(0.05)  # one wake-up for all of them
    finally:
        bell.close()
        bells.close()


def test_the_bell_of_a_process_that_is_gone_is_cleared_away(tmp_path: Path) -> None:
    (tmp_path / JOBS).mkdir()
    stale = tmp_path / JOBS / "12345-dead.sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as s:
        s.bind(str(stale))  # bound, then closed: nobody reads it any more
    bells = Bells(tmp_path)
    bells.ring(JOBS)
    assert not stale.exists()
    bells.ring("no-such-kind")  # nothing to ring: no error
    bells.close()


def test_bot_replies_reach_a_watcher_without_waiting_for_the_poll(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/bells.db"
    with ServerProcess(url, tmp_path / "serve.log", POWERGRID_POLL_MS="60000", POWERGRID_BOT_PACE_MS="0") \
            as server:
        bots = [{"kind": "bot", "bot": "heuristic"}] * 2
        game = httpx.post(server.url + "/api/games", json={
            "map": "germany", "players": 3, "seed": 5, "bot_pace_ms": 0,
            "seats": [{"kind": "human"}, *bots]}).json()
        gid, token = game["game_id"], game["seats"][0]["token"]
        ws_url = server.url.replace("http", "ws", 1) + f"/api/games/{gid}/ws"
        with connect(ws_url) as ws:
            state = json.loads(ws.recv(timeout=10))
            # the bots open the game until it is the person's turn (a job each, rung to the workers;
            # each reply rung back to this web process, which pushes it to the socket)
            while state["to_act"] != 0:
                state = json.loads(ws.recv(timeout=20))
            view = httpx.get(server.url + f"/api/games/{gid}/view", params={"seat": 0},
                             headers=auth(token)).json()
            r = httpx.post(server.url + f"/api/games/{gid}/actions", headers=auth(token),
                           json={"seat": 0, "action": view["legal"][-1], "version": view["version"]})
            assert r.status_code == 200, r.text
            version = r.json()["version"]
            while state["version"] <= version or state["to_act"] != 0:
                state = json.loads(ws.recv(timeout=20))
                if state["state"]["game_over"]:
                    break
            # a bot's move, pushed to the watcher; each wait above is a third of the fallback poll
            assert state["last"]["seat"] != 0
    # every process closes its bell when the server stops (the workers are told when it dies)
    directory = Bells.for_database(url).directory
    deadline = time.monotonic() + 30
    while directory.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not directory.exists(), list(directory.rglob("*"))


@needs_postgres
def test_a_worker_on_another_machine_hears_of_jobs_without_waiting_for_the_poll(
        tmp_path: Path, pg_url: str) -> None:
    # the server runs no bot workers; the only one runs with its own temporary directory, so no
    # bell of the server's reaches it (as on another machine): the NOTIFY of each enqueue must
    with ServerProcess(pg_url, tmp_path / "serve.log", POWERGRID_POLL_MS="60000", POWERGRID_BOT_WORKERS="0",
                       POWERGRID_SEARCH_WORKERS="0") as server:
        elsewhere = tempfile.mkdtemp(prefix="pg-", dir="/tmp")  # short: a socket's path is short
        env = {**os.environ, "TMPDIR": elsewhere, "POWERGRID_POLL_MS": "60000"}
        with (tmp_path / "bots.log").open("ab") as out:
            worker = subprocess.Popen([sys.executable, "-c", SERVE, "bots", "--database-url", pg_url,
                                       "--lanes", "quick", "--log-level", "info"], env=env, stdout=out,
                                      stderr=subprocess.STDOUT)
            try:
                deadline = time.monotonic() + 60
                while b"started" not in (tmp_path / "bots.log").read_bytes():
                    assert worker.poll() is None and time.monotonic() < deadline
                    time.sleep(0.1)
                time.sleep(1.0)  # its first look at the queue passes before the game exists
                game = httpx.post(server.url + "/api/games", json={
                    "map": "germany", "players": 3, "seed": 5, "bot_pace_ms": 0,
                    "seats": [{"kind": "bot", "bot": "heuristic"}] * 3}).json()
                ws_url = server.url.replace("http", "ws", 1) + f"/api/games/{game['game_id']}/ws"
                with connect(ws_url) as ws:
                    # a job per move, each heard at once: a wait here is a sixth of the poll that
                    # would find it otherwise
                    state = json.loads(ws.recv(timeout=10))
                    while state["version"] < 6:
                        state = json.loads(ws.recv(timeout=10))
                    assert state["last"]["seat"] in (0, 1, 2)
            finally:
                worker.terminate()
                worker.wait(10)
                shutil.rmtree(elsewhere, ignore_errors=True)


def test_a_bell_that_cannot_be_bound_still_waits(tmp_path: Path) -> None:
    # a temporary directory too deep for a Unix socket's path: no bell, the fallback poll only
    deep = tmp_path / ("d" * 120)
    bell = Bells(deep).bell(JOBS)
    try:
        began = time.monotonic()
        assert not bell.wait(0.1)
        assert time.monotonic() - began >= 0.05
        bell.ring()  # nobody to ring: no error
    finally:
        bell.close()


def test_only_a_job_due_soon_wakes_the_workers(settings: Settings, tmp_path: Path) -> None:
    """Every action of a timed game queues its next person's deadline, minutes ahead: that rings no
    worker's bell (an idle worker looks every poll and sleeps until the next job is due); a job due
    now does. (PostgreSQL's NOTIFY follows the same rule in the append statement; other tests' jobs
    share its channel, so it is not checked here.)"""
    from powergrid.server import create_app
    from powergrid.server.storage.jobs import QUICK, JobSpec
    from powergrid.server.storage.store import Move, Store

    from .conftest import create

    with TestClient(create_app(settings)) as client:
        gid = create(client, 2, seed=3)["game_id"]
        engine = client.app.state.service.store.engine  # type: ignore[attr-defined]
        ringing = Bells(tmp_path)
        store = Store(engine, bells=ringing, wake_within_s=0.25)
        worker_bell = Bells(tmp_path).bell(JOBS)
        try:
            def append(seq: int, due_in: float) -> None:
                job = JobSpec(kind="deadline", lane=QUICK, key=f"{gid}:{seq}", payload={"seat": 0},
                              game_id=gid, version=seq, not_before=time.time() + due_in)
                move = Move(gid, seq, 0, "pass", "playing", 1, 1, next_job=job)
                assert store.append_moves([move]) == [True]

            append(1, 600.0)
            assert not worker_bell.wait(0.2)
            append(2, 0.0)
            assert worker_bell.wait(5)
        finally:
            worker_bell.close()
            ringing.close()
