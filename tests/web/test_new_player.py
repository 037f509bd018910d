"""What a new player stumbled on (issue 26, item 8), at 1366×768 and 390×844: the map opens on the
regions in play with the build-cost badges clear of the names; the phone's replay, resource rows and
Log tab; the last bidder's one price and +5 over the current bid; a hint's Play playing its whole
build; one log line per purchase; the power form's switched-off plants; chart legends."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

import powergrid as pg
from powergrid.bots import heuristic

from .conftest import screenshot
from .moves import SETTLED_VIEW, SIGN_FIRST, TURN_OR_END, api, create_game, no_sideways_scroll

BADGES = (Path(__file__).parent / "badges.js").read_text()
SIZES = [(1366, 768), (390, 844)]
#: whether the game (g, from the API) meets a condition (a JavaScript expression)
GAME_STATE = ("([id, test]) => fetch(`/api/games/${id}`).then((r) => r.json())"
              ".then((g) => new Function('g', `return ${test}`)(g))")

#: the view box, the whole map's width, and every in-play city and name inside the map on screen
FITTED = """() => {
  const svg = document.querySelector('#board svg.board');
  const [x, y, w, h] = svg.getAttribute('viewBox').split(' ').map(Number);
  const frame = svg.getBoundingClientRect();
  const inside = (node) => {
    const b = node.getBoundingClientRect();
    return b.left >= frame.left - 1 && b.right <= frame.right + 1
      && b.top >= frame.top - 1 && b.bottom <= frame.bottom + 1;
  };
  const cities = [...svg.querySelectorAll('.city:not(.off)')];
  const names = [...svg.querySelectorAll('.city-name:not(.off)')];
  const outside = cities.filter((c) => !inside(c.querySelector('.city-disc'))).map((c) => c.dataset.city)
    .concat(names.filter((n) => !inside(n)).map((n) => n.textContent));
  return { x, y, w, h, cities: cities.length, outside, home: svg.dataset.home };
}"""


def post_action(url: str, game: dict[str, Any], seat: int, action: str) -> None:
    token = next(s["token"] for s in game["seats"] if s["seat"] == seat)
    request = urllib.request.Request(f"{url}/api/games/{game['game_id']}/actions",
                                     data=json.dumps({"seat": seat, "action": action}).encode(),
                                     headers={"Content-Type": "application/json",
                                              "Authorization": f"Bearer {token}"})
    urllib.request.urlopen(request, timeout=30).close()


def heuristic_game_until(url: str, phase: str, seed: int = 3) -> tuple[dict[str, Any], pg.GameState]:
    """A two-person Germany game whose moves the heuristic chooses (played here and sent to the
    server), up to the first decision of ``phase``; the game and its state here."""
    game = create_game(url, map="germany", players=2, seed=seed, seats=[{"kind": "human"}] * 2)
    state = pg.new_game(pg.GameConfig(map="germany", players=2, seed=seed))
    assert sorted(api(url, f"/api/games/{game['game_id']}")["state"]["regions"]) == sorted(state.regions)
    while state.phase_name != phase:
        seat = state.current_player
        assert seat is not None
        action = heuristic.decide(state, seat, state.legal_actions())
        post_action(url, game, seat, str(action))
        state.apply(action)
    return game, state


def open_seat(page, url: str, game: dict[str, Any], seat: int) -> None:  # type: ignore[no-untyped-def]
    page.goto(url + next(s["link"] for s in game["seats"] if s["seat"] == seat))
    page.wait_for_selector("#board .city-name")
    page.wait_for_function(TURN_OR_END, arg="", timeout=30_000)


@pytest.mark.parametrize("size", SIZES)
def test_the_map_opens_on_the_regions_in_play(server_url, new_page, size: tuple[int, int]) -> None:
    game, state = heuristic_game_until(server_url, "build")
    page = new_page(*size)
    open_seat(page, server_url, game, state.current_player)
    page.wait_for_selector("#board .city.can-build")
    fitted = page.evaluate(FITTED)
    # three regions of six, all of them in view (their cities and names)
    assert fitted["home"] == "true" and fitted["cities"] == 21
    assert fitted["outside"] == [], fitted
    # the Ruhr's build-cost badges (Essen, Duisburg, Düsseldorf... all buildable now) cover no name
    assert page.locator("#board .city.can-build[data-city='Essen'] .cost-badge").is_visible()
    found = page.evaluate(BADGES, 0.5)
    assert found["badges"] == 42 and found["overlaps"] == [], found["overlaps"]
    screenshot(page, f"new-player-map-build-{size[0]}")
    # zooming out reaches the whole country, which the map did not open on: the regions in play
    # take well under half of it; ⤢ comes back to them
    view = page.evaluate(SETTLED_VIEW)
    for _ in range(4):
        page.click("#board .zoom-out")
    whole = page.evaluate(FITTED)
    assert whole["w"] * whole["h"] > 2 * fitted["w"] * fitted["h"], (whole, fitted)
    assert whole["x"] <= fitted["x"] and whole["y"] <= fitted["y"]
    assert whole["x"] + whole["w"] >= fitted["x"] + fitted["w"]
    assert whole["y"] + whole["h"] >= fitted["y"] + fitted["h"]
    page.click("#board .zoom-fit")
    assert page.locator("#board svg.board").get_attribute("viewBox") == view
    if size[0] < 500:
        no_sideways_scroll(page)
    assert page.script_errors == []


def finished_game(url: str) -> dict[str, Any]:
    # heuristic bots: half the moves of random ones for the analysis to judge
    game = create_game(url, map="germany", players=2, seed=15,
                       seats=[{"kind": "bot", "bot": "heuristic"}] * 2)
    deadline = time.monotonic() + 60
    while not api(url, f"/api/games/{game['game_id']}")["state"]["game_over"]:
        assert time.monotonic() < deadline, "the bots' game did not end"
        time.sleep(0.1)
    return game


def test_the_phone_replay_keeps_the_analysis_off_the_map(server_url, new_page) -> None:
    game = finished_game(server_url)
    game_id = game["game_id"]
    api(server_url, f"/api/games/{game_id}/analysis", {})
    deadline = time.monotonic() + 240
    while api(server_url, f"/api/games/{game_id}/analysis")["status"] != "done":
        assert time.monotonic() < deadline, "the analysis did not finish"
        time.sleep(0.5)
    page = new_page(390, 844)
    page.goto(f"{server_url}/replay/{game_id}")
    page.wait_for_selector("#replay-controls:not([hidden])")
    page.wait_for_selector(".coach-costliest", state="attached")
    page.wait_for_selector("#analysis-tab")
    # the map tab shows the map, not the analysis over it
    assert not page.locator("#coach-panel").is_visible()
    no_sideways_scroll(page)
    for tab in ("players", "market", "log", "analysis"):
        page.click(f"#phone-tabs [data-tab='{tab}']")
        no_sideways_scroll(page)
    assert page.locator("#coach-panel").is_visible() and not page.locator("#board").is_visible()
    # its chart has a legend naming both players, and their points have their marker shapes
    chart = page.locator("#coach-panel .chart-box")
    assert chart.locator(".chart-legend .legend-item").count() == 2
    assert chart.locator(".chart-point[data-seat='0']").count() >= 2
    assert chart.locator(".chart-point[data-seat='1']").count() >= 2
    shapes = page.evaluate("""() => [0, 1].map((seat) => document.querySelector(
      `#coach-panel .chart-point[data-seat='${seat}'] .marker-shape`).getAttribute('d'))""")
    assert shapes[0] != shapes[1]
    # and says that the chances weigh who plays (the bots here: both heuristic)
    assert "weigh who plays" in page.locator("#coach-panel .chart-note").inner_text()
    # the costliest decisions are stacked cards: what was done and what the search preferred each
    # take the panel's width, so no word breaks inside itself in a narrow column
    shares = page.evaluate(CARD_CELLS)
    assert shares and min(shares) > 0.9, shares
    screenshot(page, "new-player-phone-analysis")
    # a costly decision jumps back to the map at its position
    page.locator("#coach-panel .coach-jump").first.click()
    page.wait_for_selector("#board svg.board")
    assert page.locator("#board").is_visible() and not page.locator("#coach-panel").is_visible()
    page.click("#phone-tabs [data-tab='board']")
    height = page.evaluate("() => document.querySelector('#board svg.board').getBoundingClientRect().height")
    screenshot(page, "new-player-phone-replay-map")
    assert height > 150
    assert page.script_errors == []
    # the end screen on the phone: the same cards
    page = new_page(390, 844)
    page.goto(f"{server_url}/game/{game_id}")
    page.wait_for_selector("#end-screen .coach-costliest td.num")
    assert min(page.evaluate(CARD_CELLS.replace("#coach-panel", "#end-screen"))) > 0.9
    # in Hebrew a decision's cost still reads "−5%", its minus sign before the number
    page = new_page(390, 844)
    page.goto(f"{server_url}/replay/{game_id}?lang=he")
    page.wait_for_selector(".coach-costliest td.num", state="attached")
    page.click("#phone-tabs [data-tab='analysis']")
    cost = "#coach-panel .coach-costliest td.num"
    assert page.locator(cost).first.inner_text().startswith("−") and page.evaluate(SIGN_FIRST, cost)
    assert page.script_errors == []


#: each stacked card's "done" and "preferred" cells, as shares of the table's width
CARD_CELLS = """() => {
  const table = document.querySelector('#coach-panel .coach-costliest');
  const width = table.getBoundingClientRect().width;
  return [...table.querySelectorAll('td.done, td.preferred')]
    .map((td) => td.getBoundingClientRect().width / width);
}"""

def test_the_end_screen_charts_have_a_legend(server_url, new_page) -> None:
    game = finished_game(server_url)
    page = new_page(1366, 768)
    page.goto(f"{server_url}/game/{game['game_id']}")
    page.wait_for_selector("#end-screen .chart-box")
    charts = page.locator("#end-screen .chart-box")
    assert charts.count() >= 2
    for i in range(charts.count()):
        chart = charts.nth(i)
        assert chart.locator(".chart-legend .legend-item").count() == 2
        seats = {chart.locator(".legend-item").nth(k).get_attribute("data-seat") for k in range(2)}
        assert seats == {"0", "1"}
        assert chart.locator(".chart-point[data-seat='1'] .marker-shape").count() >= 1
    screenshot(page, "new-player-end-charts")
    assert page.script_errors == []


ICON_WIDTHS = """(selector) => [...document.querySelectorAll(selector)].map((row) => {
  const icon = row.querySelector('.res-icon');
  return [row.dataset.resource || row.textContent.trim(), Math.round(icon.getBoundingClientRect().width)];
})"""


@pytest.mark.parametrize("size", SIZES)
def test_resource_icons_keep_their_size(server_url, new_page, size: tuple[int, int]) -> None:
    game, state = heuristic_game_until(server_url, "resources")
    page = new_page(*size)
    open_seat(page, server_url, game, state.current_player)
    if size[0] < 500:
        page.click("#phone-tabs [data-tab='market']")
    # two-digit counts in every row (the garbage row's icon once shrank to a dot)
    page.evaluate("() => { for (const b of document.querySelectorAll('#resource-market .res-name b')) "
                  "b.textContent = '12'; }")
    widths = page.evaluate(ICON_WIDTHS, "#resource-market .res-row")
    assert [res for res, _ in widths] == ["coal", "oil", "garbage", "uranium"]
    assert all(width >= 12 for _, width in widths), widths
    if size[0] < 500:
        no_sideways_scroll(page)
    screenshot(page, f"new-player-resources-{size[0]}")
    # the buy form's rows too
    rows = page.evaluate(ICON_WIDTHS, "#decision .buy-row .res-label")
    assert rows and all(width >= 12 for _, width in rows), rows
    assert page.script_errors == []


def test_the_phone_log_tab_shows_the_newest_entries(server_url, new_page) -> None:
    game, state = heuristic_game_until(server_url, "resources")
    page = new_page(390, 844)
    open_seat(page, server_url, game, state.current_player)
    page.click("#phone-tabs [data-tab='log']")
    page.wait_for_function("() => document.getElementById('log').dataset.pinned === 'true'")
    found = page.evaluate("""() => {
      const items = [...document.querySelectorAll('#log li:not([hidden])')];
      const last = items[items.length - 1].getBoundingClientRect();
      const decision = document.getElementById('decision').getBoundingClientRect();
      return { last: last.bottom, decision: decision.top, height: window.innerHeight };
    }""")
    # the newest line is above the decision panel (kept at the bottom of the screen), on screen
    assert 0 < found["last"] <= found["decision"] + 1 and found["last"] <= found["height"], found
    screenshot(page, "new-player-phone-log")
    assert page.script_errors == []


def test_one_purchase_is_one_log_line(server_url, new_page) -> None:
    game, state = heuristic_game_until(server_url, "build")
    page = new_page(1366, 768)
    open_seat(page, server_url, game, state.current_player)
    events = state.events
    start = max(i for i, e in enumerate(events) if e[0] == "phase" and e[1] == 3)
    buyers = [e[1] for e in events[start:] if e[0] == "act" and str(e[2]) == "done"]
    entries = [e for e in events[start:] if e[0] in ("act", "paid")]
    assert len(buyers) == 2 and len(entries) > 4  # each bought something: buys, payments, done
    lines = page.locator("#log li[data-fold='buy']")
    assert lines.count() == 2
    for i, seat in enumerate(buyers):
        line = lines.nth(i)
        assert line.get_attribute("data-seat") == str(seat)
        paid = sum(e[2] for e in events[start:] if e[0] == "paid" and e[1] == seat)
        text = line.inner_text().replace("\u00a0", " ")
        assert text.endswith(f"for {paid} E" if paid else "buys nothing"), text
    # every entry still has its (hidden) item: nothing else of the purchases is shown
    assert page.locator("#log li.folded").count() == len(entries) - 2
    assert not page.locator("#log li:not([hidden]):has-text('pays')").count()
    assert page.script_errors == []


@pytest.mark.parametrize("size", SIZES)
def test_the_last_to_choose_is_offered_one_price_and_plus_five_raises_the_bid(server_url, new_page,
                                                                             size: tuple[int, int]) -> None:
    game = create_game(server_url, map="germany", players=2, seed=3, seats=[{"kind": "human"}] * 2)
    game_id = game["game_id"]
    info = api(server_url, f"/api/games/{game_id}")
    first, plant = info["to_act"], info["state"]["current_market"][0]
    other = 1 - first
    post_action(server_url, game, first, f"open {plant} 10")
    # the other player raises: the bid form's quick raises count from the highest bid (10)
    page = new_page(*size)
    open_seat(page, server_url, game, other)
    page.wait_for_selector("#decision [data-decision='bid']")
    assert page.locator("#decision [data-decision] .bid-input").input_value() == "11"  # the lowest raise
    page.click("#decision [data-decision] [data-quick='+5']")
    assert page.locator("#decision [data-decision] .bid-input").input_value() == "15"
    page.click("#decision [data-decision] [data-quick='+10']")
    assert page.locator("#decision [data-decision] .bid-input").input_value() == "20"
    page.click("#decision [data-decision] [data-quick='+5']")
    assert page.locator("#decision [data-decision] .bid-input").input_value() == "15"  # not 25: bid + 5
    page.click("#decision [data-decision] [data-quick='min']")
    assert page.locator("#decision [data-decision] .bid-input").input_value() == "11"
    page.click("#decision [data-decision] [data-quick='+5']")
    assert page.locator("#decision [data-action='bid']").inner_text().replace("\u00a0", " ") == "Bid 15 E"
    page.click("#decision [data-action='bid']")
    page.wait_for_function(GAME_STATE, arg=[game_id, "g.state.auction.bid === 15"])
    post_action(server_url, game, first, "pass")  # the other player buys the plant at 15
    # the first player is the last to choose now: nobody can bid against them, so no bid field
    open_seat(page, server_url, game, first)
    page.wait_for_selector("#decision [data-decision='open']")
    market = api(server_url, f"/api/games/{game_id}")["state"]["current_market"]
    page.locator("#decision .card-row button.plant-card:not([disabled])").first.click()
    chosen = int(page.locator("#decision .card-row .plant-card.selected").get_attribute("data-plant"))
    assert chosen in market
    assert page.locator("#decision [data-decision] .bid-input").count() == 0
    assert page.locator("#decision [data-decision] [data-quick]").count() == 0
    button = page.locator("#decision [data-action='open']")
    assert button.inner_text().replace("\u00a0", " ") == f"Buy plant {chosen} for {chosen} E"
    assert "Nobody is left to bid against you" in page.locator("#decision .one-price").inner_text()
    screenshot(page, f"new-player-last-to-choose-{size[0]}")
    button.click()
    page.wait_for_function(GAME_STATE, arg=[game_id, f"g.state.players[{first}].plants.includes({chosen})"])
    assert api(server_url, f"/api/games/{game_id}")["state"]["players"][first]["money"] == 50 - chosen
    assert page.script_errors == []


def test_a_hints_play_builds_every_city_of_the_plan(server_url, new_page) -> None:
    game, state = heuristic_game_until(server_url, "build")
    seat = state.current_player
    page = new_page(1366, 768)
    open_seat(page, server_url, game, seat)
    page.wait_for_selector("#decision [data-decision='build']")
    page.click("#decision .coach-button")
    card = page.locator("#decision .coach-card")
    card.wait_for(timeout=60_000)
    steps = card.locator(".coach-play").get_attribute("data-steps").split(" | ")
    cities = [step.removeprefix("build ") for step in steps if step.startswith("build ")]
    # this position's plan builds in the Ruhr: several cities, said in words (not "build Essen")
    assert len(cities) >= 2 and steps[-1] == "done", steps
    headline = card.locator(".coach-move").inner_text()
    assert headline.startswith("Build in") and all(city in headline for city in cities), headline
    for city in cities:
        page.wait_for_selector(f"#board .city.coach-hint[data-city='{city}']", state="attached")
    screenshot(page, "new-player-hint-build")
    card.locator(".coach-play").click()
    # every city, then "done": the turn goes on to the other player
    built = f"g.state.players[{seat}].cities.length === {len(cities)} && g.to_act !== {seat}"
    page.wait_for_function(GAME_STATE, arg=[game["game_id"], built], timeout=30_000)
    # the server's own view (a web process may answer before it has heard of the last build)
    deadline = time.monotonic() + 30
    while True:
        after = api(server_url, f"/api/games/{game['game_id']}")
        if len(after["state"]["players"][seat]["cities"]) == len(cities) or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert sorted(after["state"]["players"][seat]["cities"]) == sorted(cities)
    assert page.script_errors == []


def test_a_switched_off_plant_looks_switched_off(server_url, new_page) -> None:
    game, state = heuristic_game_until(server_url, "bureaucracy")
    page = new_page(1366, 768)
    open_seat(page, server_url, game, state.current_player)
    page.wait_for_selector("#decision [data-decision='power']")
    card = page.locator("#decision .card-row .plant-card").first
    assert "switched-on" in card.get_attribute("class")
    assert card.locator(".switch-tag").inner_text().lower() == "on"
    # the tag does not cover the plant's number
    covered = page.evaluate("""(card) => {
      const a = card.querySelector('.pnum').getBoundingClientRect();
      const b = card.querySelector('.switch-tag').getBoundingClientRect();
      return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    }""", card.element_handle())
    assert not covered
    card.click()
    page.mouse.move(0, 0)  # (the pointer over it brightens it)
    card = page.locator("#decision .card-row .plant-card").first
    assert "switched-off" in card.get_attribute("class")
    assert card.locator(".switch-tag").inner_text().lower() == "off"
    assert float(page.evaluate("(n) => getComputedStyle(n).opacity", card.element_handle())) < 0.8
    # the player cards say what the number means
    assert "fuel for" in page.locator(".player .stat.powerable").first.inner_text()
    screenshot(page, "new-player-power-off")
    assert page.script_errors == []


def test_the_top_bar_fits_a_long_turn_and_keeps_your_turn_whole(server_url, new_page):  # type: ignore[no-untyped-def]
    """At 1366×768 a bidder's turn ("Your turn — bid on plant 4 (highest 4 E)") beside long names
    and the game's title: the title gives way, then the turn's words; the page never scrolls
    sideways and "Your turn" is never cut."""
    from .api import ApiTable, call

    table = ApiTable(server_url)
    for seat, token in table.tokens.items():
        name = json.dumps({"name": f"A player with a long name {seat}"[:24]}).encode()
        request = urllib.request.Request(f"{server_url}/api/games/{table.gid}/seats/{seat}/name",
                                         method="PUT", data=name,
                                         headers={"Content-Type": "application/json",
                                                  "Authorization": f"Bearer {token}"})
        urllib.request.urlopen(request, timeout=10).close()
    opener = table.public()["to_act"]
    table.act(next(a for a in table.legal(opener) if a.startswith("open ")))
    bidder = call(server_url, f"/api/games/{table.gid}")["to_act"]
    page = table.open_page(new_page, bidder)
    page.wait_for_selector(".turn-status .your-turn")
    screenshot(page, "topbar-long-turn")
    no_sideways_scroll(page)
    # the words "Your turn" (the badge's first) lie inside the bar's box: only later words are cut
    whole = page.evaluate("""() => {
      const badge = document.querySelector('.turn-status .your-turn');
      const walker = document.createTreeWalker(badge, NodeFilter.SHOW_TEXT);
      const text = walker.nextNode();
      const range = document.createRange();
      range.setStart(text, 0);
      range.setEnd(text, Math.min(text.length, 'Your turn'.length));
      const words = range.getBoundingClientRect();
      const box = document.querySelector('.turn-status').getBoundingClientRect();
      return text.textContent.startsWith('Your turn') && words.width > 0
        && words.left >= box.left - 0.5 && words.right <= box.right + 0.5;
    }""")
    assert whole, "the words Your turn are cut"
    # a page opened mid-game says the move before it above the log (not "Moves appear here...")
    latest = page.locator("#last-move").inner_text()
    assert "opens an auction for plant" in latest, latest
