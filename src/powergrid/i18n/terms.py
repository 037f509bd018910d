"""The game's own words, shared by the log, the terminal and the coach: resources, plant kinds,
phases, and lists of names."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .runtime import Translator

RESOURCE_NAMES = ("coal", "oil", "garbage", "uranium")  # the engine's order (rules.catalog.RESOURCES)

_RESOURCE: dict[str, Callable[[Translator], str]] = {
    "coal": lambda tr: tr.pgettext("resource", "coal"),
    "oil": lambda tr: tr.pgettext("resource", "oil"),
    "garbage": lambda tr: tr.pgettext("resource", "garbage"),
    "uranium": lambda tr: tr.pgettext("resource", "uranium"),
}
_RESOURCE_COUNT: dict[str, Callable[[Translator, int], str]] = {
    "coal": lambda tr, n: tr.npgettext("resource", "{n} coal", "{n} coal", n),
    "oil": lambda tr, n: tr.npgettext("resource", "{n} oil", "{n} oil", n),
    "garbage": lambda tr, n: tr.npgettext("resource", "{n} garbage", "{n} garbage", n),
    "uranium": lambda tr, n: tr.npgettext("resource", "{n} uranium", "{n} uranium", n),
}
_PLANT_KIND: dict[str, Callable[[Translator], str]] = {
    "coal": lambda tr: tr.pgettext("plant kind", "coal"),
    "oil": lambda tr: tr.pgettext("plant kind", "oil"),
    "hybrid": lambda tr: tr.pgettext("plant kind", "coal/oil"),
    "garbage": lambda tr: tr.pgettext("plant kind", "garbage"),
    "uranium": lambda tr: tr.pgettext("plant kind", "uranium"),
    "ecological": lambda tr: tr.pgettext("plant kind", "eco"),
    "fusion": lambda tr: tr.pgettext("plant kind", "fusion"),
}
_PHASE: dict[str, Callable[[Translator], str]] = {
    "auction": lambda tr: tr.pgettext("phase", "auction"),
    "resources": lambda tr: tr.pgettext("phase", "buy resources"),
    "build": lambda tr: tr.pgettext("phase", "build"),
    "bureaucracy": lambda tr: tr.pgettext("phase", "bureaucracy"),
    "over": lambda tr: tr.pgettext("phase", "game over"),
}
#: the phase numbers of the engine (rules.phase) to their names above
PHASE_NUMBERS = {2: "auction", 3: "resources", 4: "build", 5: "bureaucracy", 6: "over"}


def resource(tr: Translator, which: int | str) -> str:
    """A resource's name: ``coal``."""
    name = RESOURCE_NAMES[which] if isinstance(which, int) else which
    return _RESOURCE[name](tr)


def resource_count(tr: Translator, n: int, which: int | str) -> str:
    """An amount of a resource, the noun agreeing with it: ``3 coal`` (``3 węgle``, ``5 węgli``)."""
    name = RESOURCE_NAMES[which] if isinstance(which, int) else which
    return _RESOURCE_COUNT[name](tr, n)


def fuel_list(tr: Translator, fuel: Sequence[int], nothing: str | None = None) -> str:
    """``2 coal, 1 oil`` (the resources with an amount), or ``nothing``."""
    parts = [resource_count(tr, n, r) for r, n in enumerate(fuel) if n]
    if parts:
        return ", ".join(parts)
    return tr.gettext("nothing") if nothing is None else nothing


def plant_kind(tr: Translator, kind: str) -> str:
    """A plant's kind, short: ``coal``, ``coal/oil``, ``eco``."""
    return _PLANT_KIND[kind](tr)


def phase(tr: Translator, which: int | str) -> str:
    """A phase's name by number (2-5, 6: the game is over) or the engine's name."""
    name = PHASE_NUMBERS.get(which, "over") if isinstance(which, int) else which
    if name not in _PHASE:
        return str(which)
    return _PHASE[name](tr)


def seat(n: int) -> str:
    """A seat as the log writes it: ``P1`` (notation, the same in every language)."""
    return f"P{n}"


def and_list(tr: Translator, items: Sequence[str]) -> str:
    """``A and B and C`` (as the English log has always joined winners)."""
    if not items:
        return ""
    text = items[0]
    for item in items[1:]:
        text = tr.gettext("{first} and {second}", first=text, second=item)
    return text
