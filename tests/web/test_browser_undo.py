"""Through the browser: the Undo button takes back a bid and a build, and says why when it may not;
against a bot, it counts down the seconds the bot waits, and its refusals are in the player's words."""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from .api import ApiTable, call
from .conftest import screenshot, serving

#: the undo window of the server the bot test plays on: long enough to click Undo on a loaded
#: machine, short enough to wait out
WINDOW_MS = 10_000


def wait_version(page, version: int) -> None:  # type: ignore[no-untyped-def]
    page.wait_for_function("(v) => document.getElementById('decision').dataset.key.startsWith(v + ':')",
                           arg=version)


def test_undo_of_a_bid(server_url, new_page) -> None:
    table = ApiTable(server_url)
    table.act("open 3 3")
    bidder = table.public()["to_act"]
    page = table.open_page(new_page, bidder)
    page.wait_for_selector("#decision [data-decision='bid']")
    assert page.locator("#undo").is_visible() and page.locator("#undo").is_disabled()

    page.click("#decision [data-action='bid']")  # the lowest raise, 4
    page.wait_for_selector("#undo:not([disabled])")
    title = page.locator("#undo").get_attribute("title")
    assert "bids 4" in title and "bid 4" not in title  # the action in words, not its notation
    assert page.locator("#undo .undo-left").count() == 0  # no bot waits: no countdown
    assert table.public()["state"]["auction"]["bid"] == 4
    screenshot(page, "undo-bid-before")

    page.click("#undo")
    page.wait_for_selector("#decision [data-decision='bid']")
    page.wait_for_selector("#log li.undo")
    assert "took back" in page.locator("#log li.undo").inner_text()
    assert "bids 4" in page.locator("#log li.undo").inner_text()
    now = table.public()
    assert now["state"]["auction"]["bid"] == 3 and now["to_act"] == bidder
    assert now["last"]["action"] == "undo" and now["last"]["undone"] == "bid 4"
    assert page.locator("#undo").is_disabled()  # the opener's action is not this seat's to take back
    screenshot(page, "undo-bid-after")
    assert page.script_errors == []


def test_undo_pressed_before_the_action_is_answered(server_url, new_page) -> None:
    """The slip seen at once: U pressed while the page's own action is still on its way is carried
    out when the answer comes (it was ignored)."""
    table = ApiTable(server_url)
    table.act("open 3 3")
    bidder = table.public()["to_act"]
    page = new_page()
    sockets: list[Any] = []
    held: list[str] = []

    def relay(socket: Any) -> None:  # the server's answers to actions are held back by the test
        server = socket.connect_to_server()
        sockets.append(socket)

        def from_server(message: str | bytes) -> None:
            if isinstance(message, str) and json.loads(message).get("type") == "done":
                held.append(message)
            else:
                socket.send(message)
        server.on_message(from_server)

    page.route_web_socket(re.compile(r"/ws"), relay)
    page.goto(f"{server_url}/game/{table.gid}#seat={bidder}&token={table.tokens[bidder]}")
    page.wait_for_selector(".connection.live")  # so the bid goes over the socket
    page.wait_for_selector("#decision [data-decision='bid']")
    page.click("#decision [data-action='bid']")  # the lowest raise, 4
    page.wait_for_function("() => document.body.classList.contains('busy')")
    for _ in range(100):  # the bid is in; its answer is held
        if held:
            break
        page.wait_for_timeout(50)
    assert held and table.public()["state"]["auction"]["bid"] == 4
    page.locator("body").press("u")
    page.wait_for_timeout(300)
    assert table.public()["last"]["action"] == "bid 4"  # nothing yet: the page waits for the answer
    sockets[0].send(held.pop())
    page.wait_for_selector("#log li.undo")
    now = table.public()
    assert now["last"]["action"] == "undo" and now["last"]["undone"] == "bid 4"
    assert now["state"]["auction"]["bid"] == 3 and now["to_act"] == bidder
    assert page.script_errors == []


def test_undo_of_a_build_with_the_key(server_url, new_page) -> None:
    table = ApiTable(server_url, seed=12)
    for _ in range(200):
        if table.public()["state"]["phase"] == 4:
            break
        table.calm_step()
    seat = table.public()["to_act"]
    page = table.open_page(new_page, seat)
    page.wait_for_selector("#decision [data-decision='build']")
    money = int(page.locator(f".player[data-seat='{seat}'] .stat.money b").inner_text())
    legal = call(server_url, f"/api/games/{table.gid}/view?seat={seat}", token=table.tokens[seat])["legal"]
    build = next(a for a in legal if a.startswith("build "))
    built = table.act(build)
    wait_version(page, built["version"])
    page.wait_for_selector("#undo:not([disabled])")
    assert int(page.locator(f".player[data-seat='{seat}'] .stat.money b").inner_text()) < money
    screenshot(page, "undo-build-before")

    page.locator("body").press("u")  # the keyboard shortcut
    wait_version(page, built["version"] + 1)
    page.wait_for_selector("#log li.undo")
    assert int(page.locator(f".player[data-seat='{seat}'] .stat.money b").inner_text()) == money
    assert build[len("build "):] not in table.public()["state"]["players"][seat]["cities"]
    assert page.locator("#undo").is_disabled()
    screenshot(page, "undo-build-after")
    assert page.script_errors == []


def test_undo_refused_after_new_information(server_url, new_page) -> None:
    table = ApiTable(server_url, seed=13)
    table.act("open 3 3")
    table.act("pass")
    last = table.public()["to_act"]
    page = table.open_page(new_page, last)
    page.wait_for_selector("#decision [data-decision='bid']")
    page.click("#decision [data-action='pass']")  # the auction ends: a new plant is drawn
    # the new view comes before the answer to the pass: wait for that answer too, so the U below
    # is pressed at a finished action (one pressed earlier waits for the answer, test above)
    page.wait_for_function("() => document.getElementById('undo').title.includes('new information')"
                           " && !document.body.classList.contains('busy')")
    assert page.locator("#undo").is_disabled()
    page.locator("body").press("u")
    toast = page.locator(".toast-error").last
    toast.wait_for()
    drawn = next(e[1] for e in reversed(table.public()["state"]["log"]) if e[0] == "drawn")
    words = toast.inner_text()
    assert "new information" in words and f"plant {drawn} was drawn" in words
    assert "Your action:" in words and "passes" in words and "seat" not in words
    version = table.public()["version"]
    screenshot(page, "undo-refused-new-information")
    # the server refuses it too, by name
    try:
        call(server_url, f"/api/games/{table.gid}/undo", {"seat": last, "version": version},
             table.tokens[last])
        raise AssertionError("the undo was accepted")
    except urllib.error.HTTPError as exc:
        assert exc.code == 409 and json.load(exc)["error"]["code"] == "new_information"
    assert table.public()["version"] == version
    assert page.script_errors == []


# ---------------------------------------------------------------------- against a bot
@pytest.fixture(scope="module")
def windowed_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serving(tmp_path_factory.mktemp("undo-window"), {"POWERGRID_UNDO_WINDOW_MS": str(WINDOW_MS)}) as url:
        yield url


def poll(read, ok, limit: float = 60.0):  # type: ignore[no-untyped-def]
    """Poll ``read()`` until its value is ``ok`` (no fixed sleeps); that value."""
    deadline = time.monotonic() + limit
    while True:
        value = read()
        if ok(value):
            return value
        assert time.monotonic() < deadline, "the condition never came"
        time.sleep(0.05)


def in_words(text: str, action: str) -> bool:
    """Whether ``text`` says the bot's ``action`` in words (and not in notation)."""
    kind = action.split(" ")[0]
    said = {"open": "opens an auction", "bid": "bids", "pass": "passes", "buy": "buys", "build": "builds",
            "done": "is done", "power": "runs", "discard": "discards"}[kind]
    return said in text and (kind == "pass" or action not in text) and f"'{action}'" not in text


@pytest.mark.long
def test_undo_against_a_bot_within_its_window(windowed_url, new_page) -> None:  # type: ignore[no-untyped-def]
    url = windowed_url
    game = call(url, "/api/games", {"map": "germany", "players": 2, "seed": 5, "hints": False,
                                    "bot_pace_ms": 0,
                                    "seats": [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}]})
    gid, token = game["game_id"], game["seats"][0]["token"]

    def mine() -> Any:
        return call(url, f"/api/games/{gid}/view?seat=0", token=token)

    def act(action: str, version: int) -> Any:
        body = {"seat": 0, "action": action, "version": version}
        return call(url, f"/api/games/{gid}/actions", body, token)

    current = poll(mine, lambda v: v["to_act"] == 0)  # the bot may open the game
    named = urllib.request.Request(f"{url}/api/games/{gid}/seats/0/name", method="PUT",
                                   data=json.dumps({"name": "Ann"}).encode(),
                                   headers={"Content-Type": "application/json",
                                            "Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(named, timeout=10) as reply:
        assert json.load(reply)["name"] == "Ann"
    page = new_page()
    page.goto(f"{url}/game/{gid}#seat=0&token={token}")
    page.wait_for_selector(".connection.live")
    # an action after which the bot is to act: opening an auction, or a bid on the bot's
    opening = next(a for a in current["legal"] if a.startswith(("open ", "bid ")))
    opened = act(opening, current["version"])
    assert opened["to_act"] == 1 and opened["undo"]["until"] > 0

    # the bot waits: the button counts down the seconds left, and says what it would take back
    wait_version(page, opened["version"])
    page.wait_for_selector("#undo:not([disabled]) .undo-left")
    left = page.locator("#undo .undo-left").inner_text()
    assert re.fullmatch(r"\d+ s", left) and 1 <= int(left.split()[0]) <= WINDOW_MS // 1000, left
    title = page.locator("#undo").get_attribute("title")
    assert "Take back: Red (Ann)" in title and in_words(title, opening), title  # colour and name
    screenshot(page, "undo-window-countdown")

    page.click("#undo")
    page.wait_for_selector("#log li.undo")
    undone = page.locator("#log li.undo").inner_text()
    assert "took back" in undone and in_words(undone, opening), undone
    now = call(url, f"/api/games/{gid}")
    assert now["last"]["action"] == "undo" and now["to_act"] == 0  # taken back before the bot moved
    wait_version(page, now["version"])
    assert page.locator("#undo .undo-left").count() == 0

    # the person acts again; once the window has passed, the bot plays as usual
    again = act(opening, now["version"])
    answered = poll(lambda: call(url, f"/api/games/{gid}"),
                    lambda p: p["version"] > again["version"] and p["to_act"] == 0,
                    limit=WINDOW_MS / 1000 + 60)
    assert answered["last"]["seat"] == 1
    bot_action = answered["last"]["action"]

    # now too late: the refusal names the bot's colour and its action in words, never notation or a seat
    wait_version(page, answered["version"])
    page.wait_for_selector("#undo[disabled]")
    title = page.locator("#undo").get_attribute("title")
    assert "Blue" in title and in_words(title, bot_action) and "seat" not in title.lower(), title
    page.locator("body").press("u")
    toast = page.locator(".toast-error").last
    toast.wait_for()
    words = toast.inner_text()
    assert "Blue" in words and in_words(words, bot_action), words
    assert "seat" not in words.lower() and not re.search(r"\bP\d\b", words), words
    screenshot(page, "undo-window-refused")

    # the server refuses it too, and says whose action and which, as data
    try:
        call(url, f"/api/games/{gid}/undo", {"seat": 0, "version": answered["version"]}, token)
        raise AssertionError("the undo was accepted")
    except urllib.error.HTTPError as exc:
        error = json.load(exc)["error"]
        assert exc.code == 409 and error["code"] == "not_your_action"
        assert error["by"] == 1 and error["action"] == bot_action
    assert page.script_errors == []


def test_the_creator_chooses_the_undo_window_in_the_lobby(server_url, new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page()
    page.goto(server_url + "/")
    page.wait_for_selector("#mini-map svg .city")
    page.click("#player-choice [data-value='2']")
    page.select_option("select[data-seat='1']", "heuristic")
    page.fill("#undo_window_s", "2")
    with page.expect_request(lambda r: r.url.endswith("/api/games") and r.method == "POST") as sent:
        page.click("#create")
    assert sent.value.post_data_json["undo_window_ms"] == 2000
    page.wait_for_selector("#play-now")
    # no undo, no window: the field is off, and nothing is sent for it
    page.uncheck("#allow_undo")
    assert page.locator("#undo_window_s").is_disabled()
    with page.expect_request(lambda r: r.url.endswith("/api/games") and r.method == "POST") as sent:
        page.click("#create")
    body = sent.value.post_data_json
    assert body["allow_undo"] is False and "undo_window_ms" not in body
