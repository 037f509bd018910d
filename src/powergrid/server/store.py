"""Event-sourced storage: a game is its config, seats and an append-only action log (+ snapshots).

Every method is blocking (SQLAlchemy Core); the service calls them from worker threads.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, and_, insert, select, update
from sqlalchemy.exc import IntegrityError

from . import db


@dataclass
class SeatRow:
    seat: int
    kind: str  # "human" | "bot"
    bot: str | None
    bot_seed: int | None
    token_hash: str | None
    claimed: bool
    #: a public game's seat that anyone may take (no token until taken)
    open: bool = False


@dataclass
class GameRow:
    game_id: str
    created_at: datetime
    config: dict[str, Any]
    seats: list[SeatRow]
    version: int
    status: str
    round: int
    public: bool = False
    seeded: bool = False


@dataclass
class Snapshot:
    seq: int
    state: dict[str, Any]
    history: dict[str, Any]


class Store:
    def __init__(self, engine: Engine, notify_channel: str | None = None) -> None:
        self.engine = engine
        #: with PostgreSQL, each append sends NOTIFY on this channel inside its own transaction
        self.notify_channel = notify_channel

    # ------------------------------------------------------------------ games
    def create_game(self, game_id: str, config: dict[str, Any], seat_rows: list[SeatRow],
                    to_act: int | None, *, public: bool = False, seeded: bool = False,
                    creator: str | None = None) -> datetime:
        now = datetime.now(UTC)
        with self.engine.begin() as conn:
            conn.execute(insert(db.games).values(
                id=game_id, created_at=now, map=config["map"], players=config["players"],
                variant=config["variant"], config=json.dumps(config), version=0, status="playing",
                round=1, to_act=to_act, public=public, seeded=seeded, creator=creator))
            conn.execute(insert(db.seats), [
                {"game_id": game_id, "seat": s.seat, "kind": s.kind, "bot": s.bot, "bot_seed": s.bot_seed,
                 "token_hash": s.token_hash, "claimed": s.claimed, "open": s.open} for s in seat_rows])
        return now

    def game(self, game_id: str) -> GameRow | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(db.games).where(db.games.c.id == game_id)).first()
            if row is None:
                return None
            seat_rows = conn.execute(select(db.seats).where(db.seats.c.game_id == game_id)
                                     .order_by(db.seats.c.seat)).all()
        return _game_row(row, seat_rows)

    def list_games(self, limit: int = 100) -> list[GameRow]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(db.games).order_by(db.games.c.created_at.desc()).limit(limit)).all()
            ids = [r.id for r in rows]
            seat_rows = conn.execute(select(db.seats).where(db.seats.c.game_id.in_(ids))
                                     .order_by(db.seats.c.seat)).all() if ids else []
        by_game: dict[str, list[Any]] = {}
        for s in seat_rows:
            by_game.setdefault(s.game_id, []).append(s)
        return [_game_row(r, by_game.get(r.id, [])) for r in rows]

    def games_waiting_for_bots(self) -> list[str]:
        """Games in play whose next actor is a bot seat (to resume after a restart)."""
        g, s = db.games, db.seats
        query = (select(g.c.id).join(s, and_(s.c.game_id == g.c.id, s.c.seat == g.c.to_act))
                 .where(g.c.status == "playing", s.c.kind == "bot"))
        with self.engine.connect() as conn:
            return [r.id for r in conn.execute(query)]

    # ------------------------------------------------------------------ seats
    def claim_seat(self, game_id: str, seat: int, token_hash: str) -> bool:
        """Give an open, unclaimed seat its token; False if it was taken meanwhile."""
        s = db.seats
        with self.engine.begin() as conn:
            result = conn.execute(update(s).where(
                s.c.game_id == game_id, s.c.seat == seat, s.c.kind == "human", s.c.open.is_(True),
                s.c.claimed.is_(False))
                .values(token_hash=token_hash, claimed=True))
            self._notify(conn, f"{game_id} seats")  # the other processes drop the old token
            return result.rowcount == 1

    def seats(self, game_id: str) -> list[SeatRow]:
        s = db.seats
        with self.engine.connect() as conn:
            rows = conn.execute(select(s).where(s.c.game_id == game_id).order_by(s.c.seat)).all()
        return [SeatRow(r.seat, r.kind, r.bot, r.bot_seed, r.token_hash, bool(r.claimed), bool(r.open))
                for r in rows]

    def _notify(self, conn: Any, payload: str) -> None:
        if self.notify_channel:
            # delivered on commit, and only if the transaction commits
            conn.exec_driver_sql("SELECT pg_notify(%(ch)s, %(msg)s)",
                                 {"ch": self.notify_channel, "msg": payload})

    def mark_claimed(self, game_id: str, seat: int) -> None:
        s = db.seats
        with self.engine.begin() as conn:
            conn.execute(update(s).where(s.c.game_id == game_id, s.c.seat == seat).values(claimed=True))
            self._notify(conn, f"{game_id} seats")

    # ------------------------------------------------------------------ the log
    def append(self, game_id: str, seq: int, seat: int, action: str, *, status: str, round_: int,
               to_act: int | None) -> bool:
        """Commit action number ``seq``; False if that number is taken (another writer won)."""
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(db.actions).values(game_id=game_id, seq=seq, seat=seat, action=action,
                                                       created_at=datetime.now(UTC)))
                conn.execute(update(db.games).where(db.games.c.id == game_id)
                             .values(version=seq, status=status, round=round_, to_act=to_act))
                self._notify(conn, f"{game_id} {seq}")
        except IntegrityError:
            return False
        return True

    def actions_after(self, game_id: str, seq: int) -> list[tuple[int, int, str]]:
        a = db.actions
        with self.engine.connect() as conn:
            rows = conn.execute(select(a.c.seq, a.c.seat, a.c.action)
                                .where(a.c.game_id == game_id, a.c.seq > seq).order_by(a.c.seq)).all()
        return [(r.seq, r.seat, r.action) for r in rows]


    # ------------------------------------------------------------------ snapshots
    def save_snapshot(self, game_id: str, seq: int, state: dict[str, Any], history: dict[str, Any]) -> None:
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(db.snapshots).values(game_id=game_id, seq=seq, state=json.dumps(state),
                                                         history=json.dumps(history)))
        except IntegrityError:
            pass  # another process saved the same snapshot

    def latest_snapshot(self, game_id: str) -> Snapshot | None:
        sn = db.snapshots
        with self.engine.connect() as conn:
            row = conn.execute(select(sn).where(sn.c.game_id == game_id).order_by(sn.c.seq.desc()).limit(1)) \
                .first()
        if row is None:
            return None
        return Snapshot(row.seq, json.loads(row.state), json.loads(row.history))


def _game_row(row: Any, seat_rows: Any) -> GameRow:
    created = row.created_at
    if created.tzinfo is None:  # SQLite gives naive datetimes back
        created = created.replace(tzinfo=UTC)
    return GameRow(
        game_id=row.id, created_at=created, config=json.loads(row.config),
        seats=[SeatRow(s.seat, s.kind, s.bot, s.bot_seed, s.token_hash, bool(s.claimed), bool(s.open))
               for s in seat_rows],
        version=row.version, status=row.status, round=row.round, public=bool(row.public),
        seeded=bool(row.seeded))
