"""Names and chat: each seat's display name, each game's chat messages, and games whose chat is off.

- ``seats.name``: the name the seat's person gave (null: shown by its colour alone);
- ``chat_messages``: a game's chat, in order of ``id``; ``author`` is ``seat:N`` or, for a
  spectator, ``spectator:<per-game pseudonym>`` (the rate limit counts by it);
- ``chat_games``: a row for each game whose creator turned chat off (no row: chat is on).

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("name", sa.String(64), nullable=True))
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), primary_key=True,
                  autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("author", sa.String(48), nullable=False),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("phrase", sa.String(32), nullable=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_chat_messages_game_id_id", "chat_messages", ["game_id", "id"])
    op.create_index("ix_chat_messages_game_id_author_at", "chat_messages", ["game_id", "author", "at"])
    op.create_table(
        "chat_games",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("chat", sa.Boolean, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("chat_games")
    op.drop_index("ix_chat_messages_game_id_author_at", "chat_messages")
    op.drop_index("ix_chat_messages_game_id_id", "chat_messages")
    op.drop_table("chat_messages")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("name")
