"""The terminal client in the reader's language: plural forms, and a round played in Polish and in
Hebrew in a pseudo-terminal."""

from __future__ import annotations

import contextvars
import os
import re
import sys
from pathlib import Path

import pytest

import powergrid as pg
from powergrid.i18n import use
from powergrid.tui.menus import menu_for
from powergrid.tui.names import cities, plant_words

CITIES = {
    "pl": {1: "1 miasto", 2: "2 miasta", 5: "5 miast", 12: "12 miast", 22: "22 miasta", 25: "25 miast"},
    "ro": {1: "1 oraș", 2: "2 orașe", 5: "5 orașe", 12: "12 orașe", 22: "22 de orașe", 25: "25 de orașe"},
}


def in_language(lang: str, fn):  # type: ignore[no-untyped-def]
    """``fn()`` with ``lang`` as the current language (the test's own context is left alone)."""
    def run():  # type: ignore[no-untyped-def]
        use(lang)
        return fn()
    return contextvars.copy_context().run(run)


@pytest.mark.parametrize("lang", ["pl", "ro"])
@pytest.mark.parametrize("n", [1, 2, 5, 12, 22, 25])
def test_the_terminal_counts_cities_in_the_languages_plural_forms(lang: str, n: int) -> None:
    assert in_language(lang, lambda: cities(n)) == CITIES[lang][n]


def test_menus_speak_the_current_language() -> None:
    state = pg.new_game(pg.GameConfig(seed=3, map="germany", players=2, variant="first_game"))
    menu = in_language("pl", lambda: menu_for(state))
    assert menu.question == "Wybierz elektrownię do licytacji"
    assert "elektrownia 3: spala 2 (olej), zasila 1 miasto" in menu.choices[0].label
    assert in_language("en", lambda: plant_words(state, 3)) == "plant 3: burns 2 oil, powers 1 city"


# ------------------------------------------------------------------ through a terminal
pexpect = pytest.importorskip("pexpect")
BIN = Path(sys.executable).parent / "powergrid"

#: per language: the prompts' words (auction, bid, discard, buy, build, power; amount) and what the
#: log and board must show during round 1
LANGS = {
    "pl": {"prompts": ("licytacja", "stawka", "odrzuć", "zakup", "budowa", "zasilanie"), "amount": "kwota",
           "round2": "Runda 2",
           "seen": ["Faza 2: licytacja elektrowni", "Faza 3: zakup surowców", "Faza 4: rozbudowa sieci",
                    "Faza 5: biurokracja", "Elektrownie na sprzedaż:", "Rynek przyszły:", "Kolejność graczy",
                    "Wybierz elektrownię do licytacji", "P0 Czerwony"]},
    "he": {"prompts": ("מכרז", "הצעה", "השלכה", "קנייה", "בנייה", "הפעלה"), "amount": "סכום",
           "round2": "סיבוב 2",
           "seen": ["שלב 2: מכרז על תחנות כוח", "שלב 3: קניית משאבים", "שלב 4: בנייה",
                    "שלב 5: בירוקרטיה", "תחנות בשוק:", "התחנות העתידיות:", "סדר התור",
                    "בחר תחנה שתעלה למכרז", "P0 אדום"]},
}
REPLIES = {0: "1", 1: "pass", 2: "1", 3: "done", 4: "done", 5: ""}


def spawn(*args: str, lang_env: str | None = None):  # type: ignore[no-untyped-def]
    if BIN.exists():
        command, argv = str(BIN), list(args)
    else:  # pragma: no cover - an install without the console script
        command, argv = sys.executable, ["-c", "from powergrid.cli.main import main; main()", *args]
    env = {"PATH": "/usr/bin:/bin", "TERM": "xterm", "NO_COLOR": "1", "COLUMNS": "130", "LINES": "50",
           "PYTHONIOENCODING": "utf-8", "HOME": str(Path.home())}
    if "PYTHONPATH" in os.environ:  # the sources under test, where they are not the installed ones
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    if lang_env:
        env["LANG"] = lang_env
    return pexpect.spawn(command, argv, env=env, encoding="utf-8", timeout=30, dimensions=(50, 130))


@pytest.mark.parametrize(("lang", "how"), [("pl", "--lang"), ("he", "LANG")])
def test_a_round_played_in_the_terminal_in_the_readers_language(lang: str, how: str) -> None:
    words = LANGS[lang]
    args = ["play", "--players", "2", "--bots", "random", "--variant", "first_game", "--seed", "4"]
    child = spawn(*args, "--lang", lang) if how == "--lang" else spawn(*args, lang_env="he_IL.UTF-8")
    prompt = re.compile(r"P0 (" + "|".join(map(re.escape, words["prompts"])) + r")> |"
                        + re.escape(words["amount"]) + "> ")
    screen = ""
    kinds = set()
    for _ in range(200):
        index = child.expect([prompt, re.escape(words["round2"])])
        screen += child.before
        if index == 1:
            break
        kind = child.match.group(1)
        if kind is None:
            child.sendline("")  # the amount: Enter takes the lowest bid
            continue
        kinds.add(kind)
        child.sendline(REPLIES[words["prompts"].index(kind)])
    else:
        pytest.fail("round 2 never came")
    child.sendline("quit") if child.isalive() else None
    child.close(force=True)
    for text in words["seen"]:
        assert text in screen, text
    assert {words["prompts"][0], words["prompts"][3], words["prompts"][4]} <= kinds
    assert "Phase 2: auction" not in screen and "Plants for sale" not in screen
