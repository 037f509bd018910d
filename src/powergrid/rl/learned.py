"""The shipped baseline: a small multilayer perceptron over the flat observation, choosing among
the legal actions of the compact encoding, run with numpy alone.

``make_bot("learned")`` plays it (weights for 2 and 4 players ship in ``powergrid/rl/weights``;
``examples/train_baseline.py`` trains them from a seed, docs/rl.md gives the figures). The
network: input -> ReLU layers -> one logit per action; the illegal actions are masked and the
bot plays the most likely legal one.

With a *prior* (``prior_weight`` set), the input is the observation followed by a one-hot of
the action the heuristic bot would play in the same view, and that action's logit gets
``prior_weight`` more: the network starts from the heuristic's choice and learns where to
play otherwise (the shipped policies learned that from the search bot). ``phase_boost`` adds
to that weight by decision group (``PHASE_GROUPS``: the shipped 4-player policy leaves the
heuristic more readily in the auction than elsewhere), and with ``exact_bids`` the bot bids
the heuristic's exact amount where the policy picks the heuristic's index (an amount between
the compact steps has the step below as its index).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from ..bots.base import Bot
from ..bots.heuristic import HeuristicBot
from ..rules import Action, GameView
from ..rules.phase import BUILD, BUREAUCRACY, RESOURCES
from .codec import ActionCodec, ActionNotEncodable, EncodedLegal
from .observation import ObservationEncoder

WEIGHTS_DIR = Path(__file__).with_name("weights")
#: the encoding the shipped policies use (docs/rl-spaces.md, Compact bids)
BIDS = "compact"


#: the decision groups that ``MLPPolicy.phase_boost`` weighs apart: the auction (and its
#: discards), buying resources, building, powering
PHASE_GROUPS = ("auction", "resources", "build", "bureaucracy")
_GROUP_OF = {RESOURCES: 1, BUILD: 2, BUREAUCRACY: 3}


def phase_group(view: GameView) -> int:
    """The index in ``PHASE_GROUPS`` of the decision the view asks for."""
    return _GROUP_OF.get(view.public_state.phase, 0)


def weights_path(players: int) -> Path:
    return WEIGHTS_DIR / f"baseline-{players}p.npz"


def action_index(codec: ActionCodec, view: GameView, legal: EncodedLegal, action: Action) -> int | None:
    """``action`` as a legal index of ``codec``: a bid the encoding cannot express becomes the
    highest expressible legal bid below it (the same kind, the same plant); None where there is
    none, or for another inexpressible action."""
    try:
        index = codec.encode(view, action)
        return index if legal.mask[index] else None
    except ActionNotEncodable:
        if action.kind not in ("open", "bid"):
            return None
    best: tuple[int, int] | None = None
    for i in legal.indices:
        a = legal.action(i)
        if a.kind == action.kind and a.plant == action.plant and a.amount <= action.amount:
            if best is None or a.amount > best[0]:
                best = (a.amount, i)
    return None if best is None else best[1]


def prior_index(codec: ActionCodec, view: GameView, legal: EncodedLegal) -> int | None:
    """The heuristic bot's action in this view, as an index (the prior's input)."""
    return action_index(codec, view, legal, _HEURISTIC.act(view))


def prior_action(codec: ActionCodec, view: GameView, legal: EncodedLegal) -> tuple[Action, int | None]:
    """The heuristic bot's action in this view and its index (``action_index``: a bid between the
    compact steps taken down to the step below)."""
    action = _HEURISTIC.act(view)
    return action, action_index(codec, view, legal, action)


#: the heuristic bot is deterministic and keeps no state between decisions: one serves all
_HEURISTIC = HeuristicBot(0)


class MLPPolicy:
    """Layers ``w0, b0, w1, b1, ...`` (ReLU between them, none after the last), and with a prior
    its weight (the input then ends with the heuristic's action as a one-hot)."""

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]], players: int, cities: int,
                 bids: str = BIDS, prior_weight: float | None = None, exact_bids: bool = False,
                 phase_boost: Any = None) -> None:
        self.layers = [(np.asarray(w, np.float32), np.asarray(b, np.float32)) for w, b in layers]
        self.players, self.cities, self.bids = players, cities, bids
        self.prior_weight = prior_weight
        #: added to ``prior_weight`` by decision group (``PHASE_GROUPS``)
        self.phase_boost = np.zeros(len(PHASE_GROUPS), np.float32) if phase_boost is None else \
            np.asarray(phase_boost, np.float32).copy()
        #: where the policy picks the heuristic's (snapped) index, bid the heuristic's exact amount
        self.exact_bids = exact_bids

    @classmethod
    def load(cls, path: str | Path) -> MLPPolicy:
        with np.load(path) as data:
            count = sum(1 for k in data.files if k.startswith("w"))
            layers = [(data[f"w{i}"], data[f"b{i}"]) for i in range(count)]
            players, cities = (int(v) for v in data["shape"])
            bids = str(data["bids"]) if "bids" in data.files else BIDS
            prior = float(data["prior_weight"]) if "prior_weight" in data.files else None
            exact = bool(data["exact_bids"]) if "exact_bids" in data.files else False
            boost = data["phase_boost"] if "phase_boost" in data.files else None
        return cls(layers, players, cities, bids, prior, exact, boost)

    def save(self, path: str | Path, **extra: Any) -> None:
        arrays: dict[str, Any] = {}
        for i, (w, b) in enumerate(self.layers):
            # float16 halves the file; the logits move by less than the gaps between them
            arrays[f"w{i}"], arrays[f"b{i}"] = w.astype(np.float16), b.astype(np.float16)
        if self.prior_weight is not None:
            arrays["prior_weight"] = np.array(self.prior_weight, np.float32)
        if self.exact_bids:
            arrays["exact_bids"] = np.array(True)
        if self.phase_boost.any():
            arrays["phase_boost"] = self.phase_boost.astype(np.float32)
        np.savez_compressed(path, shape=np.array([self.players, self.cities]), bids=np.array(self.bids),
                            **arrays, **extra)

    def logits(self, obs: np.ndarray) -> np.ndarray:
        x = np.asarray(obs, np.float32)
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            x = x @ w + b
            if i < last:
                np.maximum(x, 0.0, out=x)
        return x

    def choose(self, obs: np.ndarray, mask: np.ndarray, prior: int | None = None, group: int = 0) -> int:
        """The most likely legal action (``prior``: the heuristic's action index, if the policy
        has a prior; ``group``: the decision's index in ``PHASE_GROUPS``)."""
        if self.prior_weight is not None:
            hint = np.zeros(mask.shape[-1], np.float32)
            if prior is not None:
                hint[prior] = 1.0
            weight = self.prior_weight + float(self.phase_boost[group])
            logits = self.logits(np.concatenate([obs, hint])) + weight * hint
        else:
            logits = self.logits(obs)
        return int(np.argmax(np.where(mask.astype(bool), logits, -np.inf)))


@lru_cache(maxsize=8)
def shipped_policy(players: int) -> MLPPolicy:
    path = weights_path(players)
    if not path.exists():
        have = sorted(p.stem for p in WEIGHTS_DIR.glob("baseline-*p.npz"))
        raise ValueError(f"no trained policy for {players} players (shipped: {', '.join(have) or 'none'})")
    return MLPPolicy.load(path)


class LearnedBot(Bot):
    """The shipped baseline policy (or ``policy``) as a bot: it sees only its seat's view and plays
    the policy's most likely legal action (deterministic; the seed is unused)."""

    name = "learned"

    def __init__(self, seed: int = 0, policy: MLPPolicy | None = None) -> None:
        super().__init__(seed)
        self.policy = policy
        self._parts: dict[tuple[int, tuple[str, ...]], tuple[ActionCodec, ObservationEncoder]] = {}

    def act(self, view: GameView) -> Action:
        policy = self.policy or shipped_policy(view.players)
        cities = tuple(view.public_state.scn.map.cities)
        key = (view.players, cities)
        parts = self._parts.get(key)
        if parts is None:
            if policy.players != view.players or policy.cities != len(cities):
                raise ValueError(f"the policy was trained for {policy.players} players and {policy.cities} "
                                 f"cities, not {view.players} and {len(cities)}")
            parts = self._parts[key] = (ActionCodec(cities, bids=policy.bids),
                                        ObservationEncoder(view.players, len(cities)))
        codec, encoder = parts
        legal = codec.legal(view)
        if policy.prior_weight is None:
            return codec.decode(policy.choose(encoder.encode(view), legal.mask), legal)
        heuristic, prior = prior_action(codec, view, legal)
        index = policy.choose(encoder.encode(view), legal.mask, prior, phase_group(view))
        if policy.exact_bids and index == prior and heuristic.kind in ("open", "bid"):
            # the heuristic's own amount, which the compact steps may not hold (its index is the
            # step below it)
            return heuristic
        return codec.decode(index, legal)
