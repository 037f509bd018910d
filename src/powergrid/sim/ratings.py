"""Ratings of bots from tables of any size, fitted by maximum likelihood.

The model is Bradley-Terry's, extended to tables of more than two (Plackett-Luce): a bot of
rating ``r`` has weight ``exp(r)``, and its chance to win a game is its weight over the sum of
the weights at the table; the second place is then won the same way among the others, and so on
(:func:`tables_of`). A shared win counts ``1/n`` to each winner. A
mild normal prior (standard deviation 3) keeps a bot that never (or always) wins finite. The
first bot given is fixed at 0 unless ``anchor`` names another; ratings are also shown on the
Elo scale (``400 / ln 10`` per unit, so 0 is 1500). Intervals come from resampling the games.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .game import GameResult
from .stats import standing

ELO_PER_UNIT = 400.0 / math.log(10.0)
#: a table: the bot in each seat and each seat's share of the win
Table = tuple[tuple[str, ...], tuple[float, ...]]


@dataclass(frozen=True)
class Rating:
    bot: str
    rating: float
    low: float
    high: float
    #: tables it sat at (with places counted, a game gives one table per place decided)
    games: int

    @property
    def elo(self) -> float:
        return 1500.0 + ELO_PER_UNIT * self.rating


def tables_of(results: Sequence[GameResult], places: bool = True) -> list[Table]:
    """The games as tables to fit. With ``places`` every place counts, not only the first (the
    full Plackett-Luce ranking): after the winner, the second is the "winner" among the seats
    left, and so on, by the game's own order (``stats.standing``: winner, powered cities,
    money, cities), so a bot that never wins is still told apart from one that comes second."""
    out = []
    for r in results:
        if not (r.ok and r.winners):
            continue
        share = tuple(1.0 / len(r.winners) if s.seat in r.winners else 0.0 for s in r.seats)
        out.append((tuple(s.spec for s in r.seats), share))
        if not places:
            continue
        order = sorted((s.seat for s in r.seats if s.seat not in r.winners),
                       key=lambda seat: standing(r, seat), reverse=True)
        for k in range(len(order) - 1):
            left = order[k:]
            out.append((tuple(r.seats[seat].spec for seat in left), (1.0,) + (0.0,) * (len(left) - 1)))
    return out


def _arrays(tables: Sequence[Table], index: dict[str, int]) -> tuple[np.ndarray, np.ndarray]:
    seats = max(len(t[0]) for t in tables)
    onehot = np.zeros((len(tables), seats, len(index)))
    share = np.zeros((len(tables), seats))
    for g, (bots, won) in enumerate(tables):
        for s, (b, y) in enumerate(zip(bots, won, strict=True)):
            onehot[g, s, index[b]] = 1.0
            share[g, s] = y
    return onehot, share


def fit(tables: Sequence[Table], bots: Sequence[str], anchor: str | None = None,
        prior_sd: float = 3.0, steps: int = 100) -> dict[str, float]:
    """Maximum a-posteriori ratings (Newton's method on the log-likelihood)."""
    index = {b: i for i, b in enumerate(bots)}
    if not tables:
        return dict.fromkeys(bots, 0.0)
    onehot, share = _arrays(tables, index)
    return _fit(onehot, share, index[anchor] if anchor is not None else 0, prior_sd, steps, bots)


def _fit(onehot: np.ndarray, share: np.ndarray, fixed: int, prior_sd: float, steps: int,
         bots: Sequence[str], start: np.ndarray | None = None) -> dict[str, float]:
    k = onehot.shape[2]
    seated = onehot.sum(axis=2) > 0
    won = share.sum(axis=1)
    r = np.zeros(k) if start is None else start.copy()
    for _ in range(steps):
        s = np.where(seated, onehot @ r, -np.inf)
        p = np.exp(s - s.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        grad = np.einsum("gs,gsk->k", share - won[:, None] * p, onehot) - r / prior_sd ** 2
        per_bot = np.einsum("gs,gsk->gk", p, onehot)
        hess = (np.diag(np.einsum("g,gk->k", won, per_bot))
                - np.einsum("g,gk,gl->kl", won, per_bot, per_bot) + np.eye(k) / prior_sd ** 2)
        step = np.linalg.solve(hess, grad)
        r = r + step
        r -= r[fixed]
        if np.abs(step).max() < 1e-7:
            break
    return {b: float(v) for b, v in zip(bots, r, strict=True)}


def ratings(tables: Sequence[Table], bots: Sequence[str] | None = None, anchor: str | None = None,
            resamples: int = 200, seed: int = 0) -> list[Rating]:
    """Each bot's rating with a 95% interval (percentiles of ``resamples`` fits on games drawn
    with replacement), best first. Deterministic given ``seed``."""
    names = list(bots) if bots is not None else list(dict.fromkeys(b for seats, _ in tables for b in seats))
    index = {b: i for i, b in enumerate(names)}
    fixed = index[anchor] if anchor is not None else 0
    best = fit(tables, names, anchor)
    rng = np.random.default_rng(seed)
    draws: dict[str, list[float]] = {b: [] for b in names}
    if tables:
        onehot, share = _arrays(tables, index)
        for _ in range(resamples):
            pick = rng.integers(0, len(tables), len(tables))
            start = np.array([best[b] for b in names])
            for b, v in _fit(onehot[pick], share[pick], fixed, 3.0, 20, names, start).items():
                draws[b].append(v)
    games = {b: sum(1 for seats, _ in tables if b in seats) for b in names}
    out = []
    for b in names:
        d = sorted(draws[b])
        low = d[int(0.025 * (len(d) - 1))] if d else math.nan
        high = d[int(0.975 * (len(d) - 1))] if d else math.nan
        out.append(Rating(b, best[b], low, high, games[b]))
    return sorted(out, key=lambda x: -x.rating)
