"""A weaker heuristic player for varied games (the evaluator's and the win model's training sets,
the ladder): ``erring:RATE`` plays a random legal action with probability RATE outside the
bureaucracy, the heuristic's choice otherwise."""

from __future__ import annotations

import random

import powergrid as pg
from powergrid.bots import Bot, ExpertBot, heuristic, make_bot

ERROR_RATES = (0.0, 0.0, 0.01, 0.03, 0.08)


class ErringHeuristic(Bot):
    name = "erring"

    def __init__(self, seed: int, rate: float) -> None:
        super().__init__(seed)
        self.rate = rate
        self._rng = random.Random(seed)

    def act(self, view: pg.GameView) -> pg.Action:
        legal = view.legal_actions()
        if len(legal) > 1 and view.phase != 5 and self._rng.random() < self.rate:
            return self._rng.choice(legal)
        return heuristic.decide(view, view.seat, legal)


def bot_factory(spec: str, seed: int) -> Bot:
    """``make_bot`` that also knows ``erring:RATE``, and ``expert[:LEVEL]@CALLS[/hH][/aA][/r0|1][/sZ]``:
    an ``expert`` level with another budget (forward-model calls a search) and, optionally, another
    horizon (rounds), anchor scale (``expert.ANCHOR_SCALE``), searching again at every decision or
    not, and early stop (``Level.settle``), for trying levels in matches."""
    if spec.startswith("erring:"):
        return ErringHeuristic(seed, float(spec.split(":")[1]))
    if spec.startswith("expert") and "@" in spec:
        name, _, rest = spec.partition("@")
        level = name.partition(":")[2] or "default"
        calls, *options = rest.split("/")
        knobs = {"h": ("horizon", int), "a": ("anchor_scale", float), "r": ("replan", lambda v: v == "1"),
                 "s": ("settle", float)}
        given = {knobs[o[0]][0]: knobs[o[0]][1](o[1:]) for o in options}
        bot = ExpertBot(seed, budget=int(calls), level=level, **given)
        bot.name = spec
        return bot
    return make_bot(spec, seed)
