"""The collector's settings of a server process (collector.py): frozen start-up objects and a young
generation collected every POWERGRID_GC_THRESHOLD allocations; 0 leaves CPython's defaults."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

PROBE = ("import gc, json; from powergrid.server import collector; before = gc.get_threshold(); "
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
