"""The table around the game: the map (labels that never overlap, zoom and pan), six players' forms,
the keyboard, the log's jump to latest, reconnecting after a dropped socket, the replay of a game in
play, and phones (no sideways scrolling)."""

from __future__ import annotations

import json
import re
import time

import pytest

from .conftest import screenshot
from .moves import (
    LOG_GAP,
    OVERLAPS,
    SETTLED_VIEW,
    TURN_OR_END,
    VIEWBOX_WIDTH,
    act_via_api,
    api,
    create_game,
    no_sideways_scroll,
    play_one_decision,
)


def open_seat(page, server_url: str, game: dict, seat: int = 0) -> None:  # type: ignore[no-untyped-def]
    link = next(s["link"] for s in game["seats"] if s["seat"] == seat)
    page.goto(server_url + link)
    page.wait_for_selector("#board .city-name")
    page.wait_for_selector(".player", state="attached")  # its first view has come (the map may come first)


@pytest.mark.parametrize("game_map", ["germany", "usa"])
@pytest.mark.parametrize("size", [(1366, 768), (390, 844)])
def test_map_labels_never_overlap(server_url, new_page, game_map: str, size: tuple[int, int]) -> None:
    game = create_game(server_url, map=game_map, players=2, seed=3, seats=[{"kind": "human"}] * 2)
    page = new_page(*size)
    page.goto(f"{server_url}/game/{game['game_id']}")
    page.wait_for_selector("#board .city-name")
    found = page.evaluate(OVERLAPS, 0.5)
    assert found["names"] == 42 and found["costs"] > 80
    assert found["overlaps"] == [], found["overlaps"]
    # houses are drawn large enough to see: a house is at least 7 px across on screen at default size
    if size[0] > 1000:
        screenshot(page, f"map-{game_map}")


def test_zoom_and_pan(server_url, new_page) -> None:
    game = create_game(server_url, map="germany", players=2, seed=3, seats=[{"kind": "human"}] * 2)
    page = new_page(1366, 768)
    page.goto(f"{server_url}/game/{game['game_id']}")
    page.wait_for_selector("#board .city-name")
    page.wait_for_selector(".player", state="attached")  # the first view: the regions in play are known
    board = page.locator("#board svg.board")
    whole = page.evaluate(SETTLED_VIEW)

    def width() -> float:
        return float(board.get_attribute("viewBox").split()[2])

    page.click("#board .zoom-in")
    assert width() < float(whole.split()[2]) / 1.4
    page.click("#board .zoom-fit")
    assert board.get_attribute("viewBox") == whole  # back to the regions in play
    # it opens on the regions in play (here three of six), and zooms out to the whole map
    assert page.locator("#board .region.off").count() == 3
    for _ in range(4):
        page.click("#board .zoom-out")
    assert float(board.get_attribute("viewBox").split()[2]) > float(whole.split()[2])
    page.click("#board .zoom-fit")
    # the wheel zooms around the pointer: the city under it stays under it
    city = page.locator("#board .city:not(.off)").first.get_attribute("data-city")
    essen = page.locator(f"#board .city[data-city='{city}'] .city-disc").bounding_box()
    x, y = essen["x"] + essen["width"] / 2, essen["y"] + essen["height"] / 2
    page.mouse.move(x, y)
    page.mouse.wheel(0, -600)
    page.wait_for_function(f"() => ({VIEWBOX_WIDTH})() < {float(whole.split()[2]) / 2}")
    after = page.locator(f"#board .city[data-city='{city}'] .city-disc").bounding_box()
    assert abs(after["x"] + after["width"] / 2 - x) < 6 and abs(after["y"] + after["height"] / 2 - y) < 6
    assert after["width"] > 2 * essen["width"]
    screenshot(page, "map-zoomed-ruhr")
    # a drag pans; it is not a click
    before = board.get_attribute("viewBox")
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 120, y + 60, steps=6)
    page.mouse.up()
    assert board.get_attribute("viewBox") != before
    # the keyboard: the map takes + − 0 and the arrows
    board.focus()
    page.keyboard.press("0")
    assert board.get_attribute("viewBox") == whole
    page.keyboard.press("+")
    page.keyboard.press("ArrowLeft")
    assert board.get_attribute("viewBox") != whole
    assert page.script_errors == []


@pytest.mark.long
def test_six_players_forms(server_url, new_page) -> None:
    game = create_game(server_url, map="usa", players=6, seed=12,
                       seats=[{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 5)
    for width, height in ((1366, 768), (390, 844)):
        page = new_page(width, height)
        open_seat(page, server_url, game)
        assert page.locator(".player").count() == 6
        assert page.locator(".turn-order li").count() == 6
        assert page.locator(".score-track .track-marker").count() == 6
        if width < 500:
            no_sideways_scroll(page)
        taken: dict[str, int] = {}
        shots: set[str] = set()
        last = ""
        for _ in range(40):
            page.wait_for_function(TURN_OR_END, arg=last, timeout=60_000)
            last = page.locator("#decision").get_attribute("data-key")
            kind = page.locator("#decision [data-decision]").get_attribute("data-decision")
            if kind not in shots:
                shots.add(kind)
                screenshot(page, f"six-{width}-{kind}")
                if width < 500:
                    no_sideways_scroll(page)
            play_one_decision(page, taken)
            if {"open", "buy", "build", "power"} <= set(taken):
                break
        assert {"open", "buy", "build", "power"} <= set(taken), taken
        statuses = page.locator(".player .tag").all_inner_texts()
        assert all(re.fullmatch(r"bought \d+ for \d+\s?E|passed|to go|leads|bidding", t) for t in statuses)
        assert page.script_errors == []
        if width > 1000:
            game = create_game(server_url, map="usa", players=6, seed=13,
                               seats=[{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 5)


FOCUSED = "(selector) => { const a = document.activeElement; return !!a && a.matches(selector); }"


def tab_to(page, selector: str, backwards: bool = False, limit: int = 250) -> None:  # type: ignore[no-untyped-def]
    """Press Tab (or Shift+Tab) until the focus is on an element matching the selector."""
    for _ in range(limit):
        if page.evaluate(FOCUSED, selector):
            return
        page.keyboard.press("Shift+Tab" if backwards else "Tab")
    raise AssertionError(f"Tab never reached {selector}")


def keyboard_decision(page, taken: dict[str, int]) -> None:  # type: ignore[no-untyped-def]
    kind = page.locator("#decision [data-decision]").get_attribute("data-decision")
    taken[kind] = taken.get(kind, 0) + 1
    if kind == "open":
        tab_to(page, "#decision button.plant-card:not([disabled])")
        page.keyboard.press("Enter")  # the plant: the bid field (or the one price's button) takes the focus
        page.wait_for_function(FOCUSED, arg="#decision .bid-input, #decision [data-action='open']")
        page.keyboard.press("Enter")  # open at the minimum
    elif kind == "bid":
        tab_to(page, "#decision [data-action='pass']")
        page.keyboard.press("Enter")
    elif kind == "discard":
        tab_to(page, "#decision button.plant-card")
        page.keyboard.press("Enter")
        tab_to(page, "#decision [data-action='discard']")
        page.keyboard.press("Enter")
    elif kind == "buy":
        tab_to(page, "#decision [data-step='up']:not([disabled])")
        page.keyboard.press("Enter")  # one unit more; the focus stays on the button
        assert page.evaluate(FOCUSED, "#decision [data-step='up'], #decision [data-action='buy']")
        tab_to(page, "#decision [data-action='buy']")
        page.keyboard.press("Enter")
    elif kind == "build":
        if page.locator("#board .city.can-build").count():
            tab_to(page, "#board .city.can-build", backwards=True)
            page.keyboard.press("Enter")
            page.wait_for_selector("#decision .build-queue li")
        tab_to(page, "#decision [data-action='build']")
        page.keyboard.press("Enter")
    elif kind == "power":
        tab_to(page, "#decision [data-action='power']")
        page.keyboard.press("Enter")
    else:
        tab_to(page, "#decision .buttons button")
        page.keyboard.press("Enter")


def test_every_decision_from_the_keyboard(server_url, new_page) -> None:
    game = create_game(server_url, map="germany", players=2, seed=8,
                       seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    page = new_page(1366, 768)
    open_seat(page, server_url, game)
    taken: dict[str, int] = {}
    last = ""
    for _ in range(60):
        page.wait_for_function(TURN_OR_END, arg=last, timeout=60_000)
        last = page.locator("#decision").get_attribute("data-key")
        keyboard_decision(page, taken)
        if {"open", "buy", "build", "power"} <= set(taken) and taken["build"] >= 2:
            break
    assert {"open", "buy", "build", "power"} <= set(taken), taken
    me = page.locator(".player[data-seat='0'] .stat.cities b").inner_text()
    assert int(me) >= 1  # the cities chosen with the keyboard were built
    assert page.script_errors == []


def test_jump_to_latest_when_scrolled_up(server_url, new_page) -> None:
    game = create_game(server_url, map="germany", players=3, seed=4,
                       seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "human"}])
    page = new_page(1366, 768)
    page.goto(f"{server_url}/game/{game['game_id']}")  # watching
    page.wait_for_selector("#log li")

    def move() -> None:
        act_via_api(server_url, game,
                    lambda legal: next((a for a in legal if a.startswith(("bid", "pass"))), legal[0]))

    for _ in range(30):
        move()
    page.wait_for_function("() => document.querySelectorAll('#log li').length > 25")
    log = page.locator("#log")
    log.hover()
    page.mouse.wheel(0, -2000)  # the reader scrolls up
    page.wait_for_selector("#log-latest:not([hidden])")
    count = page.locator("#log li").count()
    move()
    page.wait_for_function("(n) => document.querySelectorAll('#log li').length > n", arg=count)
    assert "new" in page.locator("#log-latest").inner_text()  # the reader is told, not moved
    assert page.evaluate(LOG_GAP) > 50
    page.click("#log-latest")
    page.wait_for_selector("#log-latest", state="hidden")
    assert page.evaluate(LOG_GAP) < 24
    move()
    page.wait_for_function("(n) => document.querySelectorAll('#log li').length > n + 1", arg=count)
    assert page.locator("#log-latest").is_hidden()  # following again
    assert page.script_errors == []


def test_reconnects_after_a_dropped_socket(server_url, new_page) -> None:
    game = create_game(server_url, map="germany", players=2, seed=6, seats=[{"kind": "human"}] * 2)
    page = new_page(1366, 768)
    sockets = []

    def route(ws) -> None:  # type: ignore[no-untyped-def]
        ws.connect_to_server()
        sockets.append(ws)

    page.route_web_socket(re.compile(r"/ws"), route)
    open_seat(page, server_url, game, 0)
    page.wait_for_selector(".connection.live")
    assert len(sockets) == 1
    sockets[0].close()  # the network drops the socket
    page.wait_for_selector(".connection.offline")
    screenshot(page, "reconnecting")
    page.wait_for_selector(".connection.live", timeout=15_000)
    assert len(sockets) == 2
    # a move made elsewhere now reaches the page over the new socket
    plant = api(server_url, f"/api/games/{game['game_id']}")["state"]["current_market"][0]
    act_via_api(server_url, game, lambda legal: f"open {plant} {plant}")
    page.wait_for_selector(f"#log li:has-text('opens an auction for plant {plant}')")
    assert page.script_errors == []


def test_replay_of_a_game_in_play(server_url, new_page) -> None:
    game = create_game(server_url, map="germany", players=3, seed=14,
                       seats=[{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 2)
    page = new_page(1366, 768)
    open_seat(page, server_url, game, 0)
    taken: dict[str, int] = {}
    last = ""
    for _ in range(30):  # into round 2
        page.wait_for_function(TURN_OR_END, arg=last, timeout=60_000)
        if page.locator("#round-info .pill").first.inner_text() != "Round 1":
            break
        last = page.locator("#decision").get_attribute("data-key")
        play_one_decision(page, taken)
    version = api(server_url, f"/api/games/{game['game_id']}/replay")["steps"]
    page.click("#replay-link")
    page.wait_for_selector("#replay-controls:not([hidden])")
    # a game in play opens at its present, and goes no further
    page.wait_for_selector(f".replay-last[data-step='{version}']")
    assert "game in play" in page.locator("#replay-step").inner_text()
    assert page.locator("[data-go='forward']").is_disabled()
    page.click("[data-go='start']")
    page.wait_for_selector("#decision h2:has-text('The deal')")
    page.click("[data-go='round-forward']")
    page.wait_for_function("() => document.querySelector('#round-info .pill').textContent === 'Round 2'")
    screenshot(page, "replay-in-play")
    assert page.script_errors == []


def test_replay_of_a_record_file(server_url, new_page, tmp_path) -> None:
    game = create_game(server_url, map="germany", players=2, seed=15,
                       seats=[{"kind": "bot", "bot": "random"}] * 2)
    deadline = time.monotonic() + 90
    while not api(server_url, f"/api/games/{game['game_id']}")["state"]["game_over"]:
        assert time.monotonic() < deadline, "the bots' game did not end"
        time.sleep(0.1)
    record = api(server_url, f"/api/games/{game['game_id']}/record")
    path = tmp_path / "powergrid-record.json"
    path.write_text(json.dumps(record))
    page = new_page(390, 844)
    page.goto(f"{server_url}/replay")
    # the file control shows once the page has set up (a file chosen before that would go unread)
    page.wait_for_selector("#replay-open:not([hidden])")
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector("#replay-controls:not([hidden])")
    page.wait_for_selector("#decision h2:has-text('The deal')")
    page.click("[data-go='end']")
    page.wait_for_selector(f".replay-last[data-step='{len(record['actions'])}']")
    assert "win" in page.locator("#decision").inner_text()
    no_sideways_scroll(page)
    screenshot(page, "phone-replay-record")
    bad = tmp_path / "not-a-record.json"
    bad.write_text('{"hello": 1}')
    page.set_input_files("#record-file", str(bad))
    page.wait_for_selector("#replay-error:has-text('not a game record')")
    assert page.script_errors == []
