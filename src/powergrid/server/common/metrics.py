"""What an operator (and the load test) reads of a web process: request time, event-loop lag,
the garbage collector's pauses.

``ServerTiming`` adds ``Server-Timing: app;dur=<ms>`` to every HTTP answer: the time from the
request's arrival in the app to the start of its answer, as the server saw it. ``LoopLag`` samples
how late the event loop wakes a sleeping task: anything CPU-heavy on the loop shows up there.
"""

from __future__ import annotations

import asyncio
import gc
import os
import time
from collections import deque
from collections.abc import Iterable
from typing import Any

PROCESS_HEADER = b"x-powergrid-process"


class ServerTiming:
    """Pure ASGI middleware: the server-side duration of each HTTP request, in a response header;
    ``process_header``: also the answering process (``X-Powergrid-Process: <pid>``)."""

    def __init__(self, app: Any, process_header: bool = False) -> None:
        self.app = app
        self.extra = [(PROCESS_HEADER, str(os.getpid()).encode())] if process_header else []

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        began = time.perf_counter()

        async def timed_send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                ms = (time.perf_counter() - began) * 1000
                message = {**message, "headers": [*message.get("headers", ()), *self.extra,
                                                  (b"server-timing", f"app;dur={ms:.2f}".encode())]}
            await send(message)

        await self.app(scope, receive, timed_send)


def milliseconds(samples: Iterable[float], with_max: bool = False) -> dict[str, float]:
    """The p50 and p99 of samples in seconds, in ms (and the largest: ``with_max``), and their count."""
    ordered = sorted(samples)
    n = len(ordered)

    def at(p: float) -> float:
        return round(ordered[min(n - 1, int(p * n))] * 1000, 2) if n else 0.0

    out = {"p50": at(0.5), "p99": at(0.99)}
    if with_max:
        out["max"] = round(ordered[-1] * 1000, 2) if n else 0.0
    out["samples"] = n
    return out


class LoopLag:
    """How late the event loop runs a task that asked to wake after ``every_s`` (the last samples)."""

    def __init__(self, every_s: float = 0.05, kept: int = 2400) -> None:
        self.every_s = every_s
        self.samples: deque[float] = deque(maxlen=kept)

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            began = loop.time()
            await asyncio.sleep(self.every_s)
            self.samples.append(max(0.0, loop.time() - began - self.every_s))

    def summary(self) -> dict[str, float]:
        return milliseconds(self.samples, with_max=True)

    def reset(self) -> None:
        self.samples.clear()


class BotReplies:
    """How long a bot took to answer a person, as the server sees it: from the person's action
    reaching this process to the bot's move leaving it on the first socket that is sent it (the
    last samples). What a person's browser sees adds only the network; the load test's own figure
    also adds its client's lateness, which shares the server's cores."""

    def __init__(self, kept: int = 4800) -> None:
        self.samples: deque[float] = deque(maxlen=kept)

    @staticmethod
    def acted(live: Any, version: int, arrived: float) -> None:
        """A person's action, which reached the process at ``arrived`` (``perf_counter``), made
        ``version``: a bot may answer it."""
        live.awaiting_bot = (version, arrived)

    def sent(self, live: Any, frame: Any) -> None:
        """``frame`` went out on a socket: if it is a bot's answer to the awaited action, record it."""
        awaiting = live.awaiting_bot
        if awaiting is None or frame.version <= awaiting[0]:
            return
        live.awaiting_bot = None
        last = frame.last
        if frame.version == awaiting[0] + 1 and last is not None and live.is_bot(last["seat"]):
            self.samples.append(time.perf_counter() - awaiting[1])

    def summary(self) -> dict[str, float]:
        return milliseconds(self.samples)

    def reset(self) -> None:
        self.samples.clear()


class CollectorPauses:
    """The garbage collector's collections in this process and how long each held everything up
    (the whole process waits: it holds the GIL); between ``start`` and ``stop``."""

    def __init__(self) -> None:
        self.collections = 0
        self.total_s = 0.0
        self.longest_s = 0.0
        self._began = 0.0

    def _note(self, phase: str, _info: dict[str, Any]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
            return
        took = time.perf_counter() - self._began
        self.collections += 1
        self.total_s += took
        self.longest_s = max(self.longest_s, took)

    def start(self) -> None:
        gc.callbacks.append(self._note)

    def stop(self) -> None:
        if self._note in gc.callbacks:
            gc.callbacks.remove(self._note)

    def summary(self) -> dict[str, float]:
        return {"collections": self.collections, "total_ms": round(self.total_s * 1000, 1),
                "max_ms": round(self.longest_s * 1000, 1)}

    def reset(self) -> None:
        self.collections, self.total_s, self.longest_s = 0, 0.0, 0.0


def process_stats(lag: LoopLag, cache: Any, pauses: CollectorPauses, replies: BotReplies) -> dict[str, Any]:
    return {"pid": os.getpid(), "loop_lag_ms": lag.summary(), "gc": pauses.summary(),
            "bot_reply_ms": replies.summary(),
            "cached_games": len(cache), "cache_mb": round(cache.size_bytes() / 1e6, 1),
            "cpu_s": round(time.process_time(), 3)}
