"""The server's clock: where a game's clocks get their times (injectable, so tests never wait).

Every log entry is stored with the time this clock gave when it was appended (``actions.at``);
the players' clocks are computed from those stored times alone (``games/clocks.py``), so a
replay, a restart or another process arrives at the same clocks. Tests give the server a
``ManualClock`` and move it forward instead of waiting for minutes to pass.
"""

from __future__ import annotations

import threading
import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since the epoch (as ``time.time()``)."""
        ...


class SystemClock:
    """The machine's wall clock."""

    def now(self) -> float:
        return time.time()

    def __repr__(self) -> str:
        return "SystemClock()"


class ManualClock:
    """A clock that moves only when told (tests): starts at ``start`` (default: the wall clock now)."""

    def __init__(self, start: float | None = None) -> None:
        self._now = time.time() if start is None else float(start)
        self._lock = threading.Lock()  # a bot worker thread reads it while the test moves it

    def now(self) -> float:
        with self._lock:
            return self._now

    def advance(self, seconds: float) -> float:
        """Move forward ``seconds``; the new time."""
        if seconds < 0:
            raise ValueError("a clock does not go back")
        with self._lock:
            self._now += seconds
            return self._now

    def __repr__(self) -> str:
        return f"ManualClock({self._now!r})"
