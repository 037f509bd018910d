"""`powergrid serve`: the game server (FastAPI on uvicorn) with SQLite by default."""

from __future__ import annotations

import os
from typing import Annotated, Any

import typer

from .common import console, fail
from .main import app


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on (0: any free port).")] = 8000,
    database_url: Annotated[str | None, typer.Option(
        "--database-url", help="SQLAlchemy URL: sqlite:///path.db (default ./powergrid.db, or "
                               "$POWERGRID_DATABASE_URL) or postgresql+psycopg://user@host/db.")] = None,
    workers: Annotated[int, typer.Option(help="Web server processes.")] = 1,
    bot_workers: Annotated[int | None, typer.Option(
        help="Bot-worker processes for quick bots (default $POWERGRID_BOT_WORKERS or 1).")] = None,
    search_workers: Annotated[int | None, typer.Option(
        help="Bot-worker processes for search bots (default $POWERGRID_SEARCH_WORKERS or 1); 0 and "
             "--bot-workers 0: run `powergrid bots` yourself.")] = None,
    log_level: Annotated[str, typer.Option(help="uvicorn log level.")] = "warning",
) -> None:
    """Serve games over HTTP and WebSocket; open the printed address in a browser."""
    try:
        import uvicorn  # noqa: F401

        from powergrid.server import Settings
    except ImportError as exc:
        fail(f"the server needs its extra: pip install 'powergrid[server]' ({exc.name} is missing)")
    if database_url:
        os.environ["POWERGRID_DATABASE_URL"] = database_url
    settings = Settings()
    if not settings.is_sqlite and not settings.is_postgres:
        fail(f"unsupported database URL {settings.database_url!r} (use sqlite:/// or postgresql+psycopg://)")
    if settings.sqlite_synchronous not in ("OFF", "NORMAL", "FULL", "EXTRA"):
        fail("POWERGRID_SQLITE_SYNCHRONOUS must be OFF, NORMAL, FULL or EXTRA, "
             f"not {settings.sqlite_synchronous!r}")
    if workers < 1:
        fail("--workers must be at least 1")
    if bot_workers is not None:
        settings.bot_workers = bot_workers
    if search_workers is not None:
        settings.search_workers = search_workers
    if settings.bot_workers < 0 or settings.search_workers < 0:
        fail("--bot-workers and --search-workers cannot be negative")
    pool = _start_bot_workers(settings)
    try:
        _serve(settings, host, port, workers, log_level)
    finally:
        if pool is not None:
            pool.stop()


def _start_bot_workers(settings: Any) -> Any:
    """Migrate the database first (the workers and web processes then find it ready), then start the
    bot workers."""
    from powergrid.server.bots.bot_worker import WorkerPool, default_lanes
    from powergrid.server.storage import db

    engine = db.make_engine(settings.database_url, settings.sqlite_synchronous)
    db.migrate(engine)
    engine.dispose()
    lanes = default_lanes(settings)
    if not lanes:
        return None
    pool = WorkerPool(lanes)
    pool.start()
    return pool


def _serve(settings: Any, host: str, port: int, workers: int, log_level: str) -> None:
    import uvicorn

    from powergrid.server import create_app

    shown = "localhost" if host in ("127.0.0.1", "::1") else host
    from powergrid.server.api.connections import WEB_PROCESSES, raise_open_file_limit, uvicorn_options

    raise_open_file_limit()
    os.environ[WEB_PROCESSES] = str(workers)  # the workers find their games' owners (server/fanout/owners.py)
    options: dict[str, Any] = dict(host=host, port=port, log_level=log_level, ws_per_message_deflate=False,
                                   timeout_graceful_shutdown=5, **uvicorn_options(settings))
    if workers == 1 and port != 0:
        console.print(f"Power Grid server on [bold]http://{shown}:{port}/[/] "
                      f"(database {_safe_url(settings.database_url)}; API docs at /docs)", soft_wrap=True)
        uvicorn.run(create_app(settings), **options)
        return
    if workers == 1:
        _serve_any_port(create_app(settings), options, shown)
        return
    console.print(f"Power Grid server on [bold]http://{shown}:{port}/[/] with {workers} workers "
                  f"(database {_safe_url(settings.database_url)}; API docs at /docs)", soft_wrap=True)
    uvicorn.run("powergrid.server.api.app:create_app_from_env", factory=True, workers=workers,
                **options)


def _serve_any_port(asgi_app: Any, options: dict[str, Any], shown: str) -> None:
    """Port 0: bind first, then print the port the system chose."""
    import socket

    import uvicorn

    sock = socket.socket(socket.AF_INET6 if ":" in str(options["host"]) else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((str(options["host"]), 0))
    port = sock.getsockname()[1]
    console.print(f"Power Grid server on [bold]http://{shown}:{port}/[/] (API docs at /docs)", soft_wrap=True)
    config = uvicorn.Config(asgi_app, **{k: v for k, v in options.items() if k not in ("host", "port")})
    uvicorn.Server(config).run(sockets=[sock])


def _safe_url(url: str) -> str:
    """The URL without its password."""
    try:
        from sqlalchemy.engine import make_url
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return "(unreadable URL)"
