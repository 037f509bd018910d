"""End to end through the browser: the lobby, a whole game against a bot, two browsers, hot-seat."""

from __future__ import annotations

import re

import pytest

from .conftest import screenshot

# A seat's decision form is drawn when it is to act; each redraw gets a new key (version, seat, to act).
TURN_OR_END = """(last) => {
  if (document.getElementById('end-screen')) return true;
  const box = document.getElementById('decision');
  return box.classList.contains('mine') && box.dataset.key !== last
    && !document.body.classList.contains('busy') && box.querySelector('[data-decision]') !== null;
}"""


def create_in_lobby(page, url: str, *, blue: str, variant: str = "first_game", seed: int | None = None,
                    regions_by_city: tuple[str, ...] = ()) -> None:
    page.goto(url + "/")
    page.wait_for_selector("#mini-map svg .city")
    page.click("#player-choice [data-value='2']")
    page.click(f"#variant-choice [data-value='{variant}']")
    if regions_by_city:
        page.click("#region-mode [data-value='pick']")
        for city in regions_by_city:  # a click on the small map picks the city's region
            page.click(f"#mini-map [data-city='{city}']")
    page.select_option("select[data-seat='1']", blue)
    if seed is not None:
        page.fill("#seed", str(seed))
    page.fill("#bot_pace_ms", "0")  # bots at full speed in tests
    page.click("#create")
    page.wait_for_selector("#play-now")


def money_of(page, seat: int) -> int:
    return int(page.locator(f".player[data-seat='{seat}'] .stat.money b").inner_text())


def play_one_decision(page, taken: dict[str, int], shots: set[str]) -> None:
    form = page.locator("#decision [data-decision]")
    kind = form.get_attribute("data-decision")
    taken[kind] = taken.get(kind, 0) + 1
    plants = page.locator(".player.viewing .player-plants .plant-card").count()
    money = money_of(page, 0)
    if kind == "open":
        round_text = page.locator("#round-info .pill").first.inner_text()
        can_pass = page.locator("#decision [data-action='pass']").count() > 0
        if can_pass and (money < 20 or (taken.get("discard") and plants >= 3)) and round_text != "Round 1":
            page.click("#decision [data-action='pass']")
            return
        page.locator("#decision .card-row button.plant-card:not([disabled])").first.click()
        page.click("#decision [data-action='open']")
    elif kind == "bid":
        if taken["bid"] == 1:  # raise once with the quick button, then keep out of bidding wars
            page.click("#decision .bid-control button:has-text('+1')")
            page.click("#decision [data-action='bid']")
        else:
            page.click("#decision [data-action='pass']")
    elif kind == "discard":
        if page.locator("#decision [data-action='discard']").count() == 0:
            page.locator("#decision .card-row button.plant-card").first.click()
        radios = page.locator("#decision input[name='keep']")
        if radios.count() > 1:
            radios.last.check()
        page.click("#decision [data-action='discard']")
    elif kind == "buy":
        for _ in range(2):
            for button in page.locator("#decision [data-step='up']").all():
                if button.is_enabled():
                    button.click()
        total = page.locator("#decision .buy-summary b").inner_text()
        assert re.fullmatch(r"\d+\s*E", total.replace("\u00a0", " ")), total
        page.click("#decision [data-action='buy']")
    elif kind == "build":
        for picked in range(3):
            cities = page.locator("#board .city.can-build")
            if cities.count() == 0:
                break
            costs = [int(c.get_attribute("data-cost")) for c in cities.all()]
            cities.nth(costs.index(min(costs))).click()
            page.wait_for_function(
                "(n) => document.querySelectorAll('#decision .build-queue li').length === n", arg=picked + 1)
        if "mid-game" not in shots and page.locator(".player-plants .plant-card").count() >= 3 \
                and page.locator("#board .house").count() >= 4:
            screenshot(page, "game-midgame")
            shots.add("mid-game")
        page.click("#decision [data-action='build']")
    elif kind == "power":
        payout = page.locator("#decision [data-payout]").get_attribute("data-payout")
        assert int(payout) >= 10
        page.click("#decision [data-action='power']")
    else:
        page.locator("#decision .buttons button").first.click()


@pytest.mark.long
def test_lobby_to_the_end_against_a_bot(server_url, new_page) -> None:
    page = new_page()
    # moves go over the seat's socket (no HTTP request per move), as the answer to each comes there
    socket_actions: list[str] = []
    posted: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda frame: socket_actions.append(frame)
                                          if '"type":"action"' in str(frame) else None))
    page.on("request", lambda r: posted.append(r.url) if r.method == "POST" and r.url.endswith("/actions")
            else None)
    page.goto(server_url + "/")
    page.wait_for_selector("#mini-map svg .city")
    screenshot(page, "lobby")
    create_in_lobby(page, server_url, blue="random", seed=11,
                    regions_by_city=("Hamburg", "Berlin", "Leipzig"))
    assert page.locator("#created .link-row").count() == 2  # Red's link and the spectators' link
    page.click("#play-now")
    page.wait_for_selector(".player[data-seat='1']")
    # The regions picked on the small map are the ones in play: others are dimmed.
    assert page.locator("#board .region.off").count() == 3
    assert page.locator("#board .region:not(.off)[data-region='brown']").count() == 1

    taken: dict[str, int] = {}
    shots: set[str] = set()
    last = ""
    for _ in range(400):
        page.wait_for_function(TURN_OR_END, arg=last, timeout=30_000)
        if page.locator("#end-screen").count():
            break
        last = page.locator("#decision").get_attribute("data-key")
        play_one_decision(page, taken, shots)
    else:
        raise AssertionError(f"the game did not end; decisions taken: {taken}")

    end = page.locator("#end-screen")
    end.wait_for()
    assert end.locator(".standings tbody tr").count() == 2
    assert end.locator(".end-card > .charts svg.chart").count() == 2
    # money and cities, one line per player (the summary's charts are below: tests/web/test_browser_orders.py)
    assert end.locator(".end-card > .charts svg.chart polyline").count() == 4
    assert re.search(r"wins|share", end.locator("h2").inner_text())
    screenshot(page, "game-end")
    for kind in ("open", "bid", "buy", "build", "power", "discard"):
        assert taken.get(kind), f"no {kind} decision was taken through the UI: {taken}"
    assert "mid-game" in shots
    # at most the very first move, made before the socket's first view, may have been POSTed
    assert len(socket_actions) >= sum(taken.values()) and len(posted) <= 1, (len(socket_actions), posted)
    assert page.script_errors == []


def test_a_move_in_one_browser_appears_in_the_other(server_url, new_page) -> None:
    red = new_page()
    create_in_lobby(red, server_url, blue="human", variant="standard", seed=5)
    links = [red.locator("#created .link-row input[type=text]").nth(i).input_value() for i in (0, 1)]
    assert "seat=1" in links[1] and "token=" in links[1]
    red.click("#play-now")
    blue = new_page()
    blue.goto(links[1])
    for page in (red, blue):
        page.wait_for_selector("#decision [data-decision], #decision .waiting")
        page.wait_for_selector(".connection.live")
    first, second = (red, blue) if red.locator("#decision.mine").count() else (blue, red)
    # A second tab of the first player whose live updates never arrive: it will act on a stale position.
    stale = new_page()
    stale.route_web_socket(re.compile(r"/ws"), lambda socket: None)
    stale.goto(links[0] if first is red else links[1])
    stale.wait_for_selector("#decision [data-decision='open']")

    first.locator("#decision .card-row button.plant-card:not([disabled])").first.click()
    plant = first.locator("#decision .plant-card.selected").get_attribute("data-plant")
    first.click("#decision [data-action='open']")
    # No reload: the other browser is told over the WebSocket and must now answer the auction.
    second.wait_for_selector("#decision [data-decision='bid']")
    assert f"plant {plant}" in second.locator("#decision h2").inner_text()
    second.wait_for_selector(f"#log li:has-text('opens an auction for plant {plant}')")

    # The stale tab tries to open an auction too: the server refuses, the page says why in words
    # and reloads the position (now the other player is bidding).
    stale.locator("#decision .card-row button.plant-card:not([disabled])").last.click()
    stale.click("#decision [data-action='open']")
    refusal = stale.locator(".toast-error")
    refusal.wait_for()
    assert re.search(r"moved on|not your turn", refusal.inner_text(), re.IGNORECASE)
    stale.wait_for_selector("#decision .waiting")

    second.click("#decision [data-action='pass']")
    first.wait_for_selector(f".player.viewing .player-plants .plant-card[data-plant='{plant}']")
    assert red.script_errors == [] and blue.script_errors == [] and stale.script_errors == []


def test_hot_seat_follows_the_turn(server_url, new_page) -> None:
    page = new_page()
    create_in_lobby(page, server_url, blue="human", variant="first_game", seed=3)
    page.check("#created [data-here='1']")  # both seats are played in this browser
    page.click("#play-now")
    page.wait_for_selector("#decision [data-decision='open']")
    assert page.locator("#seat-switcher .seat-btn").count() == 2
    acting = page.locator("#seat-switcher .seat-btn.active").inner_text().strip()
    page.locator("#decision .card-row button.plant-card:not([disabled])").first.click()
    page.click("#decision [data-action='open']")
    # The other seat of this browser must answer the auction: the page switches to it by itself.
    page.wait_for_selector("#decision [data-decision='bid']")
    assert page.locator("#seat-switcher .seat-btn.active").inner_text().strip() != acting
    assert "Playing as" in page.locator("#decision .acting-as").inner_text()
    assert page.script_errors == []
