"""Through the browser: names given when taking a seat, chat between two seats (HTML shown as
text, a mute), the tab's title when the other seat moves, and the My games page."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from .conftest import screenshot

XSS = "<img src=x onerror=alert(1)><script>"


def call(url: str, path: str, body: Any = None, token: str | None = None, method: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url + path, data=data, headers=headers,
                                     method=method or ("POST" if data else "GET"))
    with urllib.request.urlopen(request, timeout=10) as reply:
        return json.load(reply)


def new_table(url: str, seed: int = 11) -> tuple[str, dict[int, str]]:
    game = call(url, "/api/games", {"map": "germany", "players": 2, "seed": seed, "hints": False,
                                    "seats": [{"kind": "human"}] * 2})
    return game["game_id"], {s["seat"]: s["token"] for s in game["seats"]}


def open_seat(new_page, url: str, gid: str, seat: int, token: str):  # type: ignore[no-untyped-def]
    page = new_page()
    page.dialogs = []
    page.on("dialog", lambda dialog: (page.dialogs.append(dialog.message), dialog.dismiss()))
    page.goto(f"{url}/game/{gid}#seat={seat}&token={token}")
    page.wait_for_selector(".connection.live")
    return page


def give_name(page, name: str) -> None:  # type: ignore[no-untyped-def]
    page.wait_for_selector("#name-bar:not([hidden])")
    page.fill("#seat-name", name)
    page.click("#name-bar button[type=submit]")
    page.wait_for_selector("#name-bar", state="hidden")


def test_two_seats_name_themselves_chat_and_one_mutes_the_other(server_url, new_page) -> None:
    gid, tokens = new_table(server_url)
    red = open_seat(new_page, server_url, gid, 0, tokens[0])
    blue = open_seat(new_page, server_url, gid, 1, tokens[1])
    give_name(red, "  Ada ")
    give_name(blue, "Bea")
    # each name beside its colour, on both tables (the other's came over the socket)
    for page in (red, blue):
        page.wait_for_function("() => [...document.querySelectorAll('.player .given-name')]"
                               ".map((n) => n.textContent).sort().join() === 'Ada,Bea'")
    assert call(server_url, f"/api/games/{gid}")["seats"][0]["name"] == "Ada"

    blue.wait_for_selector("#chat[data-loaded]", state="attached")
    red.click("#chat-switch")
    red.fill("#chat-input", "hello Bea")
    red.press("#chat-input", "Enter")
    red.wait_for_selector("#chat-list .chat-msg.mine:has-text('hello Bea')")
    blue.wait_for_function("() => document.querySelector('#chat-switch .unread').textContent === '1'")
    blue.click("#chat-switch")
    line = blue.locator("#chat-list .chat-msg", has_text="hello Bea")
    line.wait_for()
    assert "Ada" in line.locator(".chat-who").inner_text()
    blue.click("#chat .chat-phrases [data-phrase='good_luck']")
    red.wait_for_selector("#chat-list .chat-msg:has-text('Good luck!')")
    screenshot(red, "chat-two-seats")

    # Red mutes Blue: Blue's messages leave Red's chat (and stay muted after a reload)
    red.click("#chat-list .chat-msg:has-text('Good luck!') .chat-mute")
    red.wait_for_selector("#chat-list .chat-msg:has-text('Good luck!')", state="detached")
    assert red.locator("#chat-muted [data-unmute='seat:1']").count() == 1
    blue.fill("#chat-input", "can you hear me")
    blue.press("#chat-input", "Enter")
    blue.wait_for_selector("#chat-list .chat-msg.mine:has-text('can you hear me')")
    red.reload()
    red.wait_for_selector(".connection.live")
    red.click("#chat-switch")
    red.wait_for_selector("#chat-list .chat-msg:has-text('hello Bea')")
    assert red.locator("#chat-list .chat-msg[data-author='seat:1']").count() == 0
    red.click("#chat-muted [data-unmute='seat:1']")
    red.wait_for_selector("#chat-list .chat-msg:has-text('can you hear me')")
    assert red.script_errors == [] and blue.script_errors == []


def test_html_in_chat_and_names_is_shown_as_text_and_runs_nothing(server_url, new_page) -> None:
    gid, tokens = new_table(server_url, seed=12)
    page = open_seat(new_page, server_url, gid, 0, tokens[0])
    tag = "<b onclick=alert(2)>x"
    call(server_url, f"/api/games/{gid}/seats/1/name", {"name": tag}, tokens[1], method="PUT")
    call(server_url, f"/api/games/{gid}/chat", {"seat": 1, "text": XSS}, tokens[1])
    call(server_url, f"/api/games/{gid}/chat", {"name": "<i>fan</i>", "text": XSS})
    page.click("#chat-switch")
    page.wait_for_function("() => document.querySelectorAll('#chat-list .chat-msg').length === 2")
    texts = page.locator("#chat-list .chat-text").all_inner_texts()
    assert texts == [XSS, XSS]
    spectator = page.locator("#chat-list .chat-msg[data-author^='spectator:']")
    assert spectator.locator(".given-name").inner_text() == "<i>fan</i>"
    page.wait_for_function("(tag) => [...document.querySelectorAll('.player .given-name')]"
                           ".some((n) => n.textContent === tag)", arg=tag)
    # nothing of it became markup: no image, script or italic element, no handler, and no dialog opened
    for selector in ("#chat-list img", "#chat-list script", "#chat-list i", ".players img", "[onerror]",
                     "[onclick]", ".given-name *"):
        assert page.locator(selector).count() == 0, selector
    page.locator(".player .given-name").first.click()
    assert page.dialogs == [] and page.script_errors == []


def test_the_title_says_your_turn_when_the_other_seat_moves_in_a_hidden_tab(server_url, new_page) -> None:
    gid, tokens = new_table(server_url, seed=13)
    first = call(server_url, f"/api/games/{gid}")["to_act"]
    waiting = 1 - first
    page = open_seat(new_page, server_url, gid, waiting, tokens[waiting])
    plain = page.title()
    assert not plain.startswith("●")
    page.evaluate("""() => {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      document.dispatchEvent(new Event('visibilitychange'));
    }""")
    legal = call(server_url, f"/api/games/{gid}/view?seat={first}", token=tokens[first])["legal"]
    call(server_url, f"/api/games/{gid}/actions", {"seat": first, "action": legal[0], "version": 0},
         tokens[first])
    page.wait_for_function("() => document.title.startsWith('●')")
    assert "Your turn" in page.title()
    assert page.get_attribute("link[rel~='icon']", "href").startswith("data:image/svg+xml")
    page.evaluate("""() => {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => false });
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
      document.dispatchEvent(new Event('visibilitychange'));
    }""")
    page.wait_for_function("(plain) => document.title === plain", arg=plain)
    assert page.get_attribute("link[rel~='icon']", "href") == "/static/favicon.svg"
    # the settings menu: sound off and notifications off by default
    page.click("#settings")
    assert not page.is_checked("#alert-sound") and not page.is_checked("#alert-notify")
    assert page.script_errors == []


def test_my_games_lists_the_games_waiting_for_me_first(server_url, new_page) -> None:
    games = [new_table(server_url, seed=seed) for seed in (21, 22, 23)]
    held = {}
    for index, (gid, tokens) in enumerate(games):
        to_act = call(server_url, f"/api/games/{gid}")["to_act"]
        seat = to_act if index == 1 else 1 - to_act  # only the middle game waits for me
        held[gid] = {str(seat): tokens[seat]}
    page = new_page()
    page.goto(server_url + "/")
    page.evaluate("(seats) => localStorage.setItem('powergrid.seats', JSON.stringify(seats))", held)
    page.click("#my-games-link")
    page.wait_for_url("**/mine")
    page.wait_for_selector("#mine-list .mine-item")
    order = page.eval_on_selector_all("#mine-list .mine-item", "(items) => items.map((i) => i.dataset.game)")
    assert order[0] == games[1][0] and set(order) == {gid for gid, _ in games}
    assert page.locator("#mine-list .mine-item.your-turn").count() == 1
    assert "Your turn" in page.locator("#mine-list .mine-item").first.inner_text()
    screenshot(page, "my-games")
    page.locator("#mine-list .mine-item").first.locator("a.btn").click()
    page.wait_for_selector("#decision [data-decision]")
    assert page.script_errors == []


def test_chat_on_a_phone_is_a_tab_and_fits_the_screen(server_url, new_page) -> None:
    from .moves import SIDEWAYS

    gid, tokens = new_table(server_url, seed=14)
    page = new_page(390, 844)
    page.goto(f"{server_url}/game/{gid}#seat=0&token={tokens[0]}")
    page.wait_for_selector(".connection.live")
    page.wait_for_selector("#chat[data-loaded]", state="attached")  # the history is read: what comes is new
    call(server_url, f"/api/games/{gid}/chat", {"seat": 1, "phrase": "good_luck"}, tokens[1])
    page.wait_for_function("() => document.querySelector('#phone-tabs [data-tab=chat]').dataset.unread")
    page.click("#phone-tabs [data-tab='chat']")
    page.wait_for_selector("#chat-list .chat-msg:has-text('Good luck!')")
    page.fill("#chat-input", "thanks, you too")
    page.click("#chat-send")
    page.wait_for_selector("#chat-list .chat-msg.mine:has-text('thanks, you too')")
    assert page.is_visible("#chat-input") and not page.is_visible("#log")
    wide = page.evaluate(SIDEWAYS)
    assert wide["scroll"] <= wide["width"], wide
    screenshot(page, "chat-phone")
    page.click("#phone-tabs [data-tab='log']")
    page.wait_for_selector("#log", state="visible")
    assert page.script_errors == []
