"""The evaluator-guided search (``expert``): plans for the turn, buying resources included,
played forward on sampled decks and judged by the learned evaluator's chance to win.

What it is: the plan search of :mod:`.search` (perfect-information Monte Carlo over a few plans
for the turn, paired samples, successive halving) with two changes. Each rollout stops at the
start of the round two rounds on and the position is scored by
the learned evaluator (:mod:`.value`): the bot's chance to win, in 0..1, instead of a hand-made
score in Elektro. And the purchase of resources is searched too: the heuristic's purchase,
buying nothing, fuel for exactly one run of every plant, or filling the storage (which also
takes fuel from rivals who burn the same resource). Only what the seat sees is read: the
samples come from ``determinize`` and the evaluator reads public facts.

``expert:fast`` follows the chosen plan to the end of its auction, purchase or build turn; the
default level searches again at every decision, and stops a search once its choice is clear
(docs/bots.md).

The budget counts forward-model calls per search, so games replay exactly from their seeds.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from ..rules import Action, GameState, GameView, default_power, determinize
from ..rules.actions import DONE
from ..rules.catalog import STEP3
from ..rules.phase import AUCTION, BUREAUCRACY
from ..rules.phase import RESOURCES as RESOURCES_PHASE
from ..rules.purchase import most_affordable
from ..rules.storage import capacities, room
from . import heuristic, names, search, value
from .base import Bot

KIND = "expert"

#: a purchase plan: ("fuel", "none" | "run" | "fill"); the heuristic's purchase is ("fuel", "heuristic")
FUEL_PLANS = (("fuel", "heuristic"), ("fuel", "none"), ("fuel", "run"), ("fuel", "fill"))


@dataclass(frozen=True)
class Level:
    budget: int    # forward-model calls per search
    horizon: int   # rounds played forward (the current one counts as the first)
    #: extra bid limits tried in an auction (progressive widening: more plans with more budget)
    widen: int
    #: what the lobby and ``--bots`` say of it
    about: str
    #: search again at every decision instead of following the chosen plan to the end of its
    #: auction, purchase or build turn (so a rival's raise or a price change is weighed anew)
    replan: bool = False
    #: stop a search once its leading plan leads the next best by this many standard errors of
    #: their paired differences, after a fifth of the budget (0: always spend the whole budget);
    #: the budget then goes to the decisions that are close (see compare)
    settle: float = 0.0


#: Elektro of the plan search's score worth a chance to win of 1 in a leaf's value (see leaf_value)
ANCHOR_SCALE = 200.0

LEVELS: dict[str, Level] = {
    "fast": Level(1500, 2, 0, "evaluator-guided search, 1,500 calls a search (~0.02 s)"),
    # every decision searched, a search stopped once its choice is clear: it beat pimc in 81.0% of
    # 200 2-player games and 40.2% of 200 4-player games against three, where 10,000 calls a turn
    # won 70.2% and 33.9%; four times its budget played no better (it won 50.5% of 107 2-player
    # games against it): benchmarks/results/2026-11-strength-evaluator.md
    "default": Level(7500, 2, 2,
                     "evaluator-guided search, every decision, up to 7,500 calls a search (~0.06 s)",
                     replan=True, settle=2.5),
}

#: former level names (powergrid.bots.names)
LEVEL_ALIASES: dict[str, str] = names.LEVEL_ALIASES[KIND]


def _scope(s: Any) -> tuple[Any, ...]:
    if s.phase == RESOURCES_PHASE:
        return ("fuel", s.round)
    return search._scope(s)


def _still_planned(s: Any, scope: tuple[Any, ...], plan: search.Plan) -> bool:
    if plan[0] == "fuel":
        return _scope(s) == scope
    return search.still_planned(s, scope, plan)


def _follow(s: Any, seat: int, plan: search.Plan, legal: list[Action] | None) -> Action | None:
    """The plan's action now (None: the heuristic decides)."""
    if plan[0] != "fuel":
        assert legal is not None
        return search.follow(s, seat, plan, legal)
    if s.phase != RESOURCES_PHASE or plan[1] == "heuristic":
        return None
    if plan[1] == "none":
        return DONE
    held = s.resources_of(seat)
    mine = s.plants[seat]
    if plan[1] == "run":
        want = heuristic._deficit(s, heuristic._fuel_table(s.scn), mine, held, 1)
    else:
        want = list(room(held, capacities(s.scn, mine)))
    can = most_affordable(s, seat)
    for r in sorted(range(4), key=lambda r: s.price(r) or 99):
        amount = min(want[r], can[r])
        if amount > 0:
            return Action("buy", 0, amount, "", r)
    return DONE


def _play(w: GameState, me: int, plan: search.Plan) -> Action | None:
    return _follow(w, me, plan, None if plan[0] == "fuel" else w.legal_actions())


def rollout(w: GameState, me: int, plan: search.Plan | None, stop_round: int) -> int:
    """Play the plan for ``me`` (purchases included), then the heuristic for everyone, until
    ``stop_round`` begins."""
    return search.rollout(w, me, plan, stop_round, scope_of=_scope, planned=_still_planned, play=_play)


def leaf_value(w: GameState, me: int, anchor_scale: float = ANCHOR_SCALE) -> float:
    """The rollout's end for the seat: its chance to win by the learned evaluator (a finished
    game: its result), plus the plan search's score (its position less the best rival's, in
    Elektro) over ANCHOR_SCALE.

    The score anchors the judgement: scored by the evaluator alone, the search steered into
    positions no training game had (buying no fuel, letting every plant go for rounds on end),
    where the evaluator's chances are guesses, and lost to ``pimc`` 3 games in 4 (docs/bots.md).
    """
    anchor = search.evaluate(w, me) / anchor_scale
    if w.is_over:
        return anchor + (1.0 / len(w.winners) if me in w.winners else 0.0)
    model = value.value_model()
    return anchor + float(model.table_chances(value.table_features(w))[me])


@dataclass
class Tally:
    total: list[float]
    count: list[int]
    alive: list[int]
    calls: int


#: the share of its budget a search spends before it may stop early (Level.settle)
SETTLE_AFTER = 0.2


def compare(view: GameView, seat: int, plans: list[search.Plan], budget: int, horizon: int,
            rng: random.Random, anchor_scale: float = ANCHOR_SCALE, settle: float = 0.0) -> Tally:
    """Every plan on the same sampled games until the budget is spent (successive halving), or,
    with ``settle``, until the leader is that many standard errors ahead of the next best."""
    tally = Tally([0.0] * len(plans), [0] * len(plans), list(range(len(plans))), 0)
    stop_round = view.round + horizon
    sweeps = 0
    #: each plan's leaf value in every sample it was played on (the samples are shared: paired)
    values: list[dict[int, float]] = [{} for _ in plans]
    while True:
        world = determinize(view, rng)
        for i in tally.alive:
            w = world.clone()
            tally.calls += rollout(w, seat, plans[i], stop_round) + 1
            leaf = leaf_value(w, seat, anchor_scale)
            values[i][sweeps] = leaf
            tally.total[i] += leaf
            tally.count[i] += 1
        sweeps += 1
        if tally.calls >= budget:
            break
        if sweeps % 4:
            continue
        alive = sorted(tally.alive, key=lambda i: -tally.total[i] / tally.count[i])
        settled = settle and tally.calls >= SETTLE_AFTER * budget
        if settled and _lead(values[alive[0]], values[alive[1]]) >= settle:
            break
        if len(tally.alive) > 2:
            tally.alive = sorted(alive[:max(2, (2 * len(alive) + 2) // 3)])
    return tally


def _lead(first: dict[int, float], second: dict[int, float]) -> float:
    """How many standard errors ``first`` is ahead of ``second`` on the samples both played."""
    diffs = [v - second[k] for k, v in first.items() if k in second]
    n = len(diffs)
    if n < 2:
        return 0.0
    mean = sum(diffs) / n
    spread = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    if spread == 0.0:
        return math.inf if mean > 0 else 0.0
    return mean / math.sqrt(spread / n)


#: per widening step: more top bids tried, relative to the heuristic's limit
_WIDER_TOPS = ((), (-3, 3, 10), (-6, -3, 3, 10, 20))


def candidate_plans(s: Any, seat: int, legal: list[Action], widen: int = 0) -> list[search.Plan]:
    """The plan search's plans, the purchase plans, and with ``widen`` more bid limits."""
    if s.phase == RESOURCES_PHASE:
        return list(FUEL_PLANS)
    plans = search.candidate_plans(s, seat, legal)
    if not widen or s.phase != AUCTION or s.discard_seat >= 0:
        return plans
    look = heuristic.Outlook(s, seat)
    money = s.money[seat]
    least = s.auc_bid + 1 if s.auc_plant else 0
    plants = [s.auc_plant] if s.auc_plant else [p for p in s.current_market() if p != STEP3 and p <= money]
    for plant in plants:
        limit = max(plant, look.max_bid(plant))
        for extra in _WIDER_TOPS[widen]:
            top = limit + extra
            plan = ("limit", plant, top)
            if max(plant, least) <= top <= money and plan not in plans:
                plans.append(plan)
    return plans


class ExpertBot(Bot):
    name = KIND

    def __init__(self, seed: int = 0, budget: int | None = None, *, level: str = "default",
                 horizon: int | None = None, anchor_scale: float = ANCHOR_SCALE,
                 replan: bool | None = None, settle: float | None = None) -> None:
        level = LEVEL_ALIASES.get(level, level)
        base = LEVELS[level]
        super().__init__(seed, budget if budget is not None else base.budget)
        self.name = KIND if level == "default" else f"{KIND}:{level}"
        self.horizon = horizon if horizon is not None else base.horizon
        self.widen = base.widen
        self.replan = base.replan if replan is None else replan
        self.settle = base.settle if settle is None else settle
        self.anchor_scale = anchor_scale
        self._rng = random.Random(seed)
        self._plan: tuple[tuple[Any, ...], search.Plan] | None = None
        self.calls = 0
        self.searches = 0

    def act(self, view: GameView) -> Action:
        legal: list[Action] = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        seat = view.seat
        s = view.public_state
        if s.phase == BUREAUCRACY:
            return default_power(s, seat)
        if not self.replan and self._plan is not None and _still_planned(s, *self._plan):
            action = _follow(s, seat, self._plan[1], legal)
            if action is not None and action in legal:
                return action
            if self._plan[1][0] == "fuel":
                return heuristic.decide(s, seat, legal)
        plans = candidate_plans(s, seat, legal, self.widen)
        plan = plans[0] if len(plans) == 1 else self._search(view, seat, plans)
        self._plan = (_scope(s), plan)
        action = _follow(s, seat, plan, legal)
        if action is not None and action in legal:
            return action
        return heuristic.decide(s, seat, legal, jump=plan[0] == "fuel")

    def _search(self, view: GameView, seat: int, plans: list[search.Plan]) -> search.Plan:
        self.searches += 1
        tally = compare(view, seat, plans, self.budget or 1, self.horizon, self._rng, self.anchor_scale,
                        self.settle)
        self.calls += tally.calls
        best = max(tally.alive, key=lambda i: (tally.total[i] / tally.count[i], -i))
        return plans[best]
