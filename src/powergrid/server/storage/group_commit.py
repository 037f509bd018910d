"""Group commit: the actions a web process appends are written together.

Each append used to be its own transaction on its own executor thread. Under load, a hundred
appends queued for the executor's few threads, each then waited for the database's write lock
(SQLite) or its own disk flush (PostgreSQL), and each hop back to the event loop queued again.
Now one batch at a time is written: it takes every append queued while the previous transaction
ran and commits them in one (``Store.append_moves``: each keeps its own taken-number check, so a
refused entry leaves the others written). A quiet server commits each action alone, at once; a
busy one commits a batch per transaction, which is what makes it cheaper.

When a batch is written. The requests of one turn of the event loop queue their entries; a task
started by them would run in the loop's next turn, and the requests it woke only in the turn after
(what a turn wakes runs in the next one), and on a busy server each turn holds milliseconds of
every other game's work. So the entries ring a bell instead, a socket pair: uvloop runs the
turn's ready callbacks and then polls for I/O, so the bell is heard within the same turn, the
batch is written (on the loop, or handed to a thread) at once, and its requests go on in the next
turn. A thread's batch rings the same bell when it is done, for the same reason.
"""

from __future__ import annotations

import asyncio
import socket
from collections import deque
from typing import Any

from .store import Move, Store

#: the most entries in one transaction (a bound on how long one batch holds the write lock)
MOST_PER_COMMIT = 64

Batch = list[tuple[Move, "asyncio.Future[bool]"]]


class GroupCommit:
    def __init__(self, store: Store, most: int = MOST_PER_COMMIT, on_loop: bool = False) -> None:
        """``on_loop``: try each batch on the event loop first, without waiting for the database's
        lock (SQLite with no disk flush per commit; see ``Store.append_moves_unless_busy``); a batch
        that finds the lock taken goes to a thread, which waits for it."""
        self.store = store
        self.most = most
        self.on_loop = on_loop
        self._queued: Batch = []
        #: the batch a thread is writing (one at a time), and what threads have finished:
        #: (batch, what ``append_moves`` answered or raised)
        self._in_thread: Batch | None = None
        self._finished: deque[tuple[Batch, list[bool] | BaseException]] = deque()
        self._bell: tuple[socket.socket, socket.socket] | None = None
        self._rung = False
        #: transactions and entries committed, and the transactions committed on the loop (stats)
        self.commits = 0
        self.entries = 0
        self.on_loop_commits = 0

    async def append(self, move: Move) -> bool:
        """Commit ``move`` with whatever else is queued; False if its number was taken."""
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._queued.append((move, done))
        if self._in_thread is None:
            self._ring()
        # a request cancelled meanwhile cancels only its wait: the entry is written anyway
        return await done

    def _ring(self) -> None:
        if self._rung:
            return
        if self._bell is None:
            self._bell = socket.socketpair()
            for end in self._bell:
                end.setblocking(False)
            asyncio.get_running_loop().add_reader(self._bell[0].fileno(), self._heard)
        self._rung = True
        self._bell[1].send(b"\0")

    def _heard(self) -> None:
        """On the loop, in the turn the bell was rung: settle what threads finished, then write
        what is queued, on the loop where possible, else one batch in a thread."""
        assert self._bell is not None
        try:
            while self._bell[0].recv(4096):
                pass
        except BlockingIOError:
            pass
        self._rung = False
        while self._finished:
            batch, answer = self._finished.popleft()
            self._in_thread = None
            self._settle(batch, answer)
        while self._queued and self._in_thread is None:
            batch, self._queued = self._queued[:self.most], self._queued[self.most:]
            moves = [move for move, _ in batch]
            if self.on_loop:
                try:
                    made = self.store.append_moves_unless_busy(moves)
                except Exception as exc:  # the database failed: every entry of the batch is refused
                    self._settle(batch, exc)
                    continue
                if made is not None:
                    self.on_loop_commits += 1
                    self._settle(batch, made)
                    continue
            self._in_thread = batch  # PostgreSQL's commit waits for its disk; SQLite's lock was taken
            try:
                asyncio.get_running_loop().run_in_executor(None, self._write_in_thread, batch, moves)
            except RuntimeError as exc:  # the executor is shut down: the server is stopping
                self._in_thread = None
                self._settle(batch, exc)

    def _write_in_thread(self, batch: Batch, moves: list[Move]) -> None:
        try:
            answer: list[bool] | BaseException = self.store.append_moves(moves)
        except Exception as exc:
            answer = exc
        self._finished.append((batch, answer))
        bell = self._bell
        if bell is not None:
            try:
                bell[1].send(b"\0")
            except OSError:  # closed: the server stopped meanwhile
                pass

    def _settle(self, batch: Batch, answer: list[bool] | BaseException) -> None:
        if isinstance(answer, BaseException):
            _settle(batch, answer)
            return
        self.commits += 1
        self.entries += len(batch)
        for (_, done), ok in zip(batch, answer, strict=True):
            if not done.done():
                done.set_result(ok)

    def close(self) -> None:
        """Stop listening to the bell (the server stopping); what still waits fails rather than hangs."""
        if self._bell is not None:
            asyncio.get_running_loop().remove_reader(self._bell[0].fileno())
            for end in self._bell:
                end.close()
            self._bell = None
        stopping = RuntimeError("the server is stopping")
        _settle(self._queued + (self._in_thread or []), stopping)
        self._queued, self._in_thread = [], None

    def stats(self) -> dict[str, Any]:
        return {"commits": self.commits, "entries": self.entries, "on_loop": self.on_loop_commits}


def _settle(entries: Batch, exc: BaseException) -> None:
    for _, done in entries:
        if not done.done():
            done.set_exception(exc)
