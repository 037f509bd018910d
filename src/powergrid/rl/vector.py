"""A batched environment: N games stepped in one process, observations and masks as numpy batches.

It follows Gymnasium's ``VectorEnv`` API (``reset``/``step`` over arrays, ``single_*`` spaces,
same-step autoreset with ``infos["final_obs"]`` by default, next-step autoreset on request) and
is built for speed: no per-game wrapper,
no views, observations and masks written straight into the batch, and random opponents that
play from the state (the same choices as ``powergrid.bots``' random bot with the same seed,
without building its view).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..bots import Bot, make_bot
from ..rules import GameState, new_game
from .aec import (
    DEFAULT_MAX_DECISIONS,
    ILLEGAL_ACTION_MODES,
    SeedSequence,
    make_config,
    make_spaces,
    map_cities,
)
from .codec import DEFAULT_BID_CAP, ActionCodec, EncodedLegal, IllegalEncodedAction
from .flat import check_observation, flat_space, flatten
from .incremental import IncrementalEncoder
from .observation import ObservationEncoder
from .rewards import check_reward, is_shaped, potentials, terminal_rewards
from .single import bot_seed, opponent_list

#: the autoreset modes, by Gymnasium's value or name ("SameStep", "same_step", AutoresetMode...)
AUTORESET_MODES = (AutoresetMode.SAME_STEP, AutoresetMode.NEXT_STEP)


def autoreset(mode: str | AutoresetMode) -> AutoresetMode:
    for known in AUTORESET_MODES:
        if mode in (known, known.value, known.name, known.name.lower()):
            return known
    raise ValueError(f"autoreset_mode must be 'same_step' or 'next_step' (or Gymnasium's AutoresetMode), "
                     f"not {mode!r}: a finished game is always replaced")


#: opponents that play from the state instead of through a Bot and its view
FAST_RANDOM = "random"


class PowerGridVectorEnv(VectorEnv):  # type: ignore[misc]
    """N Power Grid games for one learner. Build it with :func:`powergrid.rl.vector_env`.

    ``opponents``: a bot name for every other seat (``"random"`` is played from the state, the
    fastest), a list with one per other seat, or ``None`` for self-play: the policy plays every
    seat, each step is one decision of the seat to act (``infos["seat"]``), ``reward`` is that
    seat's reward for the step and ``infos["rewards"]`` every seat's (the terminal rewards of
    all seats arrive there on the last step).
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, num_envs: int, map: str = "germany", players: int = 4, seed: int | None = None,
                 variant: str = "standard", regions: Any = None, reward: str = "win",
                 bids: str = "absolute", bid_cap: int = DEFAULT_BID_CAP,
                 opponents: str | list[str | Bot] | None = FAST_RANDOM, seat: int = 0,
                 max_decisions: int = DEFAULT_MAX_DECISIONS, illegal_action: str = "terminate",
                 map_file: str | None = None, autoreset_mode: str | AutoresetMode = AutoresetMode.SAME_STEP,
                 observation: str = "dict") -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, not {num_envs!r}")
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTION_MODES}, not {illegal_action!r}")
        self.autoreset_mode = autoreset(autoreset_mode)
        # an instance attribute: Gymnasium's wrappers read the mode from the metadata
        self.metadata = {**self.metadata, "autoreset_mode": self.autoreset_mode}
        self.flat = check_observation(observation)
        self._settings = dict(map=map, players=players, variant=variant, regions=regions, map_file=map_file)
        probe = make_config(seed=0, **self._settings)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(f"seat must be 0..{players - 1}, not {seat!r}")
        self.self_play = opponents is None
        others = [s for s in range(players) if s != seat]
        specs: list[str | Bot] = []
        if not self.self_play:
            specs = [opponents] * len(others) if isinstance(opponents, (str, Bot)) else list(opponents or [])
            if len(specs) != len(others):
                raise ValueError(f"{players} players need {len(others)} opponents, not {len(specs)}")
            for spec in specs:
                if isinstance(spec, str):
                    make_bot(spec, 0)  # fails now on an unknown name
                elif not isinstance(spec, Bot):
                    raise ValueError(f"an opponent is a bot name or a Bot, not {spec!r}")
        self._opponents = dict(zip(others, specs, strict=False))
        self._others = others
        self.num_envs = num_envs
        self.players = players
        self.seat = seat
        self.reward_kind = check_reward(reward)
        self._shaped = is_shaped(reward)
        self.max_decisions = max_decisions
        self.illegal_action = illegal_action
        self.codec = ActionCodec(map_cities(probe), bid_cap, bids)
        self.encoder = ObservationEncoder(players, len(self.codec.cities))
        self._observer = IncrementalEncoder(self.encoder)
        #: per game slot, per seat: the seat's observation parts, kept up to date across steps
        self._seat_obs = [[self._observer.seat_observation(s) for s in range(players)]
                          for _ in range(num_envs)]
        self.single_observation_space, self.single_action_space = make_spaces(self.codec, self.encoder)
        #: values of the observation vector proper (the flat observation's mask follows them)
        self.observation_size = self.encoder.size
        if self.flat:
            self.single_observation_space = flat_space(self.single_observation_space)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.render_mode = None
        self._first_seed = seed
        self._seeds = [SeedSequence(None if seed is None else seed + i) for i in range(num_envs)]
        self.games: list[GameState] = []
        self._legal: list[EncodedLegal] = []
        self._acting: list[int] = []
        self._random: list[dict[int, random.Random]] = []
        self._bots: list[dict[int, Bot]] = []
        self._potentials: list[list[float]] = []
        #: the current masks, one row per game, each the mask of that game's ``_legal``
        self._masks = np.zeros((num_envs, self.codec.size), dtype=np.int8)
        self._mask_rows = list(self._masks)

    def __setstate__(self, saved: dict[str, Any]) -> None:
        # a pickle copies the mask rows apart from the buffer: join them again
        self.__dict__.update(saved)
        self._mask_rows = list(self._masks)
        for row, legal in zip(self._mask_rows, self._legal, strict=False):
            if legal is not None:
                row[:] = legal.mask
                legal.mask = row

    # ------------------------------------------------------------------ lifecycle
    def reset(self, *, seed: int | list[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Start every game. ``seed`` = s seeds game i with s + i (a list seeds each); later
        games of env i draw their seeds from a generator seeded by its first seed."""
        n = self.num_envs
        if isinstance(seed, list):
            if len(seed) != n:
                raise ValueError(f"{len(seed)} seeds for {n} envs")
            seeds = seed
        else:
            seeds = [None if seed is None else seed + i for i in range(n)]
        self.games, self._legal, self._acting = [None] * n, [None] * n, [0] * n  # type: ignore[list-item]
        self._ended = [False] * n
        self._random, self._bots, self._potentials = [{}] * n, [{}] * n, [[]] * n
        obs = self._empty_batch()
        for i in range(n):
            self._new_game(i, self._seeds[i].next(seeds[i]))
        self._write_all(obs)
        return self._shaped_obs(obs), self._infos_now({})

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        if not self.games:
            raise RuntimeError("call reset() before step()")
        n = self.num_envs
        chosen = np.asarray(actions).reshape(n).tolist()
        rewards = [0.0] * n
        every_seat: list[list[float]] | None = [] if self.self_play else None
        ends: list[tuple[int, bool, dict[str, Any]]] = []
        codec, games, legal_now, acting = self.codec, self.games, self._legal, self._acting
        players, shaped, limit = self.players, self._shaped, self.max_decisions
        zeros = [0.0] * players
        next_step = self.autoreset_mode == AutoresetMode.NEXT_STEP
        for i in range(n):
            if next_step and self._ended[i]:  # ended last step: this step starts its next game
                self._ended[i] = False
                self._new_game(i, self._seeds[i].next(None))
                if every_seat is not None:
                    every_seat.append(zeros)
                continue
            game = games[i]
            seat = acting[i]
            step_rewards = zeros
            note: dict[str, Any] = {}
            try:
                action = codec.decode(chosen[i], legal_now[i])
            except IllegalEncodedAction as error:
                if self.illegal_action == "raise":
                    raise
                step_rewards = zeros[:]
                step_rewards[seat] = -1.0
                note = {"illegal_action": str(error)}
                ended, cut = True, False
            else:
                game.apply(action)
                self._play_opponents(i)
                if shaped:
                    after = potentials(game)
                    step_rewards = [a - b for a, b in zip(after, self._potentials[i], strict=True)]
                    self._potentials[i] = after
                ended = game.is_over
                cut = not ended and game.decisions >= limit
                if ended:
                    final = terminal_rewards(game, self.reward_kind)
                    step_rewards = [r + t for r, t in zip(step_rewards, final, strict=True)]
            rewards[i] = step_rewards[seat if every_seat is not None else self.seat]
            if every_seat is not None:
                every_seat.append(step_rewards)
            if ended or cut:
                ends.append((i, cut, note))
        obs = self._empty_batch()
        terminated = np.zeros(n, dtype=bool)
        truncated = np.zeros(n, dtype=bool)
        infos: dict[str, Any] = {}
        finals = []
        for i, cut, note in ends:
            game = games[i]
            terminated[i], truncated[i] = not cut, cut
            final_info = {"winners": list(game.winners), **note} if game.is_over else note
            if next_step:  # the batch shows the final observation; the next step resets
                self._ended[i] = True
                finals.append(i)
                infos = self._add_info(infos, final_info, i)
                continue
            final = self._empty_batch(1)
            self._write(0, final, game, None)
            final_obs = {k: v[0] for k, v in final.items()}
            infos = self._add_info(infos, {"final_obs": flatten(final_obs) if self.flat else final_obs,
                                           "final_info": final_info}, i)
            self._new_game(i, self._seeds[i].next(None))
        self._write_all(obs)
        for i in finals:
            self._write(i, obs, games[i], None)
            self._masks[i] = 0
        infos = self._infos_now(infos)
        if every_seat is not None:
            infos["rewards"] = np.array(every_seat, dtype=np.float32)
        return self._shaped_obs(obs), np.array(rewards, dtype=np.float32), terminated, truncated, infos

    def set_opponents(self, opponents: str | Bot | list[str | Bot]) -> None:
        """The opponents of the games started from now on (e.g. an
        :class:`~powergrid.rl.OpponentPool` draw); running games keep theirs. Not in self-play."""
        if self.self_play:
            raise ValueError("a self-play vector env has no opponents")
        self._opponents = dict(zip(self._others, opponent_list(self.players, opponents), strict=True))

    def _shaped_obs(self, obs: dict[str, np.ndarray]) -> Any:
        return flatten(obs) if self.flat else obs

    def action_masks(self) -> np.ndarray:
        """The current masks as booleans, shape (num_envs, actions) (MaskablePPO's name)."""
        return self._masks.astype(bool)

    def close_extras(self, **kwargs: Any) -> None:
        self.games = []

    # ------------------------------------------------------------------ inside
    def _empty_batch(self, rows: int | None = None) -> dict[str, np.ndarray]:
        rows = self.num_envs if rows is None else rows
        return {"observation": np.empty((rows, self.encoder.size), dtype=np.float32),
                "action_mask": np.empty((rows, self.codec.size), dtype=np.int8)}

    def _infos_now(self, infos: dict[str, Any]) -> dict[str, Any]:
        if self.self_play:
            infos["seat"] = np.array(self._acting, dtype=np.int64)
        return infos

    def _new_game(self, i: int, game_seed: int) -> None:
        game = new_game(make_config(seed=game_seed, **self._settings))
        self.games[i] = game
        randoms: dict[int, random.Random] = {}
        bots: dict[int, Bot] = {}
        for s, spec in self._opponents.items():
            if spec == FAST_RANDOM:
                randoms[s] = random.Random(bot_seed(game_seed, s))
            else:
                bots[s] = make_bot(spec, bot_seed(game_seed, s)) if isinstance(spec, str) else spec
        self._random[i], self._bots[i] = randoms, bots
        if self._shaped:
            self._potentials[i] = potentials(game)
        self._play_opponents(i)

    def _play_opponents(self, i: int) -> None:
        """Let the opponents act until the learner must (in self-play: until anyone must)."""
        game = self.games[i]
        randoms, bots = self._random[i], self._bots[i]
        while not game.is_over and game.decisions < self.max_decisions:
            seat = game.current_player
            assert seat is not None
            if self.self_play or seat == self.seat:
                self._acting[i] = seat
                self._legal[i] = self.codec.legal_in(game, seat, self._mask_rows[i])
                return
            rng = randoms.get(seat)
            if rng is not None:
                game.apply(rng.choice(game.legal_actions()))
            else:
                game.apply(bots[seat].act(game.view(seat)))
        self._legal[i] = self.codec.legal_in(game, self._acting[i] if self.self_play else self.seat,
                                             self._mask_rows[i])

    def _write_all(self, batch: dict[str, np.ndarray]) -> None:
        seats = self._acting if self.self_play else [self.seat] * self.num_envs
        kept = self._seat_obs
        self._observer.encode_batch(self.games, [kept[i][s] for i, s in enumerate(seats)],
                                    batch["observation"])
        masks = batch["action_mask"]
        masks[:] = self._masks  # every game's mask is written in place, in its row

    def _write(self, row: int, batch: dict[str, np.ndarray], game: GameState | None = None,
               legal: EncodedLegal | None = None) -> None:
        i = row
        if game is None:
            game, legal = self.games[i], self._legal[i]
        seat = self._acting[i] if self.self_play and game is self.games[i] else self.seat
        self.encoder.encode(game, seat, out=batch["observation"][row])
        if legal is None:
            batch["action_mask"][row] = 0
        else:
            batch["action_mask"][row] = legal.mask


def vector_env(num_envs: int, **kwargs: Any) -> PowerGridVectorEnv:
    """``num_envs`` Power Grid games in one process behind Gymnasium's ``VectorEnv`` API.

    Keyword arguments as :class:`~powergrid.rl.SingleAgentEnv` (``map``, ``players``, ``seed``,
    ``reward``, ``bids``, ``bid_cap``, ``opponents``, ``seat``, ``max_decisions``,
    ``illegal_action``...), plus ``opponents=None`` for self-play. Observations are
    ``{"observation": (N, D) float32, "action_mask": (N, A) int8}``; a finished game is reset
    in the same step, its last observation in ``infos["final_obs"]``.
    """
    return PowerGridVectorEnv(num_envs, **kwargs)
