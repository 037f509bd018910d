"""Group commit: the actions a web process appends are written together.

Each append used to be its own transaction on its own executor thread. Under load, a hundred
appends queued for the executor's few threads, each then waited for the database's write lock
(SQLite) or its own disk flush (PostgreSQL), and each hop back to the event loop queued again.
Now one writer at a time runs: it takes every append queued while the previous transaction ran
and commits them in one (``Store.append_moves``: each keeps its own taken-number check, so a
refused entry leaves the others written). A quiet server commits each action alone, at once; a
busy one commits a batch per transaction, which is what makes it cheaper.
"""

from __future__ import annotations

import asyncio
from typing import Any

from .store import Move, Store

#: the most entries in one transaction (a bound on how long one batch holds the write lock)
MOST_PER_COMMIT = 64


class GroupCommit:
    def __init__(self, store: Store, most: int = MOST_PER_COMMIT, on_loop: bool = False) -> None:
        """``on_loop``: try each batch on the event loop first, without waiting for the database's
        lock (SQLite with no disk flush per commit; see ``Store.append_moves_unless_busy``); a batch
        that finds the lock taken goes to a thread, which waits for it."""
        self.store = store
        self.most = most
        self.on_loop = on_loop
        self._queued: list[tuple[Move, asyncio.Future[bool]]] = []
        self._writer: asyncio.Task[None] | None = None
        #: transactions and entries committed, and the transactions committed on the loop (stats)
        self.commits = 0
        self.entries = 0
        self.on_loop_commits = 0

    async def append(self, move: Move) -> bool:
        """Commit ``move`` with whatever else is queued; False if its number was taken."""
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._queued.append((move, done))
        if self._writer is None:
            self._writer = asyncio.create_task(self._write())
        # a request cancelled meanwhile cancels only its wait: the writer writes the entry anyway
        return await done

    async def _write(self) -> None:
        batch: list[tuple[Move, asyncio.Future[bool]]] = []
        try:
            while self._queued:
                batch, self._queued = self._queued[:self.most], self._queued[self.most:]
                moves = [move for move, _ in batch]
                try:
                    made = None
                    if self.on_loop:
                        made = self.store.append_moves_unless_busy(moves)
                        self.on_loop_commits += made is not None
                    if made is None:
                        made = await asyncio.to_thread(self.store.append_moves, moves)
                except Exception as exc:  # the database failed: every entry of the batch is refused
                    _settle(batch, exc)
                    continue
                self.commits += 1
                self.entries += len(batch)
                for (_, done), ok in zip(batch, made, strict=True):
                    if not done.done():
                        done.set_result(ok)
        finally:
            self._writer = None
            # cancelled (the server stopping): what is still waiting fails rather than hangs
            _settle(batch + self._queued, RuntimeError("the server is stopping"))
            self._queued = []

    def stats(self) -> dict[str, Any]:
        return {"commits": self.commits, "entries": self.entries, "on_loop": self.on_loop_commits}


def _settle(entries: list[tuple[Move, asyncio.Future[bool]]], exc: Exception) -> None:
    for _, done in entries:
        if not done.done():
            done.set_exception(exc)
