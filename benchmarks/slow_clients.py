"""Slowloris against a real `powergrid serve` on loopback: do other clients still get answers?

Starts the server (SQLite in a temp dir) with a limit on open files (1,024 by default, the common
default), opens many half-sent requests from 127.0.0.2, then sends normal requests from
127.0.0.3 once a second and prints how many were answered and how fast, and how many half-open
connections the server still holds as time passes. ``--unguarded`` turns the connection cap and
the request deadline off (what uvicorn alone does).

    python benchmarks/slow_clients.py                 # guarded (the default settings)
    python benchmarks/slow_clients.py --unguarded     # the same attack without the guard
"""

from __future__ import annotations

import argparse
import os
import resource
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

SERVE = "from powergrid.cli.main import main; main()"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start(port: int, workdir: Path, open_files: int, unguarded: bool) -> subprocess.Popen[bytes]:
    env = {**os.environ, "POWERGRID_DATABASE_URL": f"sqlite:///{workdir}/slow.db"}
    if unguarded:
        env.update(POWERGRID_CONNECTIONS_PER_CLIENT="0", POWERGRID_HEADER_TIMEOUT="0")

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, open_files))

    log = open(workdir / "server.log", "wb")  # noqa: SIM115
    proc = subprocess.Popen([sys.executable, "-c", SERVE, "serve", "--port", str(port)], env=env,
                            stdout=log, stderr=subprocess.STDOUT, preexec_fn=limit)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/maps", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("the server did not start")


def half_open(port: int, count: int) -> list[socket.socket]:
    held = []
    for _ in range(count):
        sock = socket.socket()
        sock.bind(("127.0.0.2", 0))
        sock.settimeout(2)
        try:
            sock.connect(("127.0.0.1", port))
            sock.sendall(b"GET /api/maps HTTP/1.1\r\nHost: powergrid\r\nX-Slow: ")
            held.append(sock)
        except OSError:
            sock.close()
    return held


def still_open(socks: list[socket.socket]) -> int:
    count = 0
    for sock in socks:
        sock.settimeout(0.001)
        try:
            if sock.recv(64) != b"":
                count += 1
        except TimeoutError:
            count += 1
        except OSError:
            pass
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=1100)
    parser.add_argument("--open-files", type=int, default=1024)
    parser.add_argument("--seconds", type=int, default=15)
    parser.add_argument("--unguarded", action="store_true")
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        proc = start(port, Path(tmp), args.open_files, args.unguarded)
        try:
            socks = half_open(port, args.connections)
            print(f"{'unguarded' if args.unguarded else 'guarded'}: {len(socks)} half-open connections "
                  f"sent from 127.0.0.2, server limited to {args.open_files} open files")
            print(f"{'t (s)':>6} {'answered':>9} {'latency (ms)':>13} {'attacker open':>14}")
            answered = 0
            started = time.monotonic()
            transport = httpx.HTTPTransport(local_address="127.0.0.3")
            with httpx.Client(transport=transport, timeout=5) as client:
                for second in range(args.seconds):
                    t0 = time.monotonic()
                    try:
                        ok = client.get(f"http://127.0.0.1:{port}/api/maps").status_code == 200
                    except httpx.HTTPError:
                        ok = False
                    took = (time.monotonic() - t0) * 1000
                    answered += ok
                    print(f"{time.monotonic() - started:6.1f} {'yes' if ok else 'NO':>9} "
                          f"{took if ok else float('nan'):13.0f} {still_open(socks):14d}", flush=True)
                    time.sleep(max(0.0, second + 1 - (time.monotonic() - started)))
            print(f"answered {answered} of {args.seconds} normal requests")
            for sock in socks:
                sock.close()
        finally:
            proc.terminate()
            proc.wait(10)


if __name__ == "__main__":
    main()
