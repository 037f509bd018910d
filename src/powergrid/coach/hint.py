"""A hint: what the search would do from one seat's view, why, and the next best choices.

Only the seat's view is read. The hidden deck is sampled with ``pg.determinize`` from a
generator seeded by ``seed``, so a hint is the same for the same view and seed, whatever the
true deck order.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..bots import search
from ..i18n import Translator, translator
from ..i18n.terms import and_list, plant_kind, resource_count
from ..rules import Action, GameView, determinize
from ..rules.actions import DONE
from ..rules.catalog import RESOURCES
from ..rules.phase import BUILD
from .plans import Plan, Tally, compare, first_action, turn_plans
from .winchance import named, win_chances


@dataclass(frozen=True)
class HintLevel:
    budget: int     # forward-model calls for the whole comparison
    horizon: int    # rounds played forward (the current one counts)
    widen: int      # the extra bid limits of the ``expert`` level of that name (bots/expert.py)


#: ``default`` answers in well under a second on one core of a loaded machine, ``strong`` within
#: two (benchmarks/coach_speed.py)
HINT_LEVELS: dict[str, HintLevel] = {
    "fast": HintLevel(budget=2500, horizon=2, widen=0),
    # the default bot's plans (expert.LEVELS["default"]: five more bid limits)
    "default": HintLevel(budget=10000, horizon=2, widen=2),
    # two rounds ahead, as the expert levels: three rounds ahead played worse (docs/bots.md)
    "strong": HintLevel(budget=30000, horizon=2, widen=2),
}


class NoHint(ValueError):
    """No hint can be given: the game is over, or it is not this seat's decision."""

    code = "no_hint"


@dataclass(frozen=True)
class Choice:
    """One plan the coach weighed: the action it starts with, the plan in words, its value."""

    action: Action
    plan: str
    win_chance: float      # mean estimated chance to win after playing it
    score: float           # the search's position score (Elektro against the best rival)
    samples: int

    def to_dict(self) -> dict[str, Any]:
        return {"action": str(self.action), "plan": self.plan, "win_chance": round(self.win_chance, 4),
                "score": round(self.score, 1), "samples": self.samples}


@dataclass(frozen=True)
class Hint:
    seat: int
    round: int
    phase: str
    action: Action
    reason: str
    win_chance: float
    alternatives: list[Choice]
    #: what to draw on the board: plant numbers, city names, resources to buy {name: amount}
    plants: list[int] = field(default_factory=list)
    cities: list[str] = field(default_factory=list)
    resources: dict[str, int] = field(default_factory=dict)
    best: Choice | None = None
    #: the plan's whole step for this turn, from ``action`` on: every city of a build with ``done``,
    #: every purchase with ``done``; one action elsewhere (an auction goes bid by bid)
    steps: list[Action] = field(default_factory=list)
    #: that step in words, short: ``Build in Essen and Duisburg``
    headline: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "round": self.round, "phase": self.phase, "action": str(self.action),
                "steps": [str(a) for a in self.steps or [self.action]], "headline": self.headline,
                "reason": self.reason, "win_chance": round(self.win_chance, 4),
                "best": self.best.to_dict() if self.best else None,
                "alternatives": [c.to_dict() for c in self.alternatives],
                "show": {"plants": self.plants, "cities": self.cities, "resources": self.resources}}


def hint(view: GameView, seed: int = 0, level: str = "default", budget: int | None = None,
         lang: str = "en", players: Sequence[str | None] | None = None) -> Hint:
    """The coach's advice for ``view.seat`` at its current decision (``budget``: forward-model
    calls, instead of the level's), its words in ``lang``. The plans are ranked as the ``expert``
    bot ranks them; the chances shown weigh who plays each seat where ``players`` says (the bot's
    name, None for a person), as the analysis's chances do.

    :raises NoHint: the game is over or another seat is to act.
    :raises ValueError: unknown level.
    """
    if level not in HINT_LEVELS:
        raise ValueError(f"no hint level {level!r}; levels: {', '.join(HINT_LEVELS)}")
    seat = view.seat
    if view.is_over:
        raise NoHint("the game is over")
    if view.current_player != seat:
        raise NoHint(f"it is not seat {seat}'s decision (seat {view.current_player} is to act)")
    settings = HINT_LEVELS[level]
    players = named(players)
    legal = view.legal_actions()
    rng = random.Random(seed)
    plans = turn_plans(view, seat, legal, settings.widen)
    if len(legal) == 1:
        plans = [("action", legal[0])]
    if len(plans) == 1:
        chance = win_chances(view, players)[seat]
        tallies = [Tally(plans[0], chance, 0.0, 1, [chance], chance)]
    else:
        tallies = compare(view, seat, plans, rng, settings.budget if budget is None else budget,
                          settings.horizon, players=players)
    best = tallies[0]
    action = first_action(view, seat, best.plan, legal)
    tr = translator(lang)
    words = PlanWords(view, seat, random.Random(seed ^ 0x5EED), tr)
    choices: list[Choice] = []
    for t in tallies:
        choice = Choice(first_action(view, seat, t.plan, legal), words.plan(t.plan), t.win_chance,
                        t.mean_score, t.samples)
        # plans that start alike and came out alike (an auction won below both limits) say one thing
        if any(c.action == choice.action and abs(c.win_chance - choice.win_chance) < 1e-9
               and abs(c.score - choice.score) < 1e-9 for c in choices):
            continue
        choices.append(choice)
    reason = tr.gettext("The only move here.") if len(legal) == 1 else words.reason(best.plan)
    shown = words.highlight(best.plan)
    steps = words.steps(best.plan, action)
    return Hint(seat, view.round, view.phase_name, action, reason, best.win_chance, choices[1:4],
                shown["plants"], shown["cities"], shown["resources"], choices[0], steps,
                words.headline(best.plan, steps))


# ---------------------------------------------------------------- words
def amounts(fuel: tuple[int, ...] | list[int], tr: Translator | None = None) -> str:
    """``2 coal, 1 oil and 3 garbage``, or ``nothing``."""
    tr = tr or translator("en")
    parts = [resource_count(tr, n, r) for r, n in enumerate(fuel) if n]
    if not parts:
        return tr.gettext("nothing")
    return parts[0] if len(parts) == 1 else and_list(tr, [", ".join(parts[:-1]), parts[-1]])


class PlanWords:
    """Plans said in the game's words (in ``tr``'s language), from the seat's view."""

    def __init__(self, view: GameView, seat: int, rng: random.Random, tr: Translator | None = None) -> None:
        self.view = view
        self.seat = seat
        self.rng = rng
        self.tr = tr or translator("en")
        self._built: dict[int, tuple[list[str], int]] = {}

    def alone(self) -> bool:
        """Whether the seat is the last to choose a plant this round: nobody can bid against it, so
        opening buys the plant at its number (docs/rules.md, Phase 2)."""
        v = self.view
        return not v.auc_plant and v.auc_done | 1 << self.seat == (1 << len(v.money)) - 1

    # what a plant does
    def plant_words(self, plant: int) -> str:
        tr = self.tr
        scn = self.view.scn
        kind, burn, cities = scn.plant_kind[plant], scn.plant_burn[plant], scn.plant_cities[plant]
        if kind in ("ecological", "fusion") or burn == 0:
            text = tr.ngettext("it powers {n} city with no fuel at all",
                               "it powers {n} cities with no fuel at all", cities)
        else:
            fuel = tr.gettext("coal or oil") if kind == "hybrid" else plant_kind(tr, kind)
            text = tr.ngettext("it powers {n} city for {burn} {fuel} a run",
                               "it powers {n} cities for {burn} {fuel} a run", cities, burn=burn, fuel=fuel)
            rivals = [owned for j, owned in enumerate(self.view.plants) if j != self.seat]
            burners = {scn.plant_kind[p] for owned in rivals for p in owned}
            shared = kind in burners or (kind in ("coal", "oil") and "hybrid" in burners)
            if any(rivals) and kind != "hybrid" and not shared:
                text += tr.gettext(", and nobody else burns {fuel}", fuel=fuel)
        mine = self.view.plants[self.seat]
        if len(mine) >= scn.rules.max_plants:
            weakest = min(mine, key=lambda p: (scn.plant_cities[p], p))
            text += tr.gettext(" (it would replace your plant {plant})", plant=weakest)
        return text

    def _build_run(self, target: int) -> tuple[list[str], int]:
        """Cities the plan builds, cheapest first, and what they cost (no deck is read)."""
        if target not in self._built:
            w = determinize(self.view, self.rng)
            seat = self.seat
            before = w.money[seat]
            names: list[str] = []
            plan: Plan = ("build", target)
            while w.phase == BUILD and w.current_player == seat:
                action = search.follow(w, seat, plan, w.legal_actions())
                if action is None or action == DONE:
                    break
                names.append(action.city)
                w.apply(action)
            self._built[target] = (names, before - w.money[seat])
        return self._built[target]

    def plan(self, plan: Plan) -> str:
        """The plan, short."""
        tr = self.tr
        v = self.view
        kind = plan[0]
        if kind == "limit":
            if v.auc_plant and plan[2] <= v.auc_bid + 1:  # the least raise is the limit: one bid, then out
                return tr.gettext("bid {amount} on plant {plant}, and no more", plant=plan[1], amount=plan[2])
            if v.auc_plant:
                return tr.gettext("bid on plant {plant}, up to {amount}", plant=plan[1], amount=plan[2])
            if self.alone():
                return tr.gettext("buy plant {plant} for {amount} Elektro", plant=plan[1], amount=plan[1])
            return tr.gettext("open plant {plant}, bid up to {amount}", plant=plan[1], amount=plan[2])
        if kind == "pass":
            if v.auc_plant:
                return tr.gettext("let plant {plant} go", plant=v.auc_plant)
            return tr.gettext("pass: buy no plant this round")
        if kind == "build":
            names, cost = self._build_run(plan[1])
            if not names:
                return tr.gettext("build nothing this turn")
            return tr.gettext("build {n} ({list}) for {amount}", n=len(names), list=", ".join(names),
                              amount=cost)
        if kind == "seq":
            buys = [0, 0, 0, 0]
            for a in plan[1]:
                if a.kind == "buy":
                    buys[a.resource] += a.amount
            if not any(buys):
                return tr.gettext("buy nothing")
            return tr.gettext("buy {list}", list=amounts(buys, tr))
        return str(plan[1])

    def reason(self, plan: Plan) -> str:
        """One line: the plan and why, in the game's words."""
        tr = self.tr
        v = self.view
        seat = self.seat
        kind = plan[0]
        money, owned_now = v.money[seat], len(v.cities[seat])
        if kind == "limit":
            plant, top = plan[1], plan[2]
            if v.auc_plant and top <= v.auc_bid + 1:
                return tr.gettext("Bid {amount} on plant {plant} and no more: {why}.", plant=plant,
                                  amount=top, why=self.plant_words(plant))
            if v.auc_plant:
                return tr.gettext("Bid on plant {plant} up to {amount}: {why}.", plant=plant, amount=top,
                                  why=self.plant_words(plant))
            if self.alone():
                return tr.gettext("Plant {plant} for {amount} Elektro (nobody can bid against you now): "
                                  "{why}.", plant=plant, amount=plant, why=self.plant_words(plant))
            return tr.gettext("Plant {plant} at up to {amount}: {why}.", plant=plant, amount=top,
                              why=self.plant_words(plant))
        if kind == "pass":
            if v.auc_plant:
                return tr.ngettext("Let plant {plant} go at {price}: it is worth less than that to you with "
                                   "{amount} Elektro and {n} city.",
                                   "Let plant {plant} go at {price}: it is worth less than that to you with "
                                   "{amount} Elektro and {n} cities.", owned_now,
                                   plant=v.auc_plant, price=v.auc_bid, amount=money)
            return tr.gettext("Pass: no plant on the market is worth its price to you now; keep your "
                              "{amount} Elektro for resources and cities.", amount=money)
        if kind == "build":
            names, cost = self._build_run(plan[1])
            capacity = sum(v.scn.plant_cities[p] for p in v.plants[seat])
            plants = tr.ngettext("Your plants can power {n} city.", "Your plants can power {n} cities.",
                                 capacity)
            if not names:
                return tr.ngettext(
                    "Build nothing this turn: keep your {amount} Elektro; you have {n} city.",
                    "Build nothing this turn: keep your {amount} Elektro; you have {n} cities.",
                    owned_now, amount=money) + " " + plants
            owned = owned_now + len(names)
            return tr.ngettext("Build in {list} for {amount} Elektro: you will have {n} city.",
                               "Build in {list} for {amount} Elektro: you will have {n} cities.", owned,
                               list=", ".join(names), amount=cost) + " " + plants
        if kind == "seq":
            buys = [0, 0, 0, 0]
            for a in plan[1]:
                if a.kind == "buy":
                    buys[a.resource] += a.amount
            if not any(buys):
                return tr.gettext("Buy nothing: you hold the fuel you need, or it costs more than it earns.")
            cost = self._purchase_cost(plan[1])
            return tr.gettext("Buy {list} for {amount} Elektro: the fuel your plants need to power your "
                              "cities next bureaucracy.", list=amounts(buys, tr), amount=cost)
        action: Action = plan[1]
        if action.kind == "discard":
            return tr.gettext("Discard plant {plant} (keep {list}): it adds least to what you can power.",
                              plant=action.plant, list=amounts(action.fuel, tr))
        if action.kind == "power":
            if not action.plants:
                return tr.gettext("Power nothing this round.")
            cities = min(len(v.cities[seat]), sum(v.scn.plant_cities[p] for p in action.plants))
            pay = v.scn.catalog.pay(cities)
            numbers = ", ".join(str(p) for p in action.plants)
            burning = amounts(action.fuel, tr)
            if len(action.plants) > 1:
                return tr.ngettext("Power {n} city with plants {plants}, burning {list}: it pays {amount} "
                                   "Elektro.",
                                   "Power {n} cities with plants {plants}, burning {list}: it pays {amount} "
                                   "Elektro.", cities, plants=numbers, list=burning, amount=pay)
            return tr.ngettext("Power {n} city with plant {plants}, burning {list}: it pays {amount} "
                               "Elektro.",
                               "Power {n} cities with plant {plants}, burning {list}: it pays {amount} "
                               "Elektro.", cities, plants=numbers, list=burning, amount=pay)
        return f"{action}."

    def steps(self, plan: Plan, first: Action) -> list[Action]:
        """The plan's actions for this turn, starting with ``first`` (the hint's action): a build
        names every city and ends with ``done``, a purchase every unit and ``done``."""
        kind = plan[0]
        if kind == "build":
            names = self._build_run(plan[1])[0]
            if names and names[0] == first.city:
                return [Action.build(name) for name in names] + [DONE]
            return [first]
        if kind == "seq" and plan[1] and plan[1][0] == first:
            return list(plan[1])
        return [first]

    def headline(self, plan: Plan, steps: list[Action]) -> str:
        """What to do now, in a few words (a heading over the reason)."""
        tr = self.tr
        builds = [a.city for a in steps if a.kind == "build"]
        buys = [0, 0, 0, 0]
        for a in steps:
            if a.kind == "buy":
                buys[a.resource] += a.amount
        first = steps[0]
        v = self.view
        if builds:
            return tr.gettext("Build in {list}", list=builds[0] if len(builds) == 1
                              else and_list(tr, [", ".join(builds[:-1]), builds[-1]]))
        if any(buys):
            return tr.gettext("Buy {list}", list=amounts(buys, tr))
        if first == DONE:
            if v.phase == BUILD:
                return tr.gettext("Build nothing this turn")
            return tr.gettext("Buy nothing this turn")
        if first.kind == "open":
            if self.alone():
                return tr.gettext("Buy plant {plant} for {amount} Elektro", plant=first.plant,
                                  amount=first.amount)
            return tr.gettext("Open an auction for plant {plant} at {amount}", plant=first.plant,
                              amount=first.amount)
        if first.kind == "bid":
            return tr.gettext("Bid {amount} for plant {plant}", amount=first.amount, plant=v.auc_plant)
        if first.kind == "pass":
            if v.auc_plant:
                return tr.gettext("Leave the auction for plant {plant}", plant=v.auc_plant)
            return tr.gettext("Pass: buy no plant this round")
        if first.kind == "discard":
            return tr.gettext("Discard plant {plant}", plant=first.plant)
        if first.kind == "power":
            if not first.plants:
                return tr.gettext("Power nothing this round")
            return tr.ngettext("Run plant {plants}", "Run plants {plants}", len(first.plants),
                               plants=", ".join(str(p) for p in first.plants))
        return str(first)

    def _purchase_cost(self, actions: tuple[Action, ...]) -> int:
        w = self.view.public_state.clone()
        before = w.money[self.seat]
        for a in actions:
            if a == DONE or w.current_player != self.seat:
                break
            w.apply(a)
        return before - w.money[self.seat]

    def highlight(self, plan: Plan) -> dict[str, Any]:
        kind = plan[0]
        plants: list[int] = []
        cities: list[str] = []
        res: dict[str, int] = {}
        if kind == "limit":
            plants = [plan[1]]
        elif kind == "pass" and self.view.auc_plant:
            plants = [self.view.auc_plant]
        elif kind == "build":
            cities = self._build_run(plan[1])[0]
        elif kind == "seq":
            for a in plan[1]:
                if a.kind == "buy":
                    res[RESOURCES[a.resource]] = res.get(RESOURCES[a.resource], 0) + a.amount
        elif kind == "action":
            a = plan[1]
            if a.kind == "discard":
                plants = [a.plant]
            elif a.kind == "power":
                plants = list(a.plants)
            elif a.kind == "build":
                cities = [a.city]
            elif a.kind == "open":
                plants = [a.plant]
        return {"plants": plants, "cities": cities, "resources": res}


__all__ = ["HINT_LEVELS", "Choice", "Hint", "NoHint", "hint"]
