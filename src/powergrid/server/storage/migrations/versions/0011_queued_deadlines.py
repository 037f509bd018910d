"""An index of the deadline jobs still queued, by game: each append finishes its game's old ones.

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


def upgrade() -> None:
    op.create_index("ix_jobs_queued_deadlines", "jobs", ["game_id"],
                    postgresql_where=_QUEUED_DEADLINE, sqlite_where=_QUEUED_DEADLINE)


def downgrade() -> None:
    op.drop_index("ix_jobs_queued_deadlines", "jobs")
