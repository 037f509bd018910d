"""Bot workers: processes that claim jobs from the database and do them, off the web processes.

``powergrid serve`` starts some (``POWERGRID_BOT_WORKERS`` for the quick lane,
``POWERGRID_SEARCH_WORKERS`` for the search lane); ``powergrid bots --database-url ...`` runs more,
on any machine that reaches the same PostgreSQL. A job kind is handled by the function registered
for it with ``register_handler`` (bot turns here; the coach registers its hint and analysis jobs
from its own package, so the worker knows a registry, not the coach).

A bot turn (``bot_turn`` job for version *v*): the worker brings the game to version *v* (its own
small cache, caught up from the log), asks the bot with only its seat's view, checks the move with
the same ``append.next_frame`` as a person's action, and appends it as action *v + 1* in one
transaction that also enqueues the next bot's turn and marks this job done. A worker killed
mid-turn leaves the job leased; when the lease runs out another worker plays the turn again, with
the same seed, so the same move; the append at *v + 1* lets exactly one of them in. A worker
started by a ``WorkerPool`` that dies has its jobs put back in the queue by the pool at once.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Collection
from dataclasses import dataclass

from ..common import collector
from ..common.settings import DEFAULT_DATABASE_URL, Settings
from ..fanout.doorbell import JOBS, Bells
from ..fanout.pubsub import CHANNEL, message
from ..games import absence, order_store, snapshots, undo_window
from ..games.append import next_frame
from ..games.bot_turns import BOT_TURN, bot_decision, derive_seed, turn_job
from ..games.cache import FIRST_FRAME_BYTES, NEXT_FRAME_BYTES
from ..games.frames import FRAMES_KEPT, Frame
from ..storage import db
from ..storage.job_notices import JobNotices
from ..storage.jobs import QUICK, SEARCH, Job, JobQueue
from ..storage.store import Entry, GameRow, Move, Store

log = logging.getLogger("powergrid.bots")

#: the fewest games a worker keeps in memory, whatever its memory bound
GAMES_KEPT_MIN = 16
#: search workers run at this lower priority where they share a machine with the web processes
SEARCH_NICENESS = 10


class LeaseKeeper:
    """Renews the lease of the job its worker is on, from one thread for the worker's whole life: a
    thread started per job cost more than a quick bot's move. Every ``every`` seconds (a third of
    the lease) it renews the job it also saw at its previous look, so a job is renewed at most two
    looks after it began, before its lease (three looks) runs out; quick jobs are never renewed."""

    def __init__(self, queue: JobQueue, every: float, name: str) -> None:
        self.queue = queue
        self.every = every
        self.name = name
        self._job: Job | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def holding(self, job: Job | None) -> None:
        self._job = job
        if job is not None and self._thread is None:
            self._thread = threading.Thread(target=self._run, name="lease-keeper", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        seen: Job | None = None
        while not self._stop.wait(self.every):
            job = self._job
            if job is not None and job is seen:
                try:
                    self.queue.renew(job)
                except Exception as exc:
                    log.warning("worker %s: renewing job %d failed (%s)", self.name, job.id, exc)
            seen = job

    def stop(self) -> None:
        self._stop.set()


def worker_name(pid: int, lanes: list[str]) -> str:
    """The name a worker process leases its jobs under (its pool finds them by it when it dies)."""
    return f"{socket.gethostname()}:{pid}:{'+'.join(lanes)}"


class BotWorker:
    """One worker: claims jobs of its lanes, one at a time, and does them."""

    def __init__(self, settings: Settings, lanes: list[str], name: str | None = None) -> None:
        self.settings = settings
        self.lanes = lanes
        self.name = name or worker_name(os.getpid(), lanes)
        self.engine = db.make_engine(settings.database_url, settings.sqlite_synchronous)
        channel = CHANNEL if settings.is_postgres and not settings.redis_url else None
        self.bells = Bells.for_database(settings.database_url)
        self.store = Store(self.engine, channel, notices=settings.is_sqlite and not settings.redis_url,
                           bells=self.bells, wake_within_s=settings.poll_ms / 1000)
        #: rung when a job is queued on this machine (doorbell.py)
        self.bell = self.bells.bell(JOBS)
        #: told when a job is queued anywhere (PostgreSQL; job_notices.py)
        self.notices = JobNotices(settings.database_url) if settings.is_postgres else None
        self.queue = JobQueue(self.engine, settings.job_lease_s, settings.search_per_client)
        self.keeper = LeaseKeeper(self.queue, settings.job_lease_s / 3, self.name)
        self.games: OrderedDict[str, tuple[GameRow, deque[Frame]]] = OrderedDict()
        #: games kept, from the memory bound (POWERGRID_CACHE_MB) and a game's most (cache.py): with
        #: fewer than the games being played, a worker read every game back from the database at
        #: every bot turn (64 used to be kept; 100 games in play made every turn a load)
        self.games_kept = max(GAMES_KEPT_MIN, settings.cache_mb * 2**20 // (
            FIRST_FRAME_BYTES + (FRAMES_KEPT - 1) * NEXT_FRAME_BYTES))
        self._redis = None
        if settings.redis_url:
            import redis

            self._redis = redis.Redis.from_url(settings.redis_url)
        self.done = 0

    def run(self, stop: threading.Event | StopFlag, parent: int | None = None) -> None:
        """Work until ``stop`` is set (or the parent process is gone)."""
        self.resume_waiting_games()
        poll = self.settings.poll_ms / 1000
        while not stop.is_set():
            if parent is not None and os.getppid() != parent:
                log.warning("worker %s: the server process is gone; stopping", self.name)
                break
            try:
                claimed = self.queue.claim_some(self.name, self.lanes, self.settings.bot_batch)
            except Exception as exc:  # the database restarted: try again shortly
                log.warning("worker %s: claiming failed (%s)", self.name, exc)
                stop.wait(1.0)
                continue
            if not claimed:
                self.bell.wait(self._idle_wait(poll), self.notices.fileno() if self.notices else None)
                if self.notices is not None:
                    self.notices.drain()
                continue
            if len(claimed) == 1:
                self.work(claimed[0])
            else:
                self.play_turns(claimed)

    def _idle_wait(self, poll: float) -> float:
        """How long to sleep (unless rung): until the next paced job is due, at most ``poll``."""
        try:
            due = self.queue.next_due(self.lanes)
        except Exception:  # the database restarted: the next claim says so
            return poll
        # a job already due that the claim passed over waits for its client's other search: look
        # again soon, as the old tight poll did, only while that lasts
        return poll if due is None else min(poll, max(0.02, due - time.time()))

    def work(self, job: Job) -> None:
        handler = HANDLERS.get(job.kind)
        if handler is None:
            log.error("worker %s: no handler for job kind %r (job %d); leaving it", self.name, job.kind,
                      job.id)
            return
        self.keeper.holding(job)
        try:
            handler(self, job)
            self.done += 1
        except Exception:
            # the lease runs out and another attempt is made (up to JobQueue.max_attempts)
            log.exception("worker %s: job %d (%s %s) failed", self.name, job.id, job.kind, job.key)
            self.games.pop(job.game_id or "", None)
        finally:
            self.keeper.holding(None)

    def play_turns(self, claimed: list[Job]) -> None:
        """Several quick bot turns (of different games): decided one by one, appended in one commit."""
        for job in claimed:
            if job.kind != BOT_TURN:  # another kind of quick job (a deadline, a standing order): on its own
                self.work(job)
        claimed = [job for job in claimed if job.kind == BOT_TURN]
        turns: list[Turn] = []
        caught_up = self.catch_up([job.game_id for job in claimed if job.game_id is not None])
        for job in claimed:
            try:
                turn = decide_turn(self, job, caught_up)
            except Exception:  # as in work(): the lease runs out and the turn is tried again
                log.exception("worker %s: job %d (%s %s) failed", self.name, job.id, job.kind, job.key)
                self.games.pop(job.game_id or "", None)
                continue
            if turn is not None:
                turns.append(turn)
        try:
            record_turns(self, turns)
        except Exception:
            log.exception("worker %s: appending %d bot moves failed", self.name, len(turns))
            for turn in turns:
                self.games.pop(turn.job.game_id or "", None)
            return
        self.done += len(claimed)

    def resume_waiting_games(self) -> None:
        """Enqueue the bot turns of games that wait for a bot but have no job (older databases)."""
        for game_id in self.store.games_waiting_for_bots():
            found = self.game(game_id)
            if found is None:
                continue
            row, frames = found
            spec = turn_job(row, frames[-1].version, frames[-1].state.current_player)
            if spec is not None:
                self.store.enqueue(spec)

    # ------------------------------------------------------------------ games
    def catch_up(self, game_ids: list[str]) -> set[str]:
        """Bring the held games among these to the newest version in the log, in one query; which
        ones it did (a game it fails on is dropped, to be loaded again)."""
        held = {game_id: self.games[game_id][1][-1].version for game_id in game_ids if game_id in self.games}
        try:
            entries = self.store.entries_after_each(held)
        except Exception:  # each game is caught up on its own instead (and a failure reported there)
            log.exception("worker %s: catching up %d games failed", self.name, len(held))
            return set()
        done = set()
        for game_id, rows in entries.items():
            try:
                self._follow(self.games[game_id], rows)
            except Exception:
                log.exception("worker %s: catching up game %s failed", self.name, game_id)
                self.games.pop(game_id, None)
                continue
            done.add(game_id)
        return done

    def game(self, game_id: str, caught_up: bool = False) -> tuple[GameRow, deque[Frame]] | None:
        """The game at the newest version in the log (from this worker's cache, caught up unless
        ``caught_up`` says it just was)."""
        found = self.games.get(game_id)
        if found is None:
            row = self.store.game(game_id)
            if row is None:
                return None
            found = (row, snapshots.load_frames(self.store, row, display_log=False))  # it sends no states
            self.games[game_id] = found
            while len(self.games) > self.games_kept:
                self.games.popitem(last=False)
        else:
            self.games.move_to_end(game_id)
            frames = found[1]
            if not caught_up:
                self._follow(found, self.store.entries_after(game_id, frames[-1].version))
        return found

    def _follow(self, game: tuple[GameRow, deque[Frame]], entries: list[Entry]) -> None:
        """Apply log entries (seq, seat, action, ``undo`` or a notice, time, to act) after the
        game's newest frame."""
        row, frames = game
        for _seq, seat, text, at, _to_act in entries:
            frames.append(snapshots.follow(self.store, row, frames, seat, text, at))

    def announce(self, game_id: str, version: int, seat: int, action: str, at: float | None) -> None:
        """Tell the web processes (PostgreSQL NOTIFY and SQLite notices are sent by the append)."""
        if self._redis is not None:
            self._redis.publish(CHANNEL, message(game_id, version, (seat, action, at)))


@dataclass
class Turn:
    """A bot's move decided by a worker, not yet appended."""

    job: Job
    row: GameRow
    frames: deque[Frame]
    new: Frame
    seat: int
    action: str
    #: the server clock's time of the move (its stored time: the clocks are computed from it)
    at: float | None = None

    def move(self) -> Move:
        state = self.new.state
        return Move(self.row.game_id, self.new.version, self.seat, self.action, absence.status(self.new),
                    state.round, state.current_player, next_job=absence.next_job(self.row, self.new),
                    done_job=self.job.id, at=self.at)


def decide_turn(worker: BotWorker, job: Job, caught_up: Collection[str] = ()) -> Turn | None:
    """The bot's move at ``job.version``, checked as a person's action is; None (and the job done)
    if the game is gone or has moved on, or None (and the job put back) if the undo window of the
    person's action before it is still open (undo_window.py). ``caught_up``: games the worker has
    just brought up to date."""
    assert job.game_id is not None and job.version is not None
    found = worker.game(job.game_id, job.game_id in caught_up)
    if found is None:
        worker.queue.done(job, {"skipped": "no such game"})
        return None
    row, frames = found
    frame = frames[-1]
    seat = int(job.payload["seat"])
    if frame.version != job.version or frame.state.current_player != seat:
        # the game moved on meanwhile (another action, or an undo took the job's version)
        worker.queue.done(job, {"skipped": f"the game is at version {frame.version}"})
        return None
    until = undo_window.still_open(job.payload, worker.settings.clock.now())
    if until is not None:  # early by the server's clock: the person may still take their action back
        worker.queue.postpone(job, until)
        return None
    bot = row.seats[seat]
    # a stand-in's turn names its bot and seed (absence.py); a bot seat's are the seat's
    spec, seed = job.payload.get("bot") or bot.bot, job.payload.get("seed", bot.bot_seed)
    assert spec is not None and seed is not None
    action = bot_decision(spec, derive_seed(seed, frame.version), frame.state, seat,
                          worker.settings.search_budget_max)
    text = str(action)
    new = next_frame(frame, seat, text, job.version)  # the same checks as a person's action
    at = worker.settings.clock.now()
    return Turn(job, row, frames, absence.stamp(new, frame, seat, text, at), seat, text, at)


def record_turns(worker: BotWorker, turns: list[Turn]) -> None:
    """Append the moves in one transaction, each with the next bot's job and its own job done;
    then keep the new frames, save the snapshots due and tell the web processes."""
    if not turns:
        return
    made = worker.store.append_moves([turn.move() for turn in turns])
    people: list[tuple[str, int, int]] = []  # a person to act next: their standing order's job, if any
    for turn, ok in zip(turns, made, strict=True):
        game_id, new = turn.row.game_id, turn.new
        if not ok:  # another worker played this turn (this one's lease had run out), or an undo took it
            worker.queue.done(turn.job, {"skipped": f"version {new.version} was taken meanwhile"})
            worker.games.pop(game_id, None)
            continue
        turn.frames.append(new)
        if snapshots.is_due(new.version, worker.settings.snapshot_every):
            snapshots.save(worker.store, game_id, new)
        if new.state.is_over:
            worker.games.pop(game_id, None)
        worker.announce(game_id, new.version, turn.seat, turn.action, turn.at)
        to_act = new.state.current_player
        if to_act is not None and turn.row.seats[to_act].kind == "human":
            people.append((game_id, new.version, to_act))
    if people:
        order_store.queue_jobs(worker.store, people)


def play_bot_turn(worker: BotWorker, job: Job) -> None:
    """A ``bot_turn`` job: the bot's move at ``job.version``, appended as the next action."""
    turn = decide_turn(worker, job)
    if turn is not None:
        record_turns(worker, [turn])


#: job kind -> what a worker does with it. A handler must be idempotent (a job may run twice when a
#: lease runs out) and should finish the job in the transaction that stores its effect.
HANDLERS: dict[str, Callable[[BotWorker, Job], None]] = {BOT_TURN: play_bot_turn}


def register_handler(kind: str, handler: Callable[[BotWorker, Job], None]) -> None:
    """Have the workers do jobs of ``kind`` with ``handler`` (a package above this one, such as the
    coach, registers its job kinds when it is imported; ``powergrid.server`` imports them all)."""
    HANDLERS[kind] = handler


# ---------------------------------------------------------------------- processes
class StopFlag:
    """Set from a signal handler. A handler must take no lock: with a threading.Event, a second
    signal (the server's SIGTERM and then the parent-death one) arriving while the first handler
    held the event's lock deadlocked the worker, which then outlived the server."""

    def __init__(self) -> None:
        self._set = False

    def set(self) -> None:
        self._set = True

    def is_set(self) -> bool:
        return self._set

    def wait(self, timeout: float) -> bool:
        time.sleep(timeout)
        return self._set


def run_worker(settings: Settings, lanes: list[str], parent: int | None = None) -> None:
    """The body of a worker process: work until SIGTERM/SIGINT."""
    stop = StopFlag()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    if SEARCH in lanes:
        os.nice(SEARCH_NICENESS)  # long searches yield the CPU to web requests and quick bots
    worker = BotWorker(settings, lanes)
    collector.tune(settings.gc_threshold)

    def stopping(*_: object) -> None:
        stop.set()
        worker.bell.ring()  # a datagram: no lock either

    signal.signal(signal.SIGTERM, stopping)
    signal.signal(signal.SIGINT, stopping)
    if parent is not None:
        _end_with_parent(parent)
    log.info("bot worker %s started", worker.name)
    try:
        worker.run(stop, parent)
    finally:
        worker.keeper.stop()
        worker.bell.close()
        if worker.notices is not None:
            worker.notices.close()
        worker.engine.dispose()


def _end_with_parent(parent: int) -> None:
    """Be sent SIGTERM when the parent dies (Linux): `powergrid serve` may die by a signal that
    skips its own cleanup, and an idle worker only looks at its parent every poll."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    pr_set_pdeathsig = 1
    try:
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, int(signal.SIGTERM), 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # it died before the request was made
        os.kill(os.getpid(), signal.SIGTERM)


def lanes_for(search: bool) -> list[str]:
    """A search worker takes search jobs first and helps the quick lane when it has none."""
    return [SEARCH, QUICK] if search else [QUICK]


class WorkerPool:
    """Worker processes started by ``powergrid serve`` (or ``powergrid bots --processes N``),
    restarted if one dies; each one stops by itself when this process is gone. One that stopped as
    asked (SIGTERM or SIGINT, exit status 0) is not restarted: Ctrl-C in a terminal, or a service
    manager stopping the server, signals the whole process group, and the workers usually stop
    before this process has begun to. The jobs a dead worker held are put back in the queue at
    once (a bot turn is played again within seconds, not after the rest of its lease)."""

    def __init__(self, lanes: list[list[str]], env: dict[str, str] | None = None) -> None:
        self.lanes = lanes
        self.env = {**os.environ, **(env or {})}
        self.procs: list[subprocess.Popen[bytes] | None] = [None] * len(lanes)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _release(self, index: int, pid: int) -> None:
        """Put back the jobs of a worker that died (it renews and finishes none of them any more)."""
        name = worker_name(pid, self.lanes[index])
        url = self.env.get("POWERGRID_DATABASE_URL") or DEFAULT_DATABASE_URL  # as the workers read it
        engine = db.make_engine(url)
        try:
            released = JobQueue(engine).release(name)
        except Exception as exc:  # the database is away: the leases run out instead
            log.warning("putting back the jobs of bot worker %s failed (%s)", name, exc)
            return
        finally:
            engine.dispose()
        if released:
            log.warning("bot worker %d held %d jobs: queued again", pid, released)
            bells = Bells.for_database(url)  # wake the other workers on this machine
            bells.ring(JOBS)
            bells.close()

    def _start(self, index: int) -> subprocess.Popen[bytes]:
        command = [sys.executable, "-c", "from powergrid.cli.main import main; main()", "bots",
                   "--lanes", ",".join(self.lanes[index]), "--parent", str(os.getpid())]
        return subprocess.Popen(command, env=self.env)

    def start(self) -> None:
        for i in range(len(self.lanes)):
            self.procs[i] = self._start(i)
        self._thread = threading.Thread(target=self._watch, name="bot-workers", daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        while not self._stop.wait(1.0):
            for i, proc in enumerate(self.procs):
                if proc is None or proc.poll() is None:
                    continue
                if proc.returncode == 0:
                    log.info("bot worker %d stopped as asked", proc.pid)
                    self.procs[i] = None
                else:
                    log.warning("bot worker %d exited (%s); starting another", proc.pid, proc.returncode)
                    self._release(i, proc.pid)
                    self.procs[i] = self._start(i)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
        for proc in self.procs:
            if proc is not None and proc.poll() is None:
                proc.terminate()
        for proc in self.procs:
            if proc is not None:
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()


def default_lanes(settings: Settings) -> list[list[str]]:
    return [lanes_for(False)] * settings.bot_workers + [lanes_for(True)] * settings.search_workers


def wait_forever(pool: WorkerPool) -> None:
    """Block until SIGTERM/SIGINT, then stop the pool."""
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    try:
        while not stop.wait(1.0):
            pass
    finally:
        pool.stop()


__all__ = ["BotWorker", "HANDLERS", "WorkerPool", "default_lanes", "lanes_for", "register_handler",
           "run_worker"]
