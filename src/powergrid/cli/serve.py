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
    workers: Annotated[int, typer.Option(
        help="Server processes (more than 1 needs PostgreSQL or POWERGRID_REDIS_URL for the fan-out).")] = 1,
    log_level: Annotated[str, typer.Option(help="uvicorn log level.")] = "warning",
) -> None:
    """Serve games over HTTP and WebSocket; open the printed address in a browser."""
    try:
        import uvicorn

        from powergrid.server import Settings, create_app
    except ImportError as exc:
        fail(f"the server needs its extra: pip install 'powergrid[server]' ({exc.name} is missing)")
    if database_url:
        os.environ["POWERGRID_DATABASE_URL"] = database_url
    settings = Settings()
    if not settings.is_sqlite and not settings.is_postgres:
        fail(f"unsupported database URL {settings.database_url!r} (use sqlite:/// or postgresql+psycopg://)")
    if workers < 1:
        fail("--workers must be at least 1")
    if workers > 1 and not (settings.is_postgres or settings.redis_url):
        fail("several workers share games only through PostgreSQL or Redis: set POWERGRID_DATABASE_URL "
             "to a PostgreSQL URL or POWERGRID_REDIS_URL")
    shown = "localhost" if host in ("127.0.0.1", "::1") else host
    from powergrid.server.connections import raise_open_file_limit, uvicorn_options

    raise_open_file_limit()
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
    uvicorn.run("powergrid.server.app:create_app_from_env", factory=True, workers=workers,
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
