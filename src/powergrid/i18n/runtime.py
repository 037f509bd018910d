"""The reader's language at play time: compiled gettext catalogues, read with the standard library.

English is the source language: a message id is the English text, with named ``{placeholders}``
filled in with :meth:`str.format` after translation. A message missing from a catalogue (or not
translated yet) shows in English.
"""

from __future__ import annotations

import gettext as _gettext
import os
from collections.abc import Mapping
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any

#: the languages the game speaks, English (the source) first
LANGUAGES = ("en", "de", "pl", "pt", "ro", "he")
#: languages written right to left
RTL = frozenset({"he"})
DOMAIN = "powergrid"
LOCALES = Path(__file__).with_name("locales")

#: per language: (thousands separator, decimal mark); CLDR's, for the numbers the game shows
_NUMBER_MARKS = {
    "en": (",", "."),
    "de": (".", ","),
    "pl": ("\u00a0", ","),
    "pt": (".", ","),
    "ro": (".", ","),
    "he": (",", "."),
}
#: CLDR's minimum grouping digits (as browsers apply them): Polish groups from five digits (1000, 10 000)
_MIN_GROUPING = {"pl": 2}


class UnknownLanguage(ValueError):
    """A language code the game does not speak."""

    code = "unknown_language"


def N_(message: str) -> str:
    """Mark a message for extraction where it is defined (a table); translate it where it is shown."""
    return message


class Translator:
    """One language's messages: ``gettext``, ``ngettext``, ``pgettext``, ``npgettext`` (English
    ids in, the language's text out), and its numbers."""

    def __init__(self, lang: str, catalogue: _gettext.NullTranslations) -> None:
        self.lang = lang
        self.catalogue = catalogue

    @property
    def direction(self) -> str:
        return "rtl" if self.lang in RTL else "ltr"

    def gettext(self, message: str, **params: Any) -> str:
        return self._fill(self.catalogue.gettext(message), params)

    def ngettext(self, singular: str, plural: str, n: int, **params: Any) -> str:
        """The form for ``n``; ``{n}`` is filled in with ``n`` (formatted) unless params say otherwise."""
        return self._fill(self.catalogue.ngettext(singular, plural, n), {"n": n, **params})

    def pgettext(self, context: str, message: str, **params: Any) -> str:
        return self._fill(self.catalogue.pgettext(context, message), params)

    def npgettext(self, context: str, singular: str, plural: str, n: int, **params: Any) -> str:
        return self._fill(self.catalogue.npgettext(context, singular, plural, n), {"n": n, **params})

    def number(self, n: int | float) -> str:
        return format_number(n, self.lang)

    def _fill(self, text: str, params: Mapping[str, Any]) -> str:
        if not params:
            return text
        shown = {k: self.number(v) if isinstance(v, int | float) and not isinstance(v, bool) else v
                 for k, v in params.items()}
        return text.format(**shown)

    def __repr__(self) -> str:
        return f"Translator({self.lang!r})"


def check_language(lang: str) -> str:
    if lang not in LANGUAGES:
        raise UnknownLanguage(f"no language {lang!r}; the languages are {', '.join(LANGUAGES)}")
    return lang


@cache
def translator(lang: str = "en") -> Translator:
    """The (cached) translator for a language; English needs no catalogue.

    :raises UnknownLanguage: a language the game does not speak.
    """
    check_language(lang)
    if lang == "en":
        return Translator(lang, _gettext.NullTranslations())
    mo = LOCALES / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    try:
        with mo.open("rb") as f:
            catalogue: _gettext.NullTranslations = _gettext.GNUTranslations(f)
    except FileNotFoundError:  # a language added but not compiled yet: English
        catalogue = _gettext.NullTranslations()
    return Translator(lang, catalogue)


def format_number(n: int | float, lang: str = "en") -> str:
    """A number as the language writes it: ``12,500`` (en), ``12.500`` (de), ``12 500`` (pl)."""
    group, decimal = _NUMBER_MARKS.get(lang, _NUMBER_MARKS["en"])
    negative = n < 0
    whole, _, fraction = f"{abs(n)}".partition(".") if isinstance(n, float) else (str(abs(n)), "", "")
    if len(whole) >= 4 + _MIN_GROUPING.get(lang, 1) - 1:
        head = len(whole) % 3 or 3
        whole = whole[:head] + "".join(group + whole[i:i + 3] for i in range(head, len(whole), 3))
    text = whole + (decimal + fraction if fraction and fraction != "0" else "")
    return ("-" if negative else "") + text


def _base(tag: str) -> str | None:
    """``pt_BR.UTF-8`` / ``pt-br`` -> ``pt``; ``iw`` (Hebrew's old code) -> ``he``; None if not ours."""
    base = tag.strip().replace("-", "_").split(".")[0].split("@")[0].split("_")[0].lower()
    base = {"iw": "he"}.get(base, base)
    return base if base in LANGUAGES else None


def language_from_env(environ: Mapping[str, str] | None = None) -> str:
    """The terminal's language from ``LANGUAGE`` (a list), ``LC_ALL``, ``LC_MESSAGES``, ``LANG``, as
    gettext reads them; English when none names a language the game speaks."""
    env = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if not value:
            continue
        if value in ("C", "POSIX") or value.startswith("C."):
            return "en"
        for tag in value.split(":"):
            lang = _base(tag)
            if lang is not None:
                return lang
        if name != "LANGUAGE":  # the first locale variable set decides (LANGUAGE only adds choices)
            return "en"
    return "en"


def negotiate(accept_language: str | None) -> str:
    """The best of our languages for an ``Accept-Language`` header (by quality, then order); en
    when none matches or the header is malformed."""
    if not accept_language:
        return "en"
    ranked: list[tuple[float, int, str]] = []
    for i, item in enumerate(accept_language.split(",")):
        tag, _, params = item.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if quality <= 0 or not tag:
            continue
        lang = "en" if tag.strip() == "*" else _base(tag)
        if lang is not None:
            ranked.append((-quality, i, lang))
    return min(ranked)[2] if ranked else "en"


# ------------------------------------------------------------------ the current language
# The terminal client reads in one language for the whole process; the server passes translators
# explicitly (one game can be watched in two languages at once).
_current: ContextVar[Translator] = ContextVar("powergrid_language")


def use(lang: str) -> Translator:
    """Make ``lang`` the current language (of this thread or task) and return its translator."""
    tr = translator(lang)
    _current.set(tr)
    return tr


def current() -> Translator:
    """The current language's translator (English unless :func:`use` chose another)."""
    return _current.get(None) or translator("en")


def _(message: str, **params: Any) -> str:
    return current().gettext(message, **params)


def gettext(message: str, **params: Any) -> str:
    return current().gettext(message, **params)


def ngettext(singular: str, plural: str, n: int, **params: Any) -> str:
    return current().ngettext(singular, plural, n, **params)


def pgettext(context: str, message: str, **params: Any) -> str:
    return current().pgettext(context, message, **params)


def npgettext(context: str, singular: str, plural: str, n: int, **params: Any) -> str:
    return current().npgettext(context, singular, plural, n, **params)
