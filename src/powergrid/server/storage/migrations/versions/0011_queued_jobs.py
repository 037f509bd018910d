"""Indexes of the queued jobs alone: by lane, for the claims (jobs.py), and the deadlines by game,
which each append finishes for its game; and room in the games table's pages for its rows' cheap
updates (PostgreSQL).

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

_QUEUED_DEADLINE = sa.text("kind = 'deadline' AND status = 'queued'")
_QUEUED = sa.text("status = 'queued'")


def upgrade() -> None:
    op.create_index("ix_jobs_queued", "jobs", ["lane", "priority", "not_before"],
                    postgresql_where=_QUEUED, sqlite_where=_QUEUED)
    op.create_index("ix_jobs_queued_deadlines", "jobs", ["game_id"],
                    postgresql_where=_QUEUED_DEADLINE, sqlite_where=_QUEUED_DEADLINE)
    if op.get_bind().dialect.name == "postgresql":
        # every action updates its game's row: a new version fits beside the old one in its page
        # (a HOT update, store.UPDATED_AT_STEP_S), where a full page sends it to another page
        op.execute("ALTER TABLE games SET (fillfactor = 70)")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE games RESET (fillfactor)")
    op.drop_index("ix_jobs_queued_deadlines", "jobs")
    op.drop_index("ix_jobs_queued", "jobs")
