"""A PostgreSQL connection on the web process's event loop, for the group commit's batches.

A batch is one statement (``Store.postgres_batch``). Written from a thread, it waited for the
interpreter lock after each call into the driver, and the loop heard that it was done only at its
next poll after the thread rang: under the load test about 7 ms for the batch and 9 more until the
loop heard, at the median. psycopg's asynchronous connection sends the statement and is woken by
the loop itself when the answer is readable, with no thread in between.
"""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy.engine import Engine

#: seconds unused after which the connection is checked before a batch (as the thread pool's
#: connections are): a database restarted meanwhile costs a new connection, not a refused batch
PING_AFTER_S = 1.0


class PostgresOnLoop:
    """One autocommit connection, opened when first needed and again after it fails."""

    def __init__(self, engine: Engine) -> None:
        self._connect_args = engine.dialect.create_connect_args(engine.url)
        self._conn: Any = None
        self._used = 0.0
        self.connections = 0  # opened so far

    async def execute(self, sql: str, params: dict[str, Any]) -> list[tuple[Any, ...]]:
        """Run the statement and return its rows. A batch is never sent twice: if the link breaks
        while it is out, it may have been written, so the error goes to the batch's requests."""
        import psycopg

        if self._conn is not None and time.monotonic() - self._used > PING_AFTER_S:
            try:
                await self._conn.execute("SELECT 1")
            except psycopg.OperationalError:
                await self.close()
        if self._conn is None or self._conn.closed:
            args, kwargs = self._connect_args
            self._conn = await psycopg.AsyncConnection.connect(*args, **{**kwargs, "autocommit": True})
            self.connections += 1
        try:
            cursor = await self._conn.execute(sql, params)
            rows: list[tuple[Any, ...]] = await cursor.fetchall()
        except psycopg.OperationalError:
            await self.close()  # the server restarted or the link broke: a new one next time
            raise
        self._used = time.monotonic()
        return rows

    async def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None and not conn.closed:
            await conn.close()
