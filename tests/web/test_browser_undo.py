"""Through the browser: the Undo button takes back a bid and a build, and says why when it may not."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

from .conftest import screenshot


def call(url: str, path: str, body: Any = None, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url + path, data=data, headers=headers, method="POST" if data else "GET")
    with urllib.request.urlopen(request, timeout=10) as reply:
        return json.load(reply)


class ApiTable:
    """A 3-player game of people, driven through the API except for the seat the page plays."""

    def __init__(self, url: str, seed: int = 11) -> None:
        self.url = url
        game = call(url, "/api/games", {"map": "germany", "players": 3, "seed": seed,
                                        "seats": [{"kind": "human"}] * 3, "hints": False})
        self.gid = game["game_id"]
        self.tokens = {s["seat"]: s["token"] for s in game["seats"]}

    def public(self) -> Any:
        return call(self.url, f"/api/games/{self.gid}")

    def act(self, action: str) -> Any:
        now = self.public()
        seat = now["to_act"]
        return call(self.url, f"/api/games/{self.gid}/actions",
                    {"seat": seat, "action": action, "version": now["version"]}, self.tokens[seat])

    def calm_step(self) -> None:
        seat = self.public()["to_act"]
        legal = call(self.url, f"/api/games/{self.gid}/view?seat={seat}", token=self.tokens[seat])["legal"]
        calm = [a for a in legal if a in ("pass", "done")]
        self.act(calm[0] if calm else legal[0])

    def open_page(self, new_page, seat: int):  # type: ignore[no-untyped-def]
        page = new_page()
        page.goto(f"{self.url}/game/{self.gid}#seat={seat}&token={self.tokens[seat]}")
        page.wait_for_selector(".connection.live")
        return page


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
    assert "bid 4" in page.locator("#undo").get_attribute("title")
    assert table.public()["state"]["auction"]["bid"] == 4
    screenshot(page, "undo-bid-before")

    page.click("#undo")
    page.wait_for_selector("#decision [data-decision='bid']")
    page.wait_for_selector("#log li.undo")
    assert "took back" in page.locator("#log li.undo").inner_text()
    now = table.public()
    assert now["state"]["auction"]["bid"] == 3 and now["to_act"] == bidder
    assert now["last"]["action"] == "undo" and now["last"]["undone"] == "bid 4"
    assert page.locator("#undo").is_disabled()  # the opener's action is not this seat's to take back
    screenshot(page, "undo-bid-after")
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
    page.wait_for_function("() => document.getElementById('undo').title.includes('new information')")
    assert page.locator("#undo").is_disabled()
    page.locator("body").press("u")
    toast = page.locator(".toast-error").last
    toast.wait_for()
    assert "new information" in toast.inner_text() and "drawn" in toast.inner_text()
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
