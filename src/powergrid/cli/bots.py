"""`powergrid bots`: bot-worker processes that play the server's bot turns from the database."""

from __future__ import annotations

import logging
import os
from typing import Annotated

import typer

from .common import console, fail
from .main import app


@app.command()
def bots(
    database_url: Annotated[str | None, typer.Option(
        "--database-url", help="The server's database (SQLAlchemy URL); default $POWERGRID_DATABASE_URL "
                               "or ./powergrid.db.")] = None,
    lanes: Annotated[str, typer.Option(
        help="Job lanes to take, in order of preference: quick (random, heuristic bots), search (mcts).")
    ] = "search,quick",
    processes: Annotated[int, typer.Option(help="Worker processes to run (restarted if one dies).")] = 1,
    parent: Annotated[int | None, typer.Option(hidden=True, help="Stop when this process is gone.")] = None,
    log_level: Annotated[str, typer.Option(help="Log level.")] = "warning",
) -> None:
    """Play the server's bot turns: run more bot workers, here or on another machine (PostgreSQL)."""
    try:
        from powergrid.server import Settings
        from powergrid.server.bots.bot_worker import WorkerPool, run_worker, wait_forever
        from powergrid.server.storage import db
        from powergrid.server.storage.jobs import QUICK, SEARCH
    except ImportError as exc:
        fail(f"bot workers need the server extra: pip install 'powergrid[server]' ({exc.name} is missing)")
    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(name)s %(levelname)s %(message)s")
    if database_url:
        os.environ["POWERGRID_DATABASE_URL"] = database_url
    settings = Settings()
    if not settings.is_sqlite and not settings.is_postgres:
        fail(f"unsupported database URL {settings.database_url!r} (use sqlite:/// or postgresql+psycopg://)")
    chosen = [lane.strip() for lane in lanes.split(",") if lane.strip()]
    unknown = [lane for lane in chosen if lane not in (QUICK, SEARCH)]
    if not chosen or unknown:
        fail(f"--lanes takes quick and/or search, not {lanes!r}")
    if processes < 1:
        fail("--processes must be at least 1")
    if parent is None:
        engine = db.make_engine(settings.database_url, settings.sqlite_synchronous)
        db.migrate(engine)
        engine.dispose()
    if processes == 1:
        if parent is None:
            console.print(f"bot worker on lanes {', '.join(chosen)}; Ctrl-C to stop")
        run_worker(settings, chosen, parent)
        return
    console.print(f"{processes} bot workers on lanes {', '.join(chosen)}; Ctrl-C to stop")
    pool = WorkerPool([chosen] * processes)
    pool.start()
    wait_forever(pool)
