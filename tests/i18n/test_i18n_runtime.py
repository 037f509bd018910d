"""The runtime: languages from the environment and Accept-Language, numbers, translators."""

from __future__ import annotations

import pytest

from powergrid.i18n import (
    LANGUAGES,
    N_,
    UnknownLanguage,
    current,
    format_number,
    language_from_env,
    negotiate,
    translator,
    use,
)

babel_numbers = pytest.importorskip("babel.numbers")


@pytest.mark.parametrize(("env", "lang"), [
    ({}, "en"),
    ({"LANG": "pl_PL.UTF-8"}, "pl"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({"LANG": "fr_FR.UTF-8"}, "en"),
    ({"LC_ALL": "he_IL.UTF-8", "LANG": "de_DE.UTF-8"}, "he"),
    ({"LANGUAGE": "fr:ro", "LANG": "en_US.UTF-8"}, "ro"),
    ({"LANGUAGE": "fr", "LANG": "pt_BR.UTF-8"}, "pt"),
    ({"LC_MESSAGES": "iw_IL", "LANG": "en_GB"}, "he"),
])
def test_language_from_the_environment(env: dict[str, str], lang: str) -> None:
    assert language_from_env(env) == lang


@pytest.mark.parametrize(("header", "lang"), [
    (None, "en"),
    ("", "en"),
    ("pl-PL,pl;q=0.9,en;q=0.8", "pl"),
    ("fr-FR, de;q=0.5, ro;q=0.7", "ro"),
    ("en;q=0.1, he", "he"),
    ("pt-BR;q=0", "en"),
    ("xx, *;q=0.5", "en"),
    ("de;q=banana, pl;q=0.2", "pl"),
    (";;,,", "en"),
])
def test_negotiate_picks_the_best_language_we_speak(header: str | None, lang: str) -> None:
    assert negotiate(header) == lang


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("n", [0, 7, 999, 12_500, 1_234_567, -4_321, 2.5])
def test_numbers_are_written_as_cldr_says(lang: str, n: float) -> None:
    expected = babel_numbers.format_decimal(n, locale=lang)
    if lang == "pl" and 1000 <= abs(n) < 10_000:  # CLDR's minimum grouping digits, which Babel skips
        expected = expected.replace("\xa0", "")
    assert format_number(n, lang) == expected


def test_polish_groups_from_five_digits_as_browsers_do() -> None:
    assert format_number(1000, "pl") == "1000"
    assert format_number(1000, "de") == "1.000"


def test_translators_are_cached_and_unknown_languages_are_refused() -> None:
    assert translator("pl") is translator("pl")
    with pytest.raises(UnknownLanguage):
        translator("xx")
    assert N_("Round {round}") == "Round {round}"


def test_a_message_missing_from_a_catalogue_shows_in_english() -> None:
    tr = translator("pl")
    assert tr.gettext("Round {round}", round=3) == "Runda 3"
    assert tr.gettext("A message no catalogue has, {n}", n=1500) == "A message no catalogue has, 1500"
    assert translator("en").ngettext("{n} city", "{n} cities", 1200) == "1,200 cities"


def test_the_current_language_is_per_context() -> None:
    import contextvars

    def inside() -> str:
        use("pl")
        return current().lang

    assert contextvars.copy_context().run(inside) == "pl"
    assert current().lang == "en"
