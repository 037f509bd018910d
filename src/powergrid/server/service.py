"""Games in play: the in-process cache over the store, appending actions, bots in seats, watchers.

A game's *version* is the number of actions in its log. Each live game keeps its latest state
and a short run of recent *frames* (one per version) so that a watcher is sent every new view in
order, even when several actions land between two of its sends.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import random
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

import powergrid as pg

from . import views
from .errors import ApiError
from .pubsub import SEATS_CHANGED, Hub
from .settings import Settings
from .store import GameRow, SeatRow, Store
from .tokens import new_game_id, new_token, token_hash, token_matches

log = logging.getLogger("powergrid.server")
T = TypeVar("T")

FRAMES_KEPT = 64
History = dict[str, list[list[int]]]


@dataclass
class Frame:
    """The game at one version, and the action that led to it."""

    version: int
    state: pg.GameState
    history: History
    #: {"seat", "action", "text"} of the action that made this version (None for version 0 / unknown)
    last: dict[str, Any] | None
    log_tail: views.LogTail
    _public: dict[str, Any] | None = None
    _payloads: dict[int | None, dict[str, Any]] = field(default_factory=dict)
    _messages: dict[int | None, str] = field(default_factory=dict)
    _bodies: dict[int | None, bytes] = field(default_factory=dict)

    def message(self, seat: int | None) -> str:
        """The WebSocket message (JSON text) for a seat; encoded once per seat and version."""
        text = self._messages.get(seat)
        if text is None:
            text = json.dumps({"type": "state", **self.payload(seat)}, ensure_ascii=False)
            self._messages[seat] = text
        return text

    def body(self, game_id: str, seat: int | None, **extra: Any) -> bytes:
        """The HTTP answer (JSON bytes) about this version for a seat; encoded once per seat and version."""
        if extra:
            return json.dumps({"game_id": game_id, **extra, **self.payload(seat)},
                              ensure_ascii=False).encode()
        body = self._bodies.get(seat)
        if body is None:
            body = json.dumps({"game_id": game_id, **self.payload(seat)}, ensure_ascii=False).encode()
            self._bodies[seat] = body
        return body

    def payload(self, seat: int | None) -> dict[str, Any]:
        """The JSON a seat (None: a spectator) is sent about this version; built once per seat."""
        cached = self._payloads.get(seat)
        if cached is None:
            view = self.state.view(0 if seat is None else seat)
            if self._public is None:
                # every seat sees the same cards (only the deck is hidden, from all alike)
                self._public = views.state_payload(view, self.history, self.log_tail)
            state = {**self._public, "seat": seat}
            cached = {"version": self.version, "seat": seat, "state": state,
                      **views.seat_extras(view, seat), "last": self.last}
            self._payloads[seat] = cached
        return cached


@dataclass
class LiveGame:
    row: GameRow
    frames: deque[Frame]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watchers: set[asyncio.Event] = field(default_factory=set)

    @property
    def game_id(self) -> str:
        return self.row.game_id

    @property
    def latest(self) -> Frame:
        return self.frames[-1]

    @property
    def version(self) -> int:
        return self.frames[-1].version

    @property
    def state(self) -> pg.GameState:
        return self.frames[-1].state

    def seat(self, seat: int) -> SeatRow:
        return self.row.seats[seat]

    def wake(self) -> None:
        for event in self.watchers:
            event.set()


def advance(frame: Frame, seat: int, action: pg.Action) -> Frame:
    """The next frame: the action applied to a copy (raises pg.IllegalAction, frame unchanged)."""
    state = frame.state.clone()
    round_before = state.round
    state.apply(action)
    events = new_events(state, frame.state)
    history = frame.history
    if state.round != round_before or state.is_over:
        history = {k: [row[:] for row in v] for k, v in history.items()}
        views.record_round(history, state)
    log_tail = frame.log_tail.extended(state, events)
    text = "; ".join(log_tail.text[-len(events):]) if events else str(action)
    return Frame(frame.version + 1, state, history, {"seat": seat, "action": str(action), "text": text},
                 log_tail)


def new_events(state: pg.GameState, before: pg.GameState) -> list[tuple[Any, ...]]:
    """Log entries added since ``before`` (the log is a shared linked list: walk only the new part)."""
    stop = before._log
    node = state._log
    out = []
    while node is not None and node is not stop:
        out.append(node[0])
        node = node[1]
    out.reverse()
    return out


def derive_seed(*parts: int) -> int:
    digest = hashlib.blake2b(":".join(str(p) for p in parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def bot_decision(spec: str, seed: int, state: pg.GameState, seat: int) -> pg.Action:
    """Run in a worker thread: the bot sees only its seat's view."""
    from powergrid.bots import make_bot

    view = state.view(seat)
    try:
        action = make_bot(spec, seed).act(view)
        if state.is_legal(action):
            return action
        log.error("bot %s in seat %d chose an illegal action %s; playing the first legal one", spec, seat,
                  action)
    except Exception:
        log.exception("bot %s in seat %d failed; playing the first legal action", spec, seat)
    return state.legal_actions()[0]


def check_bot_spec(spec: str) -> None:
    from powergrid.bots import make_bot

    try:
        make_bot(spec, 0)
    except Exception as exc:
        raise ApiError("invalid_config", f"bot {spec!r}: {exc}") from None


class GameService:
    def __init__(self, store: Store, hub: Hub, settings: Settings) -> None:
        self.store = store
        self.hub = hub
        self.settings = settings
        self.cache: OrderedDict[str, LiveGame] = OrderedDict()
        self._loading: dict[str, asyncio.Future[LiveGame | None]] = {}
        self._bot_tasks: dict[str, asyncio.Task[None]] = {}
        self._background: set[asyncio.Task[Any]] = set()
        self.bot_pool = ThreadPoolExecutor(max(1, settings.bot_threads), thread_name_prefix="bot")
        self.closing = False

    async def db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        return await asyncio.to_thread(fn, *args, **kwargs)

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        await self.hub.start(self.on_notify)
        for game_id in await self.db(self.store.games_waiting_for_bots):
            live = await self.live(game_id)
            self.ensure_bots(live)

    async def stop(self) -> None:
        self.closing = True
        for task in list(self._bot_tasks.values()) + list(self._background):
            task.cancel()
        await asyncio.gather(*self._bot_tasks.values(), *self._background, return_exceptions=True)
        await self.hub.stop()
        self.bot_pool.shutdown(wait=False, cancel_futures=True)

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        return task

    # ------------------------------------------------------------------ creating and listing
    async def create_game(self, map_name: str, players: int, regions: list[str] | None, variant: str,
                          seed: int | None, seat_specs: list[tuple[str, str | None]], *, public: bool = False,
                          open_seats: frozenset[int] = frozenset(), creator: str | None = None
                          ) -> dict[str, Any]:
        seeded = seed is not None
        if seed is None:
            seed = random.SystemRandom().getrandbits(63)
        try:
            config = pg.GameConfig(map=map_name, players=players, seed=seed,
                                   regions=tuple(regions) if regions is not None else None, variant=variant)
            state = await asyncio.to_thread(pg.new_game, config)
        except pg.PowerGridError as exc:
            raise ApiError("invalid_config", str(exc)) from None
        if len(seat_specs) != players:
            raise ApiError("invalid_config", f"{players} players need {players} seats, not {len(seat_specs)}")
        game_id = new_game_id()
        seat_rows, out = [], []
        for seat, (kind, bot) in enumerate(seat_specs):
            if kind == "bot":
                assert bot is not None
                check_bot_spec(bot)
                seat_rows.append(SeatRow(seat, "bot", bot, derive_seed(seed, seat), None, True))
                out.append({"seat": seat, "kind": "bot", "bot": bot})
            elif seat in open_seats:  # anyone takes it from the lobby; no token until then
                seat_rows.append(SeatRow(seat, "human", None, None, None, False, open=True))
                out.append({"seat": seat, "kind": "human", "open": True})
            else:
                token = new_token()
                seat_rows.append(SeatRow(seat, "human", None, None, token_hash(token), False))
                out.append({"seat": seat, "kind": "human", "token": token,
                            "link": seat_link(game_id, seat, token)})
        created = await self.db(self.store.create_game, game_id, config.to_dict(), seat_rows,
                                state.current_player, public=public, seeded=seeded, creator=creator)
        row = GameRow(game_id, created, config.to_dict(), seat_rows, 0, "playing", 1, public=public,
                      seeded=seeded)
        first = Frame(0, state, views.empty_history(players), None, views.LogTail.of(state))
        live = LiveGame(row, deque([first], maxlen=FRAMES_KEPT))
        self._remember(live)
        self.ensure_bots(live)
        return {"game_id": game_id, "version": 0, "public": public, "seeded": seeded, "seats": out,
                "spectator_link": f"/game/{game_id}"}

    async def list_games(self) -> list[dict[str, Any]]:
        rows = await self.db(self.store.list_games, 200)
        out = []
        for row in rows:
            open_seats = [s.seat for s in row.seats if s.open and not s.claimed]
            waiting = any(s.kind == "human" and not s.claimed for s in row.seats)
            status = "over" if row.status == "over" else ("waiting" if waiting else "playing")
            out.append({"game_id": row.game_id, "map": row.config["map"], "players": row.config["players"],
                        "variant": row.config["variant"], "public": row.public, "seeded": row.seeded,
                        "status": status, "round": row.round,
                        "version": row.version, "open_seats": open_seats,
                        "seats": [public_seat(s) for s in row.seats],
                        "created_at": row.created_at.isoformat()})
        return out

    # ------------------------------------------------------------------ loading
    def _remember(self, live: LiveGame) -> None:
        self.cache[live.game_id] = live
        self.cache.move_to_end(live.game_id)
        excess = len(self.cache) - self.settings.cache_size
        for game_id in list(self.cache):
            if excess <= 0:
                break
            other = self.cache[game_id]
            if other.watchers or other.lock.locked() or game_id in self._bot_tasks:
                continue
            del self.cache[game_id]
            excess -= 1

    async def live(self, game_id: str) -> LiveGame:
        """The game, from the cache or loaded (latest snapshot + later actions); unknown_game if none."""
        live = self.cache.get(game_id)
        if live is not None:
            self.cache.move_to_end(game_id)
            return live
        pending = self._loading.get(game_id)
        if pending is None:
            pending = asyncio.get_running_loop().create_future()
            self._loading[game_id] = pending
            try:
                loaded = await self.db(self._load, game_id) if len(game_id) <= 32 else None
                if loaded is not None:
                    self._remember(loaded)
                pending.set_result(loaded)
            except BaseException as exc:
                pending.set_exception(exc)
                raise
            finally:
                del self._loading[game_id]
        found = await asyncio.shield(pending)
        if found is None:
            raise ApiError("unknown_game", f"no game {game_id!r}")
        return found

    def _load(self, game_id: str) -> LiveGame | None:
        row = self.store.game(game_id)
        if row is None:
            return None
        frame = None
        snap = self.store.latest_snapshot(game_id)
        if snap is not None:
            try:
                state = pg.GameState.from_dict(snap.state)
                frame = Frame(snap.seq, state, snap.history, None, views.LogTail.of(state))
            except pg.PowerGridError:
                log.warning("game %s: snapshot %d does not load; replaying from the start", game_id, snap.seq)
        if frame is None:
            config = pg.GameConfig.from_dict(row.config)
            state = pg.new_game(config)
            frame = Frame(0, state, views.empty_history(config.players), None, views.LogTail.of(state))
        frames: deque[Frame] = deque([frame], maxlen=FRAMES_KEPT)
        for _seq, seat, text in self.store.actions_after(game_id, frame.version):
            frames.append(advance(frames[-1], seat, pg.parse_action(text)))
        return LiveGame(row, frames)

    async def catch_up(self, live: LiveGame) -> bool:
        """Apply actions other processes appended since this one last looked (under live.lock)."""
        newer = await self.db(self.store.actions_after, live.game_id, live.version)
        for _seq, seat, text in newer:
            live.frames.append(advance(live.latest, seat, pg.parse_action(text)))
        if newer:
            live.wake()
        return bool(newer)

    async def fresh(self, game_id: str) -> LiveGame:
        live = await self.live(game_id)
        async with live.lock:
            await self.catch_up(live)
        self.ensure_bots(live)
        return live

    # ------------------------------------------------------------------ seats and tokens
    def check_seat(self, live: LiveGame, seat: int) -> SeatRow:
        if not 0 <= seat < len(live.row.seats):
            raise ApiError("unknown_seat", f"game {live.game_id} has seats 0 to {len(live.row.seats) - 1}, "
                                           f"not {seat}")
        return live.seat(seat)

    async def authenticate(self, live: LiveGame, seat: int, token: str | None) -> None:
        row = self.check_seat(live, seat)
        if not token:
            raise ApiError("missing_token", f"acting for seat {seat} needs its token "
                                            "(Authorization: Bearer <token>)")
        if not token_matches(token, row.token_hash):
            raise ApiError("wrong_token", f"that token is not seat {seat}'s")
        if not row.claimed:
            row.claimed = True
            await self.db(self.store.mark_claimed, live.game_id, seat)

    async def any_seat_token(self, live: LiveGame, token: str | None) -> None:
        if not token:
            raise ApiError("missing_token", "the record of a game in play needs a seat's token")
        if not any(token_matches(token, s.token_hash) for s in live.row.seats):
            raise ApiError("wrong_token", "that token is no seat's of this game")

    async def claim(self, game_id: str, seat: int) -> dict[str, Any]:
        live = await self.fresh(game_id)
        row = self.check_seat(live, seat)
        if row.kind != "human":
            raise ApiError("seat_taken", f"seat {seat} is played by the bot {row.bot}")
        if not row.open:
            raise ApiError("seat_not_open", f"seat {seat} is joined only through its seat link")
        if live.state.is_over:
            raise ApiError("game_over", "the game is over")
        token = new_token()
        hashed = token_hash(token)
        if row.claimed or not await self.db(self.store.claim_seat, game_id, seat, hashed):
            row.claimed = True
            raise ApiError("seat_taken", f"seat {seat} has been taken")
        row.claimed = True
        row.token_hash = hashed
        await self.hub.publish(game_id, SEATS_CHANGED)  # other processes forget the old token
        return {"seat": seat, "token": token, "link": seat_link(game_id, seat, token)}

    # ------------------------------------------------------------------ acting
    async def act(self, game_id: str, seat: int, token: str | None, text: str,
                  version: int | None) -> Frame:
        """Validate and append a human's action; the frame it made. Every refusal changes nothing."""
        live = await self.live(game_id)
        await self.authenticate(live, seat, token)
        async with live.lock:
            if version is None or version > live.version:
                await self.catch_up(live)  # another process may have moved on (else the append tells)
            frame = live.latest
            if frame.state.is_over:
                raise ApiError("game_over", "the game is over")
            if version is not None and version != frame.version:
                raise ApiError("stale_version", f"the game is at version {frame.version}, not {version}; "
                                                "read the current view and try again")
            to_act = frame.state.current_player
            if to_act != seat:
                raise ApiError("not_your_turn", f"it is seat {to_act}'s turn, not seat {seat}'s")
            try:
                action = pg.parse_action(text)
            except pg.PowerGridError as exc:
                raise ApiError("malformed_action", str(exc)) from None
            try:
                new = advance(frame, seat, action)
            except pg.PowerGridError as exc:
                raise ApiError("illegal_action", str(exc)) from None
            if not await self._commit(live, new):
                raise ApiError("stale_version", "another action was taken at the same moment; "
                                                "read the current view and try again")
        self.ensure_bots(live)
        return new

    async def _commit(self, live: LiveGame, new: Frame) -> bool:
        """Append the frame's action to the log (under live.lock); False if another writer won."""
        state = new.state
        assert new.last is not None
        status = "over" if state.is_over else "playing"
        ok = await self.db(self.store.append, live.game_id, new.version, new.last["seat"], new.last["action"],
                           status=status, round_=state.round, to_act=state.current_player)
        if not ok:
            await self.catch_up(live)
            return False
        live.frames.append(new)
        live.row.version, live.row.status, live.row.round = new.version, status, state.round
        live.wake()
        if new.version % self.settings.snapshot_every == 0:
            self._spawn(self.db(self.store.save_snapshot, live.game_id, new.version, state.to_dict(),
                                new.history))
        await self.hub.publish(live.game_id, new.version)
        return True

    # ------------------------------------------------------------------ bots
    def ensure_bots(self, live: LiveGame) -> None:
        """Start this game's bot loop if a bot is to act and none runs here."""
        if self.closing or live.game_id in self._bot_tasks:
            return
        seat = live.state.current_player
        if seat is None or live.seat(seat).kind != "bot":
            return
        task = asyncio.create_task(self._run_bots(live))
        self._bot_tasks[live.game_id] = task
        task.add_done_callback(lambda _t: self._bot_tasks.pop(live.game_id, None))

    async def _run_bots(self, live: LiveGame) -> None:
        loop = asyncio.get_running_loop()
        try:
            while not self.closing:
                async with live.lock:
                    await self.catch_up(live)
                    frame = live.latest
                seat = frame.state.current_player
                if seat is None or live.seat(seat).kind != "bot":
                    return
                row = live.seat(seat)
                assert row.bot is not None and row.bot_seed is not None
                if self.settings.bot_delay > 0:
                    await asyncio.sleep(self.settings.bot_delay)
                action = await loop.run_in_executor(
                    self.bot_pool, bot_decision, row.bot, derive_seed(row.bot_seed, frame.version),
                    frame.state.clone(), seat)
                async with live.lock:
                    if live.version != frame.version:
                        continue  # someone else (another process's bot loop) moved first
                    await self._commit(live, advance(frame, seat, action))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot loop of game %s stopped", live.game_id)

    # ------------------------------------------------------------------ fan-out
    def on_notify(self, game_id: str, version: int) -> None:
        """A process (maybe this one) appended action ``version`` to ``game_id`` (or changed its seats)."""
        live = self.cache.get(game_id)
        if live is None:
            return
        if version == SEATS_CHANGED:
            self._spawn(self._reload_seats(live))
        elif live.version < version:
            self._spawn(self._refresh(live))

    async def _reload_seats(self, live: LiveGame) -> None:
        live.row.seats = await self.db(self.store.seats, live.game_id)

    async def _refresh(self, live: LiveGame) -> None:
        async with live.lock:
            await self.catch_up(live)

    def watch(self, live: LiveGame) -> asyncio.Event:
        event = asyncio.Event()
        live.watchers.add(event)
        return event

    def unwatch(self, live: LiveGame, event: asyncio.Event) -> None:
        live.watchers.discard(event)

    # ------------------------------------------------------------------ records
    def record(self, live: LiveGame) -> dict[str, Any]:
        state = live.state
        record: dict[str, Any] = {
            "format": "powergrid.game", "version": 1, "config": dict(live.row.config),
            "actions": [str(a) for a in state.actions_taken()],
            "bots": [{"seat": s.seat, "bot": s.bot, "seed": s.bot_seed} for s in live.row.seats
                     if s.kind == "bot"],
        }
        if state.is_over:
            record["final"] = state.to_dict()
        return record


def seat_link(game_id: str, seat: int, token: str) -> str:
    # the token rides in the fragment, which browsers never send to a server (or a proxy's log)
    return f"/game/{game_id}#seat={seat}&token={token}"


def public_seat(row: SeatRow) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": row.seat, "kind": row.kind, "claimed": row.claimed}
    if row.kind == "bot":
        out["bot"] = row.bot
    else:
        out["open"] = row.open
    return out
