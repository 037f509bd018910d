"""Power Grid as an OpenSpiel game: ``pyspiel.load_game("python_powergrid")``.

Importing this module registers the game (it needs the ``openspiel`` extra: ``pip install
open-spiel``). Parameters: ``players`` (2-6, default 4), ``map`` ("germany" or "usa"),
``bids`` ("compact" or "absolute": the action space, docs/rl-spaces.md), ``reward`` ("win" or
"rank"), ``max_decisions`` (a longer game ends, returns all 0) and ``seeds`` (how many seeds
the first chance node chooses among).

**Chance** (``EXPLICIT_STOCHASTIC``): every random event is a chance node, and a state holds no
deck order that would decide a later draw.

1. The first chance node picks a seed, which fixes what is public at setup: the regions in play
   and the seating order. The deck order it would also fix is thrown away.
2. Then one chance node per plant removed unseen at setup (docs/rules.md, Setup), each uniform
   over the plants not yet chosen.
3. Whenever an action would draw a card whose identity nobody knows (a refill of the market,
   also after the Step 3 shuffle), the action waits at a chance node that picks the plant,
   uniform over the unseen plants still in the deck; an action that draws several cards waits
   at one node per card. Known cards (plant 13 on top at the start, plants put under the deck,
   the Step 3 card) come off without a chance node.

The engine's deck stays a list of plants: the unseen ones are kept sorted, and the draw the
chance node chose is moved to the top just before the engine takes it (``_ChanceDeck``), so the
rules run unchanged.

**Information.** Every player sees the same things in Power Grid: everything but the removed
plants and the deck's order. ``information_state_string(player)`` is the player's seat and the
public history (the public setup, every action, every plant drawn; the removals only as "a plant
was removed"), so it has perfect recall and is equal in two states that differ only in hidden
cards. ``information_state_tensor(player)`` holds the same: the seat one-hot, the observation
vector, and the history as one code per event (``history_codes``). ``observation_tensor`` /
``observation_string`` are the environments' observation of that player and the position in
words (no history). ``resample_from_infostate`` draws the removed plants again (what IS-MCTS
needs to sample worlds).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from ..rules import STEP3, Action, GameState, new_game
from .aec import DEFAULT_MAX_DECISIONS, describe_state, make_config, map_cities
from .codec import ActionCodec
from .observation import ObservationEncoder
from .rewards import terminal_rewards

GAME_NAME = "python_powergrid"
_DEFAULTS: dict[str, Any] = {"players": 4, "map": "germany", "bids": "compact", "reward": "win",
                             "max_decisions": DEFAULT_MAX_DECISIONS, "seeds": 1000}
_REWARDS = ("win", "rank")
#: the largest plant number: chance outcomes for removals and draws are plant numbers
_PLANTS = 51
#: history events besides the decisions: the seed, the removals, the draws (at most all plants)
_EXTRA_EVENTS = 1 + 2 * _PLANTS

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
    provides_information_state_string=True,
    provides_information_state_tensor=True,
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
        #: history codes: decisions 0..A-1, then draws A + plant, removals A + 51, the seed A + 52
        self.codes = self.codec.size + _PLANTS + 2
        self.history_length = self.max_decisions + _EXTRA_EVENTS
        self.tensor_size = self.players + self.encoder.size + self.history_length


_PARTS: dict[tuple[Any, ...], _Parts] = {}


def _parts(settings: dict[str, Any]) -> _Parts:
    key = tuple(sorted(settings.items()))
    found = _PARTS.get(key)
    if found is None:
        found = _PARTS[key] = _Parts(settings)
    return found


class PowerGridGame(pyspiel.Game):  # type: ignore[misc]
    """The game: its spaces, and new games starting at the seed's chance node."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        settings = {**_DEFAULTS, **(params or {})}
        self.parts = parts = _parts(settings)
        info = pyspiel.GameInfo(
            num_distinct_actions=parts.codec.size,
            max_chance_outcomes=max(parts.seeds, _PLANTS),
            num_players=parts.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if settings["reward"] == "rank" else None,
            max_game_length=parts.history_length,
        )
        super().__init__(GAME_TYPE, info, settings)

    def new_initial_state(self) -> PowerGridState:
        return PowerGridState(self, self.parts.settings)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> PowerGridObserver:
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return PowerGridObserver(self.parts, perfect_recall=recall)


# ----------------------------------------------------------------------------- the deck
class _NeedDraw(Exception):  # noqa: N818  (a signal, not an error)
    """An action came to an unseen card with no chance outcome decided for it."""

    def __init__(self, unseen: list[int]) -> None:
        super().__init__("a chance node must pick the plant drawn")
        self.unseen = unseen


def _hidden_slots(state: GameState, deck: list[int]) -> list[int]:
    """Indices of the deck's cards nobody knows (docs/rules.md: the Step 3 card's place, plant 13
    on top at the start and the plants put under the deck are known)."""
    return [i for i in range(state.known_bottom, len(deck) - state.known_top) if deck[i] != STEP3]


class _ChanceDeck(list[int]):
    """The deck during one action of an OpenSpiel state: an unseen card comes off only as a chance
    node chose (``forced``, in order); with none left the action stops (``_NeedDraw``)."""

    __slots__ = ("forced", "state")

    def pop(self, index: Any = -1) -> int:  # type: ignore[override]
        s = self.state
        top = len(self) - 1
        if index == -1 and top >= s.known_bottom and s.known_top == 0 and self[top] != STEP3:
            if not self.forced:
                raise _NeedDraw(sorted(self[i] for i in _hidden_slots(s, self)))
            j = self.index(self.forced.pop(0))
            self[j], self[-1] = self[-1], self[j]
        return super().pop(index)


# ----------------------------------------------------------------------------- states
SEED, REMOVAL, PLAY = "seed", "removal", "play"


class PowerGridState(pyspiel.State):  # type: ignore[misc]
    """One game: the setup's chance nodes, then the engine's state answers OpenSpiel's calls,
    with a chance node for every unseen plant drawn."""

    def __init__(self, game: PowerGridGame, settings: dict[str, Any]) -> None:
        super().__init__(game)
        self.settings = settings
        self.game_state: GameState | None = None  # None until the chance node picked the seed
        self.stage = SEED
        self._cut = False
        #: the public history: ("seed", regions, seating), ("removed",), (seat, action), ("drawn", plant)
        self.events: list[tuple[Any, ...]] = []
        self._pool: list[int] = []           # removal: the plants the removals choose among
        self._removed: list[int] = []        # removal: chosen so far
        self._waiting: tuple[int, int, Action] | None = None  # (seat, index, action) awaiting draws
        self._forced: list[int] = []         # draws chosen so far for the waiting action
        self._unseen: list[int] = []         # the plants the next draw chooses among

    # ------------------------------------------------------------------ whose turn
    def current_player(self) -> int:
        if self.stage != PLAY or self._waiting is not None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        assert self.game_state is not None
        seat = self.game_state.current_player
        assert seat is not None
        return seat

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.stage == SEED:
            n = _parts(self.settings).seeds
            return [(seed, 1.0 / n) for seed in range(n)]
        choices = [p for p in self._pool if p not in self._removed] if self.stage == REMOVAL else self._unseen
        return [(plant, 1.0 / len(choices)) for plant in choices]

    def _legal_actions(self, player: int) -> list[int]:
        assert self.game_state is not None and player >= 0
        return _parts(self.settings).codec.legal_in(self.game_state, player).indices

    # ------------------------------------------------------------------ moves
    def _apply_action(self, action: int) -> None:
        if self.stage == SEED:
            self._set_up(int(action))
        elif self.stage == REMOVAL:
            self._remove(int(action))
        elif self._waiting is not None:
            self._forced.append(int(action))
            self._try_waiting()
        else:
            spec = _parts(self.settings)
            state = self.game_state
            assert state is not None
            seat = state.current_player
            assert seat is not None
            self._waiting = (seat, int(action), spec.codec.decode(action, spec.codec.legal_in(state, seat)))
            self._forced = []
            self._try_waiting()

    def _set_up(self, seed: int) -> None:
        s = self.settings
        game = new_game(make_config(map=s["map"], players=int(s["players"]), seed=seed, variant="standard",
                                    regions=None, map_file=None))
        self.game_state = game
        self.events.append(("seed", game.scn.board.regions, game.scn.seating))
        hidden = _hidden_slots(game, game.deck)
        # the seed's deck order and removals are thrown away: chance nodes choose the removals
        self._pool = sorted([game.deck[i] for i in hidden] + list(game.removed))
        self._removed = []
        self.stage = REMOVAL
        if not game.removed:
            self._deal()

    def _remove(self, plant: int) -> None:
        if plant not in self._pool or plant in self._removed:
            raise ValueError(f"plant {plant} cannot be removed now")
        self._removed.append(plant)
        self.events.append(("removed",))
        assert self.game_state is not None
        if len(self._removed) == len(self.game_state.removed):
            self._deal()

    def _deal(self) -> None:
        """The removals are chosen: the rest of the pool fills the unseen slots, sorted."""
        game = self.game_state
        assert game is not None
        game.removed = tuple(sorted(self._removed))
        rest = iter(p for p in self._pool if p not in self._removed)
        for i in _hidden_slots(game, game.deck):
            game.deck[i] = next(rest)
        self.stage = PLAY

    def _try_waiting(self) -> None:
        """Play the waiting action on a copy with the draws chosen so far; keep it if it needed
        no more, else wait at a chance node for the next draw."""
        assert self.game_state is not None and self._waiting is not None
        seat, index, action = self._waiting
        trial = self.game_state.clone()
        deck = _ChanceDeck(trial.deck)
        deck.state, deck.forced = trial, list(self._forced)
        trial.deck = deck
        try:
            trial.apply(action)
        except _NeedDraw as need:
            self._unseen = need.unseen
            return
        trial.deck = list(trial.deck)
        self.game_state = trial
        self.events.append((seat, index))
        self.events.extend(("drawn", plant) for plant in self._forced)
        self._waiting, self._forced, self._unseen = None, [], []
        if not trial.is_over and trial.decisions >= _parts(self.settings).max_decisions:
            self._cut = True

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.stage == SEED:
                return f"game seed {action}"
            return f"remove plant {action}" if self.stage == REMOVAL else f"draw plant {action}"
        return _parts(self.settings).codec.describe(action)

    def is_terminal(self) -> bool:
        return (self.stage == PLAY and self._waiting is None and self.game_state is not None
                and (self._cut or self.game_state.is_over))

    def returns(self) -> list[float]:
        if not self.is_terminal() or self._cut:
            return [0.0] * _parts(self.settings).players
        assert self.game_state is not None
        return terminal_rewards(self.game_state, _parts(self.settings).settings["reward"])

    # ------------------------------------------------------------------ information
    def public_history(self) -> str:
        words = []
        for event in self.events:
            if event[0] == "seed":
                words.append(f"regions {','.join(event[1])} seating {','.join(map(str, event[2]))}")
            elif event[0] == "removed":
                words.append("removed ?")
            elif event[0] == "drawn":
                words.append(f"drew {event[1]}")
            else:
                words.append(f"p{event[0]} {event[1]}")
        if self._waiting is not None:  # an action waiting for its draws is public already
            words.append(f"p{self._waiting[0]} {self._waiting[1]}")
            words.extend(f"drew {plant}" for plant in self._forced)
        return "; ".join(words)

    def history_codes(self) -> list[int]:
        """The public history as integers: a decision is its index, a draw A + plant, a removal
        A + 51, the seed's setup A + 52 (A: the number of distinct actions)."""
        size = _parts(self.settings).codec.size
        codes = []
        for event in self.events:
            if event[0] == "seed":
                codes.append(size + _PLANTS + 1)
            elif event[0] == "removed":
                codes.append(size + _PLANTS)
            elif event[0] == "drawn":
                codes.append(size + event[1])
            else:
                codes.append(event[1])
        if self._waiting is not None:
            codes.append(self._waiting[1])
            codes.extend(size + plant for plant in self._forced)
        return codes

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> PowerGridState:
        """A state with the same public history whose removed plants are drawn again (the only
        thing hidden from every player), for IS-MCTS."""
        if self.stage != PLAY or self._waiting is not None:
            raise ValueError("resampling is for decision nodes after setup")
        seed = int(probability_sampler() * 2**31) if probability_sampler is not None else None
        rng = random.Random(seed)
        other = self.clone()
        game = other.game_state
        assert game is not None
        unseen = [game.deck[i] for i in _hidden_slots(game, game.deck)] + list(game.removed)
        rng.shuffle(unseen)
        removed = sorted(unseen[:len(game.removed)])
        rest = iter(sorted(unseen[len(game.removed):]))
        game.removed = tuple(removed)
        for i in _hidden_slots(game, game.deck):
            game.deck[i] = next(rest)
        return other

    def __str__(self) -> str:
        if self.game_state is None:
            return "choosing the game's seed"
        if self.stage == REMOVAL:
            return f"removing plants at setup ({len(self._removed)} removed)"
        text = describe_state(self.game_state)
        if self._waiting is not None:
            text += f"\n(p{self._waiting[0]} played {self._waiting[1]}; drawing a plant)"
        return text


class PowerGridObserver:
    """A player's observation (the environments' vector; the position in words) or, with perfect
    recall, information state (the seat, the vector and the public history)."""

    def __init__(self, parts: _Parts, perfect_recall: bool = False) -> None:
        self._parts = parts
        self.perfect_recall = perfect_recall
        self._encoder = parts.encoder
        size = parts.tensor_size if perfect_recall else parts.encoder.size
        self.tensor = np.zeros(size, dtype=np.float32)
        if perfect_recall:
            n, d = parts.players, parts.encoder.size
            self.dict = {"player": self.tensor[:n], "observation": self.tensor[n:n + d],
                         "history": self.tensor[n + d:]}
        else:
            self.dict = {"observation": self.tensor}

    def set_from(self, state: PowerGridState, player: int) -> None:
        self.tensor[:] = 0.0
        if not self.perfect_recall:
            if state.game_state is not None:
                self._encoder.encode(state.game_state, player, out=self.tensor)
            return
        self.dict["player"][player] = 1.0
        if state.game_state is not None:
            self._encoder.encode(state.game_state, player, out=self.dict["observation"])
        codes = state.history_codes()
        history = self.dict["history"]
        history[:len(codes)] = (np.asarray(codes[:len(history)], np.float32) + 1.0) / self._parts.codes

    def string_from(self, state: PowerGridState, player: int) -> str:
        if self.perfect_recall:
            return f"player {player}; {state.public_history()}"
        return f"player {player} observes:\n{state}"


pyspiel.register_game(GAME_TYPE, PowerGridGame)
