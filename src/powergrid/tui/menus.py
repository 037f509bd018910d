"""The decision in front of a player, in words: numbered choices from the legal actions, and
what a typed answer means (a number, a command, or the action notation)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import NamedTuple

from ..i18n import _, current, ngettext, pgettext
from ..i18n.terms import fuel_list, resource
from ..i18n.terms import seat as seat_mention
from ..rules import (
    Action,
    GameState,
    IllegalAction,
    MalformedAction,
    default_power,
    parse_action,
)
from ..rules.bureaucracy import fuel_value
from ..rules.bureaucracy import options as power_options
from ..rules.catalog import RESOURCE_INDEX
from .names import cities, money, plant_words

COMMANDS = ("help", "log", "board", "undo", "hint", "quit")
ALIASES = {"h": "help", "?": "help", "l": "log", "b": "board", "u": "undo", "q": "quit", "exit": "quit"}


class Command(NamedTuple):
    """A client command typed at a prompt: ``help``, ``log [n]``, ``board``, ``hint``, ``quit``."""

    name: str
    arg: int | None = None


@dataclass(frozen=True)
class Followup:
    """A choice that needs a number next (a bid, an amount to buy)."""

    question: str
    low: int
    high: int
    default: int
    make: Callable[[int], Action]

    def resolve(self, text: str) -> Action | str:
        """The action for the typed amount (Enter = the default), or why the answer is not one."""
        text = text.strip()
        if not text:
            return self.make(self.default)
        if not text.isdigit():
            return _("{text} is not a number; type a whole number from {low} to {high}", text=repr(text),
                     low=self.low, high=self.high)
        n = int(text)
        if not self.low <= n <= self.high:
            return _("{n} is out of range; type a number from {low} to {high}", n=n, low=self.low,
                     high=self.high)
        return self.make(n)


@dataclass(frozen=True)
class Choice:
    label: str
    action: Action | None = None
    followup: Followup | None = None


@dataclass
class Menu:
    """One decision: the question, numbered choices, what Enter does, and how to read free text."""

    kind: str  # auction, bid, discard, buy, build, power
    question: str
    choices: list[Choice]
    default: Action | None = None
    default_label: str = ""
    #: in a bid, a bare number is the amount (the choices are not numbered)
    amount_range: tuple[int, int] | None = None
    notes: list[str] = field(default_factory=list)
    hint: str = ""


def why_illegal(state: GameState, action: Action) -> str:
    try:
        state.clone().apply(action)
    except IllegalAction as exc:
        return exc.reason
    return _("it is not allowed now")


# ------------------------------------------------------------------ building the menus
def menu_for(state: GameState, spent: int = 0, done_this_turn: list[str] | None = None) -> Menu:
    """The menu of the decision the current player faces. ``spent`` and ``done_this_turn`` are the
    running total of this turn (money spent, purchases or cities built) for display."""
    seat = state.current_player
    if seat is None:
        raise ValueError("the game is over: nobody has a decision")
    legal = state.legal_actions()
    if state.phase == 2:
        if state.discard_seat >= 0:
            return _discard_menu(state, legal)
        if state.auc_plant:
            return _bid_menu(state, seat, legal)
        return _auction_menu(state, seat, legal)
    if state.phase == 3:
        return _buy_menu(state, seat, legal, spent, done_this_turn or [])
    if state.phase == 4:
        return _build_menu(state, seat, legal, spent, done_this_turn or [])
    return _power_menu(state, seat)


def _auction_menu(state: GameState, seat: int, legal: list[Action]) -> Menu:
    opens: dict[int, list[int]] = {}
    for a in legal:
        if a.kind == "open":
            opens.setdefault(a.plant, []).append(a.amount)
    choices = []
    for plant, amounts in opens.items():
        low, high = min(amounts), max(amounts)
        bid_words = (_("minimum bid {price}", price=money(low)) if low == high
                     else _("bid {low}–{high}", low=money(low), high=money(high)))
        choices.append(Choice(_("auction {plant} ({bid})", plant=plant_words(state, plant), bid=bid_words),
                              followup=Followup(_("Opening bid for plant {plant} ({low}–{high})", plant=plant,
                                                  low=money(low), high=money(high)),
                                                low, high, low, partial(Action.open, plant))))
    notes = []
    if Action.pass_() in legal:
        choices.append(Choice(_("pass: buy no plant this round"), Action.pass_()))
    elif state.round == 1:
        notes.append(_("In round 1 everybody must buy a plant."))
    unaffordable = [p for p in state.current_market() if p not in opens]
    if unaffordable:
        notes.append(_("Too dear for your money: {list}.",
                       list=", ".join(_("plant {plant}", plant=p) for p in unaffordable)))
    question = (_("Choose a plant to put up for auction, or pass") if choices and choices[-1].action
                else _("Choose a plant to put up for auction"))
    return Menu("auction", question, choices, notes=notes,
                hint=_("a choice number, or e.g. 'open 13 15' / 'pass'"))


def _bid_menu(state: GameState, seat: int, legal: list[Action]) -> Menu:
    bids = [a.amount for a in legal if a.kind == "bid"]
    question = _("Plant {plant} ({words}): highest bid {price} by {player}. ", plant=state.auc_plant,
                 words=plant_words(state, state.auc_plant), price=money(state.auc_bid),
                 player=seat_mention(state.auc_leader))
    leave = _("pass: leave this auction")
    if bids:
        question += _("Bid {low}–{high}, or pass", low=money(min(bids)), high=money(max(bids)))
        return Menu("bid", question, [Choice(leave, Action.pass_())],
                    amount_range=(min(bids), max(bids)), hint=_("an amount (e.g. 16), or 'pass'"))
    return Menu("bid", question + _("You cannot raise (not enough money): pass"),
                [Choice(leave, Action.pass_())], default=Action.pass_(),
                default_label=pgettext("action", "pass"), hint=_("'pass'"))


def _discard_menu(state: GameState, legal: list[Action]) -> Menu:
    choices = []
    for a in legal:
        keep = fuel_list(current(), a.fuel)
        choices.append(Choice(_("discard plant {plant} ({words}); keep {fuel}", plant=a.plant,
                                words=plant_words(state, a.plant), fuel=keep), a))
    return Menu("discard", _("You hold too many plants: choose one to discard"), choices,
                hint=_("a choice number, or e.g. 'discard 5 keep 2coal'"))


def _buy_menu(state: GameState, seat: int, legal: list[Action], spent: int, bought: list[str]) -> Menu:
    most: dict[int, int] = {}
    for a in legal:
        if a.kind == "buy":
            most[a.resource] = max(most.get(a.resource, 0), a.amount)
    choices = []
    in_market = state.market_res
    for r, n in sorted(most.items()):
        costs = [state.scn.buy_cost(r, in_market[r], k) for k in range(1, n + 1)]
        shown = ", ".join(_("{n} for {price}", n=k, price=money(c)) for k, c in enumerate(costs, 1))
        name = resource(current(), r)
        choices.append(Choice(_("buy {resource}: up to {n} ({list})", resource=name, n=n, list=shown),
                              followup=Followup(_("How many {resource} (1–{n})", resource=name, n=n), 1, n, 1,
                                                partial(Action.buy, r))))
    choices.append(Choice(_("done: end your purchases"), Action.done()))
    notes = [_running_total(_("Bought this turn"), bought, spent, state.money[seat])]
    if not most:
        notes.append(_("Nothing more to buy: your plants are full, the market is empty, or money is short."))
    return Menu("buy", _("Buy resources for your plants, or done"), choices, default=Action.done(),
                default_label=pgettext("action", "done"), notes=notes,
                hint=_("a choice number, e.g. '2 coal' / 'buy 2 coal', or 'done'"))


def _running_total(what: str, items: list[str], spent: int, left: int) -> str:
    if not items:
        return _("{what}: nothing yet; you have {money}.", what=what, money=money(left))
    return _("{what}: {list} — {spent} spent, {money} left.", what=what, list=", ".join(items),
             spent=money(spent), money=money(left))


def build_preview(state: GameState, seat: int) -> list[tuple[str, int, bool]]:
    """Every city the seat could build in now, cheapest first: (name, cost, affordable)."""
    names = state.scn.map.cities
    rows = []
    for city in state.scn.board.in_play:
        cost = state.build_cost(seat, city)
        if cost is not None:
            rows.append((names[city], cost, cost <= state.money[seat]))
    rows.sort(key=lambda row: (row[1], row[0]))
    return rows


def _build_menu(state: GameState, seat: int, legal: list[Action], spent: int, built: list[str]) -> Menu:
    allowed = {a.city for a in legal if a.kind == "build"}
    choices = [Choice(f"{name} {money(cost)}", Action.build(name))
               for name, cost, _ok in build_preview(state, seat) if name in allowed]
    choices.append(Choice(_("done: end your building"), Action.done()))
    dear = [f"{name} {money(cost)}" for name, cost, ok in build_preview(state, seat) if not ok]
    owned = len(state.cities[seat])
    notes = [_running_total(_("Built this turn"), built, spent, state.money[seat]),
             _("You have {cities}; the game ends when someone has {end}.", cities=cities(owned),
               end=state.scn.end_cities)]
    if dear:
        notes.append(_("Too dear now: {list}", list=", ".join(dear[:12]) + (" …" if len(dear) > 12 else "")))
    return Menu("build", _("Build in a city (cost: the slot plus the cheapest connection), or done"),
                choices, default=Action.done(), default_label=pgettext("action", "done"), notes=notes,
                hint=_("a choice number, a city name, 'build <city>', or 'done'"))


def _power_menu(state: GameState, seat: int) -> Menu:
    owned = len(state.cities[seat])
    default = default_power(state, seat)
    pay = state.scn.catalog.pay
    rows = sorted(power_options(state, seat),
                  key=lambda o: (-min(o[2], owned), fuel_value(state, o[1]), sum(o[1]), len(o[0]), o[0]))
    choices = []
    for plants, burn, powers in rows:
        paid = min(powers, owned)
        action = Action.power(plants, burn)
        if plants:
            fuel = fuel_list(current(), burn, _("no fuel"))
            label = ngettext("run plant {plants} burning {fuel}: {cities}, earn {money}",
                             "run plants {plants} burning {fuel}: {cities}, earn {money}", len(plants),
                             plants=", ".join(map(str, plants)), fuel=fuel, cities=cities(paid),
                             money=money(pay(paid)))
        else:
            label = _("run no plant: {cities}, earn {money}", cities=cities(0), money=money(pay(0)))
        if action == default:
            label += "  " + _("(recommended)")
        choices.append(Choice(label, action))
    return Menu("power", _("Power your cities (you have {cities})", cities=cities(owned)), choices,
                default=default, default_label=_("the recommended choice"),
                hint=_("a choice number, Enter, or e.g. 'power 5 burn 2coal'"))


# ------------------------------------------------------------------ reading answers
def resolve(menu: Menu, state: GameState, text: str) -> Action | Followup | Command | str:
    """What the typed text means here: an action (legal), a follow-up question, a command,
    or (a str) why it is not an answer."""
    text = text.strip()
    word = text.lower()
    head, _sep, rest = word.partition(" ")
    head = ALIASES.get(head, head)
    if head in COMMANDS:
        if head == "log" and rest:
            if not rest.strip().isdigit():
                return _("type 'log' or 'log <number of lines>'")
            return Command("log", int(rest))
        if rest and head != "log":
            return _("'{command}' takes nothing after it", command=head)
        return Command(head)
    if not text:
        if menu.default is not None:
            return menu.default
        return _("type your choice (or 'help')")
    if text.isdigit():
        n = int(text)
        if menu.amount_range is not None:
            low, high = menu.amount_range
            if not low <= n <= high:
                return _("a bid of {price} is not possible: bid from {low} to {high}, or pass",
                         price=money(n), low=money(low), high=money(high))
            return Action.bid(n)
        if not 1 <= n <= len(menu.choices):
            return _("there is no choice {n}: choose 1 to {last}", n=n, last=len(menu.choices))
        choice = menu.choices[n - 1]
        return choice.followup if choice.followup is not None else choice.action  # type: ignore[return-value]
    action = _read_action(menu, state, text)
    if isinstance(action, str):
        return action
    if action in state.legal_actions():
        return action
    return _("'{action}' is not allowed: {why}", action=str(action), why=why_illegal(state, action))


def _read_action(menu: Menu, state: GameState, text: str) -> Action | str:
    words = text.lower().split()
    if menu.kind == "bid" and words == ["p"] or menu.kind in ("buy", "build") and words == ["d"]:
        return Action.pass_() if menu.kind == "bid" else Action.done()
    if menu.kind == "buy" and len(words) == 2 and words[0].isdigit() and words[1] in RESOURCE_INDEX:
        return Action.buy(words[1], int(words[0]))
    if menu.kind == "build":
        names = {name.casefold(): name for name in state.scn.map.cities}
        name = names.get(" ".join(text.split()).casefold())
        if name is not None:
            return Action.build(name)
        if words[0] == "build":
            name = names.get(" ".join(text.split()[1:]).casefold())
            if name is not None:
                return Action.build(name)
    if menu.kind == "power" and words == ["nothing"]:
        return Action.power((), (0, 0, 0, 0))
    try:
        return parse_action(text)
    except MalformedAction as exc:
        if menu.hint:
            return _("not understood: {why} — {hint}", why=str(exc), hint=menu.hint)
        return _("not understood: {why}", why=str(exc))
