"""The garbage collector's settings for the server's long-running processes.

A server process keeps every game in play in memory (frames of states, payloads, histories) and
makes a new frame for every action, so most of what it allocates outlives a request. With
CPython's default threshold (a young-generation collection every 700 net allocations) those
objects were looked at again and again on their way to the old generation, and a full collection
walked all of them: measured under the load test (100 games flat out, one web process), 21% of the
web process's wall time went to collections, the longest 286 ms, which every request waiting on
the event loop then waited too.

So each process, once started: moves what it has allocated so far (modules, the app, the catalog
and maps) out of the collector's sight for good (``gc.freeze``), and collects the young generation
every ``POWERGRID_GC_THRESHOLD`` net allocations. Reference counting still frees everything that
is not in a cycle at once; the collector only finds cycles, which the server makes few of.
"""

from __future__ import annotations

import gc

#: collections of one generation before the next older one is collected (CPython's default is 10)
OLDER_EVERY = 20


def tune(threshold: int) -> None:
    """Freeze what exists and raise the young generation's threshold; 0 keeps CPython's defaults."""
    if threshold <= 0:
        return
    gc.collect()
    gc.freeze()
    gc.set_threshold(threshold, OLDER_EVERY, OLDER_EVERY)
