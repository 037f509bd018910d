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

A threshold alone is not enough in a web process at a steady load. CPython counts allocations
*less* deallocations, and there each new frame replaces an old one that dies, so the count hardly
moves: under the load test a young collection came a few times in 20 s, and by then the whole
working set (every game's recent frames) had been made anew and was young. Each one walked it
all, 20 ms at first and over 100 ms after a few seconds, and every request waited. So a web
process also collects the young generation on a timer (``Sweeper``, every
``POWERGRID_GC_SWEEP_MS``): each collection walks only what was made since the last and is still
alive, a few milliseconds. The older generation, which then holds the working set, is collected on
a much slower timer (``POWERGRID_GC_OLDER_S``), and the whole heap every tenth time; the timer
resets the young count, so the threshold rarely fires at all.
"""

from __future__ import annotations

import asyncio
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


#: every this many collections of the older generation, the whole heap instead
FULL_EVERY = 10


class Sweeper:
    """An event loop's task that collects the young generation every ``every_s`` and the older one
    every ``older_s`` (the whole heap every ``FULL_EVERY``-th time)."""

    def __init__(self, every_s: float, older_s: float) -> None:
        self.every_s = every_s
        self.older_s = older_s

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        older_due = loop.time() + self.older_s
        olders = 0
        while True:
            await asyncio.sleep(self.every_s)
            generation = 0
            if self.older_s > 0 and loop.time() >= older_due:
                older_due = loop.time() + self.older_s
                olders += 1
                generation = 2 if olders % FULL_EVERY == 0 else 1
            gc.collect(generation)
