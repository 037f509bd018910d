"""The chat's tables: each game's messages, and the games whose creator turned chat off.

Every function is blocking (SQLAlchemy Core); callers run them in worker threads.
"""

from __future__ import annotations

import math
import time
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    Text,
    func,
    insert,
    select,
)

from ..common.errors import ApiError
from ..fanout.doorbell import NOTICES
from ..fanout.pubsub import CHAT_POSTED, message
from ..storage import db
from ..storage.store import Store
from . import messages

chat_messages = Table(
    "chat_messages", db.metadata,
    Column("id", BigInteger().with_variant(Integer(), "sqlite"), primary_key=True, autoincrement=True),
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    #: the writer's seat; null for a spectator
    Column("seat", Integer, nullable=True),
    #: ``seat:N`` or ``spectator:<pseudonym>`` (messages.py): the rate limit counts by it
    Column("author", String(48), nullable=False),
    #: the writer's display name when it was written (a seat's may be null)
    Column("name", String(64), nullable=True),
    Column("text", Text, nullable=False),
    #: a quick phrase's key (messages.PHRASES); its English words are in text
    Column("phrase", String(32), nullable=True),
    Column("at", Float, nullable=False),
    Index("ix_chat_messages_game_id_id", "game_id", "id"),
    Index("ix_chat_messages_game_id_author_at", "game_id", "author", "at"),
)

#: a row for each game whose chat is off (no row: on)
chat_games = Table(
    "chat_games", db.metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("chat", Boolean, nullable=False),
)


def turn_off(engine: Engine, game_id: str) -> None:
    with engine.begin() as conn:
        conn.execute(insert(chat_games).values(game_id=game_id, chat=False))


def is_on(engine: Engine, game_id: str) -> bool:
    with engine.connect() as conn:
        row = conn.execute(select(chat_games.c.chat).where(chat_games.c.game_id == game_id)).first()
    return row is None or bool(row.chat)


def as_json(row: Any) -> dict[str, Any]:
    return {"id": int(row.id), "seat": row.seat, "author": row.author, "name": row.name,
            "spectator": row.seat is None, "text": row.text, "phrase": row.phrase, "at": row.at}


def post(store: Store, game_id: str, *, seat: int | None, author: str, name: str | None, text: str,
         phrase: str | None, now: float | None = None) -> dict[str, Any]:
    """Store a message (its writer within the rate limit) and tell every process in the same
    transaction; the message as clients see it.

    :raises ApiError: ``chat_rate_limited`` (with the seconds to wait) when the writer has posted
        ``RATE_BURST`` messages in the last ``RATE_WINDOW_S`` seconds.
    """
    c = chat_messages.c
    now = time.time() if now is None else now
    window = messages.RATE_WINDOW_S
    with store.engine.begin() as conn:
        recent = conn.execute(select(c.at).where(c.game_id == game_id, c.author == author,
                                                 c.at > now - window)
                              .order_by(c.at.desc()).limit(messages.RATE_BURST)).scalars().all()
        if len(recent) >= messages.RATE_BURST:
            wait = max(1, math.ceil(min(recent) + window - now))
            raise ApiError("chat_rate_limited", f"at most {messages.RATE_BURST} messages in {window:g} "
                                                f"seconds: wait {wait} s", retry_after=wait)
        new_id = conn.execute(insert(chat_messages).values(
            game_id=game_id, seat=seat, author=author, name=name, text=text, phrase=phrase, at=now)
            .returning(c.id)).scalar_one()
        store.notify(conn, message(game_id, CHAT_POSTED, (int(new_id), "chat", None)))
    store.ring(NOTICES)
    return {"id": int(new_id), "seat": seat, "author": author, "name": name, "spectator": seat is None,
            "text": text, "phrase": phrase, "at": now}


def after(engine: Engine, game_id: str, after_id: int, limit: int = messages.HISTORY) -> list[dict[str, Any]]:
    """The messages after ``after_id``, oldest first; the newest ``limit`` of them."""
    c = chat_messages.c
    with engine.connect() as conn:
        rows = conn.execute(select(chat_messages).where(c.game_id == game_id, c.id > after_id)
                            .order_by(c.id.desc()).limit(limit)).all()
    return [as_json(r) for r in reversed(rows)]


def count(engine: Engine, game_id: str) -> int:
    c = chat_messages.c
    with engine.connect() as conn:
        return int(conn.execute(select(func.count()).where(c.game_id == game_id)).scalar_one())
