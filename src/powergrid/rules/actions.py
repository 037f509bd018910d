"""Actions: small immutable values with a text notation that parses both ways.

The notation (docs/actions.md)::

    open 12 15                 open an auction for plant 12 with a bid of 15
    bid 16                     raise the bid in the running auction
    pass                       pass (as opener: out of this phase's auctions)
    discard 5 keep 2coal 1oil  discard plant 5 over the plant limit, keeping these resources
    discard 5 keep nothing
    buy 3 coal                 buy 3 coal (one purchase; more may follow)
    build Köln                 build a house in a city (city names as on the map)
    done                       end this turn's buying or building
    power 5 10 burn 2coal 3oil run plants 5 and 10 burning those resources
    power nothing              run no plant (paid for 0 cities)
"""

from __future__ import annotations

import re
from typing import NamedTuple

from .catalog import RESOURCE_INDEX, RESOURCES
from .errors import MalformedAction

NO_FUEL = (0, 0, 0, 0)


def fuel_text(fuel: tuple[int, ...]) -> str:
    parts = [f"{n}{RESOURCES[i]}" for i, n in enumerate(fuel) if n]
    return " ".join(parts) if parts else "nothing"


class Action(NamedTuple):
    """One atomic decision. Build them with the class methods or :func:`parse_action`."""

    kind: str
    plant: int = 0
    amount: int = 0
    city: str = ""
    resource: int = -1
    plants: tuple[int, ...] = ()
    fuel: tuple[int, int, int, int] = NO_FUEL

    # Constructors, in the game's words.
    @classmethod
    def open(cls, plant: int, bid: int) -> Action:
        return cls("open", plant, bid)

    @classmethod
    def bid(cls, amount: int) -> Action:
        return cls("bid", 0, amount)

    @classmethod
    def pass_(cls) -> Action:
        return PASS

    @classmethod
    def done(cls) -> Action:
        return DONE

    @classmethod
    def discard(cls, plant: int, keep: tuple[int, int, int, int]) -> Action:
        return cls("discard", plant, 0, "", -1, (), tuple(keep))  # type: ignore[arg-type]

    @classmethod
    def buy(cls, resource: str | int, amount: int) -> Action:
        index = resource if isinstance(resource, int) else RESOURCE_INDEX[resource]
        return cls("buy", 0, amount, "", index)

    @classmethod
    def build(cls, city: str) -> Action:
        return cls("build", 0, 0, city)

    @classmethod
    def power(cls, plants: tuple[int, ...], burn: tuple[int, int, int, int]) -> Action:
        return cls("power", 0, 0, "", -1, tuple(sorted(plants)), tuple(burn))  # type: ignore[arg-type]

    def __str__(self) -> str:
        kind = self.kind
        if kind == "open":
            return f"open {self.plant} {self.amount}"
        if kind == "bid":
            return f"bid {self.amount}"
        if kind == "buy":
            return f"buy {self.amount} {RESOURCES[self.resource]}"
        if kind == "build":
            return f"build {self.city}"
        if kind == "discard":
            return f"discard {self.plant} keep {fuel_text(self.fuel)}"
        if kind == "power":
            if not self.plants:
                return "power nothing"
            numbers = " ".join(str(p) for p in self.plants)
            return f"power {numbers} burn {fuel_text(self.fuel)}"
        return kind

    def __repr__(self) -> str:
        return f"Action({str(self)!r})"


PASS = Action("pass")
DONE = Action("done")

_FUEL_TOKEN = re.compile(r"^(\d+)(coal|oil|garbage|uranium)$")


def _parse_fuel(tokens: list[str], text: str) -> tuple[int, int, int, int]:
    if tokens == ["nothing"]:
        return NO_FUEL
    fuel = [0, 0, 0, 0]
    seen = set()
    for token in tokens:
        match = _FUEL_TOKEN.match(token)
        if not match or match.group(2) in seen:
            raise MalformedAction(f"{text!r}: {token!r} is not an amount like '2coal' "
                                  "(each resource once, or 'nothing')")
        seen.add(match.group(2))
        fuel[RESOURCE_INDEX[match.group(2)]] = int(match.group(1))
    if not tokens:
        raise MalformedAction(f"{text!r}: resources missing (e.g. '2coal 1oil' or 'nothing')")
    return fuel[0], fuel[1], fuel[2], fuel[3]


def _number(token: str, text: str, what: str) -> int:
    if not token.isdigit() or len(token) > 6:
        raise MalformedAction(f"{text!r}: {what} must be a whole number, not {token!r}")
    return int(token)


def parse_action(text: str) -> Action:
    """Parse the text notation; raise :class:`MalformedAction` saying what is wrong.

    :raises MalformedAction: the text is not an action.
    """
    if not isinstance(text, str):
        raise MalformedAction(f"an action is text, not {type(text).__name__}")
    if len(text) > 200:
        raise MalformedAction("action text is too long")
    stripped = " ".join(text.split())
    if not stripped:
        raise MalformedAction("empty action")
    verb, _, rest = stripped.partition(" ")
    verb = verb.lower()
    # Keywords and resource names in any case; city names (build) stay exact.
    args = rest.lower().split(" ") if rest and verb != "build" else rest.split(" ") if rest else []
    if verb in ("pass", "done"):
        if args:
            raise MalformedAction(f"{text!r}: '{verb}' takes nothing after it")
        return PASS if verb == "pass" else DONE
    if verb == "open":
        if len(args) != 2:
            raise MalformedAction(f"{text!r}: expected 'open <plant> <bid>'")
        return Action.open(_number(args[0], text, "the plant"), _number(args[1], text, "the bid"))
    if verb == "bid":
        if len(args) != 1:
            raise MalformedAction(f"{text!r}: expected 'bid <amount>'")
        return Action.bid(_number(args[0], text, "the bid"))
    if verb == "buy":
        if len(args) != 2 or args[1].lower() not in RESOURCE_INDEX:
            raise MalformedAction(f"{text!r}: expected 'buy <amount> coal|oil|garbage|uranium'")
        amount = _number(args[0], text, "the amount")
        if amount < 1:
            raise MalformedAction(f"{text!r}: buy at least 1")
        return Action.buy(args[1].lower(), amount)
    if verb == "build":
        if not rest:
            raise MalformedAction(f"{text!r}: expected 'build <city>'")
        return Action.build(rest)
    if verb == "discard":
        if len(args) < 3 or args[1] != "keep":
            raise MalformedAction(f"{text!r}: expected 'discard <plant> keep <resources>|nothing'")
        return Action.discard(_number(args[0], text, "the plant"), _parse_fuel(args[2:], text))
    if verb == "power":
        if args == ["nothing"]:
            return Action.power((), NO_FUEL)
        if "burn" not in args:
            raise MalformedAction(f"{text!r}: expected 'power <plants> burn <resources>' or 'power nothing'")
        cut = args.index("burn")
        if cut == 0:
            raise MalformedAction(f"{text!r}: name the plants to run before 'burn'")
        plants = tuple(_number(a, text, "a plant") for a in args[:cut])
        if len(set(plants)) != len(plants):
            raise MalformedAction(f"{text!r}: a plant is named twice")
        return Action.power(plants, _parse_fuel(args[cut + 1:], text))
    raise MalformedAction(f"{text!r}: unknown action '{verb}'; the actions are "
                          "open, bid, pass, discard, buy, build, done, power")
