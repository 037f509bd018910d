"""One game between bots: from a config, bot specs and seeds to a result record."""

from __future__ import annotations

import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..bots import Bot, make_bot
from ..rules import GameConfig, GameState, new_game
from .records import FORMAT, VERSION, Seat

#: Makes a bot from its spec and seed; the default is :func:`powergrid.bots.make_bot`.
#: Must be picklable (a module-level function) to travel to worker processes.
BotFactory = Callable[[str, int], Bot]

#: A game longer than this is stopped and reported as an error (a bot stuck in a loop).
MAX_DECISIONS = 100_000


@dataclass(frozen=True)
class GameSpec:
    """Everything that decides a bot game: ``index`` in its tournament, config, and who sits where."""

    index: int
    config: GameConfig
    seats: tuple[Seat, ...]


@dataclass
class GameResult:
    """What happened in one game. ``error`` is set (and the outcome fields empty) if it raised."""

    index: int
    config: GameConfig
    seats: tuple[Seat, ...]
    actions: list[str] = field(default_factory=list)
    winners: tuple[int, ...] = ()
    powered: list[int] = field(default_factory=list)
    money: list[int] = field(default_factory=list)
    cities: list[int] = field(default_factory=list)
    rounds: int = 0
    #: per round (after its bureaucracy; the last entry is the final position): per seat
    money_by_round: list[list[int]] = field(default_factory=list)
    cities_by_round: list[list[int]] = field(default_factory=list)
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    def to_dict(self) -> dict[str, Any]:
        """A game record (replayable by ``powergrid show``) plus the outcome."""
        return {
            "format": FORMAT, "version": VERSION, "index": self.index,
            "config": self.config.to_dict(), "actions": list(self.actions),
            "bots": [s.to_dict() for s in self.seats],
            "winners": list(self.winners), "powered": list(self.powered), "money": list(self.money),
            "cities": list(self.cities), "rounds": self.rounds,
            "money_by_round": [list(r) for r in self.money_by_round],
            "cities_by_round": [list(r) for r in self.cities_by_round],
            "error": self.error,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameResult:
        return cls(
            index=data["index"], config=GameConfig.from_dict(data["config"]),
            seats=tuple(Seat(s["seat"], s["bot"], s["seed"]) for s in data["bots"]),
            actions=list(data["actions"]), winners=tuple(data["winners"]), powered=list(data["powered"]),
            money=list(data["money"]), cities=list(data["cities"]), rounds=data["rounds"],
            money_by_round=[list(r) for r in data["money_by_round"]],
            cities_by_round=[list(r) for r in data["cities_by_round"]], error=data["error"],
        )


def _snapshot(state: GameState) -> tuple[list[int], list[int]]:
    return list(state.money), [len(c) for c in state.cities]


def play_game(spec: GameSpec, bot_factory: BotFactory = make_bot) -> GameResult:
    """Play one game to the end. Never raises: a failure is returned with the game's seeds."""
    result = GameResult(spec.index, spec.config, spec.seats)
    state: GameState | None = None
    try:
        bots = [bot_factory(seat.spec, seat.seed if seat.seed is not None else 0) for seat in spec.seats]
        state = new_game(spec.config)
        current_round = state.round
        while not state.is_over:
            if state.decisions >= MAX_DECISIONS:
                raise RuntimeError(f"the game did not end within {MAX_DECISIONS} decisions")
            seat = state.current_player
            assert seat is not None
            state.apply(bots[seat].act(state.view(seat)))
            if state.round != current_round:
                current_round = state.round
                money, cities = _snapshot(state)
                result.money_by_round.append(money)
                result.cities_by_round.append(cities)
        money, cities = _snapshot(state)
        result.money_by_round.append(money)
        result.cities_by_round.append(cities)
        result.winners = tuple(state.winners)
        # the end-of-game count that decides the winner (docs/rules.md, game end), not last round's payout
        result.powered = [state.powerable(p) for p in range(state.players)]
        result.money = money
        result.cities = cities
        result.rounds = state.round
    except Exception as exc:  # noqa: BLE001 - any failure of a bot or the engine is reported, not raised
        seeds = ", ".join(f"seat {s.seat} {s.spec} seed {s.seed}" for s in spec.seats)
        result.error = (f"{type(exc).__name__}: {exc} (game {spec.index}, config seed {spec.config.seed}; "
                        f"{seeds})\n{traceback.format_exc(limit=8)}")
        result.money_by_round = []
        result.cities_by_round = []
    if state is not None:
        result.actions = [str(a) for a in state.actions_taken()]
    return result
