"""Each game's owner: with several web processes on one port, a game's requests go to one of them.

uvicorn's worker processes (``powergrid serve --workers N``) share one listening socket, so a game's
two people usually land on different processes, and each process holding a socket for the game
applies every action of it (from the change message) and builds its state messages: with two
processes about 1 ms of web CPU per action against 0.6 with one (docs/server.md, Scale-out).

Here each game has one owner, ``crc32(game id) % N``, and a request that names a game is handed to
its owner when it arrives at another process: the connection's descriptor and the bytes already
read go over a Unix datagram socket (``SCM_RIGHTS``), the owner adopts the connection
(``loop.connect_accepted_socket``) and answers it, and the first process drops its copy without
shutting the connection down (the descriptor it passed keeps it open). The connection stays with
the owner until a later request on it names a game owned elsewhere.

It is only an optimisation: any process still answers any request (the game is in the database), so
a request that names no game, an owner that is gone or whose queue is full, a request line that did
not arrive whole, are all answered where they are. A process takes the first free index by binding
``<bells root>/web-<parent pid>/<i>`` (a socket left by a killed process is taken over).
"""

from __future__ import annotations

import array
import contextlib
import errno
import fcntl
import logging
import os
import socket
import tempfile
import time
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from ..common.game_ids import game_id_in
from ..common.tokens import well_formed_game_id

log = logging.getLogger("powergrid.server")

#: the most bytes handed over with a connection (a request line and headers, a small body)
MAX_HANDED_BYTES = 32 * 1024
#: seconds an owner found gone is not tried again
ABSENT_S = 1.0
#: where a request line must have ended, if it is to be read
MAX_LINE = 4096


def requested_game(data: bytes) -> str | None:
    """The game a request names in its path, if ``data`` starts with a whole request line."""
    end = data.find(b"\r\n", 0, MAX_LINE)
    if end < 0:
        return None
    parts = data[:end].split(b" ")
    if len(parts) != 3 or not parts[2].startswith(b"HTTP/1.") or not parts[1].startswith(b"/"):
        return None
    try:
        path = parts[1].split(b"?", 1)[0].decode("ascii")
    except UnicodeDecodeError:
        return None
    game_id = game_id_in(path)
    return game_id if game_id is not None and well_formed_game_id(game_id) else None


def owners_directory() -> Path:
    """The sockets of one server's web processes (they share their parent, uvicorn's supervisor)."""
    return Path(tempfile.gettempdir()) / f"powergrid-bells-{os.getuid()}" / f"web-{os.getppid()}"


class Owners:
    """This process's part: its index among the ``count`` web processes, the socket on which it is
    handed connections, and the handing over of others' games."""

    def __init__(self, directory: Path, count: int, adopt: Callable[[socket.socket, bytes], None]) -> None:
        self.directory = directory
        self.count = count
        self._adopt = adopt
        self.index: int | None = None
        self.handed = 0  # connections handed to other processes
        self.adopted = 0  # connections handed to this one
        self.passed_on = 0  # connections handed to this one as it closed, passed to another
        self._absent_until = [0.0] * count
        self._paths = [str(directory / str(i)) for i in range(count)]
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.socket.setblocking(False)
        self._claim()

    def _claim(self) -> None:
        """Bind the first free index (under a lock: two processes starting at once take two)."""
        try:
            self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
            with open(self.directory / "lock", "w") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                for i, path in enumerate(self._paths):
                    if os.path.exists(path) and not self._stale(path):
                        continue
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(path)
                    self.socket.bind(path)
                    self.index = i
                    return
        except OSError as exc:
            log.warning("games have no owner here (%s): this process answers every game", exc)
            return
        log.warning("every owner's place of %d is taken: this process answers every game", self.count)

    @staticmethod
    def _stale(path: str) -> bool:
        """Whether a socket file is left by a process that is gone."""
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as probe:
            try:
                probe.connect(path)
            except ConnectionRefusedError:
                return True
            except OSError:
                return False
        return False

    def owner_of(self, game_id: str) -> int:
        return zlib.crc32(game_id.encode()) % self.count

    def hand_over(self, descriptor: int, data: bytes, game_id: str) -> bool:
        """Pass the connection to the game's owner if that is another live process (True: it was
        sent, the caller drops its copy without shutting it down)."""
        owner = self.owner_of(game_id)
        if owner == self.index or len(data) > MAX_HANDED_BYTES:
            return False
        if not self._send(owner, descriptor, data):
            return False
        self.handed += 1
        return True

    def _send(self, owner: int, descriptor: int, data: bytes) -> bool:
        now = time.monotonic()
        if now < self._absent_until[owner]:
            return False
        try:
            rights = (socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [descriptor]))
            self.socket.sendmsg([data], [rights], 0, self._paths[owner])
        except BlockingIOError:
            return False  # its queue is full: it is busy enough
        except OSError as exc:
            if exc.errno in (errno.ECONNREFUSED, errno.ENOENT):
                self._absent_until[owner] = now + ABSENT_S
            return False
        return True

    def _queued(self) -> Iterator[tuple[bytes, int]]:
        """The connections queued on this process's socket, each as (the bytes read, its
        descriptor), until none is left; a datagram's extra descriptors are closed."""
        while True:
            try:
                data, descriptors, _flags, _address = socket.recv_fds(self.socket, MAX_HANDED_BYTES, 4)
            except (BlockingIOError, InterruptedError):
                return
            except OSError as exc:
                log.warning("reading a handed connection failed: %s", exc)
                return
            for extra in descriptors[1:]:
                os.close(extra)
            if descriptors:
                yield data, descriptors[0]

    def receive(self) -> None:
        """Adopt every connection handed to this process (the socket is readable)."""
        for data, descriptor in self._queued():
            try:
                conn = socket.socket(fileno=descriptor)
            except OSError:
                os.close(descriptor)
                continue
            self.adopted += 1
            self._adopt(conn, data)

    def stats(self) -> dict[str, Any]:
        return {"index": self.index, "of": self.count, "handed": self.handed, "adopted": self.adopted,
                "passed_on": self.passed_on}

    def close(self) -> None:
        """Leave: no process hands this one a connection from now on, and those handed to it that it
        has not adopted yet are passed on to another (any process answers any game)."""
        if self.index is not None:
            with contextlib.suppress(OSError):
                os.unlink(self._paths[self.index])
            self._pass_on_queued()
        self.socket.close()
        with contextlib.suppress(OSError):  # the last one out clears up
            if os.listdir(self.directory) == ["lock"]:
                os.unlink(self.directory / "lock")
                self.directory.rmdir()

    def _pass_on_queued(self) -> None:
        """Closing the socket would close the connections still queued on it, unanswered."""
        for data, descriptor in self._queued():
            if any(self._send(other, descriptor, data) for other in range(self.count) if other != self.index):
                self.passed_on += 1
            else:
                log.warning("a connection handed to this process as it closed had nowhere to go")
            os.close(descriptor)  # this copy only: the one passed on keeps it open
