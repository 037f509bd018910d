"""How players and cards are named on screen."""

from __future__ import annotations

import re

from rich.text import Text

from ..i18n import N_, _, current, ngettext
from ..i18n.terms import plant_kind
from ..rules import STEP3, GameState

#: Seat colours: (name, Rich style)
COLOURS = ((N_("Red"), "bold red"), (N_("Blue"), "bold blue"), (N_("Green"), "bold green"),
           (N_("Yellow"), "bold yellow"), (N_("Purple"), "bold magenta"), (N_("Cyan"), "bold cyan"))
KIND_STYLE = {"coal": "#b08050", "oil": "bright_black", "hybrid": "#c08040", "garbage": "yellow",
              "uranium": "red", "ecological": "green", "fusion": "cyan"}
RESOURCE_STYLE = ("#b08050", "bright_white", "yellow", "red")


def seat_style(seat: int) -> str:
    return COLOURS[seat % len(COLOURS)][1]


def seat_name(seat: int) -> str:
    return f"P{seat} {_(COLOURS[seat % len(COLOURS)][0])}"


_SEAT_MENTION = re.compile(r"\bP(\d)\b")


def mentions(line: str, players: int, kind: str = "") -> Text:
    """A log line with each ``P<n>`` named and in that seat's colour; ``kind``: the log entry's kind
    (a round, a step or a phase stands out)."""
    text = Text()
    end = 0
    for match in _SEAT_MENTION.finditer(line):
        text.append(line[end:match.start()])
        seat = int(match.group(1))
        text.append(seat_name(seat) if seat < players else match.group(0), style=seat_style(seat))
        end = match.end()
    text.append(line[end:])
    if kind in ("round", "step"):
        text.stylize("bold")
    elif kind == "phase":
        text.stylize("bold cyan")
    return text


def money(amount: int) -> str:
    """Elektro, short, as the browser writes it: ``12 E``."""
    return _("{amount} E", amount=amount)


def cities(n: int) -> str:
    """``1 city``, ``5 cities`` (in the language's plural forms)."""
    return ngettext("{n} city", "{n} cities", n)


def seat_text(seat: int) -> Text:
    return Text(seat_name(seat), style=seat_style(seat))


def plant_words(state: GameState, number: int) -> str:
    """``13: ecological, powers 1 city`` / ``5: burns 2 coal or oil, powers 1 city``."""
    if number == STEP3:
        return _("the Step 3 card")
    plant = state.scn.catalog.plants[number]
    if plant.burn == 0:
        return ngettext("plant {plant}: {kind}, no fuel, powers {n} city",
                        "plant {plant}: {kind}, no fuel, powers {n} cities", plant.cities,
                        plant=number, kind=plant_kind(current(), plant.kind))
    if plant.kind == "hybrid":
        return ngettext("plant {plant}: burns {burn} coal or oil, powers {n} city",
                        "plant {plant}: burns {burn} coal or oil, powers {n} cities", plant.cities,
                        plant=number, burn=plant.burn)
    return ngettext("plant {plant}: burns {burn} {kind}, powers {n} city",
                    "plant {plant}: burns {burn} {kind}, powers {n} cities", plant.cities,
                    plant=number, burn=plant.burn, kind=plant_kind(current(), plant.kind))


def plant_card(state: GameState, number: int) -> Text:
    """A compact card: ``[13 eco →1]``, ``[5 coal/oil 2→1]``."""
    if number == STEP3:
        return Text(_("[Step 3]"), style="bold magenta")
    plant = state.scn.catalog.plants[number]
    burn = f"{plant.burn}" if plant.burn else ""
    kind = plant_kind(current(), plant.kind)
    return Text(f"[{number} {kind} {burn}→{plant.cities}]", style=KIND_STYLE[plant.kind])


def count(n: int, word: str, plural: str | None = None) -> str:
    """``1 city``, ``2 cities``, ``0 actions``: a number with its English noun agreeing (what a
    person reads goes through ``ngettext`` instead)."""
    if n == 1:
        return f"{n} {word}"
    if plural is None:
        plural = word[:-1] + "ies" if word.endswith("y") and word[-2:-1] not in "aeiou" else word + "s"
    return f"{n} {plural}"
