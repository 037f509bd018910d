"""The collector's settings of a server process (collector.py): frozen start-up objects and a young
generation collected every POWERGRID_GC_THRESHOLD allocations; 0 leaves CPython's defaults."""

from __future__ import annotations

import json
import subprocess
import sys

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
