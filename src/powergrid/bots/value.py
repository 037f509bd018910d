"""The learned evaluator: each seat's chance to win from a position, by a small network.

A seat's score is a two-layer network of its public features (its cities, plants, fuel, money,
income, what it could build now...), of the same features less the best rival's, and of a few
facts of the game (round, step, phase, players); the chances are the softmax of the scores over
the seats, so they sum to 1 whatever the player count. Where the players' strengths are known
(the bots' ratings, in the same natural-log units: ``exp(rating)`` is a player's weight in a
table), each seat's rating, scaled by a learned factor that fades as the game goes on, is added
to its score: a position alone cannot tell who is the better player. Nor how far a lead holds:
between strong players a leader is caught more often than between heuristic bots, so each known
player also has a softness, which may change as the game goes on and differ at a two-player table
(two `expert` bots catch each other's leads far more often than three or four do), and the scores
of a table are divided by ``exp`` of its players' mean softness (``heuristic``, people and unknown
names: 0). And a known bot may turn a position into a win its own way late in the game (between
`expert` bots, money and cities count for more at the end than the capacity and fuel the network
learned to value from heuristic games): its style, weights on its seat's lead over the best rival
in each feature, growing with the game's progress, added to its score.

The coach's chances (``chances``, ``win_chances``) also weigh play-outs of the position
(``playouts``): each seat's score is blended with the log of its share of the games bots play on
from it, with weights per bot that change with the game's progress (``blend``). The network reads
what a position looks like; a play-out plays its end, which the network misjudges most. The
play-outs are the heuristic's, except late in a game at a table with searches (``expert``), whose
seats are then played by a small search of their own (``search_playout_budget``): searches end a
game otherwise than the heuristic does, and such play-outs have weights of their own
(``search_weights``). The search never reads the blend (it scores its leaves with
``table_chances``).

Only public facts are read (a :class:`~powergrid.rules.GameView` gives the same features as the
state it shows). Inference is numpy alone; the weights (``value_model.json``) are fitted by
``benchmarks/train_evaluator.py`` from a seed.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

# The evaluator's matrices are tiny: BLAS threads buy nothing, oversubscribe the cores of bot
# workers and tournaments, and kept a bot worker that got a storm of SIGTERMs from exiting
# (tests/server/test_bot_workers.py). Unless the user chose otherwise, numpy's BLAS gets one thread.
for _threads in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_threads, "1")

import numpy as np  # noqa: E402

from ..rules.phase import AUCTION, BUILD, BUREAUCRACY, RESOURCES  # noqa: E402
from . import heuristic  # noqa: E402
from .names import canonical  # noqa: E402
from .playouts import playout_shares, searches  # noqa: E402

#: the per-seat facts, in order (each also given less the best rival's)
SEAT_FEATURES = ("cities", "powered_last", "capacity", "money", "fuel_cities", "income",
                 "portfolio", "late_in_order", "outlook", "plants", "affordable", "fuel_units")
#: facts of the whole game, the same for every seat
GAME_FEATURES = ("progress", "round", "step2", "step3", "auction", "resources", "build",
                 "bureaucracy", "players")
FEATURES = (SEAT_FEATURES + tuple(f"{n}-rival" for n in SEAT_FEATURES) + GAME_FEATURES)
#: where the seat-less-best-rival features are (a bot's style weighs them)
RIVAL = slice(len(SEAT_FEATURES), 2 * len(SEAT_FEATURES))
MODEL_FILE = "value_model.json"


def progress(s: Any) -> float:
    """How near the end the game is: the leader's cities over the end-game count (0..1)."""
    end: int = s.scn.end_cities
    return min(1.0, max(len(c) for c in s.cities) / end)


def _seat_row(s: Any, seat: int) -> list[float]:
    scn = s.scn
    end = scn.end_cities
    cities = len(s.cities[seat])
    plants = s.plants[seat]
    capacity = sum(scn.plant_cities[p] for p in plants)
    fuel_cities = heuristic.fuel_capacity(s, seat)
    look = heuristic.Outlook(s, seat)
    look.ambition = end
    portfolio = look.portfolio(plants)
    held = s.resources_of(seat)
    fuel = sum(n * look.unit[r] for r, n in enumerate(held))
    money = s.money[seat]
    players = len(s.money)
    can, _ = heuristic.affordable_cities(s, seat, money, end - cities) if cities < end else (0, 0)
    outlook = money + 12.0 * cities + 8.0 * min(cities, capacity) + 0.5 * portfolio + fuel
    return [
        cities / end,
        s.powered[seat] / end,
        min(capacity, end) / end,
        money / 100.0,
        min(fuel_cities, end) / end,
        scn.catalog.pay(min(cities, fuel_cities)) / 100.0,
        portfolio / 100.0,
        s.order.index(seat) / (players - 1) if players > 1 else 0.0,
        outlook / 100.0,
        len(plants) / scn.rules.max_plants,
        can / end,
        sum(held) / 20.0,
    ]


def table_features(s: Any) -> np.ndarray:
    """Every seat's features (players × len(FEATURES)) from a GameState or a view."""
    players = len(s.money)
    base = np.array([_seat_row(s, j) for j in range(players)])
    rival = np.empty_like(base)
    for j in range(players):
        others = np.delete(base, j, axis=0)
        rival[j] = base[j] - others.max(axis=0)
    phase = s.phase
    game = [progress(s), s.round / 20.0, float(s.step == 2), float(s.step == 3),
            float(phase == AUCTION), float(phase == RESOURCES), float(phase == BUILD),
            float(phase == BUREAUCRACY), players / 6.0]
    return np.hstack([base, rival, np.tile(game, (players, 1))])


def _relu(x: np.ndarray) -> np.ndarray:
    out: np.ndarray = np.maximum(x, 0.0)
    return out


@dataclass(frozen=True)
class ValueModel:
    """A fitted evaluator: input scaling, a two-layer network with a linear skip, and the
    rating factor ``skill + skill_fade * progress``."""

    mean: np.ndarray
    scale: np.ndarray
    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    w3: np.ndarray
    skip: np.ndarray
    skill: float
    skill_fade: float
    #: bot ratings (natural-log units, ``heuristic`` = 0) fitted on the training games
    ratings: dict[str, float]
    #: what it was trained and tested on
    about: dict[str, Any]
    #: the scores are divided by it (fitted after the network on held-out training games)
    temperature: float = 1.0
    #: bot softness at the start of a game: a table's scores are divided by ``exp`` of its
    #: players' mean softness
    softness: dict[str, float] = field(default_factory=dict)
    #: how much each bot's softness changes by the end (``progress`` 1); absent: 0
    softness_fade: dict[str, float] = field(default_factory=dict)
    #: how much softer each bot is at a two-player table; absent: 0
    softness_pair: dict[str, float] = field(default_factory=dict)
    #: each bot's style: weights on the (scaled) rival features, times ``progress``; absent: 0
    style: dict[str, list[float]] = field(default_factory=dict)
    #: the coach's blend with heuristic play-outs (``chances``): play-outs per position, 0: none
    playout_games: int = 0
    #: what the evaluator's own chance is worth in play-outs: a seat's share is taken as
    #: ``(games * share + prior * chance) / (games + prior)`` before its log (a seat that won no
    #: play-out keeps a chance; a share of a few games is noisy)
    playout_prior: float = 2.0
    #: per bot, the blend's weights: the evaluator's score's at the start and its change by the end
    #: (``progress`` 1), the log play-out share's at the start and its change, and (where given) a
    #: clean sweep's; a table is weighed by its players' mean (people and unknown names: the
    #: heuristic's)
    playout_weights: dict[str, list[float]] = field(default_factory=dict)
    #: calls a search of the small searches that play the seats of searches in a play-out
    #: (``playouts.SEARCH_KINDS``) from ``search_playout_from`` on; 0: the heuristic plays them
    search_playout_budget: int = 0
    #: the game's ``progress`` from which a table with searches is played out by small searches
    search_playout_from: float = 1.0
    #: the blend's weights (as ``playout_weights``) where small searches played the play-outs
    search_weights: dict[str, list[float]] = field(default_factory=dict)

    def scores(self, x: np.ndarray, ratings: np.ndarray | None = None,
               progress_now: float | None = None, soft: float = 0.0,
               soft_fade: float = 0.0, styles: np.ndarray | None = None) -> np.ndarray:
        """Seat scores from a (players × features) table (softmax of them: the chances);
        ``soft`` is the table's mean softness at the start and ``soft_fade`` its change by the
        end (both 0 where the players are not known); ``styles`` each seat's style (players ×
        the seat features), where known."""
        z = (x - self.mean) / self.scale
        h = _relu(_relu(z @ self.w1 + self.b1) @ self.w2 + self.b2)
        out: np.ndarray = h @ self.w3 + z @ self.skip
        t = float(x[0, FEATURES.index("progress")]) if progress_now is None else progress_now
        if ratings is not None:
            out = out + (self.skill + self.skill_fade * t) * ratings
        if styles is not None:
            out = out + t * (z[:, RIVAL] * styles).sum(axis=1)
        return out / (self.temperature * float(np.exp(soft + soft_fade * t)))

    def table_chances(self, x: np.ndarray, ratings: np.ndarray | None = None,
                      soft: float = 0.0, soft_fade: float = 0.0,
                      styles: np.ndarray | None = None) -> np.ndarray:
        scores = self.scores(x, ratings, soft=soft, soft_fade=soft_fade, styles=styles)
        e = np.exp(scores - scores.max())
        result: np.ndarray = e / e.sum()
        return result

    def chances(self, s: Any, players: Sequence[str | None] | None = None,
                playouts: bool = True) -> list[float]:
        """Each seat's chance to win, summing to 1; ``players`` names the bot in each seat
        where known (None or an unknown name: rated as the heuristic). With ``playouts`` (and a
        model that has the blend) the evaluator's scores are blended with the seats' shares of
        play-outs of the position (``blend``; ``searched_playouts`` says who plays them). A
        finished game gives its result."""
        if s.is_over:
            winners = s.winners
            return [1.0 / len(winners) if j in winners else 0.0 for j in range(len(s.money))]
        x = table_features(s)
        if players is None:
            scores = self.scores(x)
        else:
            ratings, soft, soft_fade, styles = self.weighing(players)
            scores = self.scores(x, ratings, None, soft, soft_fade, styles)
        if playouts and self.playout_games:
            seats = list(players) if players is not None else [None] * len(s.money)
            searched = self.searched_playouts(s, seats)
            shares = playout_shares(s, self.playout_games, seats,
                                    self.search_playout_budget if searched else 0)
            scores = self.blend(scores, shares, progress(s), self.blend_weights(seats, searched))
        e = np.exp(scores - scores.max())
        return [float(c) for c in e / e.sum()]

    def blend(self, scores: np.ndarray, shares: np.ndarray, progress_now: float,
              weights: np.ndarray) -> np.ndarray:
        """The evaluator's seat scores blended with the seats' play-out shares: ``(a + a' t) *
        score + (b + b' t) * log(smoothed share) + c * swept``, ``t`` the progress, ``weights`` =
        (a, a', b, b'[, c]), the share smoothed toward the scores' own chance (``playout_prior``),
        ``swept`` 1 for a seat that won every play-out alone. A clean sweep by small searches
        says more than its share: split play-outs of a search's end game are nearly a coin toss,
        a sweep is nearly sure (docs/coach.md)."""
        a, a_fade, b, b_fade, sweep = _five(weights)
        out: np.ndarray = ((a + a_fade * progress_now) * scores
                           + (b + b_fade * progress_now) * np.log(self.smoothed(shares, scores)))
        if sweep:
            out = out + sweep * (shares >= 1.0 - 1e-9)
        return out

    def smoothed(self, shares: np.ndarray, scores: np.ndarray) -> np.ndarray:
        """Play-out shares with the chances of ``scores`` (softmax) counted as ``playout_prior``
        more play-outs."""
        e = np.exp(scores - scores.max(axis=-1, keepdims=True))
        chance = e / e.sum(axis=-1, keepdims=True)
        games, prior = self.playout_games, self.playout_prior
        out: np.ndarray = (games * shares + prior * chance) / (games + prior)
        return out

    def searched_playouts(self, s: Any, players: Sequence[str | None]) -> bool:
        """Whether ``chances`` gives the searches' seats to small searches in its play-outs here:
        a model with them, a table with a search, from ``search_playout_from`` on. Earlier a
        small search's play-out of the whole game costs seconds and tells little more (between
        searches the early rounds hold little for anyone, docs/coach.md)."""
        return (self.search_playout_budget > 0 and progress(s) >= self.search_playout_from
                and any(searches(players)))

    def blend_weights(self, players: Sequence[str | None], searched: bool = False) -> np.ndarray:
        """A table's blend weights: its players' mean (people and unknown names weigh as the
        heuristic; a model without the heuristic's entry: the evaluator alone), from
        ``search_weights`` where small searches played the play-outs."""
        table = self.search_weights if searched else self.playout_weights
        none = _five(table.get("heuristic", (1.0, 0.0, 0.0, 0.0)))
        arrays = {name: _five(w) for name, w in table.items()}
        found: np.ndarray = np.mean([_known(arrays, p, none) for p in players], axis=0)
        return found

    def weighing(self, players: Sequence[str | None]) -> tuple[np.ndarray, float, float, np.ndarray]:
        """What ``chances`` weighs a table of these players by: their ratings, their mean softness
        at the start (at this many players), its mean change by the end, and their styles."""
        ratings = np.array([self.rating(p) for p in players])
        pair = len(players) == 2
        soft = sum(self.soft(p) + (self.soft_pair(p) if pair else 0.0) for p in players)
        styles = np.array([self.style_of(p) for p in players])
        return (ratings, soft / len(players), sum(self.soft_fade(p) for p in players) / len(players),
                styles)

    def rating(self, player: str | None) -> float:
        """A bot's rating: its own, else the mean of its kind's rated levels, else 0 (the
        heuristic's; also for people and unknown names)."""
        return float(_known(self.ratings, player))

    def soft(self, player: str | None) -> float:
        """A bot's softness at the start, looked up as its rating is (0 for people and unknown
        names)."""
        return float(_known(self.softness, player))

    def soft_fade(self, player: str | None) -> float:
        """How much a bot's softness changes by the end of a game, looked up the same way."""
        return float(_known(self.softness_fade, player))

    def soft_pair(self, player: str | None) -> float:
        """How much softer a bot is at a two-player table, looked up the same way."""
        return float(_known(self.softness_pair, player))

    def style_of(self, player: str | None) -> np.ndarray:
        """A bot's style, looked up as its rating is (none: zeros)."""
        arrays = {name: np.asarray(w, dtype=float) for name, w in self.style.items()}
        found: np.ndarray = np.array(_known(arrays, player, np.zeros(len(SEAT_FEATURES))))
        return found

    def to_dict(self) -> dict[str, Any]:
        def arr(a: np.ndarray) -> Any:
            return np.round(a, 6).tolist()
        return {"features": list(FEATURES), "mean": arr(self.mean), "scale": arr(self.scale),
                "w1": arr(self.w1), "b1": arr(self.b1), "w2": arr(self.w2), "b2": arr(self.b2),
                "w3": arr(self.w3), "skip": arr(self.skip), "skill": self.skill,
                "skill_fade": self.skill_fade, "temperature": self.temperature, "ratings": self.ratings,
                "softness": self.softness, "softness_fade": self.softness_fade,
                "softness_pair": self.softness_pair, "style": self.style,
                "playout_games": self.playout_games, "playout_prior": self.playout_prior,
                "playout_weights": self.playout_weights,
                "search_playout_budget": self.search_playout_budget,
                "search_playout_from": self.search_playout_from, "search_weights": self.search_weights,
                "about": self.about}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ValueModel:
        if list(data.get("features", [])) != list(FEATURES):
            raise ValueError("the value model was fitted on other features; refit it with "
                             "benchmarks/train_evaluator.py")
        a = {k: np.array(data[k], dtype=float) for k in ("mean", "scale", "w1", "b1", "w2", "b2",
                                                          "w3", "skip")}
        return cls(a["mean"], a["scale"], a["w1"], a["b1"], a["w2"], a["b2"], a["w3"], a["skip"],
                   float(data["skill"]), float(data["skill_fade"]),
                   {str(k): float(v) for k, v in data.get("ratings", {}).items()},
                   dict(data.get("about", {})), float(data.get("temperature", 1.0)),
                   {str(k): float(v) for k, v in data.get("softness", {}).items()},
                   {str(k): float(v) for k, v in data.get("softness_fade", {}).items()},
                   {str(k): float(v) for k, v in data.get("softness_pair", {}).items()},
                   {str(k): [float(w) for w in v] for k, v in data.get("style", {}).items()},
                   int(data.get("playout_games", 0)), float(data.get("playout_prior", 2.0)),
                   {str(k): [float(w) for w in v] for k, v in data.get("playout_weights", {}).items()},
                   int(data.get("search_playout_budget", 0)), float(data.get("search_playout_from", 1.0)),
                   {str(k): [float(w) for w in v] for k, v in data.get("search_weights", {}).items()})


def _five(weights: Sequence[float] | np.ndarray) -> np.ndarray:
    """Blend weights as five (a, a', b, b', sweep): a file's four-weight entries sweep 0."""
    out = np.zeros(5)
    out[:len(weights)] = weights
    return out


def _known(table: dict[str, Any], player: str | None, none: Any = 0.0) -> Any:
    """A bot's entry (a number, or an array for a style): its own, else the mean of its kind's
    levels' entries, else ``none``."""
    if player is None:
        return none
    player = canonical(player)
    if player in table:
        return table[player]
    kind = player.partition(":")[0]
    same = [r for name, r in table.items() if name.partition(":")[0] == kind]
    return sum(same) / len(same) if same else none


@lru_cache(maxsize=1)
def value_model() -> ValueModel:
    """The evaluator shipped with the package."""
    text = resources.files(__package__).joinpath(MODEL_FILE).read_text(encoding="utf-8")
    return ValueModel.from_dict(json.loads(text))


def win_chances(s: Any, players: Sequence[str | None] | None = None) -> list[float]:
    """Each seat's chance to win from this position (a GameState or a view), by the shipped
    evaluator; ``players`` (the bot name per seat, where known) adds their ratings."""
    return value_model().chances(s, players)
