"""The standing load test of the game server: real `powergrid serve` processes, a separate client.

Each run starts `powergrid serve` (its web workers and bot workers) on a fresh database and, from a
separate client process, keeps ``--games`` 3-player games going for ``--seconds``: two seats are
people who act as fast as the rules allow (a random legal action; ``--think MS`` adds a person's
pause before each action), each with its own socket that brings the seat's view, as a browser does
(no GET per move); the third is a server ``heuristic``
bot whose move the client waits for on the sockets. The ``search`` scenario adds ``--search-games``
games of six ``pimc:strong`` bots created by the same client (nobody watches them). Bot pacing is 0
in every game.

For each backend (SQLite, PostgreSQL), number of web workers (1, 2) and scenario it prints:
- act p50/p99: the server-side time of the people's actions: POSTs with ``--act http`` (the
  `Server-Timing` header), socket messages with ``--act socket``, how the browser acts (the
  ``ms`` of their ``done`` answers);
- turn p50/p99: the heuristic bots' turns as the server saw them, from the job's enqueueing (in the
  commit of the action that made it the bot's turn) to the bot's move committed;
- bot p50/p99: from sending the action that made it the bot's turn to the bot's move arriving on
  the socket, as the client saw it (the action's own time and the client's lag are in it);
- srv p50/p99: the same reply as the web processes saw it, from the action's arrival to the bot's
  move leaving on the first socket sent it (the slowest web process's figures): what a person on
  another machine sees, less the network; the client's figure adds its own lateness;
- client lag p99: how late the client's own event loop woke (it shares the two cores);
- loop lag p99/max: how late the web processes' event loops woke (GET /api/server/stats);
- web GC / max: the web processes' garbage collections in the run, their total and longest pause;
- handed: connections the web processes handed to a game's owner process (server/owners.py);
- web CPU ms per action: CPU of the web processes / actions in the played games; bots' CPU ms per
  action likewise for the bot-worker processes (search games' CPU included); client CPU ms per
  action: the load client's own (it shares the cores with the server); db CPU ms per action: the
  PostgreSQL server's processes on this machine (its backends, and those that ended, as their
  parent counts them), PostgreSQL runs only.

    nice -n 10 .venv/bin/python benchmarks/server_load.py [--seconds 30] [--games 100] \\
        [--search-games 20] [--backends sqlite,postgres] [--workers 1,2] [--scenarios base,search] \\
        [--act http,socket] [--think 0] [--clock none|live|correspondence]

With no pause the games never wait for anyone, so the run is a closed loop at saturation: each
game always has one action in flight, and the latencies are about the number of games divided by
the actions per second (Little's law). The client is aiohttp in one process (the ``bench`` extra).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PG_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
SERVE = "from powergrid.cli.main import main; main()"


#: the time controls of --clock (generous: nobody runs out in a run, so the games are the same)
CLOCKS = {"live": {"kind": "live", "bank_s": 480, "increment_s": 15},
          "correspondence": {"kind": "correspondence", "turn_s": 86400, "vacation_s": 604800}}


# ------------------------------------------------------------------ the client process
def pct(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


async def play_games(base: str, seconds: float, games: int, search_games: int, seed: int,
                     act: str = "http", think_ms: float = 0.0,
                     connections: str = "person", clock: str = "none") -> dict[str, float]:
    import aiohttp
    import orjson

    post_ms: list[float] = []
    bot_ms: list[float] = []
    totals = {"posts": 0, "actions": 0, "games_finished": 0, "refused": 0, "errors": 0}
    search_ids: list[str] = []
    # aiohttp rather than httpx: the client shares the two cores with the server, and httpx's pool
    # cost about three times the web process's CPU per action, so the client set the pace. A
    # keep-alive shorter than the server's 5 s: a connection the server closes as the client reuses
    # it fails the request.
    connector = aiohttp.TCPConnector(limit=0, keepalive_timeout=3)  # sockets hold theirs
    async with aiohttp.ClientSession(base, connector=connector, timeout=aiohttp.ClientTimeout(total=60),
                                     json_serialize=lambda o: orjson.dumps(o).decode()) as http:

        async def post_json(path: str, body: dict) -> dict:
            async with http.post(path, json=body) as r:
                return orjson.loads(await r.read())

        await sample_stats(base, reset=True)
        for i in range(search_games):
            body = {"map": "germany", "players": 6, "seed": seed + i, "bot_pace_ms": 0,
                    "seats": [{"kind": "bot", "bot": "pimc:strong"}] * 6}
            search_ids.append((await post_json("/api/games", body))["game_id"])
        deadline = time.monotonic() + seconds

        async def one_game(rng: random.Random) -> None:
            body = {"map": rng.choice(["germany", "usa"]), "players": 3, "seed": rng.getrandbits(32),
                    "bot_pace_ms": 0,
                    "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "heuristic"}]}
            if clock != "none":
                body["time_control"] = CLOCKS[clock]
            game = await post_json("/api/games", body)
            gid = game["game_id"]
            tokens = {s["seat"]: s["token"] for s in game["seats"] if s["kind"] == "human"}
            # each person their own connections (a browser or a script of their own), or one pool for
            # everyone (--connections shared: each request may go out on a connection another game used)
            people = {seat: http if connections == "shared" else aiohttp.ClientSession(
                base, connector=aiohttp.TCPConnector(limit=0, keepalive_timeout=3),
                timeout=aiohttp.ClientTimeout(total=60), json_serialize=lambda o: orjson.dumps(o).decode())
                for seat in tokens}
            ws_url = f"/api/games/{gid}/ws"
            # like a browser per person: the seat's own socket (authenticated by its first message)
            # brings each new view with the seat's legal actions; actions are POSTed (--act http) or
            # sent over that socket, answered there after the new view (--act socket: the browser)
            views: dict[int, dict] = {}
            changed = asyncio.Event()
            answers: dict[int, asyncio.Future[dict]] = {}

            async def read(seat: int, ws: object) -> None:
                async for raw in ws:  # type: ignore[attr-defined]
                    if raw.type != aiohttp.WSMsgType.TEXT:
                        break
                    message = orjson.loads(raw.data)
                    if message["type"] == "state" and message["version"] > views.get(seat, {"version": -1})[
                            "version"]:
                        # only what the person needs: the client holds 200 views, and the whole
                        # state's containers kept alive would be its collector's work
                        last = message["last"]
                        views[seat] = {"version": message["version"], "to_act": message["to_act"],
                                       "legal": message.get("legal"), "over": message["state"]["game_over"],
                                       "last_seat": last["seat"] if last else None,
                                       "arrived": time.perf_counter()}
                        changed.set()
                    elif message["type"] in ("done", "error") and message.get("id") in answers:
                        answers.pop(message["id"]).set_result(message)

            async def past(seat: int, version: int) -> dict:
                """The seat's view once its version is past ``version``. A push that never comes (a
                lost update) fails this game, counted in "err"."""
                while views.get(seat, {"version": -1})["version"] <= version:
                    changed.clear()
                    await asyncio.wait_for(changed.wait(), 30)
                return views[seat]

            sockets = {}
            readers = []
            try:
                for seat, token in tokens.items():
                    ws = await people[seat].ws_connect(f"{ws_url}?seat={seat}", max_msg_size=2**24)
                    sockets[seat] = ws
                    await ws.send_str(json.dumps({"type": "auth", "token": token}))
                    readers.append(asyncio.create_task(read(seat, ws)))
                watcher = min(tokens)
                for seat in tokens:
                    latest = await past(seat, -1)
                version, to_act, over = latest["version"], latest["to_act"], latest["over"]
                start_version = version
                bot_asked: float | None = None
                while time.monotonic() < deadline and not over:
                    if to_act not in tokens:  # the bot's turn: its move comes on the sockets
                        message = await past(watcher, version)
                        if bot_asked is not None and message["last_seat"] == to_act:
                            bot_ms.append((message["arrived"] - bot_asked) * 1000)
                        bot_asked = None
                        version, to_act = message["version"], message["to_act"]
                        over = message["over"]
                        continue
                    seat = to_act
                    view = await past(seat, version - 1)
                    if view["version"] == version and not view.get("legal"):
                        view = await past(seat, version)
                    if view["version"] != version or view.get("to_act") != seat:
                        version, to_act, over = view["version"], view["to_act"], view["over"]
                        continue
                    if think_ms:  # a person's pause before acting, 0.5-1.5 times the mean
                        await asyncio.sleep(think_ms * rng.uniform(0.5, 1.5) / 1000)
                    sent = time.perf_counter()
                    action = choose(view["legal"], rng)
                    totals["posts"] += 1
                    if act == "socket":
                        ref = totals["posts"]
                        answers[ref] = asyncio.get_running_loop().create_future()
                        await sockets[seat].send_str(json.dumps({"type": "action", "action": action,
                                                             "version": version, "id": ref}))
                        reply = await asyncio.wait_for(answers[ref], 30)
                        ok = reply["type"] == "done"
                        if ok:
                            post_ms.append(reply["ms"])  # the server's time on it
                    else:
                        async with people[seat].post(f"/api/games/{gid}/actions",
                                             headers={"Authorization": f"Bearer {tokens[seat]}"},
                                             json={"seat": seat, "action": action, "version": version}) as r:
                            timing = r.headers.get("server-timing", "")
                            if "dur=" in timing:
                                post_ms.append(float(timing.split("dur=")[1].split(",")[0]))
                            ok = r.status == 200
                            await r.read()  # the new view, which the seat's socket brings too
                    if not ok:
                        totals["refused"] += 1
                        view = await past(seat, version)
                        version, to_act, over = view["version"], view["to_act"], view["over"]
                        continue
                    # the seat's socket brings the new view (before a socket action's answer; about
                    # when a POST's answer comes): read from there, not parsed twice
                    answer = views[seat] if act == "socket" else await past(seat, version)
                    version, to_act, over = answer["version"], answer["to_act"], answer["over"]
                    if to_act is not None and to_act not in tokens:
                        bot_asked = sent
                totals["actions"] += version - start_version
                if over:
                    totals["games_finished"] += 1
            finally:
                for task in readers:
                    task.cancel()
                for ws in sockets.values():
                    await ws.close()
                for session in people.values():
                    if session is not http:
                        await session.close()

        async def worker(index: int) -> None:
            rng = random.Random(seed * 1000 + index)
            while time.monotonic() < deadline:
                try:
                    await one_game(rng)
                except Exception as exc:  # a dropped connection under load: counted, and on to the next
                    totals["errors"] += 1
                    print(f"game failed: {type(exc).__name__}: {exc}", file=sys.stderr)

        client_lag: list[float] = []

        async def watch_lag() -> None:  # the client's own lateness: it shares the cores too
            while time.monotonic() < deadline:
                asked = time.perf_counter()
                await asyncio.sleep(0.05)
                client_lag.append((time.perf_counter() - asked - 0.05) * 1000)

        began = time.monotonic()
        await asyncio.gather(watch_lag(), *(worker(i) for i in range(games)))
        elapsed = time.monotonic() - began
        search_actions = 0
        for gid in search_ids:
            async with http.get(f"/api/games/{gid}") as r:
                search_actions += orjson.loads(await r.read())["version"]
    stats = await sample_stats(base)
    lags = [s["loop_lag_ms"] for s in stats.values()]
    return {"seconds": elapsed, "posts": totals["posts"], "actions": totals["actions"],
            "search_actions": search_actions,
            "post_p50": pct(post_ms, 0.5), "post_p99": pct(post_ms, 0.99),
            "bot_p50": pct(bot_ms, 0.5), "bot_p99": pct(bot_ms, 0.99), "bot_replies": len(bot_ms),
            "client_lag_p50": pct(client_lag, 0.5), "client_lag_p99": pct(client_lag, 0.99),
            "lag_p99": max((x["p99"] for x in lags), default=0.0),
            "lag_max": max((x["max"] for x in lags), default=0.0), "web_processes_sampled": len(stats),
            # the slowest web process's (each reports its own percentiles)
            "bot_srv_p50": max((x["bot_reply_ms"]["p50"] for x in stats.values()
                                if x.get("bot_reply_ms", {}).get("samples")), default=0.0),
            "bot_srv_p99": max((x["bot_reply_ms"]["p99"] for x in stats.values()
                                if x.get("bot_reply_ms", {}).get("samples")), default=0.0),
            "gc_ms": sum(x["gc"]["total_ms"] for x in stats.values()),
            "gc_max_ms": max((x["gc"]["max_ms"] for x in stats.values()), default=0.0),
            # connections the web processes handed to a game's owner (server/owners.py), since their start
            "handed": sum((x.get("owners") or {}).get("handed", 0) for x in stats.values()),
            "games_finished": totals["games_finished"], "refused": totals["refused"],
            "errors": totals["errors"]}


async def sample_stats(base: str, reset: bool = False, tries: int = 24) -> dict[int, dict]:
    """GET /api/server/stats on fresh connections until every web process has answered (or tries end)."""
    import httpx

    seen: dict[int, dict] = {}
    for _ in range(tries):
        async with httpx.AsyncClient(base_url=base, timeout=30) as fresh:
            stats = (await fresh.get("/api/server/stats", params={"reset": reset})).json()
            seen.setdefault(stats["pid"], stats)
    return seen


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


def start_server(database_url: str, workers: int, log: Path) -> tuple[subprocess.Popen[bytes], str]:
    import httpx

    port = free_port()
    # every game comes from this one address: the per-client limits would refuse most of them
    # and the bots answer a person at once: the undo window's wait (5 s) is by design, not the
    # server's speed, which is what the bot-reply figures measure
    env = {**os.environ, "POWERGRID_DATABASE_URL": database_url, "POWERGRID_LIMITS": "0",
           "POWERGRID_UNDO_WINDOW_MS": "0"}
    env.pop("POWERGRID_REDIS_URL", None)
    proc = subprocess.Popen([sys.executable, "-c", SERVE, "serve", "--port", str(port), "--workers",
                             str(workers)], env=env, stdout=log.open("ab"), stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    for _ in range(600):
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


def process_tree(pid: int) -> list[int]:
    """The process and all its descendants (Linux /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(children.get(p, []))
    return out


def cpu_by_role(pid: int) -> dict[str, float]:
    """CPU seconds of the server's web processes and of its bot workers."""
    out = {"web": 0.0, "bots": 0.0}
    for p in process_tree(pid):
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            command = Path(f"/proc/{p}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        role = "bots" if b"bots" in command else "web"
        out[role] += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return out


def postgres_cpu_s() -> float:
    """CPU seconds of this machine's PostgreSQL processes, with those of their children that
    ended (a backend whose connection closed is counted by the postmaster that waited for it)."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        name, fields = stat[stat.index("(") + 1:stat.rindex(")")], stat.rsplit(")", 1)[1].split()
        if name.startswith("postgres"):
            total += sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")
    return total


def bot_turn_ms(url: str, since: float) -> list[float]:
    """The heuristic bots' turns as the server saw them: from the job's enqueueing (in the commit of
    the action that made it the bot's turn) to its being done (in the commit of the bot's move)."""
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(text("SELECT created_at, finished_at FROM jobs WHERE kind = 'bot_turn' AND "
                                     "lane = 'quick' AND status = 'done' AND created_at >= :since"),
                                {"since": since}).all()
    finally:
        engine.dispose()
    return [(done - queued) * 1000 for queued, done in rows if done is not None]


def run_one(backend: str, workers: int, scenario: str, act: str, args: argparse.Namespace,
            workdir: Path) -> dict:
    schema = None
    if backend == "sqlite":
        url = f"sqlite:///{workdir}/load-{workers}-{scenario}.db"
    else:
        import psycopg

        schema = "load_" + secrets.token_hex(4)
        with psycopg.connect("postgresql://postgres@127.0.0.1:5432/test", autocommit=True) as conn:
            conn.execute(f'CREATE SCHEMA "{schema}"')
        url = f"{PG_URL}?options=-csearch_path%3D{schema}"
    proc, base = start_server(url, workers, workdir / f"{backend}.log")
    try:
        time.sleep(1.0)  # the bot workers start
        before = cpu_by_role(proc.pid)
        db_before = postgres_cpu_s()
        began_at = time.time()
        search_games = args.search_games if scenario == "search" else 0
        client_before = resource.getrusage(resource.RUSAGE_CHILDREN)
        out = subprocess.run([sys.executable, __file__, "--client", base, "--seconds", str(args.seconds),
                              "--games", str(args.games), "--search-games", str(search_games),
                              "--act", act, "--think", str(args.think), "--connections", args.connections,
                              "--clock", args.clock],
                             capture_output=True, text=True)
        after = cpu_by_role(proc.pid)
        db_after = postgres_cpu_s()
        client_after = resource.getrusage(resource.RUSAGE_CHILDREN)
        turns = bot_turn_ms(url, began_at)
        if out.returncode != 0:
            raise SystemExit(f"the load client failed:\n{out.stderr[-3000:]}")
        result = json.loads(out.stdout.strip().splitlines()[-1])
        if out.stderr.strip():
            print(out.stderr.strip()[-800:], file=sys.stderr)
        actions = max(1, result["actions"])
        result["web_cpu_ms"] = (after["web"] - before["web"]) * 1000 / actions
        result["bots_cpu_ms"] = (after["bots"] - before["bots"]) * 1000 / max(
            1, result["actions"] + result["search_actions"])
        # the client is the only child reaped during the run: its CPU is what the server did not get
        result["client_cpu_ms"] = (client_after.ru_utime + client_after.ru_stime - client_before.ru_utime
                                   - client_before.ru_stime) * 1000 / actions
        result["db_cpu_ms"] = (db_after - db_before) * 1000 / max(
            1, result["actions"] + result["search_actions"]) if backend == "postgres" else None
        result["turn_p50"], result["turn_p99"] = pct(turns, 0.5), pct(turns, 0.99)
        return result
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
        if schema:
            import psycopg

            with psycopg.connect("postgresql://postgres@127.0.0.1:5432/test", autocommit=True) as conn:
                conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--games", type=int, default=100, help="human games played at the same time")
    parser.add_argument("--search-games", type=int, default=20, help="6-pimc:strong games in 'search'")
    parser.add_argument("--backends", default="sqlite,postgres")
    parser.add_argument("--workers", default="1,2", help="web worker counts to run")
    parser.add_argument("--scenarios", default="base,search")
    parser.add_argument("--act", default="http", help="how people act: http (POST), socket (as the browser "
                                                      "does), or both: http,socket")
    parser.add_argument("--think", type=float, default=0.0,
                        help="a person's mean pause before acting, ms (0: as fast as the rules allow)")
    parser.add_argument("--connections", choices=("person", "shared"), default="person",
                        help="each person their own HTTP connections (as separate browsers or scripts), or "
                             "one pool for all (a request may go out on a connection another game used)")
    parser.add_argument("--logs", help="keep the servers' logs and SQLite files in this folder")
    parser.add_argument("--clock", choices=tuple(CLOCKS) + ("none",), default="none",
                        help="the people's games' time control (docs/server.md): every game timed")
    parser.add_argument("--client", help=argparse.SUPPRESS)  # internal: run the load against this URL
    args = parser.parse_args()
    if args.client:
        # the client holds every seat's latest view (parsed JSON, many containers each): with
        # CPython's default thresholds it spent a third of its time in the collector, on the
        # cores the server needs (the server's processes are tuned alike, server/collector.py)
        import gc

        gc.freeze()
        gc.set_threshold(50_000, 20, 20)
        result = asyncio.run(play_games(args.client, args.seconds, args.games, args.search_games, 1,
                                        args.act, args.think, args.connections, args.clock))
        print(json.dumps(result))
        return
    load = os.getloadavg()
    pace = f"a {args.think:.0f} ms mean pause before each action" if args.think else "no pause"
    if args.clock != "none":
        pace += f"; every game on a {args.clock} clock"
    print(f"{args.games} concurrent 3-player games (2 people, each with their own socket, {pace}; 1 "
          f"heuristic bot); 'search' adds {args.search_games} games of 6 pimc:strong bots; "
          f"{args.seconds:.0f} s per run; {os.cpu_count()} CPUs, load average {load[0]:.1f} at the start\n")
    header = (f"{'backend':8} {'web':>3} {'scenario':8} {'act':6} {'act p50':>8} {'p99':>6} {'turn p50':>8} "
              f"{'p99':>5} {'bot p50':>7} {'p99':>6} {'srv p50':>7} {'p99':>5} {'client lag':>10} "
              f"{'lag p99':>7} {'max':>6} {'web GC':>6} {'max':>5} {'actions':>7} {'search':>6} "
              f"{'web CPU':>7} {'bots CPU':>8} {'client CPU':>10} {'db CPU':>6} "
              f"{'err':>4} {'handed':>6}")
    print(header + "\n" + " " * 29 + "(ms)" + " " * 93 + "actions (ms/action)")
    with tempfile.TemporaryDirectory(prefix="powergrid-load-") as scratch:
        tmp = args.logs or scratch
        Path(tmp).mkdir(parents=True, exist_ok=True)
        for backend in args.backends.split(","):
            for workers in (int(w) for w in args.workers.split(",")):
                for scenario, act in ((s, a) for s in args.scenarios.split(",") for a in args.act.split(",")):
                    r = run_one(backend, workers, scenario, act, args, Path(tmp))
                    print(f"{backend:8} {workers:3d} {scenario:8} {act:6} {r['post_p50']:8.1f} "
                          f"{r['post_p99']:6.1f} {r['turn_p50']:8.1f} {r['turn_p99']:5.0f} "
                          f"{r['bot_p50']:7.1f} {r['bot_p99']:6.0f} {r['bot_srv_p50']:7.1f} "
                          f"{r['bot_srv_p99']:5.0f} {r['client_lag_p99']:10.0f} "
                          f"{r['lag_p99']:7.1f} {r['lag_max']:6.0f} {r['gc_ms']:6.0f} {r['gc_max_ms']:5.0f} "
                          f"{r['actions']:7d} {r['search_actions']:6d} {r['web_cpu_ms']:7.2f} "
                          f"{r['bots_cpu_ms']:8.2f} {r['client_cpu_ms']:10.2f} "
                          f"{'-' if r['db_cpu_ms'] is None else format(r['db_cpu_ms'], '.2f'):>6} "
                          f"{r['errors'] + r['refused']:4d} {r.get('handed', 0):6d}", flush=True)
    print(f"\nload average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
