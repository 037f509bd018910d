"""Game-creation quotas per client, counted in the database (so every server process sees the same).

A client may create at most ``games_per_minute`` games in any 60 seconds (and all clients together
``server_games_per_minute``), and have at most
``active_games`` games in play that it created, of which at most ``bot_games`` have a bot seat
(bots cost CPU). Creations from one client are serialised within a process, so that a burst of
simultaneous requests cannot all pass the same count.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta

from sqlalchemy import Engine, and_, exists, func, select

from ..common.errors import ApiError
from ..common.limits import Limits, retry_seconds
from . import db

WINDOW = timedelta(seconds=60)
#: a game in play ends or expires; until then the client is told to try again in this many seconds
BUSY_RETRY = 60


class GameQuotas:
    def __init__(self, engine: Engine, limits: Limits) -> None:
        self.engine = engine
        self.limits = limits
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    @asynccontextmanager
    async def admit(self, creator: str, with_bots: bool) -> AsyncIterator[None]:
        """Hold while creating a game for ``creator``; raises a 429 ApiError if over a quota."""
        lock = self._locks.get(creator)
        if lock is None:
            lock = self._locks[creator] = asyncio.Lock()
        async with lock:
            await asyncio.to_thread(self.check, creator, with_bots)
            yield

    def check(self, creator: str, with_bots: bool) -> None:
        limits = self.limits
        if not limits.enabled:
            return
        g, s = db.games, db.seats
        now = datetime.now(UTC)
        with self.engine.connect() as conn:
            if limits.on(limits.games_per_minute):
                recent = conn.execute(
                    select(g.c.created_at).where(g.c.creator == creator, g.c.created_at > now - WINDOW)
                    .order_by(g.c.created_at.desc()).limit(limits.games_per_minute)).scalars().all()
                if len(recent) >= limits.games_per_minute:
                    oldest = min(_aware(t) for t in recent)
                    wait = (oldest + WINDOW - now).total_seconds()
                    raise ApiError("creation_rate_limited",
                                   f"at most {limits.games_per_minute} new games a minute from one address",
                                   retry_seconds(wait))
            if limits.on(limits.server_games_per_minute):
                recent = conn.execute(
                    select(g.c.created_at).where(g.c.created_at > now - WINDOW)
                    .order_by(g.c.created_at.desc()).limit(limits.server_games_per_minute)).scalars().all()
                if len(recent) >= limits.server_games_per_minute:
                    wait = (min(_aware(t) for t in recent) + WINDOW - now).total_seconds()
                    raise ApiError("server_busy", f"the server takes at most "
                                   f"{limits.server_games_per_minute} new games a minute: try again shortly",
                                   retry_seconds(wait))
            if limits.on(limits.active_games) or (with_bots and limits.on(limits.bot_games)):
                has_bot = exists().where(and_(s.c.game_id == g.c.id, s.c.kind == "bot"))
                playing = and_(g.c.creator == creator, g.c.status == "playing")
                active = conn.execute(select(func.count()).select_from(g).where(playing)).scalar_one()
                if limits.on(limits.active_games) and active >= limits.active_games:
                    raise ApiError("active_games_limit",
                                   f"{active} games created from this address are in play (at most "
                                   f"{limits.active_games}): finish one, or wait for idle games to expire",
                                   BUSY_RETRY)
                if with_bots and limits.on(limits.bot_games):
                    bots = conn.execute(select(func.count()).select_from(g)
                                        .where(playing, has_bot)).scalar_one()
                    if bots >= limits.bot_games:
                        raise ApiError("bot_games_limit",
                                       f"{bots} games with bots created from this address are in play "
                                       f"(at most {limits.bot_games}): finish one, or wait for idle games "
                                       "to expire",
                                       BUSY_RETRY)


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
