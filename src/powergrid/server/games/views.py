"""What leaves the server about a game: GameView.to_dict() plus public fields derived from it.

Nothing here reads the deck order, the removed plants or the seed: the payload is built from the
seat's view, and the view's config has its seed taken out (the seed would give the deck away).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

import powergrid as pg
from powergrid.rules.catalog import RESOURCES, STARTING_MONEY, catalog

from . import round_log

#: the display log's last entries sent with every state (the rest: GET /log, by pages). 60 is about two
#: rounds of a 3-player game; the tail was most of each state message at 200 (11 of 15 kB)
LOG_LINES = 60
CAPACITY_KINDS = ("coal", "oil", "hybrid", "garbage", "uranium")


@dataclass(frozen=True)
class LogTail:
    """The last LOG_LINES entries of the display log (JSON and words), how many there are in all,
    and the tally of the round in progress (for the round summaries and the auction status).

    The display log is the event log with a summary entry per player at the end of each round
    (``round_log``); ``total`` counts its entries.
    """

    entries: tuple[list[Any], ...]
    text: tuple[str, ...]
    total: int
    tally: round_log.RoundTally = round_log.RoundTally()
    #: the words of the events added by the last extension alone (no summaries): "what just happened"
    last_text: tuple[str, ...] = ()
    #: each entry and each line of words as JSON, encoded once when it joins the tail: the tail is
    #: most of every state message, and it changes by a few entries per action (``json``)
    encoded: tuple[bytes, ...] = ()
    encoded_text: tuple[bytes, ...] = ()

    @classmethod
    def of(cls, state: pg.GameState) -> LogTail:
        shown, tally = round_log.display_entries(state.scn, state.events, round_log.RoundTally())
        tail = shown[-LOG_LINES:]
        return cls(tuple(e for e, _ in tail), tuple(t for _, t in tail), len(shown), tally, (),
                   tuple(_encode(e) for e, _ in tail), tuple(_encode(t) for _, t in tail))

    def extended(self, state: pg.GameState, events: list[tuple[Any, ...]]) -> LogTail:
        if not events:
            return self
        shown, tally = round_log.display_entries(state.scn, events, self.tally)
        entries = (self.entries + tuple(e for e, _ in shown))[-LOG_LINES:]
        text = (self.text + tuple(t for _, t in shown))[-LOG_LINES:]
        last = tuple(t for e, t in shown if e[0] != "summary")
        encoded = (self.encoded + tuple(_encode(e) for e, _ in shown))[-LOG_LINES:]
        encoded_text = (self.encoded_text + tuple(_encode(t) for _, t in shown))[-LOG_LINES:]
        return LogTail(entries, text, self.total + len(shown), tally, last, encoded, encoded_text)

    def json(self) -> bytes:
        """``"log":[...],"log_text":[...]`` (the members of the state object), from the entries
        encoded when they joined."""
        return b'"log":[' + b",".join(self.encoded) + b'],"log_text":[' + b",".join(self.encoded_text) + b"]"


@dataclass(frozen=True)
class NoLogTail(LogTail):
    """No display log: for a process that never sends a state (a bot worker), which would
    otherwise pay for turning every event into words and JSON at every move."""

    @classmethod
    def of(cls, state: pg.GameState) -> LogTail:
        return NO_LOG_TAIL

    def extended(self, state: pg.GameState, events: list[tuple[Any, ...]]) -> LogTail:
        return self


NO_LOG_TAIL = NoLogTail((), (), 0)


def _encode(data: Any) -> bytes:
    return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS)


def display_log(state: pg.GameState, start: int = 0,
                stop: int | None = None) -> tuple[list[list[Any]], list[str], int]:
    """Entries ``start``..``stop`` of the whole display log (JSON, words) and its length."""
    shown, _ = round_log.display_entries(state.scn, state.events, round_log.RoundTally())
    part = shown[start:stop]
    return [e for e, _ in part], [t for _, t in part], len(shown)


def auction_status(view: pg.GameView, tally: round_log.RoundTally,
                   auction: dict[str, Any] | None = None) -> list[dict[str, Any]] | None:
    """This round's auction per seat (phase 2 only): bought (plant, price), passed, or still to go.

    ``done`` in the view's auction marks the seats finished with this round's auction; those in the
    tally with a plant bought it, the others passed.
    """
    if view.phase != pg.Phase.AUCTION:
        return None
    if auction is None:
        auction = view.to_dict(include_log=False)["auction"]
    out: list[dict[str, Any]] = []
    for seat in range(view.players):
        bought = tally.seats[seat].plant if tally.round == view.round and tally.seats else None
        if bought:
            out.append({"seat": seat, "status": "bought", "plant": bought[0], "price": bought[1]})
        elif (auction["done"] >> seat) & 1:
            out.append({"seat": seat, "status": "passed"})
        elif auction["plant"] > 0 and (auction["in"] >> seat) & 1:
            out.append({"seat": seat, "status": "bidding",
                        "leads": auction["leader"] == seat})
        else:
            out.append({"seat": seat, "status": "to_go"})
    return out


def state_payload(view: pg.GameView, history: dict[str, list[list[int]]],
                  log_tail: LogTail, with_log: bool = True) -> dict[str, Any]:
    """The view's JSON with the derived public fields of the API contract.

    The log is cut to its last LOG_LINES entries ("log_total" counts them all; the record has the
    whole game): serializing a long game's whole log for every push would dominate the server's time.
    ``with_log=False`` leaves out "log" and "log_text", for a caller that writes them from
    ``log_tail.json()``.
    """
    data = view.to_dict(include_log=False)  # the log is sent from log_tail instead
    # the fields below read the view's masked state directly (hidden cards are -1 in it), not
    # attribute by attribute through the view: this runs for every action
    seen = view.public_state
    cat = catalog()
    plants = cat.plants
    players = seen.players
    if with_log:
        data["log"] = list(log_tail.entries)
        data["log_text"] = list(log_tail.text)
    data["log_total"] = log_tail.total
    data["auction_status"] = auction_status(view, log_tail.tally, data["auction"])
    scn = seen.scn
    # the first game never reaches Step 2 (docs/rules.md, First game)
    data["stakes"] = {"end_cities": scn.end_cities,
                      "step2_cities": None if scn.first_game else scn.rules.step2_cities,
                      "max_houses": scn.max_houses}
    data["current_market"] = list(seen.current_market())
    data["future_market"] = list(seen.future_market())
    prices: dict[str, list[list[Any]]] = {}
    market_res = seen.market_res
    for r, name in enumerate(RESOURCES):
        slots = cat.tracks[r].slot_prices
        first_filled = len(slots) - market_res[r]
        prices[name] = [[price, i >= first_filled] for i, price in enumerate(slots)]
    data["prices"] = prices
    owned = seen.plants
    deck = seen.deck
    shown = set(seen.market) | {p for seat in range(players) for p in owned[seat]}
    shown.update(deck[-1 - i] for i in range(seen.known_top))  # known cards on top
    shown.update(deck[:seen.known_bottom])  # plants put under the deck since the last shuffle
    data["plants"] = {str(n): {"kind": plants[n].kind, "burn": plants[n].burn, "cities": plants[n].cities}
                      for n in sorted(shown) if n in plants}
    data["powerable"] = [seen.powerable(seat) for seat in range(players)]
    capacity = []
    for seat in range(players):
        cap = dict.fromkeys(CAPACITY_KINDS, 0)
        for n in owned[seat]:
            plant = plants[n]
            if plant.kind in cap:
                cap[plant.kind] += plant.storage
        capacity.append(cap)
    data["capacity"] = capacity
    names = scn.map.cities
    data["houses"] = {names[city]: list(seats) for city, seats in enumerate(seen.houses) if seats}
    data["deck_size"] = len(deck)
    data["step3_in_deck"] = view.step3_in_deck
    data["history"] = history
    data["game_over"] = seen.is_over
    data["winners"] = list(seen.winners) if seen.is_over else []
    data["to_act"] = seen.current_player
    return data


def seat_extras(view: pg.GameView, seat: int | None) -> dict[str, Any]:
    """``to_act``, and for the seat to act: its legal actions, build costs or default power."""
    to_act = view.current_player
    extras: dict[str, Any] = {"to_act": to_act}
    if seat is None or to_act != seat:
        return extras
    extras["legal"] = [str(a) for a in view.legal_actions()]
    if view.phase == pg.Phase.BUILD:
        names = view.scn.map.cities
        costs = {}
        for city in view.scn.board.in_play:
            cost = view.build_cost(seat, city)
            if cost is not None:
                costs[names[city]] = cost
        extras["build_costs"] = costs
    elif view.phase == pg.Phase.BUREAUCRACY:
        extras["default_power"] = str(pg.default_power(view, seat))  # type: ignore[arg-type]  # reads only
    return extras


def empty_history(players: int) -> dict[str, list[list[int]]]:
    """Standings before round 1: everyone's starting money and no city."""
    return {"money": [[STARTING_MONEY] * players], "cities": [[0] * players]}


def record_round(history: dict[str, list[list[int]]], state: pg.GameState) -> None:
    """Add the standings at the end of a round (money after payday, cities built)."""
    history["money"].append(list(state.money))
    history["cities"].append([len(c) for c in state.cities])


def map_info(name: str) -> dict[str, Any]:
    """A packaged map for drawing the board (raises pg.UnknownMap)."""
    game_map = pg.load_map(name)
    cat = catalog()
    adjacency = game_map.region_adjacency()
    return {
        "name": game_map.name,
        "cities": [{"name": city, "region": game_map.city_region[i], "x": game_map.positions[city][0],
                    "y": game_map.positions[city][1]} for i, city in enumerate(game_map.cities)],
        "regions": {r: [game_map.cities[i] for i in idx] for r, idx in game_map.regions.items()},
        "region_colours": {r: REGION_COLOURS.get(r, "#999999") for r in game_map.regions},
        "connections": [{"a": game_map.cities[a], "b": game_map.cities[b], "cost": cost}
                        for a, b, cost in game_map.connections],
        "adjacency": {r: sorted(adj) for r, adj in adjacency.items()},
        "regions_per_players": {str(n): rules.regions for n, rules in sorted(cat.player_counts.items())},
    }


REGION_COLOURS = {
    "green": "#4caf50", "brown": "#8d6e63", "yellow": "#fdd835", "red": "#e53935",
    "cyan": "#26c6da", "purple": "#8e24aa", "blue": "#1e88e5", "orange": "#fb8c00",
}
