"""Wake-ups between the server's processes on one machine: a ring instead of a tight poll.

Bot workers wait for jobs, and on SQLite the web processes wait for other processes' appends
(the ``notices`` table). Polling the database every few milliseconds for that costs CPU all day,
even with nobody playing. Instead each waiting process binds a Unix datagram socket (its *bell*)
in a directory shared by every process of the same database, and a process that commits a job or
an append rings every bell of that kind: one datagram each, after the commit. A waiter still looks
at the database every ``fallback`` seconds, for what no bell announces (a worker on another
machine, a lease that ran out).

A ring is only a hint: whoever wakes reads the database for what is there, so a lost or extra ring
costs a little latency or a wasted read, never correctness.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import logging
import os
import secrets
import select
import socket
import tempfile
import time
from pathlib import Path

log = logging.getLogger("powergrid.server")

#: bells of the bot workers: rung when a job is enqueued
JOBS = "jobs"
#: bells of the web processes on SQLite: rung when an append or a seat change is committed
NOTICES = "notices"


def bells_directory(database_url: str) -> Path:
    """The directory shared by the processes of one database (on this machine)."""
    digest = hashlib.sha256(database_url.encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"powergrid-bells-{os.getuid()}" / digest


class Bells:
    """Rings the bells of one database's processes."""

    #: seconds a listing of a kind's bells is reused: listing the directory at every append cost
    #: more than the datagrams (a bell made meanwhile waits at most this, or its own poll, to be rung)
    LISTING_S = 0.5

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._sender = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self._sender.setblocking(False)
        #: this process's own bells: it knows what it committed, so they are not rung
        self.own: set[str] = set()
        self._listed: dict[str, tuple[float, list[str]]] = {}

    @classmethod
    def for_database(cls, database_url: str) -> Bells:
        return cls(bells_directory(database_url))

    def ring(self, kind: str) -> None:
        """Wake every process waiting on a bell of this kind (best effort, never raises)."""
        now = time.monotonic()
        listed = self._listed.get(kind)
        if listed is None or now - listed[0] > self.LISTING_S:
            try:
                paths = [entry.path for entry in os.scandir(self.directory / kind)
                         if entry.path not in self.own]
            except OSError:
                return
            self._listed[kind] = listed = (now, paths)
        for path in listed[1]:
            try:
                self._sender.sendto(b"!", path)
            except BlockingIOError:
                pass  # its queue is full: it has been rung already
            except OSError as exc:
                if exc.errno in (errno.ECONNREFUSED, errno.ENOENT):
                    self._listed.pop(kind, None)  # list again next time
                    with contextlib.suppress(OSError):  # its process is gone
                        os.unlink(path)

    def bell(self, kind: str) -> Bell:
        """A bell of this process, rung by the others."""
        bell = Bell(self.directory / kind)
        self.own.add(str(bell.path))
        self._listed.pop(kind, None)
        return bell

    def close(self) -> None:
        self._sender.close()


class Bell:
    """One process's bell: ``wait`` returns when it is rung or when the timeout passes."""

    def __init__(self, directory: Path) -> None:
        self.path = directory / f"{os.getpid()}-{secrets.token_hex(4)}.sock"
        self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        for _ in range(5):  # the last bell of another process may remove the directory meanwhile
            try:
                directory.mkdir(parents=True, exist_ok=True, mode=0o700)
                self._socket.bind(str(self.path))
                break
            except FileNotFoundError:
                continue
            except OSError as exc:  # e.g. a temporary directory whose path is too long for a socket
                log.warning("no doorbell at %s (%s): waiting by polling only", self.path, exc)
                break
        self._socket.setblocking(False)
        self._poller = select.poll()  # not select(): a busy server's descriptors pass 1024
        self._poller.register(self._socket, select.POLLIN)

    def wait(self, timeout: float, also: int | None = None) -> bool:
        """Sleep until rung (True) or ``timeout`` seconds (False); every ring so far is consumed.
        ``also``: another descriptor whose input wakes the wait too (the caller reads it)."""
        if also is not None:
            self._poller.register(also, select.POLLIN)
        try:
            ready = self._poller.poll(max(0, int(timeout * 1000)))
        except (OSError, ValueError):  # closed meanwhile
            return False
        finally:
            if also is not None:
                with contextlib.suppress(KeyError, ValueError, OSError):
                    self._poller.unregister(also)
        if not ready:
            return False
        with contextlib.suppress(OSError):
            while self._socket.recv(16):
                pass
        return True

    def ring(self) -> None:
        """Wake this bell's own waiter (to stop it; called from a signal handler)."""
        with contextlib.suppress(OSError), socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as s:
            s.setblocking(False)  # a full queue (a busy waiter rung many times) wakes it anyway
            s.sendto(b"!", str(self.path))

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.unlink(self.path)
        self._socket.close()
        with contextlib.suppress(OSError):  # the last bell of its kind (and database) clears up
            self.path.parent.rmdir()
            self.path.parent.parent.rmdir()
