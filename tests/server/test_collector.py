"""The collector's settings of a server process (collector.py): frozen start-up objects and a young
generation collected every POWERGRID_GC_THRESHOLD allocations; 0 leaves CPython's defaults."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from powergrid.server.common import collector

PROBE = ("import gc, json; from powergrid.server.common import collector; before = gc.get_threshold(); "
         "collector.tune({}); print(json.dumps([before, gc.get_threshold(), gc.get_freeze_count()]))")


def probe(threshold: int) -> list[object]:
    out = subprocess.run([sys.executable, "-c", PROBE.format(threshold)], capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout)  # type: ignore[no-any-return]


def test_tuning_freezes_what_exists_and_raises_the_young_threshold() -> None:
    before, after, frozen = probe(50_000)
    assert after == [50_000, 20, 20] and after != before
    assert frozen > 1000  # the modules' objects imported so far


def test_zero_keeps_cpythons_collector_as_it_is() -> None:
    before, after, frozen = probe(0)
    assert after == before and frozen == 0


SWITCH = ("import json, os, sys; from fastapi.testclient import TestClient; "
          "from powergrid.server import Settings, create_app; "
          "before = sys.getswitchinterval(); "
          "client = TestClient(create_app(Settings(database_url='sqlite:///' + os.environ['DB'])));\n"
          "with client: during = sys.getswitchinterval()\n"
          "print(json.dumps([before, during]))")


def test_a_web_process_hands_the_interpreter_lock_to_its_threads_sooner(tmp_path: Path) -> None:
    """POWERGRID_SWITCH_INTERVAL_MS (default 1): the longest the event loop keeps the lock from a
    thread that waits for it; 0 keeps CPython's 5 ms."""
    for setting, expected in (("", 0.001), ("2.5", 0.0025), ("0", 0.005)):
        env = {**os.environ, "DB": str(tmp_path / f"s{setting}.db"), "POWERGRID_SWITCH_INTERVAL_MS": setting}
        out = subprocess.run([sys.executable, "-c", SWITCH], capture_output=True, text=True, check=True,
                             env=env)
        before, during = json.loads(out.stdout.strip().splitlines()[-1])
        assert before == 0.005 and during == expected


SWEEP = """
import asyncio, gc, json, weakref
from powergrid.server.common import collector
gc.disable()  # no collection but the sweeper's
seen = []
gc.callbacks.append(lambda phase, info: seen.append(info["generation"]) if phase == "stop" else None)

class Node:
    pass

async def main():
    a, b = Node(), Node()
    a.other, b.other = b, a  # a cycle: only a collection frees it
    gone = weakref.ref(a)
    del a, b
    task = asyncio.create_task(collector.Sweeper(0.005, 0.02).run())
    for _ in range(300):  # the sweeper's first young collection, however busy the machine
        await asyncio.sleep(0.01)
        if gone() is None:
            break
    freed = gone() is None
    await asyncio.sleep(0.6)
    task.cancel()
    return freed

print(json.dumps([asyncio.run(main()), seen]))
"""


def test_the_sweeper_collects_the_young_generation_on_a_timer_and_the_older_ones_seldom() -> None:
    """POWERGRID_GC_SWEEP_MS: at a steady load the allocation count hardly moves, so the threshold
    alone seldom fires and then walks every game's frames (collector.py)."""
    out = subprocess.run([sys.executable, "-c", SWEEP], capture_output=True, text=True, check=True)
    freed, generations = json.loads(out.stdout)
    assert freed  # with the automatic collector off
    young, older, full = (generations.count(g) for g in (0, 1, 2))
    assert young > 2 * older > 0  # the older generations every 0.02 s, the young every 0.005 s
    assert full >= 1 and older >= (collector.FULL_EVERY - 1) * full


STATS = ("import json, os, time; from fastapi.testclient import TestClient; "
         "from powergrid.server import Settings, create_app; "
         "client = TestClient(create_app(Settings(database_url='sqlite:///' + os.environ['DB'])));\n"
         "with client:\n"
         "    first = client.get('/api/server/stats').json()['gc']['collections']\n"
         "    time.sleep(0.5)\n"
         "    later = client.get('/api/server/stats').json()['gc']['collections']\n"
         "print(json.dumps([first, later]))")


def test_a_web_process_sweeps_unless_told_not_to(tmp_path: Path) -> None:
    """An idle web process still collects its young generation every POWERGRID_GC_SWEEP_MS; 0, or
    POWERGRID_GC_THRESHOLD=0 (CPython's collector as it is), turns the sweeper off."""
    counts = {}
    for name, env in (("on", {"POWERGRID_GC_SWEEP_MS": "20"}), ("off", {"POWERGRID_GC_SWEEP_MS": "0"}),
                      ("cpython", {"POWERGRID_GC_SWEEP_MS": "20", "POWERGRID_GC_THRESHOLD": "0"})):
        environ = {**os.environ, "DB": str(tmp_path / f"{name}.db"), "POWERGRID_GC_THRESHOLD": "50000", **env}
        out = subprocess.run([sys.executable, "-c", STATS], capture_output=True, text=True, check=True,
                             env=environ)
        first, later = json.loads(out.stdout.strip().splitlines()[-1])
        counts[name] = later - first
    assert counts["on"] >= 10  # 0.5 s at one every 20 ms, with room for a slow machine
    assert counts["off"] <= 2 and counts["cpython"] <= 2  # an idle process allocates little
