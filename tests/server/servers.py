"""Real `powergrid serve` processes for the crash and fan-out tests."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import httpx

from .conftest import free_port

SERVE = "from powergrid.cli.main import main; main()"


def _limit_open_files(count: int) -> Callable[[], None]:
    """Run in the child before exec: soft and hard limit on open files (the server cannot raise it)."""
    def limit() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_NOFILE, (count, count))

    return limit


class ServerProcess:
    def __init__(self, database_url: str, log: Path, open_files: int | None = None, workers: int = 1,
                 **env: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        # the tests drive games as fast as they can from one address: no request rate and no cap on
        # games created (some create games until each process owns two: a number left to chance)
        # unless asked
        environ = {**os.environ, "POWERGRID_DATABASE_URL": database_url, "POWERGRID_REQUESTS_PER_SECOND": "0",
                   "POWERGRID_GAMES_PER_MINUTE": "0", "POWERGRID_ACTIVE_GAMES": "0",
                   "POWERGRID_BOT_GAMES": "0", **env}
        environ.pop("POWERGRID_REDIS_URL", None) if "POWERGRID_REDIS_URL" not in env else None
        if "POWERGRID_GC_THRESHOLD" not in env:
            environ.pop("POWERGRID_GC_THRESHOLD", None)  # the server as shipped (conftest.py sets 0 here)
        self.log = log
        self._out = open(log, "ab")  # noqa: SIM115
        self.proc = subprocess.Popen([sys.executable, "-c", SERVE, "serve", "--port", str(self.port),
                                      "--workers", str(workers)],
                                     env=environ, stdout=self._out, stderr=subprocess.STDOUT,
                                     preexec_fn=_limit_open_files(open_files) if open_files else None)
        self._wait_ready()

    def _wait_ready(self, limit: float = 30) -> None:
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(self.url + "/api/maps", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the server did not start: {self.log.read_text()[-2000:]}")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        self.proc.kill()
        self.proc.wait(10)
        self._out.close()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self._out.close()

    def __enter__(self) -> ServerProcess:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()
