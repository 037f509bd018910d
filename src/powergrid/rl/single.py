"""A Gymnasium single-agent environment: one learner's seat, bots in the others."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np

from ..bots import Bot, make_bot
from ..rules import GameState, new_game
from .aec import (
    DEFAULT_MAX_DECISIONS,
    ILLEGAL_ACTION_MODES,
    RENDER_MODES,
    check_render_mode,
    make_config,
    make_spaces,
    map_cities,
    render,
)
from .codec import DEFAULT_BID_CAP, ActionCodec, EncodedLegal, IllegalEncodedAction
from .flat import check_observation, flat_space, flatten
from .observation import ObservationEncoder
from .rewards import check_reward, is_shaped, potentials, terminal_rewards
from .views import info_view

Opponent = str | Bot


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot in ``seat``: fixed by the game's seed, different per seat."""
    return (game_seed * 1_000_003 + 7919 * (seat + 1)) % (2**31)


def opponent_list(players: int, opponents: Opponent | list[Opponent]) -> list[Opponent]:
    """One opponent per other seat, checked: a bot name (made now once, so an unknown name fails
    here) or a ready Bot."""
    others = players - 1
    if isinstance(opponents, (str, Bot)):
        opponents = [opponents] * others
    opponents = list(opponents)
    if len(opponents) != others:
        raise ValueError(f"{players} players need {others} opponents, not {len(opponents)}")
    for spec in opponents:
        if isinstance(spec, str):
            make_bot(spec, 0)
        elif not isinstance(spec, Bot):
            raise ValueError(f"an opponent is a bot name or a Bot, not {spec!r}")
    return opponents


class SingleAgentEnv(gym.Env):
    """Power Grid for one learner in ``seat``; bots fill the other seats and see only their views.

    ``opponents`` is one bot name for every other seat (``"random"``, ``"heuristic"``,
    ``"mcts:fast"``... anything :func:`powergrid.bots.make_bot` accepts) or a list with one entry
    per other seat in seat order, each a name or a ready :class:`~powergrid.bots.Bot`. Named
    bots are made afresh at each reset with seeds drawn from the game's seed, so an episode
    replays exactly from ``reset(seed=...)`` and the learner's actions. ``set_opponents``
    changes them for the next games (self-play against past policies: ``OpponentPool``).

    ``observation="flat"`` gives one ``Box`` (the observation vector then the mask as 0/1
    floats; ``observation_size`` values of observation) instead of the ``Dict``.

    ``illegal_action="terminate"`` (default, Gymnasium's convention that every action in the
    space may be sent) ends the episode with reward -1 and ``info["illegal_action"]`` naming
    the action; ``"raise"`` raises :class:`~powergrid.rl.IllegalEncodedAction` instead.
    """

    metadata: dict[str, Any] = {"render_modes": RENDER_MODES, "render_fps": 1}

    def __init__(self, map: str = "germany", players: int = 4, seed: int | None = None,
                 variant: str = "standard", regions: Any = None, reward: str = "win",
                 bid_cap: int = DEFAULT_BID_CAP, opponents: Opponent | list[Opponent] = "random",
                 seat: int = 0, max_decisions: int = DEFAULT_MAX_DECISIONS,
                 illegal_action: str = "terminate", map_file: str | None = None,
                 render_mode: str | None = None, bids: str = "absolute", view_in_info: bool = False,
                 observation: str = "dict") -> None:
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTION_MODES}, not {illegal_action!r}")
        self.view_in_info = view_in_info
        self.flat = check_observation(observation)
        self.players = players
        self._settings = dict(map=map, players=players, variant=variant, regions=regions, map_file=map_file)
        probe = make_config(seed=0, **self._settings)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(f"seat must be 0..{players - 1}, not {seat!r}")
        self.opponents = opponent_list(players, opponents)
        self.seat = seat
        self.reward_kind = check_reward(reward)
        self.max_decisions = max_decisions
        self.illegal_action = illegal_action
        self.render_mode = check_render_mode(render_mode)
        self.codec = ActionCodec(map_cities(probe), bid_cap, bids)
        self.encoder = ObservationEncoder(players, len(self.codec.cities))
        self.observation_space, self.action_space = make_spaces(self.codec, self.encoder)
        #: values of the observation vector proper (the flat observation's mask follows them)
        self.observation_size = self.encoder.size
        if self.flat:
            self.observation_space = flat_space(self.observation_space)
        self._pending_seed = seed
        self.game: GameState | None = None
        self._bots: dict[int, Bot] = {}
        self._legal: EncodedLegal | None = None

    def observation_layout(self) -> list[tuple[str, slice]]:
        return self.encoder.layout()

    def describe_action(self, index: int) -> str:
        return self.codec.describe(index)

    def set_opponents(self, opponents: Opponent | list[Opponent]) -> None:
        """The opponents of the games from the next ``reset()`` on (e.g. an
        :class:`~powergrid.rl.OpponentPool` draw); the running game keeps its bots."""
        self.opponents = opponent_list(int(self._settings["players"]), opponents)

    def action_masks(self) -> np.ndarray:
        """The current mask as booleans (the name sb3-contrib's MaskablePPO looks for)."""
        return self._legal.mask.astype(bool) if self._legal is not None else np.zeros(self.codec.size, bool)

    # ------------------------------------------------------------------ lifecycle
    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        if seed is None and self._pending_seed is not None:
            seed, self._pending_seed = self._pending_seed, None
        super().reset(seed=seed)
        game_seed = int(seed) if seed is not None else int(self.np_random.integers(2**31))
        self.config = make_config(seed=game_seed, **self._settings)
        self.game = new_game(self.config)
        self._bots = {}
        others = [s for s in range(self.config.players) if s != self.seat]
        for s, spec in zip(others, self.opponents, strict=True):
            self._bots[s] = make_bot(spec, bot_seed(game_seed, s)) if isinstance(spec, str) else spec
        self._potential = potentials(self.game)[self.seat] if is_shaped(self.reward_kind) else 0.0
        self._play_bots()
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        game = self.game
        if game is None or self._legal is None:
            raise RuntimeError("call reset() before step(), and again after the episode ends")
        try:
            chosen = self.codec.decode(action, self._legal)
        except IllegalEncodedAction as error:
            if self.illegal_action == "raise":
                raise
            self._legal = None
            info = self._info()
            info["illegal_action"] = str(error)
            return self._observe(), -1.0, True, False, info
        game.apply(chosen)
        self._play_bots()
        reward = 0.0
        if is_shaped(self.reward_kind):
            after = potentials(game)[self.seat]
            reward += after - self._potential
            self._potential = after
        terminated = game.is_over
        truncated = not terminated and game.decisions >= self.max_decisions
        if terminated:
            reward += terminal_rewards(game, self.reward_kind)[self.seat]
        if terminated or truncated:
            self._legal = None
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, terminated, truncated, self._info()

    def _play_bots(self) -> None:
        """Let the bots act until the learner must act or the game stops."""
        game = self.game
        assert game is not None
        while not game.is_over and game.decisions < self.max_decisions:
            seat = game.current_player
            assert seat is not None
            if seat == self.seat:
                self._legal = self.codec.legal_in(game, seat)
                return
            game.apply(self._bots[seat].act(game.view(seat)))
        self._legal = None

    def _observe(self) -> Any:
        game = self.game
        assert game is not None
        mask = self._legal.mask if self._legal is not None else np.zeros(self.codec.size, dtype=np.int8)
        # The observation reads only public information, so the true state is encoded directly.
        obs = {"observation": self.encoder.encode(game, self.seat), "action_mask": mask}
        return flatten(obs) if self.flat else obs

    def _info(self) -> dict[str, Any]:
        game = self.game
        assert game is not None
        info: dict[str, Any] = {"view": info_view(game, self.seat)} if self.view_in_info else {}
        if game.is_over:
            info["winners"] = list(game.winners)
        return info

    def render(self) -> str | None:
        return render(self.game, self.render_mode)
