"""Building positions for rule tests by setting the engine's public fields directly.

Every helper keeps the game's books balanced (each plant in exactly one place, each
resource unit in exactly one place), so a position built here still round-trips through
JSON and passes the conformance checks.
"""

from __future__ import annotations

import random
from typing import Any

import powergrid as pg
from powergrid.rules.catalog import STEP3
from powergrid.rules.rounds import reset_auction

ALL_PLANTS = tuple(sorted(pg.catalog().plants))
RESOURCE_TOTALS = (24, 24, 24, 12)
COAL, OIL, GARBAGE, URANIUM = range(4)

#: Four connected Germany regions around the Ruhr (the worked building example).
WEST = ("red", "cyan", "green", "yellow")


def game(players: int = 4, map: str = "germany", seed: int = 0, **kw: Any) -> pg.GameState:
    """A new game; Germany games default to the regions of the worked examples."""
    if map == "germany" and "regions" not in kw and "map_file" not in kw:
        regions = {2: WEST[:3], 3: WEST[:3], 4: WEST, 5: WEST + ("purple",), 6: WEST + ("purple",)}
        kw["regions"] = regions[players]
    return pg.new_game(pg.GameConfig(map=map, players=players, seed=seed, **kw))


def city(s: pg.GameState, name: str) -> int:
    return s.scn.map.cities.index(name)


def act(s: pg.GameState, text: str) -> None:
    s.apply(pg.parse_action(text))


def refused(s: pg.GameState, action: str | pg.Action, log: bool = True) -> pg.IllegalAction:
    """Apply an action that must be refused; check the state did not change at all.

    With ``log=False`` the log is compared by identity (it is an immutable chain) and the
    rest through ``to_dict``, which keeps long games cheap.
    """
    a = pg.parse_action(action) if isinstance(action, str) else action
    head = s._log
    before = s.to_dict() if log else _without_log(s)
    seat = s.current_player
    try:
        s.apply(a)
    except pg.IllegalAction as err:
        after = s.to_dict() if log else _without_log(s)
        assert after == before and s._log is head, "a refused action changed the state"
        assert err.seat == seat
        assert err.phase == s.phase_name
        assert err.reason
        assert str(seat) in str(err) and s.phase_name in str(err)
        return err
    raise AssertionError(f"{a} was accepted")


def _without_log(s: pg.GameState) -> dict[str, Any]:
    c = s.clone()
    c._log = None
    return c.to_dict()


# ---------------------------------------------------------------- plants
def take_plant(s: pg.GameState, plant: int) -> None:
    """Remove a plant from wherever it is (market, deck, hands, box, removed)."""
    if plant in s.market:
        s.market.remove(plant)
        return
    if plant in s.deck:
        i = s.deck.index(plant)
        del s.deck[i]
        if i < s.known_bottom:
            s.known_bottom -= 1
        elif i >= len(s.deck) - s.known_top + 1:
            s.known_top -= 1
        return
    for seat, held in enumerate(s.plants):
        if plant in held:
            s.plants[seat] = tuple(p for p in held if p != plant)
            return
    if plant in s.boxed:
        s.boxed = tuple(p for p in s.boxed if p != plant)
        return
    if plant in s.removed:
        s.removed = tuple(p for p in s.removed if p != plant)
        return
    raise AssertionError(f"plant {plant} is nowhere")


def fill_hands(s: pg.GameState) -> None:
    """Give every seat one high plant (seat k gets 35 + k), out of the way of market tests."""
    for seat in range(s.players):
        give_plants(s, seat, 35 + seat)


def box_plants(s: pg.GameState, *plants: int) -> None:
    for p in plants:
        take_plant(s, p)
    s.boxed = s.boxed + tuple(plants)


def give_plants(s: pg.GameState, seat: int, *plants: int) -> None:
    """The seat now holds exactly these plants; its old ones go to the box."""
    old = s.plants[seat]
    s.plants[seat] = ()
    s.boxed = s.boxed + tuple(p for p in old if p not in plants)
    for p in plants:
        if p not in old:
            take_plant(s, p)
    s.plants[seat] = tuple(sorted(plants))


def set_market(s: pg.GameState, *plants: int) -> None:
    """The plant market is exactly these plants; the old market goes to the box."""
    old = list(s.market)
    s.market = []
    s.boxed = s.boxed + tuple(p for p in old if p not in plants and p != STEP3)
    for p in plants:
        if p not in old and p != STEP3:
            take_plant(s, p)
        elif p == STEP3 and p in s.deck:
            s.deck.remove(STEP3)
    s.market = sorted(plants)


def stack_deck(s: pg.GameState, *top: int) -> None:
    """Put these cards on top of the deck, ``top[0]`` drawn first (99 = the Step 3 card)."""
    for p in top:
        if p == STEP3:
            s.deck.remove(STEP3)
        else:
            take_plant(s, p)
    for p in reversed(top):
        s.deck.append(p)
    s.known_top = 0


def set_deck(s: pg.GameState, *top: int) -> None:
    """The deck is exactly these cards, ``top[0]`` drawn first; other deck plants go to the box."""
    s.boxed = s.boxed + tuple(p for p in s.deck if p != STEP3 and p not in top)
    s.deck = [p for p in s.deck if p in top]
    for p in top:
        if p != STEP3 and p not in s.deck:
            take_plant(s, p)
    s.deck = list(reversed(top))
    s.known_top = 0
    s.known_bottom = 0


# ---------------------------------------------------------------- resources
def set_resources(s: pg.GameState, seat: int, coal: int = 0, oil: int = 0, garbage: int = 0,
                  uranium: int = 0) -> None:
    """The seat holds exactly these resources: the difference comes from / goes to the supply
    (from the market's cheapest spaces when the supply runs short)."""
    for r, n in enumerate((coal, oil, garbage, uranium)):
        diff = n - s.res[4 * seat + r]
        s.supply[r] -= diff
        s.res[4 * seat + r] = n
        if s.supply[r] < 0:
            s.market_res[r] += s.supply[r]
            s.supply[r] = 0
        assert s.market_res[r] >= 0, "not enough of the resource for this position"


def set_market_res(s: pg.GameState, r: int, count: int) -> None:
    """The resource market holds ``count`` units of ``r`` (on its most expensive spaces)."""
    s.supply[r] -= count - s.market_res[r]
    s.market_res[r] = count
    assert s.supply[r] >= 0


def set_supply(s: pg.GameState, r: int, count: int) -> None:
    """The supply holds ``count`` of ``r``; the rest lies in the market."""
    diff = s.supply[r] - count
    s.supply[r] = count
    s.market_res[r] += diff
    assert 0 <= s.market_res[r] <= s.scn.capacity[r]


# ---------------------------------------------------------------- houses
def place_houses(s: pg.GameState, seat: int, *names: str) -> None:
    """Put the seat's houses in these cities (no payment), as if built earlier."""
    for name in names:
        c = city(s, name)
        assert seat not in s.houses[c]
        s.houses[c] = s.houses[c] + (seat,)
        s.cities[seat] = s.cities[seat] + (c,)
        row = s.scn.board.distance[c]
        reach = s.reach[seat]
        s.reach[seat] = row if reach is None else tuple(map(min, reach, row))


def in_play_cities(s: pg.GameState) -> list[str]:
    return [s.scn.map.cities[c] for c in s.scn.board.in_play]


def give_cities(s: pg.GameState, seat: int, count: int) -> list[str]:
    """Give the seat ``count`` more houses in cities where it has none and a slot is open."""
    placed = []
    for c in s.scn.board.in_play:
        if len(placed) == count:
            break
        if seat not in s.houses[c] and len(s.houses[c]) < 3:
            name = s.scn.map.cities[c]
            place_houses(s, seat, name)
            placed.append(name)
    assert len(placed) == count
    return placed


# ---------------------------------------------------------------- phases
def to_phase(s: pg.GameState, phase: int, order: tuple[int, ...] | None = None,
             round: int | None = None, step: int | None = None) -> pg.GameState:
    """Jump to the start of a phase (its first player to act), keeping everything else."""
    if order is not None:
        s.order = tuple(order)
    if round is not None:
        s.round = round
    if step is not None:
        s.step = step
    reset_auction(s)
    s.phase = phase
    s.turn = 0
    return s


def play_round1(s: pg.GameState) -> pg.GameState:
    """Round 1's auction with everyone opening the cheapest plant at its number, nobody bidding."""
    assert s.round == 1 and s.phase == pg.Phase.AUCTION
    while s.phase == pg.Phase.AUCTION:
        if s.auc_plant:
            s.apply(pg.Action.pass_())
        else:
            plant = s.current_market()[0]
            s.apply(pg.Action.open(plant, plant))
    return s


def finish_phase(s: pg.GameState) -> pg.GameState:
    """Everyone says done / powers by default until the phase changes."""
    phase = s.phase
    while s.phase == phase and not s.is_over:
        if phase == pg.Phase.BUREAUCRACY:
            s.apply(pg.default_power(s, s.current_player))
        elif phase == pg.Phase.AUCTION:
            s.apply(pg.Action.pass_())
        else:
            s.apply(pg.Action.done())
    return s


def random_game(cfg: pg.GameConfig, seed: int, stop: int | None = None) -> pg.GameState:
    s = pg.new_game(cfg)
    rng = random.Random(seed)
    while not s.is_over and (stop is None or s.decisions < stop):
        s.apply(rng.choice(s.legal_actions()))
    return s


def plant_places(s: pg.GameState) -> list[int]:
    """Every plant number in market, deck, hands, box and removed pile (Step 3 card left out)."""
    everywhere = list(s.market) + list(s.deck) + list(s.boxed) + list(s.removed)
    for held in s.plants:
        everywhere += held
    return sorted(p for p in everywhere if p != STEP3)
