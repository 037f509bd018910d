"""An opponent pool for self-play against past policies (a small league).

    pool = OpponentPool(["heuristic", "random"], seed=0)
    pool.add("policy-100k", PolicyBot(choose_snapshot, players=4, cities=codec.cities, bids="compact"))
    names = pool.assign(env)              # opponents for the next reset, one per other seat
    obs, info = env.reset()
    ...                                   # play the episode
    pool.record(names, won=reward > 0)    # their results against the learner

Entries are bot names (``make_bot``), ready :class:`~powergrid.bots.Bot` objects (a frozen
policy as a :class:`~powergrid.rl.PolicyBot`) or factories ``seed -> Bot``. Draws are uniform,
or with ``prioritise="hard"`` weighted towards the entries the learner beats least
(prioritised fictitious self-play: weight ``(1 - learner's win rate) ** power``, plus a
floor so that no entry is forgotten). Fixed entries stay; added ones beyond ``capacity`` push
out the oldest added one.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..bots import Bot, make_bot

Entry = str | Bot | Callable[[int], Bot]
PRIORITIES = ("uniform", "hard")


@dataclass
class Record:
    """The learner's results against one entry."""

    games: int = 0
    learner_wins: float = 0.0

    @property
    def learner_win_rate(self) -> float:
        """The learner's win rate against it, 0.5 before any game (an even prior)."""
        return (self.learner_wins + 0.5) / (self.games + 1)


class OpponentPool:
    def __init__(self, fixed: list[Entry] | tuple[Entry, ...] = ("heuristic",), *, capacity: int = 10,
                 prioritise: str = "uniform", power: float = 2.0, floor: float = 0.05, seed: int = 0) -> None:
        if prioritise not in PRIORITIES:
            raise ValueError(f"prioritise must be one of {PRIORITIES}, not {prioritise!r}")
        if capacity < 0:
            raise ValueError(f"capacity must be at least 0, not {capacity}")
        self.capacity, self.prioritise, self.power, self.floor = capacity, prioritise, power, floor
        self._rng = random.Random(seed)
        self.entries: dict[str, Entry] = {}
        self.fixed: list[str] = []
        self.added: list[str] = []
        self.records: dict[str, Record] = {}
        for entry in fixed:
            name = entry if isinstance(entry, str) else getattr(entry, "name", repr(entry))
            self._put(name, entry)
            self.fixed.append(name)
        if not self.entries:
            raise ValueError("an opponent pool needs at least one fixed entry")

    def _put(self, name: str, entry: Entry) -> None:
        if name in self.entries:
            raise ValueError(f"the pool already has an entry named {name!r}")
        if isinstance(entry, str):
            make_bot(entry, 0)  # an unknown name fails now
        elif not isinstance(entry, Bot) and not callable(entry):
            raise ValueError(f"an entry is a bot name, a Bot or a factory seed -> Bot, not {entry!r}")
        self.entries[name] = entry
        self.records[name] = Record()

    def add(self, name: str, entry: Entry) -> None:
        """Add a snapshot (pushing out the oldest added one past ``capacity``)."""
        self._put(name, entry)
        self.added.append(name)
        while len(self.added) > self.capacity:
            old = self.added.pop(0)
            del self.entries[old]
            del self.records[old]

    def weights(self) -> dict[str, float]:
        """Each entry's chance of being drawn for a seat."""
        names = list(self.entries)
        if self.prioritise == "uniform":
            raw = [1.0] * len(names)
        else:
            raw = [max(self.floor, (1.0 - self.records[n].learner_win_rate) ** self.power) for n in names]
        total = sum(raw)
        return {n: w / total for n, w in zip(names, raw, strict=True)}

    def draw(self, seats: int) -> list[str]:
        """Names of the entries for ``seats`` seats (drawn independently, with replacement)."""
        weights = self.weights()
        return self._rng.choices(list(weights), weights=list(weights.values()), k=seats)

    def bot(self, name: str, seed: int) -> Bot | str:
        """What an environment takes for the entry: a name, a Bot, or the factory's Bot."""
        entry = self.entries[name]
        if isinstance(entry, (str, Bot)):
            return entry
        return entry(seed)

    def assign(self, env: Any) -> list[str]:
        """Draw opponents for every other seat of ``env`` (a ``SingleAgentEnv``, also wrapped,
        or a ``vector_env``) for its next games; returns their names for :meth:`record`."""
        target = getattr(env, "unwrapped", env)
        seats = int(target.players if hasattr(target, "players") else target.config.players) - 1
        names = self.draw(seats)
        target.set_opponents([self.bot(n, self._rng.getrandbits(31)) for n in names])
        return names

    def record(self, names: list[str] | str, won: float | bool) -> None:
        """The learner's result (1 win, 0 loss, a fraction for a shared win) against the named
        entries of one game; entries pushed out meanwhile are skipped."""
        for name in [names] if isinstance(names, str) else names:
            record = self.records.get(name)
            if record is not None:
                record.games += 1
                record.learner_wins += float(won)
