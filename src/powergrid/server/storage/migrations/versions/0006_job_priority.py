"""Job priorities and who asked for each analysis.

- ``jobs.priority``: claimed in (priority, not_before, id) order, so that a due bot turn or hint
  (0: someone waits on it) never waits behind queued analyses (1: background work).
- ``analyses.client``: the hashed client key that started the analysis (analyses in progress are
  bounded per client).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("jobs") as batch:
        batch.add_column(sa.Column("priority", sa.Integer, nullable=False, server_default="0"))
    op.execute("UPDATE jobs SET priority = 1 WHERE kind = 'analysis'")
    with op.batch_alter_table("analyses") as batch:
        batch.add_column(sa.Column("client", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("analyses") as batch:
        batch.drop_column("client")
    with op.batch_alter_table("jobs") as batch:
        batch.drop_column("priority")
