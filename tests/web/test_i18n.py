"""The browser client in each language: no English left on the lobby, a game at each phase, the end
screen and the replay viewer; no text spilling out of its box; Hebrew right to left with the map
left to right; the picker and ?lang=; one game watched in two languages; named errors.

The "no English" tests fail until the translators have filled the catalogues (static/i18n/*.json,
compiled by `python -m powergrid.i18n.build compile`). Screenshots (POWERGRID_SCREENSHOTS=1):
artifacts/i18n/.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from powergrid.bots import levels

from .conftest import screenshot
from .i18n_text import LANGUAGES, OVERFLOWS, VISIBLE_TEXT, catalogue, english_words, words
from .moves import SETTLED_VIEW, SIGN_FIRST, TURN_OR_END, act_via_api, api, create_game, play_one_decision

SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "i18n"
SIZES = ((1366, 768), (390, 844))
#: wait for n animation frames of the page
FRAMES = "async (n) => { for (let i = 0; i < n; i++) await new Promise((go) => requestAnimationFrame(go)); }"
#: words that are the same in every language here: the game's names, the action notation's
#: resource letters, the record file's name
SHARED = {"power", "grid", "funkenschlag", "json", "powergrid"}
#: the decision forms of one round, by phase
PHASES = {"open": "auction", "bid": "auction", "buy": "resources", "build": "build", "power": "bureaucracy"}


@pytest.fixture(scope="module")
def proper_names(server_url) -> set[str]:  # type: ignore[no-untyped-def]
    """City names stay as the maps have them."""
    names: set[str] = set()
    for game_map in api(server_url, "/api/maps")["maps"]:
        for city in api(server_url, f"/api/maps/{game_map}")["cities"]:
            names |= words(city["name"])
    return names | SHARED


def finished_bot_game(url: str, **body) -> dict:  # type: ignore[no-untyped-def]
    """A first game between bots, played to its end."""
    game = create_game(url, map="germany", players=2, variant="first_game", seed=11,
                       seats=[{"kind": "bot", "bot": "heuristic"}] * 2, **body)
    deadline = time.monotonic() + 120
    while not api(url, f"/api/games/{game['game_id']}")["state"]["game_over"]:
        assert time.monotonic() < deadline, "the bots' game did not end"
        time.sleep(0.2)
    return game


def check_screen(page, lang: str, name: str, english: set[str]) -> None:  # type: ignore[no-untyped-def]
    """No English word on the screen, nothing spilling out of its box, at both sizes; screenshots."""
    seen = words(page.evaluate(VISIBLE_TEXT))
    left = sorted(seen & english)
    problems = []
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate(FRAMES, 3)  # the layout after the resize, and what its observers redraw
        screenshot(page, f"{lang}-{name}-{width}", SHOTS)
        problems += [f"{width}px: {found}" for found in page.evaluate(OVERFLOWS)]
    page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})
    assert not page.script_errors, page.script_errors
    assert not left, f"{lang} {name}: English words on the page: {left}"
    assert not problems, f"{lang} {name}: text overflows its box: {problems[:8]}"


@pytest.mark.long
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_screen_in_the_language(server_url, new_page, proper_names, lang: str) -> None:  # type: ignore[no-untyped-def]
    english = english_words(lang, proper_names)
    page = new_page(1366, 768)
    page.goto(f"{server_url}/?lang={lang}")
    page.wait_for_selector("#mini-map svg .city")
    page.wait_for_selector("#game-list .game-item, #game-list .empty-note:not([data-i18n])", state="attached")
    assert page.evaluate("document.documentElement.lang") == lang
    check_screen(page, lang, "lobby", english)
    # the chosen bot's ladder rating and time a move beside its box, the number in the reader's digits
    page.select_option("select[data-seat='1']", "expert")
    figures = page.locator("[data-figures='1']").text_content() or ""
    seconds = str(levels.SECONDS["expert"])
    if lang in ("de", "pl", "pt", "ro"):
        seconds = seconds.replace(".", ",")
    # (Hebrew says "about" in a word: "כ-0.1 שניות למהלך")
    assert "Elo " in figures and f"{seconds} " in figures and "," not in figures.split("·")[0], figures
    check_screen(page, lang, "lobby-bot", english)

    # a game at each phase of its first round, seen by the human seat
    bots = [{"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "random"}]
    game = create_game(server_url, map="germany", players=3, seed=7, seats=[{"kind": "human"}, *bots])
    page.goto(f"{server_url}{game['seats'][0]['link'].replace('#', f'?lang={lang}#')}")
    page.wait_for_selector("#board .city-name")
    taken: dict[str, int] = {}
    seen: set[str] = set()
    last = ""
    while len(seen) < 4:
        page.wait_for_function(TURN_OR_END, arg=last, timeout=60_000)
        assert not page.locator("#end-screen").count()
        last = page.locator("#decision").get_attribute("data-key")
        phase = PHASES.get(page.locator("#decision [data-decision]").get_attribute("data-decision"))
        if phase and phase not in seen:
            seen.add(phase)
            check_screen(page, lang, f"game-{phase}", english)
        play_one_decision(page, taken)

    # the end screen and the replay viewer of a finished game
    over = finished_bot_game(server_url)
    page.goto(f"{server_url}/game/{over['game_id']}?lang={lang}")
    page.wait_for_selector("#end-screen")
    page.wait_for_selector("#end-screen .coach-analysis p, #end-screen .coach-analysis[hidden]",
                           state="attached")
    check_screen(page, lang, "end", english)
    page.click("#end-screen [data-action='look']")
    check_screen(page, lang, "game-over-board", english)
    page.click("#rules-button")
    page.wait_for_selector("#rules-screen")
    check_screen(page, lang, "rules", english)
    page.goto(f"{server_url}/replay/{over['game_id']}?lang={lang}")
    page.wait_for_selector("#replay-controls:not([hidden])")
    page.wait_for_selector("#decision h2[data-step='0']")
    check_screen(page, lang, "replay-deal", english)
    page.click("[data-go='end']")
    page.wait_for_selector("#decision .replay-winners")
    check_screen(page, lang, "replay-end", english)


def test_hebrew_reads_right_to_left_and_the_map_does_not(server_url, new_page) -> None:  # type: ignore[no-untyped-def]
    game = create_game(server_url, map="germany", players=2, seed=3, seats=[{"kind": "human"}] * 2)
    where = {}
    for lang in ("en", "he"):
        page = new_page(1366, 768)
        page.goto(f"{server_url}/game/{game['game_id']}?lang={lang}")
        page.wait_for_selector("#board .city-name")
        page.wait_for_selector(".player", state="attached")
        page.evaluate(SETTLED_VIEW)  # the panels beside the map have come and the map is refitted
        assert page.evaluate("document.documentElement.dir") == ("rtl" if lang == "he" else "ltr")
        direction = "getComputedStyle(document.querySelector('#board svg.board')).direction"
        assert page.evaluate(direction) == "ltr"
        # each city sits at the same place on the drawn map in both languages
        where[lang] = page.evaluate("""() => {
          const svg = document.querySelector('#board svg.board').getBoundingClientRect();
          return [...document.querySelectorAll('#board .city')].map((city) => {
            const box = city.getBoundingClientRect();
            return [city.dataset.city, Math.round(1000 * (box.x - svg.x) / svg.width)];
          });
        }""")
        # the panels are mirrored: the players' column is on the right in Hebrew, on the left in English
        players = page.locator(".players-panel").bounding_box()
        board = page.locator(".col-board").bounding_box()
        assert (players["x"] > board["x"]) == (lang == "he")
    assert where["he"] == where["en"]


def test_hebrew_signed_figures_keep_their_sign_first(server_url, new_page) -> None:  # type: ignore[no-untyped-def]
    """In a right-to-left page "+5" would show as "5+": the bid form's raises stay left to right."""
    game = create_game(server_url, map="germany", players=2, seed=3, seats=[{"kind": "human"}] * 2)
    info = api(server_url, f"/api/games/{game['game_id']}")
    first, plant = info["to_act"], info["state"]["current_market"][0]
    token = next(s["token"] for s in game["seats"] if s["seat"] == first)
    opening = urllib.request.Request(f"{server_url}/api/games/{game['game_id']}/actions",
                                     data=json.dumps({"seat": first, "action": f"open {plant} 10"}).encode(),
                                     headers={"Content-Type": "application/json",
                                              "Authorization": f"Bearer {token}"})
    urllib.request.urlopen(opening, timeout=30).close()
    link = next(s["link"] for s in game["seats"] if s["seat"] == 1 - first)
    page = new_page(1366, 768)
    page.goto(f"{server_url}{link.replace('#', '?lang=he#')}")
    page.wait_for_selector("#decision [data-decision='bid'] [data-quick='+5']")
    assert page.evaluate("document.documentElement.dir") == "rtl"
    for raise_ in ("+5", "+10"):
        assert page.evaluate(SIGN_FIRST, f"#decision [data-quick='{raise_}']"), raise_
    assert not page.script_errors


def test_picker_and_address_choose_the_language_and_it_is_remembered(server_url, new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page(1366, 768)
    page.goto(f"{server_url}/?lang=pl")
    page.wait_for_selector("#mini-map svg .city")
    assert page.evaluate("document.documentElement.lang") == "pl"
    page.goto(f"{server_url}/replay")  # no ?lang=: the language chosen before
    page.wait_for_selector(".topbar .language-picker")
    assert page.evaluate("document.documentElement.lang") == "pl"
    assert page.locator(".topbar .language-picker").input_value() == "pl"
    with page.expect_navigation():
        page.select_option(".topbar .language-picker", "he")
    page.wait_for_selector(".topbar .language-picker")
    assert page.evaluate("[document.documentElement.lang, document.documentElement.dir]") == ["he", "rtl"]
    assert "lang=" not in page.url
    page.goto(f"{server_url}/")
    page.wait_for_selector("#mini-map svg .city")
    assert page.evaluate("document.documentElement.lang") == "he"
    # a shared link forces its language, and the reader keeps it
    page.goto(f"{server_url}/?lang=de")
    page.wait_for_selector(".topbar .language-picker")
    page.goto(f"{server_url}/replay")
    page.wait_for_selector(".topbar .language-picker")
    assert page.evaluate("document.documentElement.lang") == "de"
    # every page has the picker in its top bar
    game = create_game(server_url, map="germany", players=2, seed=3, seats=[{"kind": "human"}] * 2)
    page.goto(f"{server_url}/game/{game['game_id']}")
    page.wait_for_selector(".topbar .language-picker")
    assert page.locator(".topbar #rules-button").count() == 1


def test_one_game_watched_in_two_languages(server_url, new_page, proper_names) -> None:  # type: ignore[no-untyped-def]
    game = create_game(server_url, map="germany", players=2, seed=5, seats=[{"kind": "human"}] * 2)
    pages = {}
    for lang in ("pl", "he"):
        page = new_page(1366, 768)
        page.goto(f"{server_url}/game/{game['game_id']}?lang={lang}")
        page.wait_for_selector(".player", state="attached")
        pages[lang] = page
    for _ in range(6):
        act_via_api(server_url, game)
    total = api(server_url, f"/api/games/{game['game_id']}")["state"]["log_total"]
    logs = {}
    for lang, page in pages.items():
        page.wait_for_function("(n) => document.querySelectorAll('#log li[data-entry]').length === n",
                               arg=total)
        logs[lang] = page.evaluate("""() => [...document.querySelectorAll('#log li[data-entry]')]
          .map((li) => [li.dataset.entry, li.innerText])""")
    assert [kind for kind, _ in logs["pl"]] == [kind for kind, _ in logs["he"]]
    assert any(kind == "act" for kind, _ in logs["pl"])
    english = {lang: english_words(lang, proper_names) for lang in pages}
    for lang, entries in logs.items():
        for kind, text in entries:
            assert not words(text) & english[lang], (lang, kind, text)
    # each in its own words: the Hebrew log is written in Hebrew letters, the Polish one is not
    hebrew = [text for _, text in logs["he"] if any("\u0590" <= c <= "\u05ff" for c in text)]
    assert len(hebrew) == total
    assert not any(any("\u0590" <= c <= "\u05ff" for c in text) for _, text in logs["pl"])


@pytest.mark.parametrize("lang", ["pl", "ro"])
def test_plural_forms_in_the_log(server_url, new_page, lang: str) -> None:  # type: ignore[no-untyped-def]
    """The payout line has the form CLDR names for each count (Polish and Romanian have three)."""
    forms = catalogue(lang).get("messages", {}).get("{player} powers {n} city and earns {amount}")
    assert isinstance(forms, dict) and forms.get("other"), f"no plural forms for the payout line in {lang}"
    page = new_page(1366, 768)
    page.goto(f"{server_url}/replay?lang={lang}")
    page.wait_for_selector(".topbar .language-picker")
    said = page.evaluate("""async (counts) => {
      const { entryLine } = await import('/static/js/log.js');
      const { elektro } = await import('/static/js/i18n.js');
      const rules = new Intl.PluralRules(document.documentElement.lang);
      const said = (n) => entryLine(['payout', 0, n, 10]).nodes.map((x) => x.textContent ?? x).join('');
      return [elektro(10), counts.map((n) => [rules.select(n), said(n)])];
    }""", [1, 2, 5, 12, 22, 25])
    ten, said = said  # the amount as the page writes money ("10 E" in the language's words)
    for (form, text), n in zip(said, [1, 2, 5, 12, 22, 25], strict=True):
        expected = (forms.get(form) or forms["other"]).replace("{n}", str(n)).replace("{amount}", ten)
        player = expected.split("{player}")
        assert text.startswith(player[0]) and text.endswith(player[-1]), (n, form, text, expected)
    assert len({form for form, _ in said}) == 3  # one, few and many/other are all used


def test_named_errors_in_the_language(server_url, new_page) -> None:  # type: ignore[no-untyped-def]
    """A refusal with a code shows the language's message for it (the server's words where none)."""
    record = {"config": {"map": "nowhere", "players": 2}, "actions": []}
    try:
        api(server_url, "/api/replay", {"record": record, "step": 0, "index": True})
        pytest.fail("the server replayed a record of an unknown map")
    except urllib.error.HTTPError as exc:
        error = json.loads(exc.read())["error"]
    for lang in ("pl", "en"):
        expected = catalogue(lang).get("errors", {}).get(error["code"]) or error["message"]
        page = new_page(1366, 768)
        page.goto(f"{server_url}/replay?lang={lang}")
        page.wait_for_selector("#replay-open:not([hidden])")
        path = SHOTS / "bad-record.json"
        SHOTS.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(record))
        page.set_input_files("#record-file", str(path))
        page.wait_for_function("() => document.getElementById('replay-error').textContent !== ''")
        assert page.locator("#replay-error").inner_text() == expected
