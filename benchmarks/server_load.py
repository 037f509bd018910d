"""Load on a real `powergrid serve` process: many concurrent games played through HTTP and WebSocket.

For each backend (SQLite, then PostgreSQL) it starts a server process, then a separate client
process that keeps ``--games`` games going for ``--seconds``: in each game two seats are played by
the client (random legal actions, sent with POST) and one by a server-side random bot, whose moves
the client waits for on the game's WebSocket. It reports acknowledged actions per second (the
client's POSTs, and all actions including the server bots'), and POST latency p50/p99.

    .venv/bin/python benchmarks/server_load.py [--seconds 30] [--games 32] [--backends sqlite,postgres]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PG_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
SERVE = "from powergrid.cli.main import main; main()"


# ------------------------------------------------------------------ the client process
async def play_games(base: str, seconds: float, games: int, seed: int) -> dict[str, float]:
    import httpx
    import websockets

    latencies: list[float] = []
    totals = {"posts": 0, "actions": 0, "games_finished": 0, "refused": 0, "errors": 0}
    deadline = time.monotonic() + seconds
    limits = httpx.Limits(max_connections=games * 2, max_keepalive_connections=games * 2)

    async with httpx.AsyncClient(base_url=base, timeout=30, limits=limits) as http:
        async def one_game(rng: random.Random) -> None:
            body = {"map": rng.choice(["germany", "usa"]), "players": 3, "seed": rng.getrandbits(32),
                    "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}]}
            game = (await http.post("/api/games", json=body)).json()
            gid = game["game_id"]
            tokens = {s["seat"]: s["token"] for s in game["seats"] if s["kind"] == "human"}
            ws_url = base.replace("http", "ws", 1) + f"/api/games/{gid}/ws"
            async with websockets.connect(ws_url, max_size=2**24) as ws:
                latest = json.loads(await ws.recv())
                start_version = latest["version"]
                while time.monotonic() < deadline and not latest["state"]["game_over"]:
                    seat = latest["to_act"]
                    if seat not in tokens:  # the server's bot moves: wait for its push
                        latest = await next_state(ws, latest["version"])
                        continue
                    headers = {"Authorization": f"Bearer {tokens[seat]}"}
                    view = (await http.get(f"/api/games/{gid}/view", params={"seat": seat},
                                           headers=headers)).json()
                    if view["version"] != latest["version"] or view.get("to_act") != seat:
                        latest = await next_state(ws, latest["version"])
                        continue
                    action = choose(view["legal"], rng)
                    began = time.perf_counter()
                    r = await http.post(f"/api/games/{gid}/actions", headers=headers,
                                        json={"seat": seat, "action": action, "version": view["version"]})
                    latencies.append(time.perf_counter() - began)
                    if r.status_code != 200:
                        totals["refused"] += 1
                    totals["posts"] += 1
                    latest = await next_state(ws, latest["version"])
                totals["actions"] += latest["version"] - start_version
                if latest["state"]["game_over"]:
                    totals["games_finished"] += 1

        async def next_state(ws: object, version: int) -> dict:
            while True:
                message = json.loads(await ws.recv())  # type: ignore[attr-defined]
                if message["type"] == "state" and message["version"] > version:
                    return message

        async def worker(index: int) -> None:
            rng = random.Random(seed * 1000 + index)
            while time.monotonic() < deadline:
                try:
                    await one_game(rng)
                except Exception as exc:  # a dropped connection under load: counted, and on to the next
                    totals["errors"] += 1
                    print(f"game failed: {type(exc).__name__}: {exc}", file=sys.stderr)

        began = time.monotonic()
        await asyncio.gather(*(worker(i) for i in range(games)))
        elapsed = time.monotonic() - began

    latencies.sort()

    def pct(p: float) -> float:
        return latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000 if latencies else 0.0

    return {"seconds": elapsed, "posts": totals["posts"], "actions": totals["actions"],
            "posts_per_s": totals["posts"] / elapsed, "actions_per_s": totals["actions"] / elapsed,
            "p50_ms": pct(0.50), "p99_ms": pct(0.99), "games_finished": totals["games_finished"],
            "refused": totals["refused"], "errors": totals["errors"]}


def choose(legal: list[str], rng: random.Random) -> str:
    """Random, but quick to finish: build when it can, rarely bid up."""
    builds = [a for a in legal if a.startswith("build")]
    if builds and rng.random() < 0.8:
        return rng.choice(builds)
    bids = [a for a in legal if a.startswith(("bid", "open"))]
    if bids and rng.random() < 0.5:
        return bids[0]
    return rng.choice(legal)


# ------------------------------------------------------------------ the driver
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(database_url: str, log: Path) -> tuple[subprocess.Popen[bytes], str]:
    import httpx

    port = free_port()
    # every game comes from this one address: the per-client limits would refuse most of them
    env = {**os.environ, "POWERGRID_DATABASE_URL": database_url, "POWERGRID_LIMITS": "0"}
    env.pop("POWERGRID_REDIS_URL", None)
    proc = subprocess.Popen([sys.executable, "-c", SERVE, "serve", "--port", str(port)], env=env,
                            stdout=log.open("ab"), stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        if proc.poll() is not None:
            raise SystemExit(f"the server exited: {log.read_text()[-2000:]}")
        try:
            if httpx.get(base + "/api/maps", timeout=1).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process and its threads (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_backend(name: str, args: argparse.Namespace, workdir: Path) -> dict[str, float]:
    schema = None
    if name == "sqlite":
        url = f"sqlite:///{workdir}/load.db"
    else:
        import psycopg

        schema = "load_" + secrets.token_hex(4)
        with psycopg.connect("postgresql://postgres@127.0.0.1:5432/test", autocommit=True) as conn:
            conn.execute(f'CREATE SCHEMA "{schema}"')
        url = f"{PG_URL}?options=-csearch_path%3D{schema}"
    proc, base = start_server(url, workdir / f"{name}.log")
    try:
        cpu_before = cpu_seconds(proc.pid)
        out = subprocess.run([sys.executable, __file__, "--client", base, "--seconds", str(args.seconds),
                              "--games", str(args.games)], capture_output=True, text=True)
        if out.returncode != 0:
            raise SystemExit(f"the load client failed:\n{out.stderr[-3000:]}")
        result = json.loads(out.stdout.strip().splitlines()[-1])
        if out.stderr.strip():
            print(out.stderr.strip()[-1500:], file=sys.stderr)
        result["server_cpu_ms_per_action"] = (cpu_seconds(proc.pid) - cpu_before) * 1000 / max(
            1, result["actions"])
        return result
    finally:
        proc.terminate()
        proc.wait(15)
        if schema:
            import psycopg

            with psycopg.connect("postgresql://postgres@127.0.0.1:5432/test", autocommit=True) as conn:
                conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--games", type=int, default=32, help="games played at the same time")
    parser.add_argument("--backends", default="sqlite,postgres")
    parser.add_argument("--client", help=argparse.SUPPRESS)  # internal: run the load against this URL
    args = parser.parse_args()
    if args.client:
        print(json.dumps(asyncio.run(play_games(args.client, args.seconds, args.games, 1))))
        return
    with tempfile.TemporaryDirectory(prefix="powergrid-load-") as tmp:
        print(f"{args.games} concurrent 3-player games (2 seats played over HTTP, 1 server bot), "
              f"{args.seconds:.0f} s per backend, server and client in separate processes\n")
        print(f"{'backend':10} {'POSTs/s':>9} {'actions/s':>10} {'p50 ms':>8} {'p99 ms':>8} {'games':>6} "
              f"{'refused':>8} {'errors':>7} {'server CPU ms/action':>21}")
        for name in args.backends.split(","):
            r = run_backend(name, args, Path(tmp))
            print(f"{name:10} {r['posts_per_s']:9.1f} {r['actions_per_s']:10.1f} {r['p50_ms']:8.1f} "
                  f"{r['p99_ms']:8.1f} {r['games_finished']:6d} {r['refused']:8d} {r['errors']:7d} "
                  f"{r['server_cpu_ms_per_action']:21.2f}", flush=True)


if __name__ == "__main__":
    main()
