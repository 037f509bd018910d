"""`powergrid play --join <seat link>`: the terminal plays a seat of a real server's game, in a
pseudo-terminal: a round against a bot, chat, standing orders placed and cancelled, refusals in
words, another language; and the pieces without a terminal (seat links, a view made a state)."""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import powergrid as pg
from powergrid.tui.remote import BadLink, parse_seat_link, state_from_view

from .servers import ServerProcess
from .waiting import wait_for

pexpect = pytest.importorskip("pexpect")
pytest.importorskip("websockets")
pytestmark = pytest.mark.timeout(240)

BIN = Path(sys.executable).parent / "powergrid"
DECISION = re.compile(r"P0 (auction|bid|discard|buy|build|power)> |amount> ")


def shown(text: str) -> str:
    """A pattern for ``text`` as printed, whatever styles (escape sequences) lie between its letters."""
    return "(?:\x1b\\[[0-9;]*m)*".join(map(re.escape, text))


# ---------------------------------------------------------------------- without a terminal
def test_a_seat_link_gives_the_server_game_seat_and_token() -> None:
    link = parse_seat_link("http://example.org:8000/game/AbC123xyz#seat=2&token=t0k-en_")
    assert (link.server, link.game_id, link.seat, link.token) == ("http://example.org:8000", "AbC123xyz", 2,
                                                                  "t0k-en_")
    older = parse_seat_link("https://example.org/game/AbC123xyz?seat=1&token=abc")
    assert (older.server, older.seat, older.token) == ("https://example.org", 1, "abc")
    relative = parse_seat_link("/game/AbC123xyz#seat=0&token=abc", server="http://127.0.0.1:8000/")
    assert relative.server == "http://127.0.0.1:8000"
    for bad, why in (("/game/AbC123xyz#seat=0&token=abc", "no server address"),
                     ("http://h/game/AbC123xyz#seat=0", "a seat link looks like"),
                     ("http://h/lobby#seat=0&token=a", "a seat link looks like"),
                     ("http://h/game/x#seat=one&token=a", "not a number"),
                     ("ftp://h/game/x#seat=0&token=a", "not http")):
        with pytest.raises(BadLink, match=why):
            parse_seat_link(bad)


def test_a_seats_view_made_a_state_offers_the_games_own_choices() -> None:
    state = pg.new_game(pg.GameConfig(map="germany", players=3, seed=8))
    for step in range(260):
        if state.is_over:
            break
        seat = state.current_player
        assert seat is not None
        seen = state_from_view(state.view(seat).to_dict())
        assert seen.legal_actions() == state.legal_actions(), step
        assert seen.money == state.money and seen.current_market() == state.current_market()
        legal = state.legal_actions()
        state.apply(legal[(step * 7) % len(legal)])


# ---------------------------------------------------------------------- through a terminal
@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    with ServerProcess(f"sqlite:///{tmp_path}/games.db", tmp_path / "serve.log",
                       POWERGRID_BOT_WORKERS="1", POWERGRID_SEARCH_WORKERS="0",
                       POWERGRID_UNDO_WINDOW_MS="0") as process:  # bots move at once after a person
        yield process


def create(server: ServerProcess, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    r = httpx.post(server.url + "/api/games", json={"map": "germany", "players": len(seats), "seed": 4,
                                                    "variant": "first_game", "seats": seats,
                                                    "bot_pace_ms": 0, **extra}, timeout=10)
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def join(link: str, *args: str):  # type: ignore[no-untyped-def]
    if BIN.exists():
        command, argv = str(BIN), ["play", "--join", link, *args]
    else:  # pragma: no cover - an install without the console script
        command, argv = sys.executable, ["-c", "from powergrid.cli.main import main; main()", "play",
                                         "--join", link, *args]
    env = {"PATH": "/usr/bin:/bin", "TERM": "xterm", "NO_COLOR": "1", "COLUMNS": "130", "LINES": "50",
           "PYTHONIOENCODING": "utf-8", "HOME": str(Path.home())}
    if "PYTHONPATH" in os.environ:  # the sources under test, where they are not the installed ones
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    return pexpect.spawn(command, argv, env=env, encoding="utf-8", timeout=30, dimensions=(50, 130))



def public(server: ServerProcess, game_id: str) -> dict[str, Any]:
    return httpx.get(f"{server.url}/api/games/{game_id}", timeout=10).json()  # type: ignore[no-any-return]


def bid_reply(server: ServerProcess, game_id: str) -> str:
    """The lowest bid while it is cheap, else pass."""
    low = int(public(server, game_id)["state"]["auction"]["bid"]) + 1
    return str(low) if low <= 20 else "pass"


def test_a_round_against_a_bot_with_chat_and_clocks(server: ServerProcess) -> None:
    game = create(server, [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
                  time_control={"kind": "live", "bank_s": 900, "increment_s": 10})
    gid = game["game_id"]
    child = join(server.url + game["seats"][0]["link"], "--name", "Ada")
    child.expect("Joined game")
    child.expect(shown("live: 15 minutes + 10 s a move"))
    said = built = False
    kinds = set()
    screen = ""
    for _ in range(80):
        index = child.expect([DECISION, "Round 2"])
        screen += child.before
        if index == 1:
            break
        kind = child.match.group(1) or "amount"
        kinds.add(kind)
        if not said:
            child.sendline("say hello <b>table</b>")
            child.expect(shown("P0 Red (Ada): hello <b>table</b>"))
            said = True
            child.expect(DECISION)
            child.sendline("clock")  # every clock as of now, at any prompt
            child.expect(r"Clocks: ▶ (?:\x1b\[[0-9;]*m)*P0 Red[^\n]*1[45]:\d\d")
            child.expect(DECISION)
        if kind == "auction":
            child.sendline("1")
        elif kind == "bid":
            child.sendline(bid_reply(server, gid))
        elif kind == "build":
            child.sendline("done" if built else "1")
            built = True
        else:
            child.sendline({"buy": "done", "power": "", "discard": "1", "amount": ""}[kind])
    else:
        pytest.fail("round 2 never came")
    child.expect(r"P0 \w+> ")
    child.sendline("quit")
    child.expect("join again with the same link")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert {"auction", "buy", "build", "power"} <= kinds
    assert "(random)" in screen  # the bot's moves arrive in the log as they are made
    assert "Clocks: " in screen and "Your clock: " in screen
    chat = httpx.get(f"{server.url}/api/games/{gid}/chat", timeout=10).json()["messages"]
    assert [(m["seat"], m["name"], m["text"]) for m in chat] == [(0, "Ada", "hello <b>table</b>")]
    now = public(server, gid)
    assert now["state"]["round"] == 2 and now["seats"][0]["name"] == "Ada"
    assert now["state"]["players"][0]["plants"] and now["state"]["players"][0]["cities"]  # bought, built
    assert now["clocks"]["seats"][0]["left_s"] is not None


def order_of(server: ServerProcess, gid: str, token: str) -> Any:
    r = httpx.get(f"{server.url}/api/games/{gid}/orders", params={"seat": 0},
                  headers={"Authorization": f"Bearer {token}"}, timeout=10)
    assert r.status_code == 200, r.text
    return r.json()["order"]


def test_standing_orders_are_placed_shown_and_cancelled_while_another_player_thinks(
        server: ServerProcess) -> None:
    game = create(server, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}])
    gid = game["game_id"]
    mine, other = (game["seats"][s]["token"] for s in (0, 1))
    child = join(server.url + game["seats"][0]["link"])
    child.expect("Joined game")
    placed = False
    for _ in range(100):
        now = public(server, gid)
        if placed and now["state"]["auction"]["plant"] == 0:
            break
        if now["to_act"] == 1:
            auction = now["state"]["auction"]
            if not placed and auction["plant"] and auction["in"] >> 0 & 1:
                limit = auction["bid"] + 5
                child.sendline(f"order bid-up-to {limit}")
                child.expect(shown(f"Your standing order: Bid up to {limit} E for this plant"))
                order = order_of(server, gid, mine)
                assert (order["kind"], order["limit"], order["status"]) == ("bid_up_to", limit, "pending")
                child.sendline("order")
                child.expect(shown(f"Your standing order: Bid up to {limit} E for this plant"))
                child.sendline("order cancel")
                child.expect("Standing order cancelled.")
                assert order_of(server, gid, mine) is None
                child.sendline("order cancel")
                child.expect(shown("There is no such order (it may have been played already)."))  # no_order
                placed = True
            view = httpx.get(f"{server.url}/api/games/{gid}/view", params={"seat": 1},
                             headers={"Authorization": f"Bearer {other}"}, timeout=10).json()
            action = "pass" if "pass" in view["legal"] else view["legal"][0]
            r = httpx.post(f"{server.url}/api/games/{gid}/actions",
                           headers={"Authorization": f"Bearer {other}"},
                           json={"seat": 1, "action": action, "version": view["version"]}, timeout=10)
            assert r.status_code == 200, r.text
            continue
        if now["to_act"] != 0:
            time.sleep(0.05)
            continue
        child.expect(DECISION)
        kind = child.match.group(1) or "amount"
        if kind == "auction":
            child.sendline("order pass-auction")  # round 1: nobody may pass, in words
            child.expect("In the first round everybody must buy a plant: you may not pass.")
            child.expect(DECISION)
            child.sendline("1")
            child.expect("amount> ")
            child.sendline("")  # the lowest opening bid
        elif kind == "bid":
            child.sendline(bid_reply(server, gid))
        else:
            child.sendline({"buy": "done", "build": "done", "power": "", "discard": "1", "amount": ""}[kind])
        wait_for(lambda v=now["version"]: public(server, gid)["version"] > v)
    else:
        pytest.fail("the auction never ended")
    assert placed
    child.sendline("leave")  # the stand-in plays the seat until the person takes it back
    child.expect(shown("You left: the heuristic bot plays your seat."))
    assert public(server, gid)["clocks"]["seats"][0]["stand_in"] == "left"
    child.sendline("back")
    child.expect("Your seat is yours again.")
    assert public(server, gid)["clocks"]["seats"][0]["stand_in"] is None
    child.sendline("back")
    child.expect(shown("You hold this seat: no bot plays it."))  # seat_not_taken_over, in words
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()


def test_joining_in_another_language_and_a_wrong_token(server: ServerProcess) -> None:
    game = create(server, [{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    link = server.url + game["seats"][0]["link"]
    child = join(link, "--lang", "pl")
    child.expect("Dołączono do gry")
    child.expect(r"P0 (licytacja|stawka)> ")
    child.sendline("say")
    child.expect("Wpisz 'say'")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    wrong = join(link.replace("token=", "token=x"))
    wrong.expect(shown("✗ That token does not belong to this seat."))
    wrong.expect(pexpect.EOF)
    wrong.close()
    assert wrong.exitstatus == 1
