"""Public and private games, open seats, seeded games, and who created each game (for the limits).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("public", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("seeded", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("creator", sa.String(64), nullable=True))
    op.create_index("ix_games_creator_created_at", "games", ["creator", "created_at"])
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("open", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("open")
    op.drop_index("ix_games_creator_created_at", "games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("creator")
        batch.drop_column("seeded")
        batch.drop_column("public")
