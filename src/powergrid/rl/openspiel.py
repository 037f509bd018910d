"""Power Grid as an OpenSpiel game: ``pyspiel.load_game("python_powergrid")``.

Importing this module registers the game (it needs the ``openspiel`` extra: ``pip install
open-spiel``). Parameters: ``players`` (2-6, default 4), ``map`` ("germany" or "usa"),
``bids`` ("compact" or "absolute": the action space, docs/rl.md), ``reward`` ("win" or
"rank"), ``max_decisions`` (a longer game ends, returns all 0) and ``seed`` (-1: a fresh
random seed for every new game).

**Chance.** The engine draws its randomness from its seed: the deck is shuffled at setup and
again when Step 3 begins, and every plant drawn comes off that shuffled deck. Turning each
draw into an explicit chance node would mean taking the draws out of the engine's hands (its
determinism from the seed is what replays, the server and the bots rely on), so the game is
``SAMPLED_STOCHASTIC``: each new initial state is a game with its own seed, drawn from a
generator seeded by the ``seed`` parameter, and chance is resolved inside ``apply``. Agents
never see the deck order: the observation is the encoder's (docs/rl.md, Observation), built
from what the player may know.

**Observations.** ``observation_tensor(player)`` is the environments' observation vector of
that player (any player, at any time), ``observation_string(player)`` the position in words.
The information state (the whole history a player saw) is not provided.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from ..rules import GameState, new_game
from .aec import DEFAULT_MAX_DECISIONS, describe_state, make_config, map_cities
from .codec import ActionCodec
from .observation import ObservationEncoder
from .rewards import terminal_rewards

GAME_NAME = "python_powergrid"
_DEFAULTS: dict[str, Any] = {"players": 4, "map": "germany", "bids": "compact", "reward": "win",
                             "max_decisions": DEFAULT_MAX_DECISIONS, "seeds": 1000}
_REWARDS = ("win", "rank")

GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Power Grid (2004 base game)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


class _Parts:
    """What a game with given settings needs: its codec and encoder, made once per settings
    (states hold the settings, not the game object, so they copy cheaply)."""

    def __init__(self, settings: dict[str, Any]) -> None:
        if settings["reward"] not in _REWARDS:
            raise ValueError(f"reward must be one of {_REWARDS}, not {settings['reward']!r}")
        self.settings = settings
        self.players = int(settings["players"])
        self.probe = make_config(map=settings["map"], players=self.players, seed=0, variant="standard",
                                 regions=None, map_file=None)  # checks the settings
        self.codec = ActionCodec(map_cities(self.probe), bids=settings["bids"])
        self.encoder = ObservationEncoder(self.players, len(self.codec.cities))
        self.max_decisions = int(settings["max_decisions"])
        self.seeds = int(settings["seeds"])
        if self.seeds < 1:
            raise ValueError(f"seeds must be at least 1, not {self.seeds}")


_PARTS: dict[tuple[Any, ...], _Parts] = {}


def _parts(settings: dict[str, Any]) -> _Parts:
    key = tuple(sorted(settings.items()))
    found = _PARTS.get(key)
    if found is None:
        found = _PARTS[key] = _Parts(settings)
    return found


class PowerGridGame(pyspiel.Game):  # type: ignore[misc]
    """The game: its spaces, and new games seeded one after another."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        settings = {**_DEFAULTS, **(params or {})}
        self.parts = parts = _parts(settings)
        info = pyspiel.GameInfo(
            num_distinct_actions=parts.codec.size,
            max_chance_outcomes=parts.seeds,
            num_players=parts.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if settings["reward"] == "rank" else None,
            max_game_length=parts.max_decisions + 1,
        )
        super().__init__(GAME_TYPE, info, settings)

    def new_initial_state(self) -> PowerGridState:
        return PowerGridState(self, self.parts.settings)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> PowerGridObserver:
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            raise ValueError("Power Grid provides observations, not information states (perfect recall)")
        return PowerGridObserver(self.parts)


class PowerGridState(pyspiel.State):  # type: ignore[misc]
    """One game: a chance node picks its seed, then the engine's state answers OpenSpiel's calls."""

    def __init__(self, game: PowerGridGame, settings: dict[str, Any]) -> None:
        super().__init__(game)
        self.settings = settings
        self.game_state: GameState | None = None  # None until the chance node picked the seed
        self._cut = False

    def current_player(self) -> int:
        if self.game_state is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        seat = self.game_state.current_player
        assert seat is not None
        return seat

    def chance_outcomes(self) -> list[tuple[int, float]]:
        n = _parts(self.settings).seeds
        return [(seed, 1.0 / n) for seed in range(n)]

    def _legal_actions(self, player: int) -> list[int]:
        assert self.game_state is not None and player >= 0
        return _parts(self.settings).codec.legal_in(self.game_state, player).indices

    def _apply_action(self, action: int) -> None:
        spec = _parts(self.settings)
        if self.game_state is None:
            s = spec.settings
            self.game_state = new_game(make_config(map=s["map"], players=spec.players, seed=int(action),
                                                   variant="standard", regions=None, map_file=None))
            return
        state = self.game_state
        state.apply(spec.codec.decode(action, spec.codec.legal_in(state, state.current_player)))
        if not state.is_over and state.decisions >= spec.max_decisions:
            self._cut = True

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"game seed {action}"
        return _parts(self.settings).codec.describe(action)

    def is_terminal(self) -> bool:
        return self.game_state is not None and (self._cut or self.game_state.is_over)

    def returns(self) -> list[float]:
        if self.game_state is None or self._cut:
            return [0.0] * _parts(self.settings).players
        return terminal_rewards(self.game_state, _parts(self.settings).settings["reward"])

    def __str__(self) -> str:
        return "choosing the game's seed" if self.game_state is None else describe_state(self.game_state)


class PowerGridObserver:
    """A player's observation: the environments' vector, and the position in words (public)."""

    def __init__(self, parts: _Parts) -> None:
        self._encoder = parts.encoder
        self.tensor = np.zeros(parts.encoder.size, dtype=np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: PowerGridState, player: int) -> None:
        if state.game_state is None:
            self.tensor[:] = 0.0
        else:
            self._encoder.encode(state.game_state, player, out=self.tensor)

    def string_from(self, state: PowerGridState, player: int) -> str:
        return f"player {player} observes:\n{state}"


pyspiel.register_game(GAME_TYPE, PowerGridGame)
