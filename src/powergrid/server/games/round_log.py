"""The game log as players read it: the engine's events in words, plus one summary line per player
at the end of each round (what they bought, built, powered and earned).

The *display log* is the event log with ``["summary", round, seat, {...}]`` entries inserted just
before each ``round`` event (summing up the round that ended) and before ``over``. Everything in it
is public: it is built only from events every player sees.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from powergrid.rules.catalog import RESOURCES
from powergrid.rules.events import describe
from powergrid.rules.scenario import Scenario


@dataclass(frozen=True)
class SeatRound:
    """What one player did in one round, from the events."""

    plant: tuple[int, int] | None = None  # (plant, price) bought in the auction
    fuel: tuple[int, int, int, int] = (0, 0, 0, 0)  # units bought, per resource
    fuel_paid: int = 0
    built: tuple[str, ...] = ()
    build_paid: int = 0
    powered: int | None = None
    earned: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"plant": list(self.plant) if self.plant else None, "fuel": list(self.fuel),
                "fuel_paid": self.fuel_paid, "built": list(self.built), "build_paid": self.build_paid,
                "powered": self.powered, "earned": self.earned}


@dataclass(frozen=True)
class RoundTally:
    """The round in progress: per seat, what has happened so far (a value: extending copies)."""

    round: int = 0
    seats: tuple[SeatRound, ...] = ()
    #: what the last ``act`` was, so the ``paid`` event after it is put on the right line
    pending: tuple[int, str] | None = None
    phase: int = 0
    final_powered: tuple[int, ...] | None = field(default=None)

    def with_event(self, event: tuple[Any, ...], players: int) -> RoundTally:
        kind = event[0]
        seats = self.seats or tuple(SeatRound() for _ in range(players))
        if kind == "round":
            return RoundTally(round=event[1], seats=tuple(SeatRound() for _ in range(players)))
        if kind == "phase":
            return replace(self, seats=seats, phase=event[1], pending=None)
        if kind == "act":
            words = str(event[2]).split(" ")
            seat = event[1]
            if words[0] == "buy":
                fuel = list(seats[seat].fuel)
                fuel[RESOURCES.index(words[2])] += int(words[1])
                seats = _set(seats, seat, replace(seats[seat], fuel=tuple(fuel)))  # type: ignore[arg-type]
                return replace(self, seats=seats, pending=(seat, "buy"))
            if words[0] == "build":
                built = seats[seat].built + (str(event[2])[6:],)
                return replace(self, seats=_set(seats, seat, replace(seats[seat], built=built)),
                               pending=(seat, "build"))
            return replace(self, seats=seats, pending=None)
        if kind == "paid" and self.pending and self.pending[0] == event[1]:
            seat, what = self.pending
            now = seats[seat]
            if what == "buy":
                now = replace(now, fuel_paid=now.fuel_paid + event[2])
            else:
                now = replace(now, build_paid=now.build_paid + event[2])
            return replace(self, seats=_set(seats, seat, now), pending=None)
        if kind == "bought":
            bought = replace(seats[event[1]], plant=(event[2], event[3]))
            return replace(self, seats=_set(seats, event[1], bought))
        if kind == "payout":
            return replace(self, seats=_set(seats, event[1], replace(seats[event[1]], powered=event[2],
                                                                      earned=event[3])))
        if kind == "over":
            return replace(self, seats=seats, final_powered=tuple(event[2]))
        return self


def _set(seats: tuple[SeatRound, ...], seat: int, value: SeatRound) -> tuple[SeatRound, ...]:
    return seats[:seat] + (value,) + seats[seat + 1:]


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def summary_text(round_: int, seat: int, done: SeatRound, final_powered: int | None = None) -> str:
    """One player's round in words: ``Round 3, P1: bought plant 13 for 15; ...``."""
    parts = [f"bought plant {done.plant[0]} for {done.plant[1]}" if done.plant else "bought no plant"]
    fuel = [f"{n} {RESOURCES[i]}" for i, n in enumerate(done.fuel) if n]
    parts.append(f"bought {', '.join(fuel)} for {done.fuel_paid}" if fuel else "bought no resources")
    if done.built:
        parts.append(f"built {_plural(len(done.built), 'city', 'cities')} ({', '.join(done.built)}) "
                     f"for {done.build_paid}")
    else:
        parts.append("built nothing")
    if done.powered is not None:
        parts.append(f"powered {_plural(done.powered, 'city', 'cities')} and earned {done.earned}")
    elif final_powered is not None:
        parts.append(f"could power {_plural(final_powered, 'city', 'cities')} at the end")
    return f"Round {round_}, P{seat}: " + "; ".join(parts)


def summaries(tally: RoundTally) -> list[tuple[list[Any], str]]:
    """The summary entries (JSON, words) for the round the tally holds; none before round 1."""
    if tally.round < 1:
        return []
    out = []
    for seat, done in enumerate(tally.seats):
        final = tally.final_powered[seat] if tally.final_powered else None
        # the game's last round has no payout: its summary carries the final powered count instead,
        # so a client can say it in words from the entry alone
        data = done.to_json() if final is None else {**done.to_json(), "final_powered": final}
        out.append((["summary", tally.round, seat, data], summary_text(tally.round, seat, done, final)))
    return out


def event_json(event: tuple[Any, ...]) -> list[Any]:
    """A log entry as the state JSON writes it."""
    if event[0] == "act":
        return ["act", event[1], str(event[2])]
    return [list(x) if isinstance(x, tuple) else x for x in event]


def display_entries(scn: Scenario, events: Iterable[tuple[Any, ...]],
                    tally: RoundTally) -> tuple[list[tuple[list[Any], str]], RoundTally]:
    """The display entries (JSON, words) for ``events`` following a tally; the tally after them."""
    out: list[tuple[list[Any], str]] = []
    players = scn.players
    for event in events:
        if event[0] == "round":
            out.extend(summaries(tally))  # the round that ended
        tally = tally.with_event(event, players)
        if event[0] == "over":
            out.extend(summaries(tally))  # the last round, with the final powered counts
        out.append((event_json(event), describe(scn, event)))
    return out, tally
