"""The PettingZoo AEC environment: one agent per seat, the engine decides who acts next."""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..rules import GameConfig, GameState, load_map, load_map_file, new_game
from ..rules.phase import OVER
from ..rules.view import make_view
from .codec import DEFAULT_BID_CAP, ActionCodec, EncodedLegal, IllegalEncodedAction
from .incremental import IncrementalEncoder
from .observation import ObservationEncoder
from .rewards import check_reward, is_shaped, potentials, terminal_rewards
from .views import info_view

RENDER_MODES = ["ansi", "human"]

ILLEGAL_ACTION_MODES = ("raise", "terminate")
#: Engine decisions after which a game is cut off (truncated); random games take ~600.
DEFAULT_MAX_DECISIONS = 10_000


def agent_name(seat: int) -> str:
    return f"player_{seat}"


def make_config(map: str, players: int, seed: int, variant: str, regions: Any,
                map_file: str | None) -> GameConfig:
    return GameConfig(map=map, players=players, seed=seed, variant=variant,
                      regions=tuple(regions) if regions is not None else None, map_file=map_file)


def map_cities(config: GameConfig) -> tuple[str, ...]:
    game_map = load_map_file(config.map_file) if config.map_file is not None else load_map(config.map)
    return tuple(game_map.cities)


class SeedSequence:
    """Game seeds for successive resets: a given seed, then draws from a generator it seeds."""

    def __init__(self, seed: int | None) -> None:
        self._rng = random.Random(seed)
        self._next = seed

    def next(self, seed: int | None) -> int:
        if seed is not None:
            self._rng = random.Random(seed)
            self._next = None
            return int(seed)
        if self._next is not None:
            chosen, self._next = self._next, None
            return chosen
        return self._rng.getrandbits(31)


def check_render_mode(render_mode: str | None) -> str | None:
    """Gymnasium's convention: an unsupported render mode warns, so tools that always pass one
    (SB3's ``make_vec_env`` passes ``"rgb_array"``) still work. The environment then renders
    nothing (its ``render_mode`` is None)."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        gymnasium.logger.warn(f"render_mode {render_mode!r} is not supported ({RENDER_MODES} or None): "
                              "render() will return None")
        return None
    return render_mode


def state_space(encoder: ObservationEncoder) -> spaces.Box:
    """Every seat's observation side by side (seat 0 first): the whole public state."""
    return spaces.Box(0.0, np.tile(encoder.high, encoder.players), (encoder.size * encoder.players,),
                      np.float32)


def public_state_vector(encoder: ObservationEncoder, game: GameState) -> np.ndarray:
    """The centralised-critic state: every seat's observation, seat 0 first. It is built from
    public information only (never the deck order or the removed plants)."""
    return np.concatenate([encoder.encode(game, seat) for seat in range(encoder.players)])


def make_spaces(codec: ActionCodec, encoder: ObservationEncoder) -> tuple[spaces.Dict, spaces.Discrete]:
    observation = spaces.Dict({
        "observation": spaces.Box(0.0, encoder.high, (encoder.size,), np.float32),
        "action_mask": spaces.Box(0, 1, (codec.size,), np.int8),
    })
    return observation, spaces.Discrete(codec.size)


class PowerGridAEC(AECEnv):  # type: ignore[misc]
    """Power Grid as a PettingZoo AEC environment. Build it with :func:`powergrid.rl.env`.

    Agents are ``player_0`` .. ``player_{n-1}`` (seat numbers); ``agent_selection`` is always
    the engine's ``current_player``. Observations are ``{"observation", "action_mask"}``; the
    mask of an agent that is not to act is all zeros. With ``view_in_info=True``,
    ``infos[agent]["view"]`` holds the seat's :class:`~powergrid.GameView` for the agent to act
    (for every agent once the game is over); by default infos stay small (docs/rl.md, Speed).
    """

    metadata: dict[str, Any] = {"name": "powergrid_v0", "render_modes": RENDER_MODES,
                                # Turn-based: one seat acts at a time, and who acts next depends
                                # on the action (docs/rl.md, "Parallel API").
                                "is_parallelizable": False}

    def __init__(self, map: str = "germany", players: int = 4, seed: int | None = None,
                 variant: str = "standard", regions: Any = None, reward: str = "win",
                 bid_cap: int = DEFAULT_BID_CAP, max_decisions: int = DEFAULT_MAX_DECISIONS,
                 illegal_action: str = "terminate", map_file: str | None = None,
                 render_mode: str | None = None, bids: str = "absolute", view_in_info: bool = False) -> None:
        super().__init__()
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTION_MODES}, not {illegal_action!r}")
        self.view_in_info = view_in_info
        self._settings = dict(map=map, players=players, variant=variant, regions=regions, map_file=map_file)
        probe = make_config(seed=0, **self._settings)  # validates the settings now
        self.reward_kind = check_reward(reward)
        self.max_decisions = max_decisions
        self.illegal_action = illegal_action
        self.render_mode = check_render_mode(render_mode)
        self.codec = ActionCodec(map_cities(probe), bid_cap, bids)
        self._size = self.codec.size
        self.encoder = ObservationEncoder(players, len(self.codec.cities))
        self._observer = IncrementalEncoder(self.encoder)
        self._seat_obs = [self._observer.seat_observation(s) for s in range(players)]
        self.state_space = state_space(self.encoder)
        self.possible_agents = [agent_name(s) for s in range(players)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        obs_space, act_space = make_spaces(self.codec, self.encoder)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self._seeds = SeedSequence(seed)
        self.game: GameState | None = None

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    def observation_layout(self) -> list[tuple[str, slice]]:
        """(name, slice) of every field of the observation vector (docs/rl-spaces.md explains each)."""
        return self.encoder.layout()

    def describe_action(self, index: int) -> str:
        return self.codec.describe(index)

    # ------------------------------------------------------------------ lifecycle
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.config = make_config(seed=self._seeds.next(seed), **self._settings)
        self.game = new_game(self.config)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._paid = False
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._potentials = potentials(self.game) if is_shaped(self.reward_kind) else None
        self._skip_agent_selection = None
        self._select_next()

    def _select_next(self) -> None:
        game = self.game
        assert game is not None
        self._legal: EncodedLegal | None = None
        self._obs_cache: dict[int, dict[str, np.ndarray]] = {}
        seat = self._to_act = game.current_player
        if seat is None:
            return
        agent = self.possible_agents[seat]
        # (step() has emptied the info of the agent that acted)
        self.infos[agent] = {"view": make_view(game, seat)} if self.view_in_info else {}
        self.agent_selection = agent

    def encoded_legal(self) -> EncodedLegal:
        """The legal actions of the agent to act, with indices and mask."""
        if self._legal is None:
            game = self.game
            assert game is not None
            seat = self._seat[self.agent_selection]
            if seat == self._to_act:
                self._legal = self.codec.legal_to_act(game, seat)
            else:
                self._legal = self.codec.legal_in(game, seat)
        return self._legal

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last()``: the observation, cumulative reward, terminated, truncated and
        info of the agent to act."""
        agent = self.agent_selection
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat[agent]
        cached = self._obs_cache.get(seat)
        if cached is not None:
            return cached
        game = self.game
        assert game is not None, "call reset() before observe()"
        acting = agent == self.agent_selection and not (self.terminations[agent] or self.truncations[agent])
        if acting:
            legal = self._legal
            if legal is None:  # encoded_legal(), for the agent to act
                legal = self._legal = self.codec.legal_to_act(game, seat)
            mask = legal.mask
        else:
            mask = np.zeros(self.codec.size, dtype=np.int8)
        # The observation reads only public information, so the true state is encoded directly,
        # from the seat's kept parts (the encoder's value, byte for byte), and copied out.
        obs = {"observation": self._observer.update(game, self._seat_obs[seat], self._to_act).copy(),
               "action_mask": mask}
        self._obs_cache[seat] = obs
        return obs

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        assert game is not None
        legal = self._legal
        if legal is None:
            legal = self.encoded_legal()
        self._cumulative_rewards[agent] = 0.0
        if self._paid:  # rewards are all 0 between the steps that pay (win/rank: the last one)
            for a in self.rewards:
                self.rewards[a] = 0.0
            self._paid = False
        try:
            if type(action) is int and 0 <= action < self._size and legal.mask.item(action):
                chosen = legal.action(action)  # (decode's checks, for a plain index)
            elif action is None:
                raise IllegalEncodedAction(-1, "None", "is not an action: the agent must act")
            else:
                chosen = self.codec.decode(action, legal)
        except IllegalEncodedAction as error:
            if self.illegal_action == "raise":
                raise
            self._end_illegal(agent, str(error))
            return
        # The acting agent's info is emptied before the game moves on: a view the env alone
        # holds then dies unread, and the game need not keep a copy of this moment for it.
        self.infos[agent] = {}
        game.apply(chosen)
        if self._potentials is not None:
            after = potentials(game)
            for seat, a in enumerate(self.possible_agents):
                self.rewards[a] = after[seat] - self._potentials[seat]
            self._potentials = after
            self._paid = True
        if game.phase == OVER:
            for seat, r in enumerate(terminal_rewards(game, self.reward_kind)):
                self.rewards[self.possible_agents[seat]] += r
            self._paid = True
            self._finish(truncated=False)
        elif game.decisions >= self.max_decisions:
            self._finish(truncated=True)
        else:
            self._select_next()
        if self._paid:
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _finish(self, truncated: bool, note: dict[str, Any] | None = None) -> None:
        game = self.game
        assert game is not None
        flags = self.truncations if truncated else self.terminations
        winners = [self.possible_agents[s] for s in game.winners]
        for seat, a in enumerate(self.possible_agents):
            flags[a] = True
            self.infos[a] = {"winners": winners, **(note or {})}
            if self.view_in_info:
                self.infos[a]["view"] = info_view(game, seat)
        self._legal = None
        self._obs_cache = {}
        self._to_act = game.current_player
        self.agent_selection = self.agents[0]

    def _end_illegal(self, agent: str, message: str) -> None:
        self.rewards[agent] = -1.0
        self._paid = True
        self._finish(truncated=False, note={"illegal_action": message, "offender": agent})
        self._accumulate_rewards()

    def state(self) -> np.ndarray:
        """The whole public state for centralised critics (``state_space``): every seat's
        observation, seat 0 first. Never the deck order or the removed plants."""
        assert self.game is not None, "call reset() before state()"
        return public_state_vector(self.encoder, self.game)

    # ------------------------------------------------------------------ display
    def render(self) -> str | None:
        return render(self.game, self.render_mode)

    def close(self) -> None:
        self.game = None


def render(game: GameState | None, mode: str | None) -> str | None:
    """Both environments' render: the position in words, printed ("human") or returned ("ansi")."""
    if mode not in RENDER_MODES or game is None:
        return None
    text = describe_state(game)
    if mode == "human":
        print(text)
        return None
    return text


def describe_state(game: GameState) -> str:
    lines = [f"round {game.round}, Step {game.step}, {game.phase_name}; to act: {game.current_player}",
             f"market {game.market}, resources {game.market_res}"]
    for seat in range(game.players):
        lines.append(f"  player_{seat}: {game.money[seat]} Elektro, plants {list(game.plants[seat])}, "
                     f"resources {list(game.resources_of(seat))}, {len(game.cities[seat])} cities")
    if game.is_over:
        lines.append(f"winners: {list(game.winners)}")
    return "\n".join(lines)


def parallel_env(**kwargs: Any) -> Any:
    """PettingZoo's parallel API over the turn-based game (PettingZoo's
    ``turn_based_aec_to_parallel``): every live agent gets an observation each step, only the
    action of the agent to act (``infos[agent]["active_agent"]``; the only one whose mask is
    not all zeros) is applied, the others' are ignored. Power Grid is turn-based, so
    ``aec_to_parallel`` (simultaneous moves) refuses it: ``is_parallelizable`` is False."""
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel
    return turn_based_aec_to_parallel(env(**kwargs))


def raw_env(**kwargs: Any) -> PowerGridAEC:
    """The environment without PettingZoo's order-enforcing wrapper."""
    return PowerGridAEC(**kwargs)


def env(map: str = "germany", players: int = 4, seed: int | None = None, variant: str = "standard",
        regions: Any = None, reward: str = "win", bid_cap: int = DEFAULT_BID_CAP,
        **kwargs: Any) -> AECEnv:
    """A PettingZoo AEC environment for Power Grid (wrapped to enforce call order).

    Extra keyword arguments: ``max_decisions`` (truncation limit, default 10,000),
    ``illegal_action`` ("terminate", the default: the offender gets -1 and the game ends, as in
    PettingZoo's classic games; or "raise"), ``map_file``, ``render_mode`` ("ansi"/"human"),
    ``bids`` ("absolute" or "compact"), ``view_in_info`` (default False: True puts the seat's
    view in ``infos[agent]["view"]``; it is large to pickle, so process-based vector envs slow down).
    """
    inner = PowerGridAEC(map=map, players=players, seed=seed, variant=variant, regions=regions,
                         reward=reward, bid_cap=bid_cap, **kwargs)
    return wrappers.OrderEnforcingWrapper(inner)
