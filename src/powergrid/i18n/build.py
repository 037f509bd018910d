"""Build the message catalogues (needs Babel: the ``dev`` extra).

    python -m powergrid.i18n.build extract   sources -> powergrid.pot (the template)
    python -m powergrid.i18n.build update    powergrid.pot -> locales/<lang>/LC_MESSAGES/powergrid.po
    python -m powergrid.i18n.build compile   .po -> .mo (Python) and web/static/i18n/<lang>.json (browser)
    python -m powergrid.i18n.build check     exit 1 if anything above is stale or a catalogue is broken

Messages come from the Python sources (``_``, ``gettext``, ``N_``, ``ngettext``, ``pgettext``,
``npgettext``, also as a translator's methods), the browser's modules (``t``, ``tn``, ``pt``) and
the static HTML (``data-i18n``, ``data-i18n-title|placeholder|aria-label``). See docs/translating.md.
"""

from __future__ import annotations

import io
import json
import string
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from gettext import c2py
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from babel import Locale
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract
from babel.messages.mofile import write_mo
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po, write_po

from .errors import ERRORS
from .runtime import DOMAIN, LANGUAGES, RTL

PACKAGE = Path(__file__).resolve().parent.parent  # src/powergrid
I18N = PACKAGE / "i18n"
POT = I18N / f"{DOMAIN}.pot"
LOCALES = I18N / "locales"
STATIC = PACKAGE / "web" / "static"
JSON_DIR = STATIC / "i18n"
#: the languages with a catalogue (English is the source)
TRANSLATED = tuple(lang for lang in LANGUAGES if lang != "en")
#: Python sources not scanned: the engine speaks English only and imports nothing from here
SKIP_PYTHON = ("rules",)

PYTHON_KEYWORDS: dict[str, Any] = {
    "_": None, "gettext": None, "N_": None, "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2), "npgettext": ((1, "c"), 2, 3),
}
JS_KEYWORDS: dict[str, Any] = {"t": None, "tn": (1, 2), "pt": ((1, "c"), 2)}
COMMENT_TAGS = ("TRANSLATORS:",)
HTML_ATTRIBUTES = ("data-i18n-title", "data-i18n-placeholder", "data-i18n-aria-label", "data-i18n-data-empty")
VOID_ELEMENTS = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                           "source", "track", "wbr"})
#: sample numbers searched for one of each CLDR plural category (the millions: Portuguese's "many")
PLURAL_SAMPLES = (*range(0, 200), 1000, 10_000, 100_000, 1_000_000)
PO_WIDTH = 100


class Problem(Exception):
    """Something ``check`` found (or a step could not do its job)."""


# ------------------------------------------------------------------ extraction
class HtmlMessages(HTMLParser):
    """Messages of static HTML, as js/i18n.js ``translatePage`` reads them: an element with
    ``data-i18n`` (its value, or else its text with runs of white space made one space), and the
    ``data-i18n-*`` attributes' values; ``data-i18n-context`` gives the element's messages a
    context."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str, str | None]] = []
        #: elements whose text is being collected: [depth when opened, line, context, text parts]
        self.open: list[tuple[int, int, str | None, list[str]]] = []
        self.depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        context = (values.get("data-i18n-context") or "").strip() or None
        self._attributes(attrs, context)
        if tag in VOID_ELEMENTS:
            return
        self.depth += 1
        if "data-i18n" in values:
            value = _one_line(values["data-i18n"] or "")
            if value:
                self.found.append((self.getpos()[0], value, context))
            else:
                self.open.append((self.depth, self.getpos()[0], context, []))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        context = (values.get("data-i18n-context") or "").strip() or None
        self._attributes(attrs, context)
        value = _one_line(values.get("data-i18n") or "")
        if value:
            self.found.append((self.getpos()[0], value, context))

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID_ELEMENTS:
            return
        if self.open and self.open[-1][0] == self.depth:
            _, line, context, parts = self.open.pop()
            text = _one_line("".join(parts))
            if text:
                self.found.append((line, text, context))
        self.depth -= 1

    def handle_data(self, data: str) -> None:
        for _, _, _, parts in self.open:
            parts.append(data)

    def _attributes(self, attrs: list[tuple[str, str | None]], context: str | None) -> None:
        for name, value in attrs:
            if name in HTML_ATTRIBUTES and value and value.strip():
                self.found.append((self.getpos()[0], value.strip(), context))


def _one_line(text: str) -> str:
    return " ".join(text.split())


def html_messages(text: str) -> list[tuple[int, str, str | None]]:
    parser = HtmlMessages()
    parser.feed(text)
    parser.close()
    return parser.found


def _relative(path: Path) -> str:
    return path.relative_to(PACKAGE.parent).as_posix()


def python_sources() -> Iterator[Path]:
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.relative_to(PACKAGE).parts[0] not in SKIP_PYTHON:
            yield path


def extract_messages() -> Catalog:
    """The template: every message of the sources, sorted, with where it is used (no line numbers,
    so that moving code does not make the template stale)."""
    catalog = Catalog(project="powergrid", domain=DOMAIN, fuzzy=False, charset="utf-8",
                      msgid_bugs_address="https://github.com/powergrid/powergrid/issues",
                      copyright_holder="the powergrid authors")
    catalog.header_comment = "# The messages of powergrid (python -m powergrid.i18n.build extract)."

    def add(path: Path, found: Iterator[tuple[int, Any, list[str], str | None]]) -> None:
        for _line, message, comments, context in found:
            catalog.add(message, None, [(_relative(path), 0)], auto_comments=comments, context=context)

    for path in python_sources():
        with path.open("rb") as f:
            add(path, extract("python", f, PYTHON_KEYWORDS, COMMENT_TAGS))
    for path in sorted((STATIC / "js").rglob("*.js")):
        with path.open("rb") as f:
            add(path, extract("javascript", f, JS_KEYWORDS, COMMENT_TAGS))
    for path in sorted(STATIC.glob("*.html")):
        for _line, message, context in html_messages(path.read_text(encoding="utf-8")):
            catalog.add(message, None, [(_relative(path), 0)], context=context)
    for entry in _messages(catalog):
        entry.locations = sorted(set(entry.locations))
        entry.auto_comments = list(dict.fromkeys(entry.auto_comments))
    return catalog


def _po_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=PO_WIDTH, sort_output=True, ignore_obsolete=True, include_lineno=False)
    return out.getvalue()


def _messages(catalog: Catalog) -> list[Message]:
    """The catalogue's messages, its header left out."""
    return [m for m in catalog if isinstance(m, Message) and m.id]


def _forms(message: Message) -> list[str]:
    """The translation's forms (one for a message without plural)."""
    string = message.string
    return [str(s) for s in string] if isinstance(string, tuple | list) else [str(string or "")]


def _key(message: Message) -> tuple[str, str | None]:
    msgid = message.id[0] if isinstance(message.id, tuple | list) else message.id
    return msgid, message.context


def _shape(catalog: Catalog) -> dict[tuple[str, str | None], tuple[Any, ...]]:
    """What makes two templates the same: each message's ids, places and comments."""
    return {_key(m): (m.id if isinstance(m.id, str) else tuple(m.id),
                      tuple(sorted({p for p, _ in m.locations})),
                      tuple(m.auto_comments)) for m in _messages(catalog)}


def read_catalog(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=locale, domain=DOMAIN)


def cmd_extract() -> int:
    template = extract_messages()
    if POT.exists() and _shape(read_catalog(POT)) == _shape(template):
        print(f"{_relative(POT)}: up to date ({len(_shape(template))} messages)")
        return 0
    POT.write_bytes(_po_bytes(template))
    print(f"{_relative(POT)}: {len(_shape(template))} messages")
    return 0


# ------------------------------------------------------------------ the languages' catalogues
def po_path(lang: str) -> Path:
    return LOCALES / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(lang: str) -> Path:
    return LOCALES / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"


def json_path(lang: str) -> Path:
    return JSON_DIR / f"{lang}.json"


def updated(lang: str, template: Catalog) -> Catalog:
    """The language's catalogue with the template's messages: new ones added (untranslated),
    obsolete ones dropped, the plural forms from CLDR (Babel's data)."""
    path = po_path(lang)
    if path.exists():
        catalog = read_catalog(path, lang)
    else:
        catalog = Catalog(locale=lang, domain=DOMAIN, project="powergrid", fuzzy=False, charset="utf-8")
        catalog.language_team = f"{Locale.parse(lang).english_name} <translators of powergrid>"
    catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
    catalog.obsolete.clear()
    return catalog


def cmd_update(langs: tuple[str, ...] = TRANSLATED) -> int:
    template = read_catalog(POT)
    for lang in langs:
        path = po_path(lang)
        path.parent.mkdir(parents=True, exist_ok=True)
        catalog = updated(lang, template)
        data = _po_bytes(catalog)
        if not path.exists() or path.read_bytes() != data:
            path.write_bytes(data)
        done, total = translated_count(catalog)
        print(f"{_relative(path)}: {done} of {total} messages translated")
    return 0


def translated_count(catalog: Catalog) -> tuple[int, int]:
    messages = [m for m in catalog if m.id]
    return sum(1 for m in messages if is_translated(m)), len(messages)


def is_translated(message: Message) -> bool:
    """Every form translated, and not marked fuzzy (a guess waiting for a translator's look)."""
    if message.fuzzy:
        return False
    return all(_forms(message))


# ------------------------------------------------------------------ compiling
def mo_bytes(catalog: Catalog) -> bytes:
    """The .mo of the translated messages only (gettext falls back to English for the others)."""
    kept = Catalog(locale=catalog.locale, domain=DOMAIN, fuzzy=False, charset="utf-8")
    kept.mime_headers = catalog.mime_headers
    for message in _messages(catalog):
        if is_translated(message):
            kept.add(message.id, message.string, context=message.context)
    out = io.BytesIO()
    write_mo(out, kept)
    return out.getvalue()


def plural_categories(lang: str, catalog: Catalog) -> dict[str, int]:
    """Each CLDR plural category of the language (as ``Intl.PluralRules`` names them) to the index of
    the gettext form it uses: the catalogue's own plural expression on a number of that category."""
    rule = Locale.parse(lang).plural_form
    form_of = c2py(catalog.plural_expr)
    out: dict[str, int] = {}
    for category in sorted(rule.tags | {"other"}):
        sample = next((n for n in PLURAL_SAMPLES if rule(n) == category), None)
        # a category no whole number falls in (Polish "other": fractions): the last, most general form
        out[category] = catalog.num_plurals - 1 if sample is None else int(form_of(sample))
    return out


def browser_messages(lang: str, catalog: Catalog | None) -> dict[str, Any]:
    """The browser's file for a language (the contract of web/static/js/i18n.js)."""
    messages: dict[str, Any] = {}
    translations: dict[tuple[str, str | None], Message] = {}
    if catalog is not None:
        categories = plural_categories(lang, catalog)
        for message in _messages(catalog):
            translations[_key(message)] = message
            if not is_translated(message):
                continue
            msgid, context = _key(message)
            key = msgid if context is None else f"{context}\u0004{msgid}"
            forms = _forms(message)
            if message.pluralizable:
                messages[key] = {category: forms[index] for category, index in categories.items()}
            else:
                messages[key] = forms[0]
    errors = {}
    for code, english in ERRORS.items():
        found = translations.get((english, None))
        errors[code] = _forms(found)[0] if found is not None and is_translated(found) else english
    return {"lang": lang, "dir": "rtl" if lang in RTL else "ltr", "messages": messages, "errors": errors}


def json_bytes(data: dict[str, Any]) -> bytes:
    return (json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n").encode("utf-8")


def compiled(lang: str) -> dict[Path, bytes]:
    """The files compiled from a language's catalogue: path -> content."""
    if lang == "en":
        return {json_path(lang): json_bytes(browser_messages("en", None))}
    catalog = read_catalog(po_path(lang), lang)
    return {mo_path(lang): mo_bytes(catalog), json_path(lang): json_bytes(browser_messages(lang, catalog))}


def cmd_compile(langs: tuple[str, ...] = LANGUAGES) -> int:
    JSON_DIR.mkdir(parents=True, exist_ok=True)
    for lang in langs:
        for path, data in compiled(lang).items():
            if not path.exists() or path.read_bytes() != data:
                path.write_bytes(data)
                print(f"{_relative(path)}: written")
    return 0


# ------------------------------------------------------------------ checking
def placeholders(text: str) -> set[str]:
    """The named ``{placeholders}`` of a message (str.format's fields).

    :raises ValueError: unbalanced braces."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


@dataclass
class Report:
    problems: list[str] = field(default_factory=list)

    def add(self, text: str) -> None:
        self.problems.append(text)


def check_placeholders(lang: str, message: Message, report: Report) -> None:
    msgid, context = _key(message)
    where = f"{lang}: {msgid!r}" + (f" (context {context!r})" if context else "")
    try:
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        expected = set().union(*(placeholders(i) for i in ids))
        for form in _forms(message):
            if form and placeholders(form) != expected:
                report.add(f"{where}: the translation {form!r} has placeholders "
                           f"{sorted(placeholders(form))}, the message {sorted(expected)}")
    except ValueError as exc:
        report.add(f"{where}: the translation is not a valid message ({exc})")


def check_catalogue(lang: str, template: Catalog, report: Report) -> None:
    path = po_path(lang)
    if not path.exists():
        report.add(f"{_relative(path)} is missing: run update")
        return
    catalog = read_catalog(path, lang)
    keys, wanted = set(_shape(catalog)), set(_shape(template))
    for msgid, context in sorted(wanted - keys, key=str):
        report.add(f"{lang}: message {msgid!r}" + (f" (context {context!r})" if context else "")
                   + " is missing: run update")
    for msgid, context in sorted(keys - wanted, key=str):
        report.add(f"{lang}: message {msgid!r}" + (f" (context {context!r})" if context else "")
                   + " is obsolete: run update")
    if catalog.obsolete:
        report.add(f"{lang}: {len(catalog.obsolete)} obsolete (#~) entries: run update")
    expected = get_plural(lang)
    if (catalog.num_plurals, catalog.plural_expr) != (expected.num_plurals, expected.plural_expr):
        report.add(f"{lang}: Plural-Forms is {catalog.plural_forms!r}, CLDR's is {expected.plural_forms!r}")
    for message in _messages(catalog):
        if message.pluralizable and message.string and len(message.string) != catalog.num_plurals:
            report.add(f"{lang}: {_key(message)[0]!r} has {len(message.string)} plural forms, "
                       f"not {catalog.num_plurals}")
        check_placeholders(lang, message, report)


def check(langs: tuple[str, ...] = TRANSLATED) -> list[str]:
    """Everything stale or broken, in words (empty: all is well)."""
    report = Report()
    template = extract_messages()
    if not POT.exists():
        report.add(f"{_relative(POT)} is missing: run extract")
    elif _shape(read_catalog(POT)) != _shape(template):
        now, then = set(_shape(template)), set(_shape(read_catalog(POT)))
        report.add(f"{_relative(POT)} is stale against the sources ({len(now - then)} new, "
                   f"{len(then - now)} gone, or their places changed): run extract, then update")
    for msgid, context in _shape(template):
        try:
            placeholders(msgid)
        except ValueError as exc:
            report.add(f"the message {msgid!r} ({context}) is not valid: {exc}")
    for lang in langs:
        check_catalogue(lang, template, report)
    for lang in ("en", *langs):
        if lang != "en" and not po_path(lang).exists():
            continue
        for path, data in compiled(lang).items():
            if not path.exists() or path.read_bytes() != data:
                report.add(f"{_relative(path)} is stale against the catalogue: run compile")
    return report.problems


def cmd_check() -> int:
    problems = check()
    for problem in problems:
        print(problem, file=sys.stderr)
    for lang in TRANSLATED:
        if po_path(lang).exists():
            done, total = translated_count(read_catalog(po_path(lang), lang))
            print(f"{lang}: {done} of {total} messages translated")
    if problems:
        print(f"{len(problems)} problem(s)", file=sys.stderr)
        return 1
    print("catalogues: all in order")
    return 0


COMMANDS = {"extract": cmd_extract, "update": cmd_update, "compile": cmd_compile, "check": cmd_check}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or args[0] not in COMMANDS:
        print(f"usage: python -m powergrid.i18n.build {{{'|'.join(COMMANDS)}}}", file=sys.stderr)
        return 2
    return COMMANDS[args[0]]()


if __name__ == "__main__":
    sys.exit(main())
