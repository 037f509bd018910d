"""Each game's undo window against bots: how long the bots wait after a person's action.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        # null: the server's setting (games created before the creator could choose)
        batch.add_column(sa.Column("undo_window_ms", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("undo_window_ms")
