"""A finished game's summary per player: where the money went, and how each round went.

Read from the final state's event log (the engine notes every payment: ``bought`` for a plant,
``paid`` after a purchase or a house, ``payout`` in bureaucracy): spending on plants, resources,
houses (the slot price: 10, 15 or 20) and connections (the rest of a build's price), income, cost
per city, and per round each player's cities, cities powered and income (the last round ends before a payday:
its cities powered are those the win was counted on, its income none). Starting money plus
income less spending is the money left, exactly (the tests check it).

Time used per player comes from the log's times (each entry's ``created_at``): the time from the
entry before to the entry a seat made counts as that seat's (bots' pauses included; an undo counts
for the seat that took it).
"""

from __future__ import annotations

from collections import OrderedDict
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, select

import powergrid as pg
from powergrid.rules.catalog import SLOT_PRICES, STARTING_MONEY

from ..storage import db

SPENDING = ("plants", "resources", "houses", "connections")


def summarize(state: pg.GameState, times: list[tuple[int, datetime]] | None = None,
              created_at: datetime | None = None) -> dict[str, Any]:
    """The summary of a finished game from its final state (and its log's (seat, time) entries)."""
    players = state.players
    spent = {kind: [0] * players for kind in SPENDING}
    income = [0] * players
    houses_in: dict[str, int] = {}
    cities = [0] * players
    rounds: list[dict[str, Any]] = []
    powered_now, income_now = [0] * players, [0] * players
    last_kind: list[str] = [""] * players  # the action each seat's next ``paid`` is for
    slot_price = [0] * players

    def close_round(number: int) -> None:
        rounds.append({"round": number, "cities": cities[:], "powered": powered_now[:],
                       "income": income_now[:]})

    current_round = 0
    for event in state.events:
        kind = event[0]
        if kind == "round":
            if current_round:
                close_round(current_round)
            current_round = event[1]
            powered_now, income_now = [0] * players, [0] * players
        elif kind == "act":
            seat, action = event[1], event[2]
            last_kind[seat] = action.kind
            if action.kind == "build":
                taken = houses_in.get(action.city, 0)
                slot_price[seat] = SLOT_PRICES[taken]
                houses_in[action.city] = taken + 1
                cities[seat] += 1
        elif kind == "paid":
            seat, price = event[1], event[2]
            if last_kind[seat] == "build":
                spent["houses"][seat] += slot_price[seat]
                spent["connections"][seat] += price - slot_price[seat]
            else:
                spent["resources"][seat] += price
        elif kind == "bought":
            spent["plants"][event[1]] += event[3]
        elif kind == "payout":
            seat, powered, pay = event[1], event[2], event[3]
            income[seat] += pay
            powered_now[seat], income_now[seat] = powered, pay
        elif kind == "over" and not any(income_now):
            powered_now = list(event[2])  # the game ends before a payday: the cities each could power
    if current_round:
        close_round(current_round)
    out_players = []
    for seat in range(players):
        total = sum(spent[kind][seat] for kind in SPENDING)
        out_players.append({
            "seat": seat, **{kind: spent[kind][seat] for kind in SPENDING}, "spent": total,
            "income": income[seat], "start_money": STARTING_MONEY, "money": state.money[seat],
            "cities": len(state.cities[seat]),
            "cost_per_city": round(total / len(state.cities[seat]), 1) if state.cities[seat] else None,
        })
    summary: dict[str, Any] = {
        "players": out_players, "rounds": rounds,
        "per_round": {key: [r[key] for r in rounds] for key in ("cities", "powered", "income")},
        "winners": list(state.winners),
    }
    if times and created_at is not None:
        used = [0.0] * players
        before = created_at
        for seat, at in times:
            used[seat] += max(0.0, (at - before).total_seconds())
            before = at
        for seat in range(players):
            out_players[seat]["time_used_s"] = round(used[seat], 1)
        summary["time_used"] = True
    else:
        summary["time_used"] = False  # the log holds no times: the column is left out
    return summary


def log_times(engine: Engine, game_id: str) -> list[tuple[int, datetime]]:
    """Each log entry's (seat, time), in order (blocking)."""
    a = db.actions
    with engine.connect() as conn:
        rows = conn.execute(select(a.c.seat, a.c.created_at).where(a.c.game_id == game_id).order_by(a.c.seq))
        return [(r.seat, _aware(r.created_at)) for r in rows]


def _aware(at: datetime) -> datetime:
    return at.replace(tzinfo=UTC) if at.tzinfo is None else at  # SQLite gives naive datetimes back


class Summaries:
    """Finished games' summaries, kept for a few (a finished game never changes)."""

    def __init__(self, most: int = 64) -> None:
        self.most = most
        self._kept: OrderedDict[str, dict[str, Any]] = OrderedDict()

    def get(self, game_id: str) -> dict[str, Any] | None:
        found = self._kept.get(game_id)
        if found is not None:
            self._kept.move_to_end(game_id)
        return found

    def put(self, game_id: str, summary: dict[str, Any]) -> None:
        self._kept[game_id] = summary
        while len(self._kept) > self.most:
            self._kept.popitem(last=False)
