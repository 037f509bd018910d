"""PostgreSQL: a bot worker LISTENs for enqueued jobs, so workers on other machines wake at once.

A doorbell (doorbell.py) reaches only the processes of one machine. A worker started elsewhere with
``powergrid bots --database-url postgresql+psycopg://...`` would otherwise find a new job only at
its next fallback look (``POWERGRID_POLL_MS``). Every enqueue sends ``NOTIFY powergrid_jobs`` in
its transaction (jobs.py); this connection's socket is waited on beside the worker's bell. Like a
ring, a notice is only a hint: the worker then claims from the database, and a lost connection
costs latency (it reconnects at the next wait), never a job.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from sqlalchemy.engine import make_url

from .jobs import JOBS_CHANNEL

log = logging.getLogger("powergrid.bots")


class JobNotices:
    """A LISTEN connection on the jobs channel; ``fileno`` for waiting, ``drain`` after a wake-up."""

    def __init__(self, database_url: str) -> None:
        self.conninfo = make_url(database_url).set(drivername="postgresql").render_as_string(
            hide_password=False)
        self._conn: Any = None

    def fileno(self) -> int | None:
        """The socket to wait on (connecting and listening first if needed); None if it can't."""
        if self._conn is None:
            import psycopg

            try:
                self._conn = psycopg.connect(self.conninfo, autocommit=True, connect_timeout=5)
                self._conn.execute(f"LISTEN {JOBS_CHANNEL}")
            except Exception as exc:  # the database is down: the fallback poll goes on meanwhile
                log.warning("LISTEN %s failed (%s); looking every poll interval", JOBS_CHANNEL, exc)
                self.close()
                return None
        return int(self._conn.pgconn.socket)

    def drain(self) -> int:
        """Read the notices that arrived (without waiting); how many there were."""
        if self._conn is None:
            return 0
        count = 0
        try:
            pgconn = self._conn.pgconn
            pgconn.consume_input()
            while pgconn.notifies() is not None:
                count += 1
        except Exception as exc:  # the connection broke: reconnect at the next wait
            log.warning("the LISTEN connection broke (%s); reconnecting", exc)
            self.close()
        return count

    def close(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(Exception):
                self._conn.close()
            self._conn = None
