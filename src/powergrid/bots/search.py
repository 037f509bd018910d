"""The plan-search bot (``pimc``; also answers to ``mcts``): plans for the turn, compared by
heuristic rollouts on sampled decks.

What it is: perfect-information Monte Carlo over plans. At each decision that matters, the bot
lists a few plans for its turn (which plant to open and how high to go, how far to raise in a
running auction, how many cities to build, which plant to discard), then, many times over,
fills the hidden deck by sampling from the plants it cannot see (``pg.determinize``), plays
every plan forward with the heuristic playing all seats for a few rounds, and scores the
position it reaches. All plans are played on the same sampled decks (paired comparison), and
the weakest third is dropped after each few samples (successive halving), so the forward-model
budget goes to the close contests. The chosen plan is then followed until its turn or auction
is over, without searching again. It builds no tree: its own later choices inside a rollout
are the heuristic's. The names ``mcts``, ``mcts:fast`` and ``mcts:strong`` are kept as aliases.

The budget counts forward-model calls (``apply``) per search, so games replay exactly from
their seeds; a budget in seconds is possible too and is then not replay-exact.

:func:`rank_plans` is the same search as a function: the ranked plans for a view with their
estimated values (for hints and analysis).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..rules import Action, GameState, GameView, default_power, determinize
from ..rules.actions import DONE, PASS
from ..rules.catalog import SLOT_PRICES, STEP3
from ..rules.phase import AUCTION, BUILD, BUREAUCRACY, OVER
from ..rules.phase import RESOURCES as RESOURCES_PHASE
from . import heuristic
from .base import Bot

#: a plan: ("action", a) | ("limit", plant, top bid) | ("build", cities to own) | ("pass",)
Plan = tuple[Any, ...]

#: the bot's name; ``mcts`` is kept as an alias (see bots/__init__.py)
KIND = "pimc"


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


@dataclass(frozen=True)
class RankedPlan:
    """One plan for the decision at hand, as the search judged it."""

    plan: Plan
    #: what the plan plays now
    action: Action
    #: mean score over the samples it was played on: the seat's position minus its best
    #: rival's, in Elektro (a city is worth 12, a powered one 20 more; a win adds 150)
    value: float
    #: samples it was played on (plans dropped early by successive halving have fewer)
    samples: int
    #: the plan in words
    text: str


@dataclass
class _Tally:
    total: list[float]
    count: list[int]
    alive: list[int]
    calls: int


def _compare(view: GameView, seat: int, plans: list[Plan], budget: int, seconds: float | None,
             horizon: int, rng: random.Random) -> _Tally:
    """Play every plan on the same sampled games until the budget is spent (successive halving)."""
    tally = _Tally([0.0] * len(plans), [0] * len(plans), list(range(len(plans))), 0)
    total, count = tally.total, tally.count
    stop_round = view.round + horizon
    deadline = time.perf_counter() + seconds if seconds is not None else None
    sweeps = 0
    budget = budget or 1
    while True:
        world = determinize(view, rng)
        for i in tally.alive:
            w = world.clone()
            tally.calls += rollout(w, seat, plans[i], stop_round)
            total[i] += evaluate(w, seat)
            count[i] += 1
        sweeps += 1
        if deadline is not None:
            if time.perf_counter() >= deadline:
                break
        elif tally.calls >= budget:
            break
        if sweeps % 4 == 0 and len(tally.alive) > 2:
            alive = sorted(tally.alive, key=lambda i: -total[i] / count[i])
            tally.alive = sorted(alive[:max(2, (2 * len(alive) + 2) // 3)])
    return tally


class SearchBot(Bot):
    name = KIND

    def __init__(self, seed: int = 0, budget: int | None = None, *, level: str = "default",
                 horizon: int | None = None, seconds: float | None = None) -> None:
        base = LEVELS[level]
        super().__init__(seed, budget if budget is not None else base.budget)
        self.name = KIND if level == "default" else f"{KIND}:{level}"
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
        s = view.public_state  # reads as the view does, without its per-attribute indirection
        phase = s.phase
        if phase == BUREAUCRACY:
            return default_power(s, seat)
        if phase == RESOURCES_PHASE:
            return heuristic.decide(s, seat, legal)
        key = _scope(s)
        if self._plan is not None and still_planned(s, self._plan[0], self._plan[1]):
            action = follow(s, seat, self._plan[1], legal)
            if action is not None:
                return action
        plans = candidate_plans(s, seat, legal)
        plan = plans[0] if len(plans) == 1 else self._search(view, seat, plans)
        self._plan = (key, plan)
        action = follow(s, seat, plan, legal)
        return action if action is not None else heuristic.decide(s, seat, legal, jump=False)

    def _search(self, view: GameView, seat: int, plans: list[Plan]) -> Plan:
        self.searches += 1
        tally = _compare(view, seat, plans, self.budget or 1, self.seconds, self.horizon, self._rng)
        self.calls += tally.calls
        best = max(tally.alive, key=lambda i: (tally.total[i] / tally.count[i], -i))
        return plans[best]


def rank_plans(view: GameView, *, level: str = "default", budget: int | None = None,
               seconds: float | None = None, horizon: int | None = None,
               seed: int = 0) -> list[RankedPlan]:
    """The plans for ``view.seat``'s decision now, best first, each with its estimated value.

    The same search the bot runs at ``level`` (forward-model calls, or ``seconds`` of thinking
    when given). Plans still in the running when the budget ran out come first, by mean value;
    plans dropped earlier follow, by their mean when dropped. Where the bot does not search
    (buying resources, powering), the heuristic's choice and up to five other legal actions
    are compared the same way. A decision with one legal action gets one plan, not searched
    (``samples`` 0, ``value`` NaN). Deterministic given ``seed`` unless ``seconds`` is given.

    :raises ValueError: unknown level, or the game is over.
    """
    if level not in LEVELS:
        raise ValueError(f"no search level {level!r}; levels: {', '.join(LEVELS)}")
    base = LEVELS[level]
    legal: list[Action] = view.legal_actions()
    if not legal:
        raise ValueError("the game is over: there is no decision to rank")
    seat = view.seat
    if view.current_player != seat:
        raise ValueError(f"seat {seat} is not to act now (seat {view.current_player} is)")
    s = view.public_state
    if len(legal) == 1:
        return [RankedPlan(("action", legal[0]), legal[0], math.nan, 0, str(legal[0]))]
    if s.phase in (BUREAUCRACY, RESOURCES_PHASE):
        first = heuristic.decide(s, seat, legal)
        plans: list[Plan] = [("action", first)] + [("action", a) for a in legal if a != first][:5]
    else:
        plans = candidate_plans(s, seat, legal)
    tally = _compare(view, seat, plans, budget if budget is not None else base.budget,
                     seconds if seconds is not None else base.seconds,
                     horizon if horizon is not None else base.horizon, random.Random(seed))
    alive = set(tally.alive)
    order = sorted(range(len(plans)),
                   key=lambda i: (i not in alive, -tally.total[i] / max(1, tally.count[i]), i))
    ranked = []
    for i in order:
        action = follow(s, seat, plans[i], legal) or heuristic.decide(s, seat, legal, jump=False)
        ranked.append(RankedPlan(plans[i], action, tally.total[i] / max(1, tally.count[i]),
                                 tally.count[i], describe(plans[i], s)))
    return ranked


def describe(plan: Plan, s: Any) -> str:
    """A plan in words."""
    kind = plan[0]
    if kind == "action":
        return str(plan[1])
    if kind == "pass":
        return "pass"
    if kind == "limit":
        if s.phase == AUCTION and s.auc_plant == plan[1]:
            return f"bid on plant {plan[1]} up to {plan[2]}"
        return f"open plant {plan[1]} and bid up to {plan[2]}"
    if kind == "build":
        return f"build up to {plan[1]} cities this turn"
    return repr(plan)


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
    end = s.scn.end_cities
    can, _ = heuristic.affordable_cities(s, seat, s.money[seat], end - owned)
    most = owned + can
    if most >= end and s.round >= heuristic.STALEMATE_ROUND:
        # Like the heuristic, end a long game when it can, won or not: two searching bots that
        # each wait for a better moment would otherwise hold forever, one city short.
        return [("build", end)]
    counts = [max(owned, min(target, most))]
    for n in (owned, target - 1, target + 1, target + 2, end):
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
def _play_plan(w: GameState, me: int, plan: Plan) -> Action | None:
    return follow(w, me, plan, w.legal_actions())


def rollout(w: GameState, me: int, plan: Plan | None, stop_round: int, *,
            scope_of: Callable[[Any], tuple[Any, ...]] = _scope,
            planned: Callable[[Any, tuple[Any, ...], Plan], bool] = still_planned,
            play: Callable[[GameState, int, Plan], Action | None] = _play_plan) -> int:
    """Play the plan for ``me``, then the heuristic for everyone, until ``stop_round`` begins.

    ``scope_of``, ``planned`` and ``play`` say what a plan covers, whether it still holds and
    what it plays (the expert search's plans cover purchases too: expert.py)."""
    calls = 0
    scope = scope_of(w)
    decide = heuristic.decide
    apply = w.apply
    while True:
        phase = w.phase
        if phase == OVER or (phase == AUCTION and w.round >= stop_round):
            break
        p = w.current_player
        assert p is not None
        action = None
        if plan is not None and p == me:
            if planned(w, scope, plan):
                action = play(w, me, plan)
            else:
                plan = None
        if action is None:
            # (lists the legal actions only where it needs them; bids one step at a time)
            action = decide(w, p, jump=False)
        apply(action)
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
    plants = w.plants[seat]
    capacity = sum(w.scn.plant_cities[p] for p in plants)
    unit, portfolio = _holdings(w, seat)
    fuel = sum(n * unit[r] for r, n in enumerate(w.resources_of(seat)))
    return (w.money[seat] + CITY_WORTH * cities + POWERED_WORTH * min(cities, capacity)
            + PLANT_SHARE * portfolio + fuel)


#: (scenario, its game's holdings cache) last asked about: the cache is one of the game's
#: caches kept by the heuristic (``heuristic._caches``), so that it goes with the game; one
#: tuple, replaced whole (bots may run in threads)
_LAST_HOLDINGS: list[Any] = [(None, None)]


def _holdings(w: GameState, seat: int) -> tuple[tuple[float, ...], float]:
    """The seat's expected fuel prices and the value of its plants toward the end of the game
    (shared by equal positions: they recur across the samples of one search)."""
    scn = w.scn
    last_scn, holdings = _LAST_HOLDINGS[0]
    if last_scn is not scn:
        holdings = heuristic._caches(scn).holdings
        _LAST_HOLDINGS[0] = (scn, holdings)
    key = (seat, tuple(w.market_res), tuple(w.plants))
    found: tuple[tuple[float, ...], float] | None = holdings.get(key)
    if found is None:
        if len(holdings) >= 20_000:
            holdings.clear()
        look = heuristic.Outlook(w, seat)
        look.ambition = w.scn.end_cities
        found = holdings[key] = (look.unit, look.portfolio(w.plants[seat]))
    return found


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
