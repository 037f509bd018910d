"""The game log in the reader's language, rendered from the structured events.

The stored log is language-free (``("payout", 1, 3, 22)``); this module says it in words, so one
game can be read in two languages at once. In English it says exactly what
:func:`powergrid.rules.events.describe` and ``server.games.round_log.summary_text`` say (the engine
keeps its own English and imports nothing from here). The browser uses the same message ids.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..rules.actions import Action, fuel_text, parse_action
from ..rules.scenario import Scenario
from .runtime import N_, Translator, translator
from .terms import and_list, fuel_list, phase, resource_count, seat

#: why a plant left the game (``boxed`` events)
WHY_BOXED = {
    "cities": N_("it is numbered no higher than a player's city count"),
    "no_sale": N_("no plant was bought this round"),
    "step2": N_("Step 2 began"),
    "step3": N_("Step 3 began"),
    "step3_update": N_("the Step 3 market update"),
    "discard": N_("discarded over the plant limit"),
}
_PHASE_LINE = {
    2: N_("Phase 2: auction"),
    3: N_("Phase 3: buy resources"),
    4: N_("Phase 4: build"),
    5: N_("Phase 5: bureaucracy"),
}


def _names(players: Iterable[int]) -> str:
    return ", ".join(seat(p) for p in players)


def action_words(tr: Translator, action: Action | str) -> str:
    """An action as the log shows it (in English: the notation, ``buy 3 coal``)."""
    a = parse_action(action) if isinstance(action, str) else action
    kind = a.kind
    if kind == "open":
        return tr.pgettext("action", "open {plant} {amount}", plant=a.plant, amount=a.amount)
    if kind == "bid":
        return tr.pgettext("action", "bid {amount}", amount=a.amount)
    if kind == "pass":
        return tr.pgettext("action", "pass")
    if kind == "done":
        return tr.pgettext("action", "done")
    if kind == "buy":
        return tr.pgettext("action", "buy {resources}", resources=resource_count(tr, a.amount, a.resource))
    if kind == "build":
        return tr.pgettext("action", "build {city}", city=a.city)
    if kind == "discard":
        return tr.pgettext("action", "discard {plant} keep {fuel}", plant=a.plant, fuel=fuel_text(a.fuel))
    if kind == "power":
        if not a.plants:
            return tr.pgettext("action", "power nothing")
        return tr.pgettext("action", "power {plants} burn {fuel}",
                           plants=" ".join(str(p) for p in a.plants), fuel=fuel_text(a.fuel))
    return str(a)


def describe(scn: Scenario, event: Sequence[Any], tr: Translator | None = None) -> str:
    """One event in words (an engine event tuple or its JSON list)."""
    tr = tr or translator("en")
    kind = event[0]
    if kind == "setup":
        return tr.ngettext("New game on {map} with {players} player; regions {regions}; seating {seating}",
                           "New game on {map} with {players} players; regions {regions}; seating {seating}",
                           scn.players, map=scn.map.name, players=scn.players, regions=", ".join(event[1]),
                           seating=_names(event[2]))
    if kind == "round":
        return tr.gettext("Round {round}", round=event[1])
    if kind == "phase":
        return tr.gettext(_PHASE_LINE[event[1]])
    if kind == "order":
        return tr.gettext("Player order: {list}", list=_names(event[1]))
    if kind == "act":
        return tr.gettext("{player}: {action}", player=seat(event[1]), action=action_words(tr, event[2]))
    if kind == "bought":
        return tr.gettext("{player} buys plant {plant} for {price}", player=seat(event[1]), plant=event[2],
                          price=event[3])
    if kind == "paid":
        return tr.gettext("{player} pays {amount}", player=seat(event[1]), amount=event[2])
    if kind == "drawn":
        return tr.gettext("Plant {plant} enters the market", plant=event[1])
    if kind == "boxed":
        why = WHY_BOXED.get(event[2])
        return tr.gettext("Plant {plant} leaves the game ({why})", plant=event[1],
                          why=tr.gettext(why) if why else str(event[2]))
    if kind == "under_deck":
        return tr.gettext("Plant {plant} goes under the deck", plant=event[1])
    if kind == "step":
        return tr.gettext("Step {step} begins", step=event[1])
    if kind == "step3_drawn":
        return tr.gettext("The Step 3 card is drawn (during {phase}); the deck is shuffled",
                          phase=phase(tr, event[1]))
    if kind == "step3_ignored":
        return tr.gettext("The Step 3 card is drawn and set aside (first game: Step 1 only)")
    if kind == "payout":
        return tr.ngettext("{player} powers {n} city and earns {amount}",
                           "{player} powers {n} cities and earns {amount}", event[2],
                           player=seat(event[1]), amount=event[3])
    if kind == "resupply":
        return tr.gettext("Resupply: {list}",
                          list=", ".join(resource_count(tr, n, r) for r, n in enumerate(event[1])))
    if kind == "over":
        winners = list(event[1])
        powered = ", ".join(tr.gettext("{player} {n}", player=seat(p), n=n) for p, n in enumerate(event[2]))
        return tr.ngettext("Game over: {winners} wins (cities powered: {list})",
                           "Game over: {winners} win (cities powered: {list})", len(winners),
                           winners=and_list(tr, [seat(p) for p in winners]), list=powered)
    return " ".join(str(x) for x in event)


def summary_text(round_: int, player: int, done: Mapping[str, Any], final_powered: int | None = None,
                 tr: Translator | None = None) -> str:
    """One player's round in words, from a summary entry's JSON (``plant``, ``fuel``, ``fuel_paid``,
    ``built``, ``build_paid``, ``powered``, ``earned``): ``Round 3, P1: bought plant 13 for 15; ...``."""
    tr = tr or translator("en")
    plant = done.get("plant")
    parts = [tr.gettext("bought plant {plant} for {price}", plant=plant[0], price=plant[1]) if plant
             else tr.gettext("bought no plant")]
    fuel = done.get("fuel") or (0, 0, 0, 0)
    if any(fuel):
        parts.append(tr.gettext("bought {list} for {amount}", list=fuel_list(tr, fuel),
                                amount=done.get("fuel_paid", 0)))
    else:
        parts.append(tr.gettext("bought no resources"))
    built = list(done.get("built") or ())
    if built:
        parts.append(tr.ngettext("built {n} city ({list}) for {amount}",
                                 "built {n} cities ({list}) for {amount}", len(built),
                                 list=", ".join(built), amount=done.get("build_paid", 0)))
    else:
        parts.append(tr.gettext("built nothing"))
    powered = done.get("powered")
    if powered is not None:
        parts.append(tr.ngettext("powered {n} city and earned {amount}",
                                 "powered {n} cities and earned {amount}", powered,
                                 amount=done.get("earned")))
    elif final_powered is not None:
        parts.append(tr.ngettext("could power {n} city at the end", "could power {n} cities at the end",
                                 final_powered))
    return tr.gettext("Round {round}, {player}: {list}", round=round_, player=seat(player),
                      list="; ".join(parts))


def entry_text(scn: Scenario, entry: Sequence[Any], tr: Translator | None = None,
               final_powered: Sequence[int] | None = None) -> str:
    """An entry of the display log (an event, or ``["summary", round, seat, {...}]``) in words;
    ``final_powered``: the ``over`` event's powered counts, for the last round's summaries."""
    if entry[0] == "summary":
        _, round_, player, done = entry
        final = final_powered[player] if final_powered is not None else None
        return summary_text(round_, player, done, final, tr)
    return describe(scn, entry, tr)


def display_texts(scn: Scenario, entries: Sequence[Sequence[Any]], tr: Translator | None = None) -> list[str]:
    """The display log's entries in words (the last round's summaries read the ``over`` after them)."""
    over = next((e for e in entries if e[0] == "over"), None)
    last_round = max((i for i, e in enumerate(entries) if e[0] == "round"), default=-1)
    final = list(over[2]) if over is not None else None
    return [entry_text(scn, e, tr, final if i > last_round else None) for i, e in enumerate(entries)]
