"""The FastAPI application: routes, error mapping, body limit, static client, lifespan."""

from __future__ import annotations

import logging
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Header, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.engine import make_url
from starlette.exceptions import HTTPException as StarletteHTTPException

import powergrid as pg

from ..chat.rooms import ChatRooms
from ..common import collector
from ..common.clients import creator_key
from ..common.errors import ApiError
from ..common.game_ids import GameIdCheck
from ..common.limits import BodyLimit, RequestRate
from ..common.metrics import ServerTiming, process_stats
from ..common.settings import Settings
from ..common.tokens import bearer, well_formed_game_id
from ..fanout.doorbell import Bells
from ..fanout.pubsub import CHANNEL, Hub, NoticeHub, PostgresHub, RedisHub
from ..games import views
from ..games.service import GameService, public_seat
from ..storage import db
from ..storage.quotas import GameQuotas
from ..storage.store import Store
from . import absence_routes, coach_routes, connections, order_routes, replays, social_routes
from .play_routes import PlayRoutes, action_body, view_body
from .schemas import CreateGame, PostAction, PostUndo
from .socket import SocketCounts, serve_socket

log = logging.getLogger("powergrid.server")

WEB = Path(__file__).resolve().parents[2] / "web" / "static"  # src/powergrid/web/static

PLACEHOLDER = """<!doctype html><html><head><meta charset="utf-8"><title>Power Grid</title></head>
<body><h1>Power Grid server</h1><p>The browser client is not installed. The API is documented at
<a href="/docs">/docs</a>.</p></body></html>"""


#: the seat-token header, documented for the routes that read it from the request themselves (as
#: a declared parameter FastAPI would analyse it on every request, the hottest ones included)
SEAT_TOKEN: dict[str, Any] = {"parameters": [{
    "name": "Authorization", "in": "header", "required": True, "schema": {"type": "string"},
    "description": "Bearer <the seat's token>"}]}


def make_store_and_hub(settings: Settings, engine: Any) -> tuple[Store, Hub]:
    """The store and the fan-out between processes: Redis if set, else PostgreSQL's LISTEN/NOTIFY
    (sent by the append transaction), else SQLite's notices table (written by it, read when the
    appending process rings this one's bell, see doorbell.py)."""
    bells = Bells.for_database(settings.database_url)
    wake = settings.poll_ms / 1000
    if settings.redis_url:
        store = Store(engine, bells=bells, wake_within_s=wake)
        return store, RedisHub(settings.redis_url, CHANNEL)
    if settings.is_postgres:
        conninfo = make_url(settings.database_url).set(drivername="postgresql")
        return (Store(engine, CHANNEL, bells=bells, wake_within_s=wake),
                PostgresHub(conninfo.render_as_string(hide_password=False), CHANNEL))
    store = Store(engine, notices=True, bells=bells, wake_within_s=wake)
    return store, NoticeHub(store, settings.poll_ms / 1000)


class JSONBytes(Response):
    """JSON encoded once per version and seat (the state is large: FastAPI's encoder is skipped)."""

    media_type = "application/json"


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # a commit on the event loop must not run a checkpoint: it flushes the disk (the service
        # checkpoints from a thread instead)
        engine = db.make_engine(settings.database_url, settings.sqlite_synchronous,
                                autocheckpoint=not settings.appends_on_loop)
        db.migrate(engine)
        store, hub = make_store_and_hub(settings, engine)
        service = GameService(store, hub, settings)
        collector.tune(settings.gc_threshold)  # before the service counts the collector's pauses
        if settings.switch_interval_ms > 0:
            # each batch a thread writes, and each notice it reads, waits for the lock after every
            # database call: under load the loop held it for CPython's full 5 ms every time
            sys.setswitchinterval(settings.switch_interval_ms / 1000)
        await service.start()
        app.state.service = service
        app.state.chat = ChatRooms(store)  # chat messages and seat changes for this process's sockets
        service.listeners.append(app.state.chat.on_notify)
        app.state.quotas = GameQuotas(engine, settings.limits)
        try:
            yield
        finally:
            connections.close_game_owners()
            await app.state.chat.stop()
            await service.stop()
            engine.dispose()

    app = FastAPI(title="Power Grid server", version=getattr(pg, "__version__", "0"),
                  description="Play Power Grid (Funkenschlag 2004) online: games, seats, actions, views.",
                  lifespan=lifespan)
    app.add_middleware(PlayRoutes)  # innermost: the two routes every move takes, past FastAPI's routing
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes,
                       per_path={"/api/replay": max(settings.max_body_bytes, replays.MAX_RECORD_BYTES)})
    app.add_middleware(GameIdCheck)  # a garbage game id is unknown_game on every route, coach's included
    app.add_middleware(ServerTiming, process_header=settings.process_header)
    client_rate = settings.limits.request_buckets()  # requests, socket handshakes and socket messages
    # outermost: a flood is refused before reading
    app.add_middleware(RequestRate, limits=settings.limits, buckets=client_rate)
    app.state.settings = settings
    addresses = settings.limits.addresses()
    sockets = SocketCounts(settings.limits)

    def service_of(request: Request | WebSocket) -> GameService:
        return request.app.state.service  # type: ignore[no-any-return]

    def game_id_checked(game_id: str) -> str:
        if not well_formed_game_id(game_id):
            raise ApiError("unknown_game", f"no game {game_id[:40]!r}")
        return game_id

    # ------------------------------------------------------------------ errors
    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse(exc.body(), status_code=exc.status, headers=exc.headers())

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        first = errors[0] if errors else {}
        where = ".".join(str(x) for x in first.get("loc", ()) if x != "body") or "request"
        message = f"{where}: {first.get('msg', 'invalid')}"
        if any(e.get("type") == "json_invalid" for e in errors):
            error = ApiError("malformed_request", "the body is not valid JSON")
        elif request.url.path == "/api/games" and request.method == "POST" and all(
                len(e.get("loc", ())) > 1 for e in errors):
            error = ApiError("invalid_config", message)
        else:
            error = ApiError("malformed_request", message)
        return JSONResponse(error.body(), status_code=error.status)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "malformed_request")
        return JSONResponse({"error": {"code": code, "message": str(exc.detail)}},
                            status_code=exc.status_code)

    @app.exception_handler(Exception)
    async def _crash(_request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error", exc_info=exc)
        return JSONResponse({"error": {"code": "internal_error", "message": "the server failed; nothing was "
                                                                            "changed"}}, status_code=500)

    # ------------------------------------------------------------------ maps
    @app.get("/api/maps", tags=["maps"])
    async def list_maps() -> dict[str, Any]:
        """The packaged maps."""
        from powergrid.rules.maps import PACKAGED_MAPS
        return {"maps": list(PACKAGED_MAPS)}

    @app.get("/api/bots", tags=["bots"])
    async def list_bots() -> dict[str, Any]:
        """The bots a seat can be given (kind or kind:level), weakest first, and what each is like
        (``about``: its kind, its rating on the published ladder, Elo scale with its 95% interval,
        and its CPU seconds per searched decision, 0 for a bot that does not search)."""
        from powergrid.bots import bot_names, levels
        order = ["random", "greedy", "bold", "heuristic", "pimc", "expert:fast", "expert"]
        names = sorted(bot_names(), key=lambda n: (order.index(n) if n in order else len(order), n))
        return {"bots": names, "about": {n: levels.facts(n).to_dict() for n in names}}

    @app.get("/api/server/stats", tags=["server"])
    async def server_stats(request: Request, reset: bool = False) -> dict[str, Any]:
        """This web process: its pid, event-loop lag (ms), garbage collections and their pauses (ms),
        bots' replies to people as it saw them (``bot_reply_ms``: from a person's action arriving to
        the bot's answer leaving on a socket), games in memory, CPU seconds used, its appends: entries
        and the transactions that committed them (group commit), and with several web processes its
        place among the games' owners and the connections it handed and was handed."""
        service = service_of(request)
        stats = process_stats(service.loop_lag, service.cache, service.collector_pauses, service.bot_replies)
        stats["appends"] = service.appends.stats()
        stats["owners"] = connections.game_owners_stats()
        if reset:
            service.loop_lag.reset()
            service.collector_pauses.reset()
            service.bot_replies.reset()
        return stats

    @app.get("/api/maps/{name}", tags=["maps"])
    async def get_map(name: str) -> dict[str, Any]:
        """A map's cities (positions in [0, 1]), regions, colours, connections and region adjacency."""
        from powergrid.rules.maps import PACKAGED_MAPS
        if name not in PACKAGED_MAPS:
            raise ApiError("unknown_map", f"no map {name!r}; the maps are {', '.join(PACKAGED_MAPS)}")
        return views.map_info(name)

    # ------------------------------------------------------------------ games
    @app.post("/api/games", status_code=201, tags=["games"])
    async def create_game(body: CreateGame, request: Request) -> dict[str, Any]:
        """Create a game; the answer holds the token of every human seat that is not open (hot-seat, or
        links for friends). Private by default; a public game lists its open seats in the lobby."""
        specs: list[tuple[str, str | None]]
        if body.seats is not None:
            specs = [(s.kind, s.bot) for s in body.seats]
            open_seats = frozenset(i for i, s in enumerate(body.seats) if s.open)
        else:
            specs = [("human", None)] * max(0, min(body.players, 6))
            open_seats = frozenset()
        if open_seats and not body.public:
            raise ApiError("invalid_config", "open seats are for public games (\"public\": true); a private "
                                             "game is joined through its seat links")
        if body.seed is not None and not settings.chosen_seeds:
            raise ApiError("invalid_config", "this server draws every game's seed: leave seed out")
        creator = creator_key(addresses.of_scope(request.scope))
        with_bots = any(kind == "bot" for kind, _ in specs)
        async with request.app.state.quotas.admit(creator, with_bots):
            created = await service_of(request).create_game(
                body.map, body.players, body.regions, body.variant, body.seed, specs, public=body.public,
                open_seats=open_seats, creator=creator, bot_pace_ms=body.bot_pace_ms,
                allow_undo=body.allow_undo, undo_window_ms=body.undo_window_ms, map_data=body.map_data,
                time_control=absence_routes.time_control_of(body), stand_in=body.stand_in)
        await coach_routes.after_create(service_of(request), created["game_id"], body)
        await social_routes.after_create(service_of(request), created["game_id"], body)
        created["chat"] = body.chat
        return created

    @app.get("/api/games", tags=["games"], response_class=JSONBytes)
    async def list_games(request: Request) -> Response:
        """The newest games (at most 200), with their open seats (refreshed every few seconds)."""
        return JSONBytes(await service_of(request).lobby_json())

    @app.get("/api/games/{game_id}", tags=["games"], response_class=JSONBytes)
    async def public_state(game_id: str, request: Request) -> Response:
        """The public view of a game (what a spectator sees), whether it is public and whether seeded."""
        live = await service_of(request).fresh(game_id_checked(game_id))
        return JSONBytes(live.latest.body(game_id, None, public=live.row.public, seeded=live.row.seeded,
                                          seats=[public_seat(s) for s in live.row.seats]))

    @app.post("/api/games/{game_id}/seats/{seat}/claim", tags=["games"])
    async def claim_seat(game_id: str, seat: int, request: Request,
                         body: social_routes.ClaimSeat | None = None) -> dict[str, Any]:
        """Take an open seat of a public game (its token, once), optionally giving the taker's display
        name; seats with links are not open."""
        name = social_routes.claim_name(body)
        return await service_of(request).claim(game_id_checked(game_id), seat, name)

    @app.get("/api/games/{game_id}/view", tags=["play"], response_class=JSONBytes, openapi_extra=SEAT_TOKEN)
    async def seat_view(game_id: str, request: Request, seat: Annotated[int, Query()]) -> Response:
        """A seat's view, with its legal actions when it is to act (needs the seat's token)."""
        return JSONBytes(await view_body(service_of(request), game_id_checked(game_id), seat,
                                         request.headers.get("authorization")))

    @app.post("/api/games/{game_id}/actions", tags=["play"], response_class=JSONBytes,
              openapi_extra=SEAT_TOKEN)
    async def post_action(game_id: str, body: PostAction, request: Request) -> Response:
        """Take an action for a seat (its token), at the version the client saw."""
        return JSONBytes(await action_body(service_of(request), game_id_checked(game_id), body,
                                           request.headers.get("authorization")))

    @app.post("/api/games/{game_id}/undo", tags=["play"], response_class=JSONBytes)
    async def post_undo(game_id: str, body: PostUndo, request: Request,
                        authorization: Annotated[str | None, Header()] = None) -> Response:
        """Take back the seat's newest action (its token), at the version the client saw; refused once
        another player has acted or new information came out (docs/rules.md, Undo)."""
        frame = await service_of(request).take_back(game_id_checked(game_id), body.seat,
                                                    bearer(authorization), body.version)
        return JSONBytes(frame.body(game_id, body.seat))

    @app.get("/api/games/{game_id}/record", tags=["games"])
    async def game_record(game_id: str, request: Request) -> dict[str, Any]:
        """The game record (config with the seed, bots, actions), replayable with `powergrid show`.

        Anyone may have it once the game is over, and nobody before: the seed gives the deck away.
        """
        service = service_of(request)
        live = await service.fresh(game_id_checked(game_id))
        if not service.ended(live):  # over, or abandoned
            raise ApiError("game_not_over", "the record (with the seed, which fixes the deck order) is "
                                            "given out when the game is over")
        record = service.record(live)
        record["hints"] = await coach_routes.hints_used(service, game_id)  # hints each seat used
        return record

    order_routes.add_order_routes(app, service_of, bearer,  # standing orders, summary, play again
                                  lambda request: creator_key(addresses.of_scope(request.scope)),
                                  game_id_checked)
    app.include_router(replays.router)  # the whole log, and the replay viewer's positions
    app.include_router(absence_routes.router)  # Leave, taking a seat back, the server's time
    coach_routes.add_coach_routes(app, service_of, bearer,  # hints and analyses
                                  lambda request: creator_key(addresses.of_scope(request.scope)),
                                  settings.limits)
    social_routes.add_social_routes(app, service_of, bearer,  # names, chat, My games
                                    lambda request: creator_key(addresses.of_scope(request.scope)))

    @app.websocket("/api/games/{game_id}/ws")
    async def game_socket(websocket: WebSocket, game_id: str) -> None:
        await serve_socket(service_of(websocket), websocket, game_id, settings, sockets,
                           addresses.of_scope(websocket.scope), client_rate, websocket.app.state.chat)

    # ------------------------------------------------------------------ the browser client
    app.mount("/static", StaticFiles(directory=WEB, check_dir=False), name="static")

    def page(name: str) -> Any:
        path = WEB / name
        return FileResponse(path) if path.is_file() else HTMLResponse(PLACEHOLDER)

    @app.get("/", include_in_schema=False)
    async def lobby() -> Any:
        return page("index.html")

    @app.get("/game/{game_id}", include_in_schema=False)
    async def game_page(game_id: str) -> Any:
        game_id_checked(game_id)
        return page("game.html")

    @app.get("/mine", include_in_schema=False)
    async def my_games_page() -> Any:
        return page("mine.html")

    @app.get("/replay", include_in_schema=False)
    @app.get("/replay/{game_id}", include_in_schema=False)
    async def replay_page(game_id: str | None = None) -> Any:
        if game_id is not None:
            game_id_checked(game_id)
        return page("replay.html")

    return app


def create_app_from_env() -> FastAPI:
    """For uvicorn's ``--factory`` (several worker processes): settings from POWERGRID_* variables."""
    return create_app(Settings())
