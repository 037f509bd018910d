"""Jobs for worker processes (bot turns; later hints, analyses), change notices, game activity.

- ``jobs``: one row per job, claimed with a lease (see powergrid/server/storage/jobs.py).
- ``notices``: "game G reached version V" rows, the fan-out between processes on SQLite.
- ``games.bot_pace_ms``, ``games.updated_at``: the pause before each bot move, and when the game
  last changed (for expiry).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "jobs",
        sa.Column("id", ID, primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("lane", sa.String(16), nullable=False),
        sa.Column("key", sa.String(128), nullable=False),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=True),
        sa.Column("version", sa.Integer, nullable=True),
        sa.Column("client", sa.String(64), nullable=True),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("not_before", sa.Float, nullable=False),
        sa.Column("lease_until", sa.Float, nullable=True),
        sa.Column("worker", sa.String(64), nullable=True),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("result", sa.Text, nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("finished_at", sa.Float, nullable=True),
        sa.UniqueConstraint("kind", "key", name="uq_jobs_kind_key"),
    )
    op.create_index("ix_jobs_claim", "jobs", ["lane", "status", "not_before"])
    op.create_index("ix_jobs_game", "jobs", ["game_id"])
    op.create_table(
        "notices",
        sa.Column("id", ID, primary_key=True, autoincrement=True),
        sa.Column("message", sa.String(64), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("bot_pace_ms", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("updated_at", sa.Float, nullable=True))
    op.create_index("ix_games_updated_at", "games", ["updated_at"])


def downgrade() -> None:
    op.drop_index("ix_games_updated_at", "games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("updated_at")
        batch.drop_column("bot_pace_ms")
    op.drop_table("notices")
    op.drop_index("ix_jobs_game", "jobs")
    op.drop_index("ix_jobs_claim", "jobs")
    op.drop_table("jobs")
