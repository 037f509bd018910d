"""Slow and half-open clients against a real `powergrid serve` on loopback: they must not starve others.

The server runs with 256 open files at most (soft and hard), so that without the guard 400
half-sent requests would take every descriptor and nobody else would be answered (with 1,100 and
the common limit of 1,024, the issue saw all requests fail for 40 s). Loopback has many addresses:
the attacker connects from 127.0.0.2, the others from 127.0.0.3 and .4.
"""

from __future__ import annotations

import socket
import time
from pathlib import Path

import httpx
import pytest

from .servers import ServerProcess

pytestmark = pytest.mark.timeout(90)

HALF_OPEN = 400
CAP = 50
TIMEOUT = 2.0


def half_open(port: int, source: str, count: int) -> list[socket.socket]:
    """Connections that send the start of a request's headers and then nothing."""
    held = []
    for _ in range(count):
        sock = socket.socket()
        sock.bind((source, 0))
        sock.settimeout(5)
        try:
            sock.connect(("127.0.0.1", port))
            sock.sendall(b"GET /api/maps HTTP/1.1\r\nHost: powergrid\r\nX-Slow: ")
        except OSError:
            sock.close()
            continue
        held.append(sock)
    return held


def closed_by_server(sock: socket.socket, within: float) -> bool:
    sock.settimeout(within)
    try:
        return sock.recv(1024) == b""
    except (ConnectionResetError, BrokenPipeError):
        return True
    except TimeoutError:
        return False


def from_address(source: str) -> httpx.Client:
    return httpx.Client(transport=httpx.HTTPTransport(local_address=source), timeout=10)


def test_half_open_connections_do_not_starve_other_clients(tmp_path: Path) -> None:
    with ServerProcess(f"sqlite:///{tmp_path}/slow.db", tmp_path / "server.log", open_files=256,
                       POWERGRID_CONNECTIONS_PER_CLIENT=str(CAP),
                       POWERGRID_HEADER_TIMEOUT=str(TIMEOUT)) as server:
        attack = half_open(server.port, "127.0.0.2", HALF_OPEN)
        try:
            # the others are answered at once, while the attacker still holds what it may
            for source in ("127.0.0.3", "127.0.0.4"):
                with from_address(source) as client:
                    for _ in range(3):
                        r = client.get(server.url + "/api/maps")
                        assert r.status_code == 200, r.text
            # past the cap, the attacker's connections were closed on arrival; the rest within the deadline
            still_open = [s for s in attack if not closed_by_server(s, 0.05)]
            assert len(still_open) <= CAP
            assert all(closed_by_server(s, TIMEOUT + 8) for s in still_open)
            # the attacker's address is served again once its half-open connections are gone
            with from_address("127.0.0.2") as client:
                assert client.get(server.url + "/api/maps").status_code == 200
        finally:
            for sock in attack:
                sock.close()
        assert server.proc.poll() is None
    assert "connections refused: 127.0.0.2" in (tmp_path / "server.log").read_text()


def test_a_request_trickled_byte_by_byte_is_cut_at_the_deadline(tmp_path: Path) -> None:
    with ServerProcess(f"sqlite:///{tmp_path}/slow.db", tmp_path / "server.log",
                       POWERGRID_HEADER_TIMEOUT=str(TIMEOUT)) as server:
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        request = b"GET /api/maps HTTP/1.1\r\nHost: powergrid\r\n" + b"X-Slow: " + b"a" * 200
        started = time.monotonic()
        cut = False
        with sock:
            for byte in request:  # one byte every 50 ms: always something new, never a whole request
                try:
                    sock.sendall(bytes([byte]))
                except OSError:
                    cut = True
                    break
                if closed_by_server(sock, 0.05):
                    cut = True
                    break
        assert cut, "the server kept a connection whose headers never ended"
        assert time.monotonic() - started < TIMEOUT + 6
        # and a whole request on a kept-alive connection is not cut
        with httpx.Client(timeout=10) as client:
            for _ in range(3):
                assert client.get(server.url + "/api/maps").status_code == 200
