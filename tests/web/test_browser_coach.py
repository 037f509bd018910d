"""The coach in the browser: the Hint button asks the server, and the suggestion is drawn."""

from __future__ import annotations

import json
import re
import urllib.request

from .conftest import screenshot


def create_game(server_url: str, **extra: object) -> dict:
    body = json.dumps({"map": "germany", "players": 2, "seed": 5,
                       "seats": [{"kind": "human"}, {"kind": "human"}], **extra}).encode()
    request = urllib.request.Request(f"{server_url}/api/games", data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as reply:
        return json.load(reply)


def first_to_act(server_url: str, game_id: str) -> int:
    with urllib.request.urlopen(f"{server_url}/api/games/{game_id}", timeout=10) as reply:
        return int(json.load(reply)["to_act"])


def test_hint_button_draws_the_suggestion(server_url, new_page) -> None:
    game = create_game(server_url)
    seat = first_to_act(server_url, game["game_id"])
    page = new_page()
    page.goto(server_url + game["seats"][seat]["link"])
    page.wait_for_selector("#decision [data-decision='open']")
    page.wait_for_selector("#decision .coach-button:not([disabled])")
    assert "10 of 10 hints left" in page.locator("#decision .coach-left").inner_text()
    page.click("#decision .coach-button")
    card = page.locator("#decision .coach-card")
    card.wait_for(timeout=30_000)
    move = card.locator(".coach-move").inner_text()  # in words, not "open 3 3"
    assert move.startswith("Open an auction for plant "), move
    plant = move.split()[5]
    assert card.locator(".coach-play").get_attribute("data-steps").startswith(f"open {plant} ")
    assert f"Plant {plant}" in card.locator(".coach-reason").inner_text()
    # drawn: the plant is marked in the market, and the count went down
    page.wait_for_selector(f"#plant-market .plant-card.coach-hint[data-plant='{plant}']")
    assert "9 of 10 hints left" in page.locator("#decision .coach-left").inner_text()
    assert card.locator(".coach-alternatives tbody tr").count() >= 2
    # each plan with its chance and where it leaves the seat against the best rival, in Elektro
    assert card.locator(".coach-alternatives thead th").nth(2).text_content() == "against the best rival"
    for cell in card.locator(".coach-alternatives tbody td:nth-child(3)").all_inner_texts():
        assert re.fullmatch(r"[+−]?\d+\u00a0E", cell), cell  # a minus sign, not a hyphen
    screenshot(page, "coach-hint")
    # playing the suggestion clears the marks
    card.locator(".coach-play").click()
    page.wait_for_selector("#decision [data-decision='bid'], #decision .waiting")
    page.wait_for_function("() => !document.querySelector('.coach-hint')")
    assert page.script_errors == []


def test_no_hint_button_when_hints_are_off(server_url, new_page) -> None:
    game = create_game(server_url, hints=False)
    seat = first_to_act(server_url, game["game_id"])
    page = new_page()
    page.goto(server_url + game["seats"][seat]["link"])
    page.wait_for_selector("#decision [data-decision='open']")
    page.wait_for_selector("#decision .coach-box[hidden]", state="attached")
    assert not page.locator("#decision .coach-button").is_visible()
    assert page.script_errors == []
