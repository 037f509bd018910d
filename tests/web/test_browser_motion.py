"""What a move changed lights up (a glow, the money's change rising beside it); a person whose
system asks for less motion (prefers-reduced-motion) sees the same change of money, still, and no
animation at all."""

from __future__ import annotations

from .api import call
from .moves import SIGN_FIRST


def seat_page(new_page, url: str, gid: str, seat: int, token: str, motion: bool,  # type: ignore[no-untyped-def]
              lang: str = "en"):
    page = new_page(motion=motion)
    page.goto(f"{url}/game/{gid}?lang={lang}#seat={seat}&token={token}")
    page.wait_for_selector(".connection.live")
    return page


def test_a_moves_changes_are_animated_unless_less_motion_is_asked_for(server_url, new_page) -> None:
    game = call(server_url, "/api/games", {"map": "germany", "players": 2, "seed": 17, "hints": False,
                                           "seats": [{"kind": "human"}] * 2})
    gid = game["game_id"]
    tokens = {s["seat"]: s["token"] for s in game["seats"]}
    first = call(server_url, f"/api/games/{gid}")["to_act"]
    second = 1 - first
    moving = seat_page(new_page, server_url, gid, second, tokens[second], motion=True)
    # (the still page in Hebrew: the figure reads the same, its sign before the number)
    still = seat_page(new_page, server_url, gid, second, tokens[second], motion=False, lang="he")
    for page, running in ((moving, True), (still, False)):
        assert page.evaluate("() => matchMedia('(prefers-reduced-motion: reduce)').matches") is not running

    # the first player opens an auction, the second passes: the first pays for the plant
    legal = call(server_url, f"/api/games/{gid}/view?seat={first}", token=tokens[first])["legal"]
    opening = next(a for a in legal if a.startswith("open"))
    call(server_url, f"/api/games/{gid}/actions", {"seat": first, "action": opening}, tokens[first])
    call(server_url, f"/api/games/{gid}/actions", {"seat": second, "action": "pass"}, tokens[second])
    paid = f".player[data-seat='{first}'] .stat.money .delta.down"
    for page in (moving, still):
        page.wait_for_selector(paid)
    assert moving.locator(paid).inner_text().startswith("−")
    assert moving.evaluate("(s) => document.querySelector(s).getAnimations().length", paid) == 1
    assert moving.evaluate("() => document.getAnimations().length") > 1   # the glows too
    # less motion: the same figure, shown still, and nothing on the page animates
    assert still.locator(paid).inner_text() == moving.locator(paid).inner_text()
    assert still.evaluate("(s) => getComputedStyle(document.querySelector(s)).opacity", paid) == "1"
    assert still.evaluate(SIGN_FIRST, paid)
    assert still.evaluate("() => document.getAnimations().length") == 0
    # and it goes, as the moving one fades
    for page in (moving, still):
        page.wait_for_selector(paid, state="detached", timeout=5_000)
    assert moving.script_errors == [] and still.script_errors == []
