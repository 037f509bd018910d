"""The search bot (``mcts``): plans for the turn, compared by heuristic rollouts on sampled decks.

At each decision that matters, the bot lists a few plans for its turn (which plant to open and
how high to go, how far to raise in a running auction, how many cities to build, which plant
to discard), then, many times over, fills the hidden deck by sampling from the plants it cannot
see (``pg.determinize``), plays every plan forward with the heuristic playing all seats for a
few rounds, and scores the position it reaches. All plans are played on the same sampled decks
(paired comparison), and the weakest third is dropped after each few samples (successive
halving), so the forward-model budget goes to the close contests. The chosen plan is then
followed until its turn or auction is over, without searching again.

The budget counts forward-model calls (``apply``) per search, so games replay exactly from
their seeds; a budget in seconds is possible too and is then not replay-exact.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from powergrid.bots.base import Bot
from powergrid.rules import Action, GameState, GameView, default_power, determinize
from powergrid.rules.actions import DONE, PASS
from powergrid.rules.catalog import SLOT_PRICES, STEP3
from powergrid.rules.phase import AUCTION, BUILD, BUREAUCRACY
from powergrid.rules.phase import RESOURCES as RESOURCES_PHASE

from . import heuristic_before as heuristic

#: a plan: ("action", a) | ("limit", plant, top bid) | ("build", cities to own) | ("pass",)
Plan = tuple[Any, ...]


@dataclass(frozen=True)
class Level:
    budget: int           # forward-model calls per search
    horizon: int          # rounds played forward (the current one counts as the first)
    seconds: float | None = None


LEVELS: dict[str, Level] = {
    "fast": Level(budget=800, horizon=2),
    "default": Level(budget=4000, horizon=2),
    "strong": Level(budget=16000, horizon=3),
}


class SearchBot(Bot):
    name = "mcts"

    def __init__(self, seed: int = 0, budget: int | None = None, *, level: str = "default",
                 horizon: int | None = None, seconds: float | None = None) -> None:
        base = LEVELS[level]
        super().__init__(seed, budget if budget is not None else base.budget)
        self.name = "mcts" if level == "default" else f"mcts:{level}"
        self.horizon = horizon if horizon is not None else base.horizon
        self.seconds = seconds if seconds is not None else base.seconds
        self.replay_exact = self.seconds is None
        self._rng = random.Random(seed)
        self._plan: tuple[tuple[Any, ...], Plan] | None = None
        #: forward-model calls made so far, and searches run (for benchmarks)
        self.calls = 0
        self.searches = 0

    # ------------------------------------------------------------ deciding
    def act(self, view: GameView) -> Action:
        legal: list[Action] = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        seat = view.seat
        phase = view.phase
        if phase == BUREAUCRACY:
            return default_power(view, seat)
        if phase == RESOURCES_PHASE:
            return heuristic.decide(view, seat, legal)
        key = _scope(view)
        if self._plan is not None and still_planned(view, self._plan[0], self._plan[1]):
            action = follow(view, seat, self._plan[1], legal)
            if action is not None:
                return action
        plans = candidate_plans(view, seat, legal)
        plan = plans[0] if len(plans) == 1 else self._search(view, seat, plans)
        self._plan = (key, plan)
        action = follow(view, seat, plan, legal)
        return action if action is not None else heuristic.decide(view, seat, legal)

    def _search(self, view: GameView, seat: int, plans: list[Plan]) -> Plan:
        self.searches += 1
        total = [0.0] * len(plans)
        count = [0] * len(plans)
        alive = list(range(len(plans)))
        stop_round = view.round + self.horizon
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else None
        calls = 0
        sweeps = 0
        budget = self.budget or 1
        while True:
            world = determinize(view, self._rng)
            for i in alive:
                w = world.clone()
                calls += rollout(w, seat, plans[i], stop_round)
                total[i] += evaluate(w, seat)
                count[i] += 1
            sweeps += 1
            if deadline is not None:
                if time.perf_counter() >= deadline:
                    break
            elif calls >= budget:
                break
            if sweeps % 4 == 0 and len(alive) > 2:
                alive.sort(key=lambda i: -total[i] / count[i])
                alive = sorted(alive[:max(2, (2 * len(alive) + 2) // 3)])
        self.calls += calls
        best = max(alive, key=lambda i: (total[i] / count[i], -i))
        return plans[best]


# ---------------------------------------------------------------- plans
def _scope(s: Any) -> tuple[Any, ...]:
    """What a plan covers: one auction (or opening turn), one build turn, one discard."""
    if s.phase == AUCTION:
        if s.discard_seat >= 0:
            return ("discard", s.round, s.decisions)
        return ("auction", s.round, s.auc_plant)
    return ("build", s.round)


def still_planned(s: Any, scope: tuple[Any, ...], plan: Plan) -> bool:
    """Whether a plan made in ``scope`` still covers the decision now."""
    if _scope(s) == scope:
        return True
    return bool(plan[0] == "limit" and s.phase == AUCTION and s.discard_seat < 0
            and scope[0] == "auction" and s.round == scope[1] and s.auc_plant == plan[1])


def candidate_plans(s: Any, seat: int, legal: list[Action]) -> list[Plan]:
    """A few sensible plans for this turn, the heuristic's own first."""
    phase = s.phase
    if phase == BUILD:
        return _build_plans(s, seat)
    if s.discard_seat >= 0:
        first = heuristic.decide(s, seat, legal)
        return [("action", first)] + [("action", a) for a in legal if a != first]
    look = heuristic.Outlook(s, seat)
    money = s.money[seat]
    if s.auc_plant:
        limit = look.max_bid(s.auc_plant)
        plans: list[Plan] = []
        tops = sorted({max(limit, s.auc_bid + 1), limit + 6, limit + 14}, key=lambda b: b)
        for top in tops:
            if s.auc_bid < top <= money:
                plans.append(("limit", s.auc_plant, top))
        plans.append(("pass",))
        return _heuristic_first(s, seat, legal, plans)
    plans = []
    for plant in s.current_market():
        if plant == STEP3 or plant > money:
            continue
        limit = look.max_bid(plant)
        plans.append(("limit", plant, max(plant, limit)))
        if limit >= plant and limit + 8 <= money:
            plans.append(("limit", plant, limit + 8))
    if PASS in legal:
        plans.append(("pass",))
    return _heuristic_first(s, seat, legal, plans)


def _heuristic_first(s: Any, seat: int, legal: list[Action], plans: list[Plan]) -> list[Plan]:
    choice = heuristic.decide(s, seat, legal)
    if choice.kind == "pass":
        wanted = ("pass",)
        match = [i for i, plan in enumerate(plans) if plan == wanted]
    else:
        plant = choice.plant if choice.kind == "open" else s.auc_plant
        match = [i for i, plan in enumerate(plans) if plan[0] == "limit" and plan[1] == plant]
    if match:
        i = match[0]
        return [plans[i]] + plans[:i] + plans[i + 1:]
    return plans


def _build_plans(s: Any, seat: int) -> list[Plan]:
    owned = len(s.cities[seat])
    target, _ = heuristic._build_target(s, seat)
    can, _ = heuristic.affordable_cities(s, seat, s.money[seat], s.scn.end_cities - owned)
    most = owned + can
    counts = [max(owned, min(target, most))]
    for n in (owned, target - 1, target + 1, target + 2, s.scn.end_cities):
        n = min(n, most)
        if n >= owned and n not in counts:
            counts.append(n)
    return [("build", n) for n in counts]


def follow(s: Any, seat: int, plan: Plan, legal: list[Action]) -> Action | None:
    """The plan's action now, or None when the plan has nothing to say here."""
    kind = plan[0]
    if kind == "action":
        return plan[1] if plan[1] in legal else None
    if kind == "pass":
        return PASS if PASS in legal else None
    if kind == "limit":
        plant, top = plan[1], plan[2]
        if s.phase != AUCTION or s.discard_seat >= 0:
            return None
        if s.auc_plant == 0:
            action = Action("open", plant, plant)
            return action if action in legal else None
        if s.auc_plant != plant:
            return None
        return legal[0] if s.auc_bid < top and legal[0].kind == "bid" else PASS
    if kind == "build":
        if s.phase != BUILD:
            return None
        if len(s.cities[seat]) >= plan[1]:
            return DONE
        return _cheapest_build(s, seat, legal)
    return None


def _cheapest_build(s: Any, seat: int, legal: list[Action]) -> Action:
    scn = s.scn
    reach = s.reach[seat]
    houses = s.houses
    central = heuristic._centrality(s)
    best, best_score = DONE, 1e18
    for a in legal:
        if a.kind != "build":
            continue
        c = scn.city_by_name[a.city]
        score = SLOT_PRICES[len(houses[c])] + (reach[c] if reach is not None else 0) + 0.5 * central[c]
        if score < best_score:
            best, best_score = a, score
    return best


# ---------------------------------------------------------------- playing forward
def rollout(w: GameState, me: int, plan: Plan | None, stop_round: int) -> int:
    """Play the plan for ``me``, then the heuristic for everyone, until ``stop_round`` begins."""
    calls = 0
    scope = _scope(w)
    decide = heuristic.decide
    while w.phase != 6:
        if w.round >= stop_round and w.phase == AUCTION:
            break
        p = w.current_player
        assert p is not None
        legal = w.legal_actions()
        action = None
        if p == me and plan is not None:
            if still_planned(w, scope, plan):
                action = follow(w, me, plan, legal)
            else:
                plan = None
        if action is None:
            action = decide(w, p, legal) if len(legal) > 1 else legal[0]
        w.apply(action)
        calls += 1
    return calls


#: weights of the position score, in Elektro
CITY_WORTH = 12.0
POWERED_WORTH = 8.0
PLANT_SHARE = 0.5
WIN_BONUS = 150.0
FINAL_CITY_WORTH = 30.0


def position(w: GameState, seat: int) -> float:
    cities = len(w.cities[seat])
    capacity = sum(w.scn.plant_cities[p] for p in w.plants[seat])
    look = heuristic.Outlook(w, seat)
    look.ambition = w.scn.end_cities
    fuel = sum(n * look.unit[r] for r, n in enumerate(w.resources_of(seat)))
    return (w.money[seat] + CITY_WORTH * cities + POWERED_WORTH * min(cities, capacity)
            + PLANT_SHARE * look.portfolio(w.plants[seat]) + fuel)


def evaluate(w: GameState, me: int) -> float:
    """How good the position is for ``me``: its score minus the best rival's."""
    players = len(w.money)
    if w.is_over:
        final = [FINAL_CITY_WORTH * w.powerable(j) + w.money[j] for j in range(players)]
        rival = max(final[j] for j in range(players) if j != me)
        share = 1.0 / len(w.winners) if me in w.winners else 0.0
        return final[me] - rival + WIN_BONUS * share
    scores = [position(w, j) for j in range(players)]
    rival = max(scores[j] for j in range(players) if j != me)
    return scores[me] - rival
