"""Alembic environment: the server passes its open connection in ``config.attributes``."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from powergrid.server.storage.db import metadata

config = context.config


def run() -> None:
    connection = config.attributes.get("connection")
    if connection is None:  # the `alembic` command line, pointed at a database by sqlalchemy.url
        engine = create_engine(config.get_main_option("sqlalchemy.url") or "sqlite:///./powergrid.db")
        with engine.begin() as conn:
            context.configure(connection=conn, target_metadata=metadata, render_as_batch=True)
            context.run_migrations()
        return
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    context.run_migrations()


run()
