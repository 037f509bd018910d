"""The catalogues: structure (the build tool's check), completeness, placeholders, the browser's
JSON (plural categories, errors), the HTML extractor, the glossary."""

from __future__ import annotations

import json
import re
import tomllib
from gettext import c2py
from pathlib import Path

import pytest

from powergrid.i18n import LANGUAGES
from powergrid.i18n.errors import ERRORS

build = pytest.importorskip("powergrid.i18n.build")  # needs Babel (the dev extra)
from babel import Locale  # noqa: E402

SRC = Path(build.PACKAGE)
TRANSLATED = build.TRANSLATED


def catalogue(lang: str):  # type: ignore[no-untyped-def]
    return build.read_catalog(build.po_path(lang), lang)


def test_the_build_tool_finds_nothing_stale_or_broken() -> None:
    """The template matches the sources, every catalogue has exactly its keys, placeholders agree,
    the Plural-Forms are CLDR's, and the .mo and .json files are compiled from the .po files."""
    assert build.check() == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated_in_every_catalogue(lang: str) -> None:
    """Fails until the translators have finished the language (the catalogue says how far)."""
    template = {build._key(m) for m in build._messages(build.read_catalog(build.POT))}
    cat = catalogue(lang)
    keys = {build._key(m): m for m in build._messages(cat)}
    assert set(keys) == template, "missing or obsolete keys: run extract, update"
    untranslated = sorted(k[0] for k, m in keys.items() if not build.is_translated(m))
    assert untranslated == [], f"{lang}: {len(untranslated)} of {len(keys)} messages untranslated"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_translation_has_the_placeholders_of_its_message(lang: str) -> None:
    report = build.Report()
    for message in build._messages(catalogue(lang)):
        build.check_placeholders(lang, message, report)
    assert report.problems == []


def test_a_wrong_placeholder_is_reported() -> None:
    from babel.messages.catalog import Message

    report = build.Report()
    build.check_placeholders("pl", Message("Round {round}", "Runda {runda}"), report)
    build.check_placeholders("pl", Message(("{n} city", "{n} cities"), ("{n} miasto", "miasta", "{n} miast")),
                             report)
    build.check_placeholders("pl", Message("{player} pays", "{player płaci"), report)
    assert len(report.problems) == 3


# ------------------------------------------------------------------ the browser's JSON
def browser(lang: str) -> dict:  # type: ignore[type-arg]
    return json.loads(build.json_path(lang).read_text(encoding="utf-8"))


@pytest.mark.parametrize(("lang", "categories"), [
    ("pl", {"one", "few", "many", "other"}), ("ro", {"one", "few", "other"}),
    ("he", {"one", "two", "other"}), ("pt", {"one", "many", "other"}), ("de", {"one", "other"}),
])
def test_plural_categories_map_to_the_gettext_forms(lang: str, categories: set[str]) -> None:
    cat = catalogue(lang)
    mapping = build.plural_categories(lang, cat)
    assert set(mapping) == categories
    rule = Locale.parse(lang).plural_form
    form_of = c2py(cat.plural_expr)
    for n in (0, 1, 2, 3, 5, 12, 21, 22, 25, 101, 1_000_000):
        assert mapping[rule(n)] == form_of(n), (lang, n)


@pytest.mark.parametrize(("lang", "n", "text"), [
    ("pl", 1, "{n} miasto"), ("pl", 2, "{n} miasta"), ("pl", 5, "{n} miast"), ("pl", 12, "{n} miast"),
    ("pl", 22, "{n} miasta"), ("pl", 25, "{n} miast"),
    ("ro", 1, "{n} oraș"), ("ro", 2, "{n} orașe"), ("ro", 12, "{n} orașe"), ("ro", 22, "{n} de orașe"),
    ("he", 1, "{n} עיר"), ("he", 2, "{n} ערים"), ("he", 5, "{n} ערים"),
])
def test_the_json_gives_each_plural_category_its_form(lang: str, n: int, text: str) -> None:
    forms = browser(lang)["messages"]["{n} city"]
    assert forms[Locale.parse(lang).plural_form(n)] == text


def test_the_json_files_follow_the_contract() -> None:
    english = browser("en")
    assert english == {"lang": "en", "dir": "ltr", "messages": {}, "errors": ERRORS}
    for lang in TRANSLATED:
        data = browser(lang)
        assert data["lang"] == lang and data["dir"] == ("rtl" if lang == "he" else "ltr")
        assert set(data["errors"]) == set(ERRORS)
        for key, value in data["messages"].items():
            assert value and (isinstance(value, str) or all(value.values())), key
    polish = browser("pl")
    assert polish["messages"]["action\u0004pass"] == "pas"  # a message with a context
    assert polish["errors"]["not_your_turn"] == "To nie twoja kolej."

    # untranslated entries are left out (the browser shows the English), errors fall back to English
    from babel.messages.catalog import Catalog

    partial = Catalog(locale="pl")
    partial.add("Step 3 began", "Rozpoczął się etap 3")
    partial.add("Round {round}", "")
    partial.add(ERRORS["not_your_turn"], "To nie twoja kolej.")
    data = build.browser_messages("pl", partial)
    assert data["messages"] == {"Step 3 began": "Rozpoczął się etap 3",
                                ERRORS["not_your_turn"]: "To nie twoja kolej."}
    assert data["errors"]["not_your_turn"] == "To nie twoja kolej."
    assert data["errors"]["seat_taken"] == ERRORS["seat_taken"]


# ------------------------------------------------------------------ named errors
def test_every_error_code_of_the_server_has_a_message() -> None:
    from powergrid.server.common.errors import STATUS

    used = set()
    for path in (SRC / "server").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r'ApiError\(\s*"([a-z_]+)"', text))
        used |= set(re.findall(r'"code":\s*"([a-z_]+)"', text))
    assert used, "the scan found no codes"
    assert set(STATUS) | used <= set(ERRORS)


# ------------------------------------------------------------------ extraction
def test_html_messages_come_from_data_i18n_and_its_attributes() -> None:
    html = """<html><body>
      <h1 data-i18n>Power  <b>Grid</b> lobby </h1>
      <button data-i18n="New game" title="x">Neues Spiel</button>
      <input data-i18n-placeholder="Your name" data-i18n-aria-label="Name">
      <p><span data-i18n>Seat &amp; token</span><br>after</p>
      <a data-i18n-title="Open the replay">▶</a>
      <p data-i18n></p>
      <h3 data-i18n data-i18n-context="phase">Build</h3>
      <ol data-i18n-data-empty="Nothing yet"></ol>
    </body></html>"""
    assert [(m, c) for _line, m, c in build.html_messages(html)] == [
        ("Power Grid lobby", None), ("New game", None), ("Your name", None), ("Name", None),
        ("Seat & token", None), ("Open the replay", None), ("Build", "phase"), ("Nothing yet", None)]


def test_the_template_holds_the_messages_of_python_and_javascript() -> None:
    template = build.extract_messages()
    keys = {build._key(m) for m in build._messages(template)}
    assert ("Language", None) in keys  # web/static/js/i18n.js: t("Language")
    assert ("{player} powers {n} city and earns {amount}", None) in keys  # ngettext in i18n/log.py
    assert ("pass", "action") in keys  # pgettext
    assert ("{n} coal", "resource") in keys  # npgettext
    assert (ERRORS["game_over"], None) in keys  # N_ in a table
    assert not any(path.startswith("powergrid/rules/") for m in build._messages(template)
                   for path, _line in m.locations)  # the engine speaks English only


# ------------------------------------------------------------------ the glossary
GLOSSARY = tomllib.loads((SRC / "i18n" / "glossary.toml").read_text(encoding="utf-8"))


def test_the_glossary_has_every_term_for_every_language() -> None:
    assert set(GLOSSARY) == set(LANGUAGES) - {"en"}
    terms = set(GLOSSARY["de"])
    for lang, table in GLOSSARY.items():
        assert set(table) == terms, lang
        assert all(isinstance(v, str) and v.strip() for v in table.values()), lang
    assert {"power plant", "Elektro", "step", "Step 3 card", "auction", "bid", "pass", "bureaucracy",
            "resources", "coal", "oil", "garbage", "uranium", "hybrid", "ecological plant", "city",
            "house", "connection", "region", "player order", "phase 1", "phase 5", "resource market",
            "plant market", "current market", "future market", "payout", "powered cities"} <= terms


@pytest.mark.parametrize(("lang", "msgid", "context", "terms"), [
    ("pl", "Phase 5: bureaucracy", None, ["phase", "bureaucracy"]),
    ("pl", "Future market:", None, ["future market"]),
    ("pl", "Player order: {list}", None, ["player order"]),
    ("ro", "Phase 5: bureaucracy", None, ["phase 5"]),
    ("ro", "Resupply: {list}", None, ["resupply"]),
    ("he", "Phase 3: buy resources", None, ["phase", "phase 3"]),
    ("he", "Player order: {list}", None, ["player order"]),
])
def test_translations_use_the_glossarys_words(lang: str, msgid: str, context: str | None,
                                              terms: list[str]) -> None:
    found = next(m for m in build._messages(catalogue(lang)) if build._key(m) == (msgid, context))
    text = build._forms(found)[0].casefold()
    for term in terms:
        assert GLOSSARY[lang][term].casefold() in text, (term, text)
