"""Versioned plain-JSON form of a state (schema in docs/state-json.md)."""

from __future__ import annotations

from typing import Any

from .actions import parse_action
from .catalog import STEP3, UNKNOWN, catalog
from .config import GameConfig
from .errors import CorruptState, PowerGridError, UnsupportedVersion
from .phase import AUCTION, OVER
from .scenario import make_scenario
from .storage import capacities, fits

FORMAT = "powergrid.state"
VERSION = 1


def _event_to_json(event: tuple[Any, ...]) -> list[Any]:
    if event[0] == "act":
        return ["act", event[1], str(event[2])]
    return [list(x) if isinstance(x, tuple) else x for x in event]


def _event_from_json(item: Any) -> tuple[Any, ...]:
    if not isinstance(item, list) or not item or not isinstance(item[0], str):
        raise CorruptState(f"bad log entry {item!r}")
    if item[0] == "act":
        return ("act", item[1], parse_action(item[2]))
    return tuple(tuple(x) if isinstance(x, list) else x for x in item)


def state_to_dict(s: Any, include_log: bool = True) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "config": s.scn.config.to_dict(),
        "regions": list(s.scn.board.regions),
        "seating": list(s.scn.seating),
        "rng": s.rng,
        "round": s.round,
        "step": s.step,
        "phase": s.phase,
        "order": list(s.order),
        "players": [
            {"money": s.money[p], "plants": list(s.plants[p]), "resources": list(s.resources_of(p)),
             "cities": [s.scn.map.cities[c] for c in s.cities[p]], "powered": s.powered[p]}
            for p in range(s.players)
        ],
        "resource_market": list(s.market_res),
        "supply": list(s.supply),
        "plant_market": list(s.market),
        "deck": list(s.deck),
        "known_top": s.known_top,
        "known_bottom": s.known_bottom,
        "removed": list(s.removed),
        "boxed": list(s.boxed),
        "step3_pending": s.step3_pending,
        "step3_next": s.step3_next,
        "turn": s.turn,
        "auction": {"done": s.auc_done, "bought_any": s.auc_any, "plant": s.auc_plant,
                    "bid": s.auc_bid, "leader": s.auc_leader, "in": s.auc_in, "turn": s.auc_turn,
                    "discard_seat": s.discard_seat, "new_plant": s.new_plant},
        "winners": list(s.winners_) if s.winners_ is not None else None,
        "decisions": s.decisions,
        "log": [_event_to_json(e) for e in s.events] if include_log else [],
    }


def _int(value: Any, what: str, lo: int | None = None, hi: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise CorruptState(f"{what} must be an integer, not {value!r}")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise CorruptState(f"{what} = {value} is out of range")
    return value


def _int_list(value: Any, what: str, length: int | None = None) -> list[int]:
    if not isinstance(value, list) or (length is not None and len(value) != length):
        raise CorruptState(f"{what} must be a list" + (f" of {length}" if length is not None else ""))
    return [_int(v, f"{what}[{i}]") for i, v in enumerate(value)]


def state_from_dict(data: Any) -> Any:
    from .state import GameState
    if not isinstance(data, dict):
        raise CorruptState(f"a saved state is a JSON object, not {type(data).__name__}")
    if data.get("format") != FORMAT:
        raise CorruptState(f"not a saved state (format {data.get('format')!r}, expected {FORMAT!r})")
    if data.get("version") != VERSION:
        raise UnsupportedVersion(f"saved state version {data.get('version')!r}; this engine reads "
                                 f"version {VERSION}")
    try:
        return _load(GameState, data)
    except CorruptState:
        raise
    except PowerGridError as exc:
        raise CorruptState(f"saved state: {exc}") from None
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise CorruptState(f"saved state is malformed: {type(exc).__name__}: {exc}") from None


def _load(cls: Any, d: dict[str, Any]) -> Any:
    config = GameConfig.from_dict(d["config"])
    regions = tuple(d["regions"])
    n = config.players
    seating = tuple(_int_list(d["seating"], "seating", n))
    if sorted(seating) != list(range(n)):
        raise CorruptState("seating is not an order of the seats")
    scn = make_scenario(config, regions, seating)
    cat = catalog()
    s = object.__new__(cls)
    s._shared = None
    s.scn = scn
    s.rng = _int(d["rng"], "rng", 0, (1 << 64) - 1)
    s.round = _int(d["round"], "round", 1)
    s.step = _int(d["step"], "step", 1, 3)
    s.phase = _int(d["phase"], "phase", AUCTION, OVER)
    s.order = tuple(_int_list(d["order"], "order", n))
    if sorted(s.order) != list(range(n)):
        raise CorruptState("order is not an order of the seats")
    players = d["players"]
    if not isinstance(players, list) or len(players) != n:
        raise CorruptState(f"players must list {n} players")
    s.money, s.plants, s.res, s.cities, s.reach, s.powered = [], [], [], [], [], []
    s.houses = [()] * len(scn.map.cities)
    houses: list[list[int]] = [[] for _ in scn.map.cities]
    for seat, p in enumerate(players):
        s.money.append(_int(p["money"], f"player {seat} money", 0))
        plants = tuple(_int_list(p["plants"], f"player {seat} plants"))
        if any(x not in cat.plants for x in plants) or list(plants) != sorted(set(plants)):
            raise CorruptState(f"player {seat} plants {list(plants)} are not distinct known plants")
        s.plants.append(plants)
        s.res.extend(_int(x, f"player {seat} resources", 0) for x in _int_list(p["resources"],
                                                                               "resources", 4))
        if not fits(s.res[4 * seat:4 * seat + 4], capacities(scn, plants)):
            raise CorruptState(f"player {seat} holds more resources than its plants can store")
        names = p["cities"]
        if not isinstance(names, list):
            raise CorruptState(f"player {seat} cities must be a list")
        cities = []
        for name in names:
            if name not in scn.city_by_name:
                raise CorruptState(f"player {seat} has a house in unknown city {name!r}")
            cities.append(scn.city_by_name[name])
        if len(set(cities)) != len(cities):
            raise CorruptState(f"player {seat} has two houses in one city")
        outside = [scn.map.cities[c] for c in cities if scn.board.distance[c][c] != 0]
        if outside:
            raise CorruptState(f"player {seat} has houses outside the regions in play: {outside}")
        if len(cities) > scn.max_houses:
            raise CorruptState(f"player {seat} has {len(cities)} houses, more than {scn.max_houses}")
        s.cities.append(tuple(cities))
        reach = None
        for c in cities:
            row = scn.board.distance[c]
            reach = row if reach is None else tuple(map(min, reach, row))
        s.reach.append(reach)
        s.powered.append(_int(p.get("powered", 0), f"player {seat} powered", 0))
        for c in cities:
            houses[c].append(seat)
    # The order of houses within a city is the order slots were taken; saved by build order
    # within each player, so rebuild it from the log when available, else by seat order.
    s.houses = [tuple(h) for h in houses]
    s.step = _int(d["step"], "step", 1, 3)
    full = [scn.map.cities[c] for c, h in enumerate(houses) if len(h) > s.step]
    if full:
        raise CorruptState(f"more houses than Step {s.step} allows in {', '.join(full)}")
    s.market_res = _int_list(d["resource_market"], "resource_market", 4)
    s.supply = _int_list(d["supply"], "supply", 4)
    for r, track in enumerate(cat.tracks):
        total = s.market_res[r] + s.supply[r] + sum(s.res[4 * p + r] for p in range(n))
        if not 0 <= s.market_res[r] <= track.capacity or s.supply[r] < 0 or total != track.total:
            raise CorruptState(f"resource {r}: market, supply and players hold {total}, "
                               f"not the {track.total} the game has")
    s.market = _int_list(d["plant_market"], "plant_market")
    s.deck = _int_list(d["deck"], "deck")
    s.removed = tuple(_int_list(d["removed"], "removed"))
    s.boxed = tuple(_int_list(d["boxed"], "boxed"))
    everywhere = s.market + s.deck + list(s.removed) + list(s.boxed) + [x for p in s.plants for x in p]
    plants_seen = sorted(x for x in everywhere if x != STEP3)
    if UNKNOWN in everywhere:
        raise CorruptState("this is a view with hidden cards, not a full state")
    if plants_seen != sorted(cat.plants):
        raise CorruptState("the plants in market, deck, box and hands are not each plant exactly once")
    if s.market != sorted(s.market):
        raise CorruptState("the plant market is not sorted")
    s.known_top = _int(d["known_top"], "known_top", 0, len(s.deck))
    s.known_bottom = _int(d["known_bottom"], "known_bottom", 0, len(s.deck))
    s.step3_pending = bool(d["step3_pending"])
    s.step3_next = bool(d["step3_next"])
    s.turn = _int(d["turn"], "turn", 0, n)
    a = d["auction"]
    s.auc_done = _int(a["done"], "auction.done", 0, (1 << n) - 1)
    s.auc_any = bool(a["bought_any"])
    s.auc_plant = _int(a["plant"], "auction.plant", 0)
    s.auc_bid = _int(a["bid"], "auction.bid", 0)
    s.auc_leader = _int(a["leader"], "auction.leader", -1, n - 1)
    s.auc_in = _int(a["in"], "auction.in", 0, (1 << n) - 1)
    s.auc_turn = _int(a["turn"], "auction.turn", -1, n - 1)
    s.discard_seat = _int(a["discard_seat"], "auction.discard_seat", -1, n - 1)
    s.new_plant = _int(a["new_plant"], "auction.new_plant", 0)
    winners = d["winners"]
    s.winners_ = tuple(_int_list(winners, "winners")) if winners is not None else None
    s.decisions = _int(d["decisions"], "decisions", 0)
    s._log = None
    log = d["log"]
    if not isinstance(log, list):
        raise CorruptState("log must be a list")
    slot_order: list[list[int]] = [[] for _ in scn.map.cities]
    for item in log:
        event = _event_from_json(item)
        s._log = (*event, s._log)
        if event[0] == "act" and event[2].kind == "build":
            slot_order[scn.city_by_name[event[2].city]].append(event[1])
    for c, seats in enumerate(slot_order):
        if sorted(seats) == sorted(s.houses[c]):
            s.houses[c] = tuple(seats)
    if s.phase == OVER and s.winners_ is None:
        raise CorruptState("the game is over but has no winners")
    return s
