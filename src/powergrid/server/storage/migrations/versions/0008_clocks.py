"""Clocks and stand-ins: each log entry's time and who was to act after it; each game's time control.

- ``actions.at``: the server's clock (seconds since the epoch) when the entry was appended; the
  players' clocks are computed from these stored times alone (games/clocks.py). Null for entries
  written before this migration (no time passes across them).
- ``actions.to_act``: the seat to act after the entry (null: nobody), so the clocks can be
  replayed from the log without replaying the game.
- ``games.time_control``: ``none``, ``live`` or ``correspondence`` (null: none), for the lobby
  and for leaving timed games out of the idle expiry (their deadlines keep them moving).
- ``games.clock``: JSON: the time control's numbers, the stand-in bot, when the clocks started
  and who was to act first (null in older games: no clock, a heuristic stand-in).

A game whose every person has left gets the status ``abandoned`` (a value, no new column).

Revision ID: 0008
Revises: 0006
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("actions") as batch:
        batch.add_column(sa.Column("at", sa.Float, nullable=True))
        batch.add_column(sa.Column("to_act", sa.Integer, nullable=True))
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("time_control", sa.String(16), nullable=True))
        batch.add_column(sa.Column("clock", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("clock")
        batch.drop_column("time_control")
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("to_act")
        batch.drop_column("at")
