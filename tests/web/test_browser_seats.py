"""Through the browser: a public game with an open seat taken by a stranger; a seeded game's badge;
seat tokens kept out of every URL the server sees."""

from __future__ import annotations

import re


def test_a_stranger_takes_the_open_seat_of_a_public_game(server_url, new_page) -> None:
    host = new_page()
    sent: list[str] = []
    host.on("request", lambda request: sent.append(request.url))
    host.on("websocket", lambda socket: sent.append(socket.url))
    host.goto(server_url + "/")
    host.wait_for_selector("#mini-map svg .city")
    host.click("#player-choice [data-value='2']")
    host.click("#visibility-choice [data-value='public']")
    host.select_option("select[data-seat='1']", "open")
    host.fill("#seed", "42")
    host.click("#create")
    host.wait_for_selector("#play-now")
    assert host.locator("#created .link-row").count() == 2  # the host's seat and the spectators' link
    link = host.locator("#created .link-row input[type=text]").first.input_value()
    assert re.search(r"/game/[\w-]+#seat=0&token=", link)
    game_id = link.split("/game/")[1].split("#")[0]
    row = host.locator(f".game-item[data-game='{game_id}']")
    row.wait_for()
    assert row.locator(".status-public").count() == 1 and row.locator(".status-seeded").count() == 1

    stranger = new_page()
    stranger.goto(server_url + "/")
    theirs = stranger.locator(f".game-item[data-game='{game_id}']")
    theirs.wait_for()
    join = theirs.locator("button:has-text('Join as')")
    assert join.count() == 1  # only the open seat; the host's seat is joined by its link alone
    join.click()
    stranger.wait_for_selector(".connection.live")
    stranger.wait_for_selector("#decision [data-decision], #decision .waiting")
    assert "token" not in stranger.url
    assert stranger.locator("#game-title .status-seeded").count() == 1

    host.click("#play-now")
    host.wait_for_selector(".connection.live")
    assert "token" not in host.url
    # the token went in the fragment and the socket's first message: never in a URL the server saw
    assert sent and not [url for url in sent if "token=" in url]
    assert host.script_errors == [] and stranger.script_errors == []


def test_a_private_game_offers_no_seat_to_strangers(server_url, new_page) -> None:
    host = new_page()
    host.goto(server_url + "/")
    host.wait_for_selector("#mini-map svg .city")
    host.click("#player-choice [data-value='2']")
    host.select_option("select[data-seat='1']", "human")
    assert host.locator("select[data-seat='1'] option[value='open']").count() == 0  # private by default
    host.click("#create")
    host.wait_for_selector("#play-now")
    link = host.locator("#created .link-row input[type=text]").first.input_value()
    game_id = link.split("/game/")[1].split("#")[0]
    stranger = new_page()
    stranger.goto(server_url + "/")
    row = stranger.locator(f".game-item[data-game='{game_id}']")
    row.wait_for()
    assert row.locator(".status-private").count() == 1 and row.locator(".status-seeded").count() == 0
    assert row.locator("button:has-text('Join as')").count() == 0
    assert row.locator("a:has-text('Watch')").count() == 1
