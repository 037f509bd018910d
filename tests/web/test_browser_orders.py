"""Through the browser: a "bid up to" standing order bids and then passes for its seat; the end
screen shows the summary and offers Play again, whose link reaches the other player's page too."""

from __future__ import annotations

import random
import time
import urllib.error
import urllib.request

from server.waiting import wait_for  # tests/server/waiting.py (tests/ is on the path)

from .api import ApiTable, call
from .conftest import screenshot


class PlayedTable(ApiTable):
    """A game the people play to its end through the API."""

    def play_to_the_end(self) -> None:
        """The people build where they can and bid little (the bot makes the game end)."""
        rng = random.Random(3)
        for _ in range(5000):
            now = self.public()
            if now["state"]["game_over"]:
                return
            seat = now["to_act"]
            if seat not in self.tokens:
                time.sleep(0.01)
                continue
            legal = self.legal(seat)
            builds = [a for a in legal if a.startswith("build ")]
            opens = [a for a in legal if a.startswith("open ")]
            buys = [a for a in legal if a.startswith("buy ")]
            powers = [a for a in legal if a.startswith("power ")]
            if builds and rng.random() < 0.9:
                action = builds[0]
            elif opens and (rng.random() < 0.6 or "pass" not in legal):
                action = opens[0]
            elif buys and rng.random() < 0.7:
                action = buys[-1]
            elif powers:
                action = powers[-1]
            else:
                action = "pass" if "pass" in legal else "done" if "done" in legal else legal[0]
            try:
                call(self.url, f"/api/games/{self.gid}/actions",
                     {"seat": seat, "action": action, "version": now["version"]}, self.tokens[seat])
            except urllib.error.HTTPError:
                pass  # the game moved on meanwhile
        raise AssertionError("the game did not end")


def test_bid_up_to_from_the_waiting_panel(server_url, new_page) -> None:
    table = PlayedTable(server_url, [{"kind": "human"}] * 3)
    opener = table.public()["to_act"]
    table.act("open 3 3")
    bidder = table.public()["to_act"]
    waiting = ({0, 1, 2} - {opener, bidder}).pop()
    page = table.open_page(new_page, waiting)
    page.wait_for_selector("#decision [data-action='bid-up-to']")
    page.fill("#decision [data-order-input='limit']", "5")
    page.click("#decision [data-action='bid-up-to']")
    page.wait_for_selector("#decision .order-box[data-order='bid_up_to']")
    assert "5" in page.locator("#decision .order-box").inner_text()
    screenshot(page, "orders-bid-up-to-pending")

    table.act("bid 4", bidder)  # its turn comes: the order raises by the minimum
    wait_for(lambda: table.public()["state"]["auction"]["bid"] == 5, "the order's bid")
    assert table.public()["to_act"] == opener
    page.wait_for_selector("#decision .order-box[data-order='bid_up_to']")  # it stays for the next turn
    table.act("bid 6", opener)
    table.act("pass", bidder)  # 7 is above the limit: the order passes and the opener wins
    wait_for(lambda: not table.public()["state"]["auction"].get("plant"), "the order's pass")
    page.wait_for_function("!document.querySelector('#decision .order-box')")
    log = call(server_url, f"/api/games/{table.gid}")["state"]["log"]
    last = [line for line in log if line[0] == "act"][-1]
    assert last[1] == waiting and last[2] == "pass"
    screenshot(page, "orders-bid-up-to-done")
    assert page.script_errors == []


def test_the_end_screen_shows_the_summary_and_plays_again(server_url, new_page) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}, {"kind": "human"}]
    table = PlayedTable(server_url, seats)
    table.play_to_the_end()
    summary = call(server_url, f"/api/games/{table.gid}/summary")
    page = table.open_page(new_page, 0)
    page.wait_for_selector("#end-screen [data-summary='spending']")
    for player in summary["players"]:
        row = page.locator(f"#end-summary tr[data-seat='{player['seat']}']")
        assert str(player["spent"]) in row.locator("[data-kind='spent']").inner_text()
        assert str(player["plants"]) in row.locator("[data-kind='plants']").inner_text()
    assert page.locator("#end-summary svg.chart").count() == 3
    screenshot(page, "end-summary-desktop")
    other = table.open_page(new_page, 2, 390, 844)  # the other person, on a phone
    other.wait_for_selector("#end-screen [data-summary='spending']")
    other.locator("#end-summary").scroll_into_view_if_needed()
    assert other.evaluate("document.documentElement.scrollWidth <= window.innerWidth")  # no sideways page
    screenshot(other, "end-summary-phone")

    page.click("#end-screen [data-action='play-again']")
    page.wait_for_selector("#again-links [data-action='join-again']")
    link = page.locator("#again-links [data-action='join-again']").get_attribute("href")
    new_game = call(server_url, f"/api/games/{table.gid}/again")["new_game_id"]
    assert link.startswith(f"/game/{new_game}#seat=0&token=")
    # the other player's page finds the new game by itself, with its own seat's link
    other.wait_for_selector("#again-links [data-action='join-again']", timeout=30_000)
    assert other.locator("#again-links [data-action='join-again']").get_attribute("href") \
        == f"/game/{new_game}#seat=2&token={table.tokens[2]}"
    screenshot(other, "play-again-phone")
    page.click("#again-links [data-action='join-again']")
    page.wait_for_selector(".connection.live")
    assert new_game in page.url
    page.wait_for_selector("#decision")
    assert page.script_errors == [] and other.script_errors == []


def test_a_build_planned_before_the_turn_is_played_when_it_comes(server_url, new_page) -> None:
    table = PlayedTable(server_url, [{"kind": "human"}] * 3)
    for _ in range(200):  # everyone buys the cheapest plant, then nothing, up to round 1's build phase
        now = table.public()
        if now["state"]["phase"] == 4:
            break
        seat = now["to_act"]
        legal = table.legal(seat)
        table.act("pass" if "pass" in legal else "done" if "done" in legal else legal[0], seat)
    first = table.public()["to_act"]
    waiting = next(s for s in range(3) if s != first)
    page = table.open_page(new_page, waiting)
    page.wait_for_selector("#standing-orders [data-decision='build']")
    costs = call(server_url, f"/api/games/{table.gid}/orders?seat={waiting}", token=table.tokens[waiting])
    city = sorted(costs["early"]["build_costs"])[0]
    page.locator(f"#board g.city[data-city='{city}']").dispatch_event("click")
    page.click("#standing-orders [data-action='build']")
    page.wait_for_selector("#decision .order-box[data-order='build']")
    assert city in page.locator("#decision .order-box").inner_text()
    screenshot(page, "orders-build-planned")
    table.act("done", first)
    now = table.public()
    if now["to_act"] != waiting:  # the other builder before it
        table.act("done", now["to_act"])
    wait_for(lambda: any(e[0] == "act" and e[1] == waiting and e[2] == f"build {city}"
                           for e in table.public()["state"]["log"]), "the planned build", 60)
    assert page.script_errors == []


def to_bureaucracy(table: ApiTable) -> None:
    """Round 1 played over the API up to its bureaucracy: each seat buys the cheapest plant it may
    open, fills it with fuel and builds one city."""
    built: set[int] = set()
    while table.public()["state"]["phase"] != 5:
        seat = table.public()["to_act"]
        legal = table.legal(seat)
        opens = [a for a in legal if a.startswith("open ")]
        buys = [a for a in legal if a.startswith("buy ")]
        builds = [a for a in legal if a.startswith("build ")]
        if opens:
            action = opens[0]
        elif buys:
            action = max(buys, key=lambda a: int(a.split()[1]))
        elif builds and seat not in built:
            action = builds[0]
            built.add(seat)
        else:
            action = "pass" if "pass" in legal else "done"
        table.act(action, seat)


def test_every_player_sets_bureaucracy_at_once_and_the_choices_apply_in_turn_order(server_url,
                                                                                   new_page) -> None:
    table = PlayedTable(server_url, [{"kind": "human"}] * 3, seed=5)
    to_bureaucracy(table)
    now = table.public()
    order = now["state"]["order"]
    first, waiting = order[0], order[1:]
    assert now["to_act"] == first
    sizes = {waiting[0]: (1366, 768), waiting[1]: (390, 844), first: (1366, 768)}
    pages = {seat: table.open_page(new_page, seat, *sizes[seat]) for seat in order}
    chosen = {}
    for seat in waiting:  # not to act yet: the early form places an order
        page = pages[seat]
        page.wait_for_selector("#decision .early-form [data-action='power']")
        page.click("#decision .early-form [data-action='power']")
        page.wait_for_selector("#decision .order-box[data-order='power']")
        found = call(server_url, f"/api/games/{table.gid}/orders?seat={seat}", token=table.tokens[seat])
        assert found["order"]["kind"] == "power" and found["order"]["status"] == "pending"
        chosen[seat] = found["order"]["action"]
        # the form's preselected choice: the best, which runs the plant fuelled in the buy phase
        assert chosen[seat] == found["early"]["default_power"] != "power nothing"
    screenshot(pages[waiting[1]], "orders-bureaucracy-at-once-phone")
    screenshot(pages[waiting[0]], "orders-bureaucracy-at-once-desktop")
    assert table.public()["version"] == now["version"]  # nothing played yet: the first seat decides
    page = pages[first]
    page.wait_for_selector("#decision [data-action='power']:not(.early-form *)")
    page.click("#decision [data-action='power']")
    wait_for(lambda: table.public()["state"]["round"] == 2, "the orders played in turn order")
    log = table.public()["state"]["log"]
    start = max(i for i, line in enumerate(log) if line[:2] == ["phase", 5])
    powered = [(line[1], line[2]) for line in log[start:] if line[0] == "act"]
    assert [seat for seat, _ in powered] == order
    assert dict(powered[1:]) == chosen and powered[0][1].startswith("power")
    for seat in waiting:
        pages[seat].wait_for_function("!document.querySelector('#decision .order-box')")
    assert all(p.script_errors == [] for p in pages.values())
