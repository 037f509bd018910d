"""Waiting for what another process does: poll with a deadline, never a fixed sleep."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def wait_for(what: Callable[[], Any], message: str = "the condition never came",
             within_s: float = 60.0) -> Any:
    """Poll until ``what()`` is truthy; its value (AssertionError with ``message`` after ``within_s``)."""
    deadline = time.monotonic() + within_s
    while True:
        found = what()
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {within_s} s: {message}")
        time.sleep(0.02)
