"""The board at a glance: players, plant markets, resource market, round/phase/step."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..i18n import _, current, ngettext, pgettext
from ..i18n.terms import phase, resource
from ..rules import RESOURCES, GameState
from .names import RESOURCE_STYLE, money, plant_card, seat_text


def fuel_on_plants(state: GameState, seat: int) -> dict[int, tuple[int, int, int, int]]:
    """The seat's resources spread over its plants for display (the rules track only totals):
    each plant fills with its own fuel first, hybrids take what coal and oil is left."""
    left = list(state.resources_of(seat))
    spread: dict[int, list[int]] = {}
    catalog = state.scn.catalog.plants
    for number in state.plants[seat]:
        plant = catalog[number]
        spread[number] = [0, 0, 0, 0]
        r = plant.resource
        if r >= 0:
            take = min(left[r], 2 * plant.burn)
            spread[number][r] = take
            left[r] -= take
    for number in state.plants[seat]:
        plant = catalog[number]
        if plant.kind == "hybrid":
            room = 2 * plant.burn
            for r in (0, 1):
                take = min(left[r], room)
                spread[number][r] += take
                left[r] -= take
                room -= take
    return {n: (f[0], f[1], f[2], f[3]) for n, f in spread.items()}


def plant_text(state: GameState, seat: int) -> Text:
    """The seat's plants, each with the fuel it holds: ``[4 coal 2→1] 3coal  [13 eco →1]``."""
    out = Text()
    spread = fuel_on_plants(state, seat)
    for i, number in enumerate(state.plants[seat]):
        if i:
            out.append("  ")
        out.append_text(plant_card(state, number))
        fuel = spread[number]
        if any(fuel):
            out.append(" ")
            held = " ".join(f"{n}{resource(current(), r)}" for r, n in enumerate(fuel) if n)
            out.append(held, style="bold")
    return out or Text("-", style="dim")


def players_table(state: GameState, label: Callable[[int], str]) -> Table:
    table = Table(box=None, pad_edge=False, header_style="bold dim")
    table.add_column(pgettext("column", "turn"), justify="right")
    table.add_column(pgettext("column", "player"))
    table.add_column(pgettext("column", "money"), justify="right")
    table.add_column(pgettext("column", "plants (fuel held)"))
    table.add_column(pgettext("column", "cities"), justify="right")
    table.add_column(pgettext("column", "can power"), justify="right")
    table.add_column(pgettext("column", "powered last"), justify="right")
    now = state.current_player
    for position, seat in enumerate(state.order, 1):
        who = seat_text(seat)
        who.append(f" ({label(seat)})", style="dim")
        if seat == now:
            who = Text("▶ ") + who
        table.add_row(str(position), who, money(state.money[seat]), plant_text(state, seat),
                      str(len(state.cities[seat])), str(state.powerable(seat)), str(state.powered[seat]))
    return table


def plant_market(state: GameState) -> Table:
    table = Table.grid(padding=(0, 1))
    current = Text("  ").join(plant_card(state, p) for p in state.current_market())
    table.add_row(Text(_("Plants for sale:"), style="bold"), current or Text(_("none"), style="dim"))
    future = state.future_market()
    if future:
        cards = Text("  ").join(plant_card(state, p) for p in future)
        table.add_row(Text(_("Future market:"), style="bold"), cards)
    return table


def resource_market(state: GameState) -> Table:
    """Each track by price: ``$1 ■■■  $2 ■■□``, filled spaces solid, the next unit's price."""
    table = Table.grid(padding=(0, 1))
    names = [resource(current(), r) for r in range(len(RESOURCES))]
    width = max(8, *(len(n) for n in names))
    for r, name in enumerate(names):
        prices = state.scn.catalog.tracks[r].slot_prices
        capacity = state.scn.capacity[r]
        filled_from = capacity - state.market_res[r]
        track = Text()
        last = None
        for i, price in enumerate(prices[:capacity]):
            if price != last:
                track.append(f" {money(price)} ", style="dim")
                last = price
            filled = i >= filled_from
            track.append("■" if filled else "□", style=RESOURCE_STYLE[r] if filled else "dim")
        nxt = state.price(r)
        next_price = _("next {price}", price=money(nxt)) if nxt is not None else _("sold out")
        table.add_row(Text(f"{name:<{width}}", style=RESOURCE_STYLE[r]), track,
                      Text(next_price, style="bold"),
                      Text(_("supply {n}", n=state.supply[r]), style="dim"))
    return table


def header(state: GameState) -> Text:
    name = phase(current(), state.phase) if state.phase in (2, 3, 4, 5, 6) else state.phase_name
    text = Text(_("Round {round} · Step {step} · Phase {number}: {phase}", round=state.round, step=state.step,
                  number=state.phase, phase=name), style="bold reverse")
    text.append("   " + ngettext("{map}, regions {regions}; the game ends at {n} city",
                                 "{map}, regions {regions}; the game ends at {n} cities",
                                 state.scn.end_cities, map=state.scn.map.name,
                                 regions=", ".join(state.regions)), style="dim")
    return text


def auction_line(state: GameState) -> Text | None:
    if state.phase != 2 or not state.auc_plant:
        return None
    text = Text(_("Auction: plant {plant}, highest bid {price} by ", plant=state.auc_plant,
                  price=money(state.auc_bid)))
    text.append_text(seat_text(state.auc_leader))
    text.append(_("; still bidding: "))
    text.append_text(Text(", ").join(seat_text(p) for p in state.seating if state.auc_in >> p & 1))
    return text


def board(state: GameState, label: Callable[[int], str]) -> RenderableType:
    """Everything public about the game, in one screen."""
    parts: list[RenderableType] = [header(state), players_table(state, label)]
    order = Text(_("Turn order: "))
    order.append_text(Text(" → ").join(seat_text(p) for p in state.order))
    order.append("   " + _("Bidding order: "), style="dim")
    order.append_text(Text(" → ").join(seat_text(p) for p in state.seating))
    parts += [order, plant_market(state), resource_market(state)]
    line = auction_line(state)
    if line is not None:
        parts.append(line)
    return Group(*parts)


def standings(state: GameState, label: Callable[[int], str]) -> Table:
    """Seats ranked by the end rule: cities powered, then money, then cities."""
    powered = [state.powerable(p) if state.is_over else state.powered[p] for p in range(state.players)]
    ranked = sorted(range(state.players),
                    key=lambda p: (p not in state.winners, -powered[p], -state.money[p],
                                   -len(state.cities[p]), p))
    table = Table(title=_("Game over") if state.is_over else _("Standings"), title_style="bold")
    table.add_column("")
    table.add_column(pgettext("column", "player"))
    for name in (pgettext("column", "powered"), pgettext("column", "money"), pgettext("column", "cities")):
        table.add_column(name, justify="right")
    for p in ranked:
        who = seat_text(p)
        who.append(f" ({label(p)})", style="dim")
        table.add_row(_("winner") if p in state.winners else "", who, str(powered[p]),
                      money(state.money[p]), str(len(state.cities[p])),
                      style="bold" if p in state.winners else None)
    return table
