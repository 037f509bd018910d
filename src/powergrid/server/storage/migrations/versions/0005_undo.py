"""Undo: whether a game lets seats take back actions, and the undo window in each snapshot.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("allow_undo", sa.Boolean, nullable=False, server_default=sa.true()))
    with op.batch_alter_table("snapshots") as batch:
        batch.add_column(sa.Column("ledger", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("snapshots") as batch:
        batch.drop_column("ledger")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("allow_undo")
