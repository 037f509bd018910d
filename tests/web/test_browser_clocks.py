"""Through the browser: a live clock ticks on the player's card, warns when low, runs out (the
stand-in bot takes the seat), and the player takes the seat back; Leave hands it over again."""

from __future__ import annotations

import pytest

from .api import call
from .conftest import screenshot


@pytest.mark.long
def test_a_live_clock_ticks_runs_out_and_the_seat_is_taken_back(server_url, new_page) -> None:
    game = call(server_url, "/api/games", {
        "map": "germany", "players": 2, "seed": 41, "seats": [{"kind": "human"}] * 2, "hints": False,
        "time_control": {"kind": "live", "bank_s": 12, "increment_s": 5}})
    gid = game["game_id"]
    tokens = {s["seat"]: s["token"] for s in game["seats"]}
    seat = call(server_url, f"/api/games/{gid}")["to_act"]
    page = new_page()
    page.goto(f"{server_url}/game/{gid}#seat={seat}&token={tokens[seat]}")
    page.wait_for_selector(".connection.live")
    assert page.locator("#clock-info").inner_text() == "Clock 12 s + 5 s"
    assert "live" in page.locator("#clock-info").get_attribute("title")
    running = f".player[data-seat='{seat}'] .clock.running"
    page.wait_for_selector(running)
    first = page.locator(running).inner_text()
    page.wait_for_function("([sel, first]) => { const c = document.querySelector(sel);"
                           " return c && c.textContent !== first; }", arg=[running, first])  # it ticks
    other = page.locator(f".player[data-seat='{1 - seat}'] .clock")
    assert other.inner_text() == "0:12" and "running" not in (other.get_attribute("class") or "")
    page.wait_for_selector(f".player[data-seat='{seat}'] .clock.low")  # ten seconds left: the warning
    screenshot(page, "clock-low")

    # the clock runs out: the heuristic bot plays the seat, and says so
    page.wait_for_selector(f".player[data-seat='{seat}'] [data-stand-in='time']", timeout=40_000)
    page.wait_for_selector("#take-back-seat")
    assert "heuristic bot is playing for you" in page.locator("#absence").inner_text()
    page.wait_for_selector("#log li.notice")
    assert page.locator("#leave").is_hidden()
    screenshot(page, "clock-ran-out")

    page.click("#take-back-seat")
    page.wait_for_selector("#absence", state="hidden")
    page.wait_for_selector(f".player[data-seat='{seat}'] [data-stand-in]", state="detached")
    assert page.locator("#leave").is_visible()
    assert call(server_url, f"/api/games/{gid}")["clocks"]["seats"][seat]["stand_in"] is None

    page.click("#leave")  # asks first
    assert "again" in page.locator("#leave").inner_text()
    page.click("#leave")
    page.wait_for_selector(f".player[data-seat='{seat}'] [data-stand-in='left']")
    page.wait_for_selector("#take-back-seat")
    assert "they left" in page.locator("#absence").inner_text()
    screenshot(page, "clock-left")
    page.click("#take-back-seat")
    page.wait_for_selector("#absence", state="hidden")
    notices = call(server_url, f"/api/games/{gid}")["clocks"]["notices"]
    assert [(s, text) for _v, s, text, _at in notices] == [
        (seat, "@stand-in time"), (seat, "@back"), (seat, "@stand-in left"), (seat, "@back")]
    assert page.script_errors == []
