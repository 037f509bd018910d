"""Setting up a new game from its config (docs/rules.md, Setup)."""

from __future__ import annotations

from . import rng as _rng
from .catalog import STARTING_MONEY, STEP3, catalog
from .config import GameConfig
from .phase import AUCTION
from .rounds import reset_auction
from .scenario import draw_setup, make_scenario
from .state import GameState

OPENING_MARKET = (3, 4, 5, 6, 7, 8, 9, 10)
TOP_CARD = 13


def new_game(config: GameConfig) -> GameState:
    """A new game, everything drawn from ``config.seed``.

    :raises InvalidConfig: unknown map, bad player count or regions, invalid map file.
    """
    if not isinstance(config, GameConfig):
        from .errors import InvalidConfig
        raise InvalidConfig(f"new_game needs a GameConfig, not {type(config).__name__}")
    seed_state, regions, seating = draw_setup(config)
    scn = make_scenario(config, regions, seating)
    cat = catalog()
    n = config.players

    # Deck: 11..50 without 13, shuffled; remove some unseen; 13 on top, Step 3 at the bottom.
    deck = [p for p in cat.plants if p not in OPENING_MARKET and p != TOP_CARD]
    seed_state = _rng.shuffle(seed_state, deck)
    removed = tuple(deck[:scn.rules.plants_removed])
    deck = deck[scn.rules.plants_removed:]
    deck.insert(0, STEP3)        # the bottom is index 0 ...
    deck.append(TOP_CARD)        # ... and the top is the end of the list

    s = object.__new__(GameState)
    s.scn = scn
    s.rng = seed_state
    s.round = 1
    s.step = 1
    s.phase = AUCTION
    s.order = seating            # round 1 keeps the random order (docs/rules.md, Phase 1)
    s.money = [STARTING_MONEY] * n
    s.plants = [()] * n
    s.res = [0] * (4 * n)
    s.cities = [()] * n
    s.reach = [None] * n
    s.houses = [()] * len(scn.map.cities)
    s.market_res = [track.start_count for track in cat.tracks]
    s.supply = [track.total - track.start_count for track in cat.tracks]
    s.market = list(OPENING_MARKET)
    s.deck = deck
    s.known_top = 1
    s.known_bottom = 0
    s.removed = removed
    s.boxed = ()
    s.step3_pending = False
    s.step3_next = False
    s.turn = 0
    s.powered = [0] * n
    s.winners_ = None
    s.decisions = 0
    s._log = None
    s._shared = None
    reset_auction(s)
    s.note(("setup", regions, seating))
    s.note(("round", 1))
    s.note(("phase", AUCTION))
    return s
