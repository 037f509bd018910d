"""The players' clocks of an online game in words (the server computes them: a view's ``clocks``,
docs/server-api.md; the terminal counts the running one down from the server's time)."""

from __future__ import annotations

import math
from typing import Any

from rich.text import Text

from ..i18n import N_, _, ngettext
from .names import seat_text

#: why a stand-in bot plays a seat (clocks.seats[i].stand_in)
REASONS = {"time": N_("their time ran out"), "left": N_("they left"), "away": N_("they are away")}


def live_time(seconds: float) -> str:
    """A live clock: ``7:05``, or ``1:02:03`` past an hour."""
    s = max(0, math.ceil(seconds))
    hours, minutes = s // 3600, s % 3600 // 60
    return f"{hours}:{minutes:02d}:{s % 60:02d}" if hours else f"{minutes}:{s % 60:02d}"


def long_time(seconds: float) -> str:
    """A long span in words: ``2 d 5 h``, ``3 h 20 min``, ``12 min``, ``40 s``."""
    s = max(0, math.floor(seconds))
    days, hours, minutes = s // 86400, s % 86400 // 3600, s % 3600 // 60
    if days:
        return _("{d} d {h} h", d=days, h=hours)
    if hours:
        return _("{h} h {m} min", h=hours, m=minutes)
    if minutes:
        return _("{m} min", m=minutes)
    return _("{s} s", s=s)


def control_words(clocks: dict[str, Any] | None) -> str:
    """The time control: ``live: 8 minutes + 15 s a move``; empty without a clock."""
    if not clocks:
        return ""
    if clocks.get("kind") == "live":
        minutes = clocks["bank_s"] / 60
        bank = (ngettext("{n} minute", "{n} minutes", int(minutes)) if float(minutes).is_integer()
                else long_time(clocks["bank_s"]))
        increment = clocks["increment_s"]
        return _("live: {bank} + {inc} s a move", bank=bank,
                 inc=int(increment) if float(increment).is_integer() else increment)
    if clocks.get("kind") == "correspondence":
        return _("correspondence: {turn} a turn, {vacation} vacation", turn=long_time(clocks["turn_s"]),
                 vacation=long_time(clocks["vacation_s"]))
    return ""


def timed(clocks: dict[str, Any] | None) -> bool:
    return clocks is not None and clocks.get("kind") in ("live", "correspondence")


def low_at(clocks: dict[str, Any]) -> float:
    """Below this many seconds (of the turn, in correspondence) a clock is running low."""
    if clocks.get("kind") == "live":
        return float(max(10.0, min(60.0, clocks["bank_s"] * 0.2)))
    if clocks.get("kind") == "correspondence":
        return float(max(600.0, clocks["turn_s"] * 0.1))
    return 0.0


def left_now(clocks: dict[str, Any], seat: int, now: float) -> float | None:
    """The seat's time left at the server's time ``now`` (None: the seat has no clock)."""
    seats = clocks.get("seats") or []
    item = seats[seat] if seat < len(seats) else None
    if not item or not isinstance(item.get("left_s"), (int, float)):
        return None
    if clocks.get("running") != seat or not isinstance(clocks.get("deadline"), (int, float)):
        return float(item["left_s"])
    return max(0.0, float(clocks["deadline"]) - now)


def turn_left(clocks: dict[str, Any], seat: int, left: float) -> float:
    """What is left of the running turn (a correspondence turn's vacation not counted)."""
    if clocks.get("kind") == "correspondence" and clocks.get("running") == seat:
        return left - float(clocks["seats"][seat].get("vacation_s") or 0.0)
    return left


def clock_text(clocks: dict[str, Any], seat: int, left: float) -> str:
    if clocks.get("kind") == "live":
        return live_time(left)
    vacation = float(clocks["seats"][seat].get("vacation_s") or 0.0)
    if clocks.get("running") != seat:
        return _("vacation {left}", left=long_time(vacation))
    if left <= vacation:
        return _("on vacation: {left}", left=long_time(left))
    return long_time(left - vacation)


def clocks_line(clocks: dict[str, Any] | None, now: float) -> Text | None:
    """Every clock, the running one marked and red when it runs low; a stand-in's seat says so."""
    if not timed(clocks):
        return None
    assert clocks is not None
    parts: list[Text] = []
    for item in clocks.get("seats") or []:
        seat = item["seat"]
        part = Text()
        running = clocks.get("running") == seat
        if running:
            part.append("▶ ")
        part.append_text(seat_text(seat))
        left = left_now(clocks, seat, now)
        if item.get("stand_in"):
            part.append(" " + _("{bot} bot plays", bot=clocks.get("stand_in_bot", "")), style="dim")
        elif left is not None:
            low = running and turn_left(clocks, seat, left) <= low_at(clocks)
            part.append(" " + clock_text(clocks, seat, left), style="bold red" if low else "bold")
        else:
            continue
        parts.append(part)
    if not parts:
        return None
    return Text(_("Clocks: "), style="bold").append_text(Text("   ").join(parts))
