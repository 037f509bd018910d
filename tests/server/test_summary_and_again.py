"""The end of a game (SQLite and PostgreSQL): the summary per player, checked against the game's
own money, and Play again (the same seats, bots and settings, a new seed, the same tokens)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

import powergrid as pg
from powergrid.bots import make_bot
from powergrid.rules.catalog import SLOT_PRICES, STARTING_MONEY

from .conftest import auth, create, error_code, true_state
from .play import view

pytestmark = pytest.mark.timeout(300)

SEATS = [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}, {"kind": "human"}]


def play_to_the_end(client: TestClient, game: dict[str, Any]) -> None:
    """The people play as the heuristic bot would (chosen here, from their own views)."""
    gid = game["game_id"]
    tokens = {s["seat"]: s["token"] for s in game["seats"] if s.get("token")}
    bots = {seat: make_bot("heuristic", seat) for seat in tokens}
    for _ in range(5000):
        current = client.get(f"/api/games/{gid}").json()
        if current["state"]["game_over"]:
            return
        seat = current["to_act"]
        if seat not in tokens:
            continue  # the bot seat's worker moves
        state = true_state(client, gid)
        action = str(bots[seat].act(state.view(seat)))
        r = client.post(f"/api/games/{gid}/actions", headers=auth(tokens[seat]),
                        json={"seat": seat, "action": action, "version": current["version"]})
        assert r.status_code in (200, 409), r.text
    raise AssertionError("the game did not end")


def money_by_kind(config: dict[str, Any], actions: list[str]) -> dict[str, list[int]]:
    """Replay the record and sort every change of money by the action that made it."""
    state = pg.new_game(pg.GameConfig.from_dict(config))
    players = state.players
    out = {kind: [0] * players for kind in ("plants", "resources", "houses", "connections", "income")}
    for text in actions:
        action = pg.parse_action(text)
        before = list(state.money)
        slot = 0
        if action.kind == "build":
            slot = SLOT_PRICES[len(state.houses[state.scn.city_by_name[action.city]])]
        state.apply(action)
        for seat in range(players):
            change = state.money[seat] - before[seat]
            if not change:
                continue
            if action.kind in ("open", "bid", "pass"):
                out["plants"][seat] -= change
            elif action.kind == "buy":
                out["resources"][seat] -= change
            elif action.kind == "build":
                out["houses"][seat] += slot
                out["connections"][seat] += -change - slot
            elif action.kind == "power":
                out["income"][seat] += change
            else:
                raise AssertionError(f"{text} changed seat {seat}'s money by {change}")
    return out


def test_the_summary_and_play_again_before_the_end_are_refused(client: TestClient) -> None:
    game = create(client, 3)
    gid, token = game["game_id"], game["seats"][0]["token"]
    r = client.get(f"/api/games/{gid}/summary")
    assert r.status_code == 409 and error_code(r) == "game_not_over" and set(r.json()) == {"error"}
    r = client.post(f"/api/games/{gid}/again", headers=auth(token), json={"seat": 0})
    assert r.status_code == 409 and error_code(r) == "game_not_over"
    r = client.get(f"/api/games/{gid}/again")
    assert r.status_code == 404 and error_code(r) == "no_rematch"
    assert error_code(client.get("/api/games/nosuchgame/summary")) == "unknown_game"


def test_a_finished_games_summary_adds_up_and_play_again_keeps_the_table(client: TestClient) -> None:
    # undo on with a window of 1 ms (the tests' server has none): Play again keeps the creator's choice
    game = create(client, 3, seats=SEATS, bot_pace_ms=0, undo_window_ms=1, hints=False)
    assert game["undo_window_ms"] == 1
    gid = game["game_id"]
    play_to_the_end(client, game)
    record = client.get(f"/api/games/{gid}/record").json()
    final = true_state(client, gid)

    r = client.get(f"/api/games/{gid}/summary")
    assert r.status_code == 200, r.text
    summary = r.json()
    expected = money_by_kind(record["config"], record["actions"])
    for seat, player in enumerate(summary["players"]):
        for kind in ("plants", "resources", "houses", "connections", "income"):
            assert player[kind] == expected[kind][seat], (seat, kind)
        spent = player["plants"] + player["resources"] + player["houses"] + player["connections"]
        assert player["spent"] == spent > 0
        assert STARTING_MONEY + player["income"] - spent == player["money"] == final.money[seat]
        assert player["cities"] == len(final.cities[seat])
        assert player["cost_per_city"] == round(spent / player["cities"], 1)
        assert player["houses"] >= 10 * player["cities"]
        assert player["time_used_s"] >= 0
    rounds = summary["rounds"]
    assert [r["round"] for r in rounds] == list(range(1, final.round + 1))
    assert rounds[-1]["cities"] == [len(c) for c in final.cities]
    for seat in range(3):
        assert sum(r["income"][seat] for r in rounds) == summary["players"][seat]["income"]
        assert all(r["powered"][seat] <= r["cities"][seat] for r in rounds)
    over = next(e for e in final.events if e[0] == "over")
    if not any(rounds[-1]["income"]):  # the game ended before a payday: the cities the win counted
        assert rounds[-1]["powered"] == list(over[2])
    assert summary["per_round"]["income"] == [r["income"] for r in rounds]
    assert summary["time_used"] is True and summary["winners"] == list(final.winners)

    # play again: a seat of the finished game asks, with its token
    first, other = game["seats"][0]["token"], game["seats"][2]["token"]
    assert error_code(client.post(f"/api/games/{gid}/again", headers=auth("nope"), json={"seat": 0})) \
        == "wrong_token"
    assert error_code(client.post(f"/api/games/{gid}/again", headers=auth(first), json={"seat": 1})) \
        == "wrong_token"  # a bot's seat has no token
    r = client.post(f"/api/games/{gid}/again", headers=auth(first), json={"seat": 0})
    assert r.status_code == 200, r.text
    made = r.json()
    new = made["new_game_id"]
    assert made["created"] is True and new != gid and made["link"] == f"/game/{new}#seat=0&token={first}"
    again = client.post(f"/api/games/{gid}/again", headers=auth(other), json={"seat": 2}).json()
    assert again["new_game_id"] == new and again["created"] is False
    assert client.get(f"/api/games/{gid}/again").json()["new_game_id"] == new
    assert error_code(client.get(f"/api/games/{new}/again")) == "no_rematch"

    service = client.app.state.service  # type: ignore[attr-defined]
    old_row, new_row = service.store.game(gid), service.store.game(new)
    old_config, new_config = dict(old_row.config), dict(new_row.config)
    assert new_config.pop("seed") != old_config.pop("seed")
    assert new_config == old_config
    assert not new_row.seeded and new_row.status == "playing"
    assert [(s.kind, s.bot) for s in new_row.seats] == [(s.kind, s.bot) for s in old_row.seats]
    assert (new_row.public, new_row.allow_undo, new_row.bot_pace_ms) == (False, True, 0)
    assert new_row.undo_window_ms == 1
    assert client.get(f"/api/games/{new}/hints", params={"seat": 0}, headers=auth(first)).json()["enabled"] \
        is False
    for seat, token in ((0, first), (2, other)):  # each person's own token takes their seat again
        assert view(client, new, seat, token)["seat"] == seat
    assert error_code(client.get(f"/api/games/{new}/view", params={"seat": 2}, headers=auth(first))) \
        == "wrong_token"
