"""Playing a seat through the page as a person would: one decision at a time, by mouse or keyboard."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

# A seat's decision form is drawn when it is to act; each redraw gets a new key (version, seat, to act).
TURN_OR_END = """(last) => {
  if (document.getElementById('end-screen')) return true;
  const box = document.getElementById('decision');
  return box.classList.contains('mine') && box.dataset.key !== last
    && !document.body.classList.contains('busy') && box.querySelector('[data-decision]') !== null;
}"""

OVERLAPS = (Path(__file__).parent / "overlaps.js").read_text()

#: how far the log is scrolled from its end (px)
LOG_GAP = """() => {
  const b = document.getElementById('log');
  return b.scrollHeight - b.scrollTop - b.clientHeight;
}"""

SET_SLIDER = "(slider, value) => { slider.value = value; slider.dispatchEvent(new Event('input')); }"

VIEWBOX_WIDTH = """() => parseFloat(
  document.querySelector('#board svg.board').getAttribute('viewBox').split(' ')[2])"""

#: the map's view once the page has settled: its viewBox and its place on screen unchanged for
#: twenty frames in a row (the first view and the panels beside the map reshape it as they come)
SETTLED_VIEW = """async () => {
  const svg = document.querySelector('#board svg.board');
  const look = () => {
    const r = svg.getBoundingClientRect();
    return [svg.getAttribute('viewBox'), r.x, r.y, r.width, r.height].join(' ');
  };
  let last = look(), same = 0;
  while (same < 20) {
    await new Promise((done) => requestAnimationFrame(done));
    const now = look();
    same = now === last ? same + 1 : 0;
    last = now;
  }
  return svg.getAttribute('viewBox');
}"""

#: no part of the page reaches past the viewport's right edge (no sideways scrolling)
SIDEWAYS = """() => {
  const width = document.documentElement.clientWidth;
  // inside a box that scrolls (or clips) sideways and itself fits the page: the page does not scroll
  const clipped = (node) => {
    for (let up = node.parentElement; up && up !== document.body; up = up.parentElement) {
      if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(up).overflowX)) {
        return up.getBoundingClientRect().right <= width + 1;
      }
    }
    return false;
  };
  const over = [...document.querySelectorAll('body *')].filter((node) => {
    const box = node.getBoundingClientRect();
    const style = getComputedStyle(node);
    return box.width > 0 && box.right > width + 1 && style.position !== 'fixed' && !node.closest('svg')
      && !clipped(node);
  }).slice(0, 5)
    .map((node) => `${node.tagName}.${node.className} ${Math.round(node.getBoundingClientRect().right)}`);
  return { scroll: document.documentElement.scrollWidth, width, over };
}"""


def api(url: str, path: str, body: dict[str, Any] | None = None) -> Any:
    request = urllib.request.Request(url + path, data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as reply:
        return json.load(reply)


def create_game(url: str, **body: Any) -> dict[str, Any]:
    """A game made through the API, its bots at full speed (a server without per-game pacing ignores it)."""
    try:
        return api(url, "/api/games", {**body, "bot_pace_ms": 0})  # type: ignore[no-any-return]
    except urllib.error.HTTPError as exc:
        if exc.code != 422 or b"bot_pace_ms" not in exc.read():
            raise
    return api(url, "/api/games", body)  # type: ignore[no-any-return]


def no_sideways_scroll(page) -> None:  # type: ignore[no-untyped-def]
    found = page.evaluate(SIDEWAYS)
    assert found["scroll"] <= found["width"] and not found["over"], found


def create_in_lobby(page, url: str, *, seats: tuple[str, ...],  # type: ignore[no-untyped-def]
                    variant: str = "standard", seed: int | None = None,
                    regions_by_city: tuple[str, ...] = (), game_map: str = "germany") -> None:
    """The lobby's form: seats[i] is "human" or a bot name for seat i; bots at full speed."""
    page.goto(url + "/")
    page.wait_for_selector("#mini-map svg .city")
    if game_map != "germany":
        page.click(f"#map-choice [data-value='{game_map}']")
        page.wait_for_selector("#mini-map svg .city")
    page.click(f"#player-choice [data-value='{len(seats)}']")
    page.click(f"#variant-choice [data-value='{variant}']")
    if regions_by_city:
        page.click("#region-mode [data-value='pick']")
        for city in regions_by_city:  # a click on the small map picks the city's region
            page.click(f"#mini-map [data-city='{city}']")
    for seat, kind in enumerate(seats):
        page.select_option(f"select[data-seat='{seat}']", kind)
    if seed is not None:
        page.fill("#seed", str(seed))
    page.fill("#bot_pace_ms", "0")
    page.click("#create")
    page.wait_for_selector("#play-now")


def money_of(page, seat: int) -> int:  # type: ignore[no-untyped-def]
    text = page.locator(f".player[data-seat='{seat}'] .stat.money b").text_content()
    return int(text)


def viewing_seat(page) -> int:  # type: ignore[no-untyped-def]
    return int(page.locator(".player.viewing").get_attribute("data-seat"))


def play_one_decision(page, taken: dict[str, int], on_build=None) -> str:  # type: ignore[no-untyped-def]
    """Make the decision on screen with clicks (a simple, quick player); the kind of decision."""
    form = page.locator("#decision [data-decision]")
    kind = form.get_attribute("data-decision")
    taken[kind] = taken.get(kind, 0) + 1
    seat = viewing_seat(page)
    plants = page.locator(".player.viewing .player-plants .plant-card").count()
    money = money_of(page, seat)
    if kind == "open":
        first_round = page.locator("#round-info .pill").first.get_attribute("data-round") == "1"
        can_pass = page.locator("#decision [data-action='pass']").count() > 0
        if can_pass and not first_round and (money < 25 or (plants >= 3 and taken.get("discard"))):
            page.click("#decision [data-action='pass']")
            return kind
        # the most powerful plant it can afford: bigger plants end the game sooner
        cards = page.locator("#decision .card-row button.plant-card:not([disabled])")
        cards.nth(cards.count() - 1).click()
        page.click("#decision [data-action='open']")
    elif kind == "bid":
        if taken["bid"] % 3 == 1:
            # the lowest raise (a single possible raise, all the money, is one button without a field)
            if page.locator("#decision [data-decision] .bid-control").count():
                page.click("#decision [data-decision] .bid-control [data-quick='min']")
            page.click("#decision [data-action='bid']")
        else:
            page.click("#decision [data-action='pass']")
    elif kind == "discard":
        assert "null" not in form.inner_text()
        if page.locator("#decision [data-action='discard']").count() == 0:
            page.locator("#decision .card-row button.plant-card").first.click()
        assert "null" not in form.inner_text()
        radios = page.locator("#decision input[name='keep']")
        if radios.count() > 1:
            radios.last.check()
        page.click("#decision [data-action='discard']")
    elif kind == "buy":
        for _ in range(3):
            for button in page.locator("#decision [data-step='up']").all():
                if button.is_enabled():
                    button.click()
        total = page.locator("#decision .buy-summary b").inner_text()
        assert re.search(r"^\d+\D*$|^\D*\d+$", total.replace("\u00a0", " ")), total  # an amount of Elektro
        page.click("#decision [data-action='buy']")
    elif kind == "build":
        for picked in range(4):
            cities = page.locator("#board .city.can-build")
            if cities.count() == 0:
                break
            costs = [int(c.get_attribute("data-cost")) for c in cities.all()]
            cities.nth(costs.index(min(costs))).click()
            page.wait_for_function(
                "(n) => document.querySelectorAll('#decision .build-queue li').length === n", arg=picked + 1)
        if on_build:
            on_build()
        page.click("#decision [data-action='build']")
    elif kind == "power":
        payout = page.locator("#decision [data-payout]").get_attribute("data-payout")
        assert int(payout) >= 10
        page.click("#decision [data-action='power']")
    else:
        page.locator("#decision .buttons button").first.click()
    return kind


def play_to_the_end(page, taken: dict[str, int], *, limit: int = 800, each=None, on_build=None) -> None:  # type: ignore[no-untyped-def]
    """Decide every time this page's seat is to act until the end screen shows."""
    last = ""
    for _ in range(limit):
        page.wait_for_function(TURN_OR_END, arg=last, timeout=60_000)
        if page.locator("#end-screen").count():
            return
        last = page.locator("#decision").get_attribute("data-key")
        if each:
            each()
        play_one_decision(page, taken, on_build)
    raise AssertionError(f"the game did not end; decisions taken: {taken}")


def act_via_api(url: str, game: dict[str, Any], choose=None) -> str:  # type: ignore[no-untyped-def]
    """The seat to act (a human seat of ``game``) takes an action through the API; the action."""
    game_id = game["game_id"]
    tokens = {s["seat"]: s["token"] for s in game["seats"] if s["kind"] == "human"}
    seat = api(url, f"/api/games/{game_id}")["to_act"]
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {tokens[seat]}"}
    request = urllib.request.Request(f"{url}/api/games/{game_id}/view?seat={seat}", headers=headers)
    with urllib.request.urlopen(request, timeout=30) as reply:
        legal = json.load(reply)["legal"]
    action = choose(legal) if choose else legal[0]
    request = urllib.request.Request(f"{url}/api/games/{game_id}/actions", headers=headers,
                                     data=json.dumps({"seat": seat, "action": action}).encode())
    urllib.request.urlopen(request, timeout=30).close()
    return action


#: whether the first text inside the element ``selector`` has its first character (a sign: "+5",
#: "−5%") drawn to the left of its second, as it must be in a right-to-left page too
SIGN_FIRST = """(selector) => {
  const text = document.createTreeWalker(document.querySelector(selector), NodeFilter.SHOW_TEXT).nextNode();
  const left = (i) => { const r = document.createRange(); r.setStart(text, i); r.setEnd(text, i + 1);
                        return r.getBoundingClientRect().left; };
  return left(0) < left(1);
}"""
