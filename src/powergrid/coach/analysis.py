"""The analysis of a finished game: who was winning after every round, and each player's
costliest decisions (what was done, what the search preferred, what it cost in win chance).

Every decision is judged from the deciding seat's view at that moment (the hidden deck is
sampled, never read), by playing what was done and the search's plans forward on the same
sampled games. The samples are seeded from ``seed`` and the decision's place in the game, so
an analysis replays exactly.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..i18n import LANGUAGES, translator
from ..rules import Action, GameConfig, GameState, default_power, new_game, parse_action
from ..rules.phase import AUCTION, BUILD, BUREAUCRACY
from ..rules.phase import RESOURCES as RESOURCES_PHASE
from .hint import HINT_LEVELS, PlanWords
from .plans import Plan, Tally, compare, turn_plans
from .winchance import named, win_chances

#: called as progress(decisions judged, decisions to judge)
Progress = Callable[[int, int], None]
FORMAT = "powergrid.analysis"
VERSION = 1
#: the level of search an analysis uses unless told otherwise (the hint levels)
DEFAULT_LEVEL = "default"
#: a decision that gave away less win chance than this is not called costly
MIN_COST = 0.01


@dataclass(frozen=True)
class Decision:
    """One judged decision of one seat."""

    seat: int
    round: int
    phase: str
    #: the number of actions before it in the game's log (where it happened)
    at: int
    done: str
    preferred: str
    chance_done: float
    chance_preferred: float
    #: standard error of the paired difference between the two (the samples' noise)
    noise: float = 0.0
    #: ``done`` and ``preferred`` in the other languages: {lang: (done, preferred)}
    words: dict[str, tuple[str, str]] = field(default_factory=dict)

    @property
    def cost(self) -> float:
        """Chance to win given away (0 when what was done was the search's choice)."""
        return max(0.0, self.chance_preferred - self.chance_done)

    @property
    def clear(self) -> bool:
        """Whether the cost is worth telling: at least a point of win chance, and more than twice
        its sampling error."""
        return self.cost >= MIN_COST and self.cost > 2.0 * self.noise

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "round": self.round, "phase": self.phase, "at": self.at,
                "done": self.done, "preferred": self.preferred,
                "chance_done": round(self.chance_done, 4),
                "chance_preferred": round(self.chance_preferred, 4), "cost": round(self.cost, 4),
                "noise": round(self.noise, 4),
                **({"words": {lang: list(w) for lang, w in self.words.items()}} if self.words else {})}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Decision:
        words = {str(lang): (str(w[0]), str(w[1])) for lang, w in (d.get("words") or {}).items()}
        return cls(int(d["seat"]), int(d["round"]), str(d["phase"]), int(d["at"]), str(d["done"]),
                   str(d["preferred"]), float(d["chance_done"]), float(d["chance_preferred"]),
                   float(d.get("noise", 0.0)), words)


@dataclass
class Analysis:
    players: int
    #: (round, each seat's chance to win at its start); the last entry is the final result
    chances: list[tuple[int, list[float]]] = field(default_factory=list)
    #: every judged decision, in game order
    decisions: list[Decision] = field(default_factory=list)
    winners: tuple[int, ...] = ()
    seed: int = 0
    level: str = DEFAULT_LEVEL

    def costliest(self, seat: int, count: int = 3) -> list[Decision]:
        """The seat's decisions that gave away the most win chance, counting only costs that
        stand out from the sampling noise."""
        mine = [d for d in self.decisions if d.seat == seat and d.clear]
        return sorted(mine, key=lambda d: (-d.cost, d.at))[:count]

    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, "players": self.players, "seed": self.seed,
                "level": self.level, "winners": list(self.winners),
                "chances": [{"round": r, "chances": [round(c, 4) for c in cs]} for r, cs in self.chances],
                "decisions": [d.to_dict() for d in self.decisions],
                "costliest": {str(p): [d.to_dict() for d in self.costliest(p)] for p in range(self.players)}}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Analysis:
        if data.get("format") != FORMAT or data.get("version") != VERSION:
            raise ValueError("not a game analysis of this version")
        return cls(int(data["players"]),
                   [(int(e["round"]), [float(c) for c in e["chances"]]) for e in data["chances"]],
                   [Decision.from_dict(d) for d in data["decisions"]], tuple(data["winners"]),
                   int(data["seed"]), str(data["level"]))


@dataclass
class _Turn:
    """A seat's run of decisions that one plan covers (an auction, a purchase, a build turn...)."""

    seat: int
    at: int
    start: GameState
    actions: list[Action]


def _turn_key(s: GameState, seat: int, auctions: int) -> tuple[Any, ...]:
    if s.phase == AUCTION:
        if s.discard_seat >= 0:
            return (seat, "discard", s.decisions)
        return (seat, "auction", s.round, auctions + (0 if s.auc_plant else 1))
    return (seat, s.phase, s.round)


def split_turns(config: GameConfig, actions: Sequence[Action | str],
                players: Sequence[str | None] | None = None, with_chances: bool = True,
                ) -> tuple[list[_Turn], list[tuple[int, list[float]]], GameState]:
    """Replay the game: every seat's turns, the win chances at each round's start (``players``:
    the bot in each seat where known, None for a person; none without ``with_chances``), the end."""
    state = new_game(config)
    turns: list[_Turn] = []
    open_turns: dict[tuple[Any, ...], _Turn] = {}
    chances: list[tuple[int, list[float]]] = []
    last_round = 0
    auctions = 0
    for i, item in enumerate(actions):
        action = parse_action(item) if isinstance(item, str) else item
        if state.round != last_round:
            last_round = state.round
            if with_chances:
                chances.append((state.round, [round(c, 4) for c in win_chances(state, players)]))
        seat = state.current_player
        if seat is None:
            raise ValueError("the record has actions after the end of the game")
        key = _turn_key(state, seat, auctions)
        turn = open_turns.get(key)
        if turn is None:
            turn = open_turns[key] = _Turn(seat, i, state.clone(), [])
            turns.append(turn)
        turn.actions.append(action)
        if action.kind == "open":
            auctions += 1
        state.apply(action)
    if with_chances and (state.is_over or state.round != last_round):
        chances.append((state.round, [round(c, 4) for c in win_chances(state, players)]))
    return turns, chances, state


def plan_of(turn: _Turn) -> Plan:
    """What the seat did in this turn, as a plan the search can play forward."""
    s, first = turn.start, turn.actions[0]
    if s.phase == AUCTION and s.discard_seat < 0:
        if first.kind == "pass":
            return ("pass",)
        plant = first.plant if first.kind == "open" else s.auc_plant
        top = max(a.amount for a in turn.actions if a.kind in ("open", "bid"))
        return ("limit", plant, top)
    if s.phase in (RESOURCES_PHASE, BUILD):
        return ("seq", tuple(turn.actions))
    return ("action", first)


def _worth_judging(turn: _Turn) -> bool:
    s = turn.start
    if len(s.legal_actions()) == 1:
        return False
    if s.phase == BUREAUCRACY:
        return turn.actions[0] != default_power(s, turn.seat)
    return True


def analyse(config: GameConfig, actions: Sequence[Action | str], seed: int = 0,
            level: str = DEFAULT_LEVEL, progress: Progress | None = None,
            budget: int | None = None, players: Sequence[str | None] | None = None) -> Analysis:
    """Analyse a game from its config and action log (finished or not). ``budget``: forward-model
    calls per decision, instead of the level's; ``players``: the bot in each seat where known
    (None for a person), so that the chances by round weigh who is playing.

    :raises ValueError: unknown level, ``players`` of another length; :class:`powergrid.IllegalAction`
        and friends when the log does not replay.
    """
    analyser = Analyser(config, actions, seed, level, budget, players=players)
    decisions: list[Decision] = []
    for n in range(analyser.total):
        if progress is not None:
            progress(n, analyser.total)
        decisions.append(analyser.judge(n))
    if progress is not None:
        progress(analyser.total, analyser.total)
    return analyser.result(decisions)


class Analyser:
    """An analysis done a decision at a time (a server worker does a few per job, so a long
    analysis never holds a worker for long): ``judge(n)`` for n in ``range(total)``, then
    ``result(decisions)``. The same as :func:`analyse`."""

    def __init__(self, config: GameConfig, actions: Sequence[Action | str], seed: int = 0,
                 level: str = DEFAULT_LEVEL, budget: int | None = None, min_samples: int = 4,
                 horizon: int | None = None, players: Sequence[str | None] | None = None) -> None:
        if level not in HINT_LEVELS:
            raise ValueError(f"no analysis level {level!r}; levels: {', '.join(HINT_LEVELS)}")
        settings = HINT_LEVELS[level]
        self.seed = seed
        self.level = level
        self.budget = settings.budget if budget is None else budget
        self.horizon = settings.horizon if horizon is None else horizon
        self.min_samples = min_samples
        if players is not None and len(players) != config.players:
            raise ValueError(f"players names {len(players)} seats; the game has {config.players}")
        self.players = named(players)
        # the chances are taken only for the result: the server builds an analyser for every
        # few seconds of decisions it judges, and with small searches' play-outs (tables with
        # `expert` bots, docs/coach.md) a game's chances cost seconds
        turns, _, self.final = split_turns(config, actions, self.players, with_chances=False)
        self._game = (config, list(actions))
        self._chances: list[tuple[int, list[float]]] | None = None
        self.turns = [t for t in turns if _worth_judging(t)]

    @property
    def chances(self) -> list[tuple[int, list[float]]]:
        """The win chances at each round's start (taken once, when first asked)."""
        if self._chances is None:
            _, self._chances, _ = split_turns(*self._game, self.players)
        return self._chances

    @property
    def total(self) -> int:
        """How many decisions are judged."""
        return len(self.turns)

    def judge(self, n: int) -> Decision:
        return _judge(self.turns[n], self.seed, self.budget, self.horizon, self.min_samples, self.players)

    def result(self, decisions: Sequence[Decision]) -> Analysis:
        final = self.final
        return Analysis(final.players, list(self.chances), list(decisions),
                        tuple(final.winners) if final.is_over else (), self.seed, self.level)


def _judge(turn: _Turn, seed: int, budget: int, horizon: int, min_samples: int = 4,
           players: Sequence[str | None] | None = None) -> Decision:
    seat = turn.seat
    view = turn.start.view(seat)
    legal = view.legal_actions()
    done = plan_of(turn)
    plans = turn_plans(view, seat, legal)
    if done not in plans:
        plans.append(done)
    rng = random.Random(f"{seed}:{turn.at}")
    tallies = compare(view, seat, plans, rng, budget, horizon, min_samples=min_samples, rank_by="chance",
                      players=players)
    best = tallies[0]
    mine = next(t for t in tallies if t.plan == done)
    said: dict[str, tuple[str, str]] = {}
    words = PlanWords(view, seat, random.Random(f"{seed}:{turn.at}:words"))
    for lang in LANGUAGES:  # English first: the same words as with English alone
        words.tr = translator(lang)
        said[lang] = (_done_words(turn, words, done), words.plan(best.plan))
    english = said.pop("en")
    return Decision(seat, view.round, view.phase_name, turn.at, english[0], english[1],
                    round(mine.win_chance, 4), round(best.win_chance, 4),
                    round(_paired_error(best, mine), 4), said)


def in_language(data: dict[str, Any], lang: str) -> dict[str, Any]:
    """An analysis's JSON (``Analysis.to_dict``) with each decision's words in ``lang`` where it
    has them (English otherwise), and no other language's words."""

    def one(d: dict[str, Any]) -> dict[str, Any]:
        out = {k: v for k, v in d.items() if k != "words"}
        found = (d.get("words") or {}).get(lang)
        if found:
            out["done"], out["preferred"] = found
        return out

    out = dict(data)
    out["decisions"] = [one(d) for d in data.get("decisions", [])]
    out["costliest"] = {seat: [one(d) for d in ds] for seat, ds in data.get("costliest", {}).items()}
    return out


def _paired_error(best: Tally, mine: Tally) -> float:
    """Standard error of the mean of the per-sample differences (both played on the same samples)."""
    diffs = [b - m for b, m in zip(best.chances, mine.chances, strict=True)]
    n = len(diffs)
    if n < 2:
        return 0.0
    mean = sum(diffs) / n
    return math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)


def _done_words(turn: _Turn, words: PlanWords, done: Plan) -> str:
    if done[0] == "seq" and turn.start.phase == BUILD:
        cities = [a.city for a in turn.actions if a.kind == "build"]
        if not cities:
            return words.tr.gettext("built nothing")
        return words.tr.gettext("built {list}", list=", ".join(cities))
    return words.plan(done)


__all__ = ["Analyser", "Analysis", "Decision", "analyse", "in_language", "split_turns", "plan_of"]
