"""The coach's plans for one turn, played forward on sampled games, and how they are scored.

A plan is what the search bot compares (``powergrid.bots.search``): ``("limit", plant, top)``,
``("pass",)``, ``("build", cities to own)``, ``("action", a)``; the coach adds ``("seq", actions)``
for a fixed run of the seat's own actions (a purchase, or what a player actually did).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..bots import expert, heuristic, search, value
from ..rules import Action, GameState, GameView, default_power, determinize
from ..rules.actions import DONE
from ..rules.phase import AUCTION, BUILD, BUREAUCRACY
from ..rules.phase import RESOURCES as RESOURCES_PHASE

Plan = tuple[Any, ...]


def heuristic_purchase(s: Any, seat: int, fuel_plan: str = "heuristic") -> tuple[Action, ...]:
    """The heuristic's whole purchase for this turn (buys, then done), or that of one of the
    ``expert`` search's purchase plans (``"run"``: fuel for one run of every plant; ``"fill"``:
    fill the storage). Needs no deck: no card is drawn while buying, so it is played on a copy
    of the seat's public state."""
    w = s.public_state.clone() if isinstance(s, GameView) else s.clone()
    out: list[Action] = []
    while w.phase == RESOURCES_PHASE and w.current_player == seat:
        action = expert._follow(w, seat, ("fuel", fuel_plan), None)
        if action is None:
            action = heuristic.decide(w, seat, w.legal_actions())
        out.append(action)
        w.apply(action)
        if action == DONE:
            break
    return tuple(out)


def turn_plans(view: Any, seat: int, legal: list[Action], widen: int = 0) -> list[Plan]:
    """The plans worth comparing at this decision, the bot's own first (``widen``: the extra bid
    limits the ``expert`` search tries at that widening step)."""
    phase = view.phase
    if phase == AUCTION:
        return expert.candidate_plans(view, seat, legal, widen)
    if phase == BUILD:
        return search.candidate_plans(view, seat, legal)
    if phase == RESOURCES_PHASE:
        mine = heuristic_purchase(view, seat)
        plans: list[Plan] = [("seq", mine)]
        for other in ((DONE,), heuristic_purchase(view, seat, "run"), heuristic_purchase(view, seat, "fill")):
            if ("seq", other) not in plans:
                plans.append(("seq", other))
        return plans
    if phase == BUREAUCRACY:
        # powering nothing is left out: it only keeps fuel, which the next purchase can replace
        best = default_power(view, seat)
        others = sorted((a for a in legal if a != best and a.plants), key=lambda a: (-len(a.plants), a.fuel))
        return [("action", best)] + [("action", a) for a in others[:2]]
    return [("action", a) for a in legal]


def first_action(s: Any, seat: int, plan: Plan, legal: list[Action]) -> Action:
    """The action the plan takes now (legal for ``seat``)."""
    if plan[0] == "seq":
        return plan[1][0]  # type: ignore[no-any-return]
    action = search.follow(s, seat, plan, legal)
    # (raising one at a time, as the search does: the coach shows the step a player takes)
    return action if action is not None else heuristic.decide(s, seat, legal, jump=False)


def play(w: GameState, me: int, plan: Plan, stop_round: int) -> int:
    """Play the plan for ``me``, then the heuristic for every seat until ``stop_round`` begins.
    Returns the forward-model calls made."""
    calls = 0
    if plan[0] in ("seq", "action"):
        for action in plan[1] if plan[0] == "seq" else (plan[1],):
            if w.current_player != me or action not in w.legal_actions():
                break
            w.apply(action)
            calls += 1
        plan = None  # type: ignore[assignment]
    return calls + search.rollout(w, me, plan, stop_round)


@dataclass
class Tally:
    """What the samples said of one plan."""

    plan: Plan
    #: the estimated chances to win at the samples' ends, summed (the players weighed where known)
    chance: float = 0.0
    score: float = 0.0
    samples: int = 0
    #: the estimated chance to win after each sample, in sample order (for paired differences)
    chances: list[float] = field(default_factory=list)
    #: the same ends' chances by the position alone, summed: what the ``expert`` bot ranks by
    judged: float = 0.0

    @property
    def win_chance(self) -> float:
        return self.chance / self.samples if self.samples else 0.0

    @property
    def mean_score(self) -> float:
        return self.score / self.samples if self.samples else 0.0

    @property
    def value(self) -> float:
        """The ``expert`` search's judgement of the plan: the chance to win by the position alone
        plus the position's score over ``expert.ANCHOR_SCALE`` (see ``expert.leaf_value``)."""
        judged = self.judged / self.samples if self.samples else 0.0
        return judged + self.mean_score / expert.ANCHOR_SCALE


class LeafChances:
    """The seat's chance to win at a sample's end, by the position alone (as the ``expert`` bot
    judges) and, where the players are known, weighing them (what a player is shown; the same
    number otherwise). A finished game gives its result to both."""

    def __init__(self, seat: int, players: Sequence[str | None] | None) -> None:
        self.seat = seat
        self.model = value.value_model()
        self.weighing = None if players is None else self.model.weighing(players)

    def __call__(self, w: GameState) -> tuple[float, float]:
        if w.is_over:
            result = 1.0 / len(w.winners) if self.seat in w.winners else 0.0
            return result, result
        x = value.table_features(w)
        judged = float(self.model.table_chances(x)[self.seat])
        if self.weighing is None:
            return judged, judged
        return judged, float(self.model.table_chances(x, *self.weighing)[self.seat])


def compare(view: GameView, seat: int, plans: list[Plan], rng: random.Random, budget: int,
            horizon: int, min_samples: int = 4, max_samples: int = 64,
            rank_by: str = "value", players: Sequence[str | None] | None = None) -> list[Tally]:
    """Every plan played on the same sampled games (paired comparison) until the budget of
    forward-model calls is spent. Only the view is read: the hidden deck is sampled with
    ``determinize``. Best first: by ``rank_by="value"`` as the ``expert`` search ranks (chance
    plus anchored score, ``Tally.value``, by the position alone), or by ``"chance"``, the estimated
    chance to win alone (ties by the score). ``players`` (the bot in each seat where known, None
    for a person) weighs who plays in the chances shown, not in the ``value`` ranking."""
    tallies = [Tally(p) for p in plans]
    leaf = LeafChances(seat, players)
    stop_round = view.round + horizon
    calls = 0
    samples = 0
    while samples < max_samples and (samples < min_samples or calls < budget):
        world = determinize(view, rng)
        for tally in tallies:
            w = world.clone()
            calls += play(w, seat, tally.plan, stop_round)
            judged, chance = leaf(w)
            tally.judged += judged
            tally.chance += chance
            tally.chances.append(chance)
            tally.score += search.evaluate(w, seat)
            tally.samples += 1
        samples += 1
    if rank_by == "value":
        return sorted(tallies, key=lambda t: (-round(t.value, 6), -t.mean_score))
    if rank_by != "chance":
        raise ValueError(f"rank_by is 'value' or 'chance', not {rank_by!r}")
    return sorted(tallies, key=lambda t: (-round(t.win_chance, 6), -t.mean_score))
