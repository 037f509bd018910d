"""Standing orders, and the game that follows a finished one (Play again).

- ``orders``: a seat's standing order (one per seat at a time), applied by a bot worker as the
  seat's own action when its turn comes; kept here so that a restart keeps it.
- ``rematches``: the game a finished game's seats were asked to play again (one per game).

Revision ID: 0009
Revises: 0006
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "orders",
        sa.Column("id", _ID, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("detail", sa.Text, nullable=False),
        sa.Column("scope", sa.Text, nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("refusal", sa.Text, nullable=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.UniqueConstraint("game_id", "seat", name="uq_orders_game_seat"),
    )
    op.create_table(
        "rematches",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("new_game_id", sa.String(32), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rematches")
    op.drop_table("orders")
