"""What the browser tests of the languages compare: the English messages of the browser client (read
from its sources as the extractor reads them: t, tn, pt calls and data-i18n attributes), a language's
compiled catalogue (static/i18n/<lang>.json), and the words on a page that are still English."""

from __future__ import annotations

import json
import re
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

STATIC = Path(__file__).resolve().parents[2] / "src" / "powergrid" / "web" / "static"
LANGUAGES = ("de", "pl", "pt", "ro", "he")
CONTEXT = "\u0004"

_STRING = r'"((?:[^"\\]|\\.)*)"|\'((?:[^\'\\]|\\.)*)\''


def _literal(match: re.Match[str], group: int) -> str:
    double, single = match.group(group), match.group(group + 1)
    if double is not None:
        return str(json.loads(f'"{double}"'))
    return str(json.loads('"' + single.replace("\\'", "'").replace('"', '\\"') + '"'))


class _Html(HTMLParser):
    """data-i18n elements' texts (or values) and data-i18n-* attributes, with data-i18n-context."""

    def __init__(self, found: dict[str, str]) -> None:
        super().__init__()
        self.found = found
        self.open: list[list[Any] | None] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = {k: v or "" for k, v in attrs}
        context = named.get("data-i18n-context")
        for key, value in named.items():
            if key.startswith("data-i18n-") and key != "data-i18n-context" and value:
                self.add(context, value)
        if "data-i18n" in named and not named["data-i18n"]:
            self.open.append([context, ""])
            return
        if named.get("data-i18n"):
            self.add(context, named["data-i18n"])
        self.open.append(None)

    def handle_endtag(self, tag: str) -> None:
        if self.open:
            element = self.open.pop()
            if element:
                self.add(element[0], " ".join(element[1].split()))

    def handle_data(self, data: str) -> None:
        for element in self.open:
            if element:
                element[1] += data

    def add(self, context: str | None, msgid: str) -> None:
        self.found[f"{context}{CONTEXT}{msgid}" if context else msgid] = msgid


@cache
def english_messages() -> dict[str, tuple[str, ...]]:
    """Each message key of the browser client (context + EOT + msgid, or the msgid) and its English
    texts (the singular and the plural for tn)."""
    found: dict[str, tuple[str, ...]] = {}
    for path in sorted((STATIC / "js").glob("*.js")):
        source = path.read_text()
        for m in re.finditer(r"(?<![\w.])t\(\s*(?:" + _STRING + ")", source):
            found[_literal(m, 1)] = (_literal(m, 1),)
        for m in re.finditer(r"(?<![\w.])pt\(\s*(?:" + _STRING + r")\s*,\s*(?:" + _STRING + ")", source):
            found[_literal(m, 1) + CONTEXT + _literal(m, 3)] = (_literal(m, 3),)
        for m in re.finditer(r"(?<![\w.])tn\(\s*(?:" + _STRING + r")\s*,\s*(?:" + _STRING + ")", source):
            found[_literal(m, 1)] = (_literal(m, 1), _literal(m, 3))
    html: dict[str, str] = {}
    for path in sorted(STATIC.glob("*.html")):
        _Html(html).feed(path.read_text())
    found.update({key: (msgid,) for key, msgid in html.items()})
    return found


def catalogue(lang: str) -> dict[str, Any]:
    """A language's compiled catalogue; an empty one where it is not built yet."""
    path = STATIC / "i18n" / f"{lang}.json"
    if not path.exists():
        return {"lang": lang, "messages": {}, "errors": {}}
    return json.loads(path.read_text())  # type: ignore[no-any-return]


def words(text: str) -> set[str]:
    """The words of a text (letters only, two or more, lower case), placeholders left out."""
    text = re.sub(r"\{\w+\}", " ", text)
    return {w.lower() for w in re.findall(r"[^\W\d_]{2,}", text)}


def _texts(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [v for v in value.values() if isinstance(v, str)]
    return []


def english_words(lang: str, allowed: set[str]) -> set[str]:
    """Words of the English messages that the language says differently: each message not
    translated into it counts (its words are English on its pages), and a word the language's
    translations use too (a shared word, "Start", "Elektro") never counts."""
    messages = catalogue(lang).get("messages", {})
    english: set[str] = set()
    theirs: set[str] = set()
    for key, texts in english_messages().items():
        translated = [t for t in _texts(messages.get(key)) if t]
        theirs.update(*(words(t) for t in translated))
        if not translated or any(t not in texts for t in translated):
            english.update(*(words(t) for t in texts))
        elif set(translated) <= set(texts):
            theirs.update(*(words(t) for t in texts))  # kept as in English on purpose
    for value in catalogue(lang).get("errors", {}).values():
        theirs.update(words(str(value)))
    return english - theirs - allowed


#: the page's visible words (the language picker's names of languages left out)
VISIBLE_TEXT = """() => {
  const picker = document.querySelector('.language-picker');
  if (picker) picker.style.display = 'none';
  const text = document.body.innerText;
  if (picker) picker.style.display = '';
  return text;
}"""

#: visible elements whose text does not fit their box (wider than it, text cut or spilling out)
OVERFLOWS = """() => {
  const chosen = 'button, label, .btn, .pill, .tag, .status-badge, .panel-title, .panel, th, td, .row-label,'
    + ' .res-name, .stat, .seat-btn, .decision-title, .field-label, .buy-summary, .deck-info, .track-flag,'
    + ' .segmented, .option, select, .link-row, .game-item, .end-card, .turn-order li, .player header';
  const out = [];
  for (const node of document.querySelectorAll(chosen)) {
    const box = node.getBoundingClientRect();
    if (!box.width || !box.height || node.closest('svg') || node.closest('[hidden]')) continue;
    const style = getComputedStyle(node);
    if (style.visibility === 'hidden' || style.textOverflow === 'ellipsis') continue;
    if (style.overflowX === 'auto' || style.overflowX === 'scroll') continue;  // scrolls on purpose
    if (node.scrollWidth > node.clientWidth + 1 && node.clientWidth > 0) {
      out.push(`${node.tagName.toLowerCase()}.${String(node.className).trim().replace(/\\s+/g, '.')}`
        + ` "${node.innerText.trim().slice(0, 40)}" ${node.scrollWidth}>${node.clientWidth}`);
    }
  }
  return out;
}"""
