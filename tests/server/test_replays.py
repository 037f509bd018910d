"""The whole log page by page, round summaries, auction status, stakes, and the replay routes."""

from __future__ import annotations

import json
import random
import re

import pytest
from fastapi.testclient import TestClient

import powergrid as pg
from powergrid.bots import make_bot
from powergrid.server import Settings, create_app
from powergrid.server.common.limits import Limits
from powergrid.server.games import views
from powergrid.server.games.frames import new_events
from powergrid.server.games.round_log import RoundTally, display_entries, summary_text

from .conftest import assert_no_secrets, auth, create, error_code
from .play import play


@pytest.fixture
def client(tmp_path) -> TestClient:  # type: ignore[no-untyped-def]
    settings = Settings(database_url=f"sqlite:///{tmp_path}/games.db", redis_url=None, snapshot_every=20,
                        bot_pace_ms=0, limits=Limits(requests_per_second=0))
    with TestClient(create_app(settings)) as c:
        yield c


def bot_game(players: int = 3, seed: int = 3) -> pg.GameState:
    state = pg.new_game(pg.GameConfig(map="germany", players=players, seed=seed))
    bots = [make_bot("heuristic", i) for i in range(players)]
    while not state.is_over:
        seat = state.current_player
        state.apply(bots[seat].act(state.view(seat)))
    return state


def test_round_summaries_in_words_and_kept_incrementally() -> None:
    state = pg.new_game(pg.GameConfig(map="germany", players=3, seed=3))
    bots = [make_bot("heuristic", i) for i in range(3)]
    tail = views.LogTail.of(state)
    while not state.is_over:
        before = state.clone()
        seat = state.current_player
        state.apply(bots[seat].act(state.view(seat)))
        tail = tail.extended(state, new_events(state, before))
    whole = views.LogTail.of(state)
    assert (tail.text, tail.entries, tail.total) == (whole.text, whole.entries, whole.total)
    shown, _ = display_entries(state.scn, state.events, RoundTally())
    summaries = [(e, t) for e, t in shown if e[0] == "summary"]
    assert len(summaries) == 3 * state.round  # each player, each round, the last one included
    # a summary's numbers are the round's events: the plant bought, the builds, the payout
    round1 = [e for e, _ in summaries if e[1] == 1]
    bought = {e[1]: (e[2], e[3]) for e in state.events[:40] if e[0] == "bought"}
    for _, _, seat, done in round1:
        assert tuple(done["plant"]) == bought[seat]
    payouts = [e for e in state.events if e[0] == "payout"][:3]
    for _, seat, powered, earned in payouts:
        assert round1[seat][3]["powered"] == powered and round1[seat][3]["earned"] == earned
    # summaries come right before the next round's header, and before "Game over" at the end
    texts = [t for _, t in shown]
    assert texts[-1].startswith("Game over") and texts[-2].startswith(f"Round {state.round}, P2:")
    # the last round's summaries carry the final powered counts (no payout that round) for clients
    # that say them in words from the entries; the earlier ones do not
    over = shown[-1][0]
    assert [e[3].get("final_powered") for e, _ in shown[-4:-1]] == over[2]
    assert all("final_powered" not in e[3] for e in round1)
    at = texts.index("Round 2")
    assert [t[:12] for t in texts[at - 3:at]] == ["Round 1, P0:", "Round 1, P1:", "Round 1, P2:"]


def test_summary_words() -> None:
    from powergrid.server.games.round_log import SeatRound
    done = SeatRound(plant=(13, 15), fuel=(2, 1, 0, 0), fuel_paid=11, built=("Köln",), build_paid=10,
                     powered=1, earned=22)
    assert summary_text(3, 1, done) == ("Round 3, P1: bought plant 13 for 15; bought 2 coal, 1 oil for 11; "
                                        "built 1 city (Köln) for 10; powered 1 city and earned 22")
    assert summary_text(1, 0, SeatRound()) == \
        "Round 1, P0: bought no plant; bought no resources; built nothing"


def test_auction_status_per_player(client: TestClient) -> None:
    game = create(client, 3, seed=4)
    gid = game["game_id"]
    tokens = {s["seat"]: s["token"] for s in game["seats"]}
    first = client.get(f"/api/games/{gid}").json()
    status = first["state"]["auction_status"]
    assert [s["status"] for s in status] == ["to_go"] * 3
    opener = first["to_act"]
    plant = first["state"]["current_market"][0]
    r = client.post(f"/api/games/{gid}/actions", headers=auth(tokens[opener]),
                    json={"seat": opener, "action": f"open {plant} {plant}"})
    status = r.json()["state"]["auction_status"]
    assert status[opener] == {"seat": opener, "status": "bidding", "leads": True}
    # everyone else passes: the opener buys at the opening price
    current = r.json()
    while current["state"]["auction"]["plant"]:
        seat = current["to_act"]
        current = client.post(f"/api/games/{gid}/actions", headers=auth(tokens[seat]),
                              json={"seat": seat, "action": "pass"}).json()
    status = current["state"]["auction_status"]
    assert status[opener] == {"seat": opener, "status": "bought", "plant": plant, "price": plant}
    assert sum(s["status"] == "to_go" for s in status) == 2
    assert current["state"]["stakes"] == {"end_cities": 17, "step2_cities": 7, "max_houses": 22}


def test_the_whole_log_page_by_page(client: TestClient) -> None:
    game = create(client, 2, seed=3)
    gid = game["game_id"]
    final = play(client, game, 5000, seed=2)
    total = final["state"]["log_total"]
    assert total > 400
    pages, before = [], None
    while True:
        params = {"limit": 150} if before is None else {"limit": 150, "before": before}
        page = client.get(f"/api/games/{gid}/log", params=params).json()
        assert page["total"] == total and len(page["text"]) == len(page["entries"])
        pages.insert(0, page)
        if page["start"] == 0:
            break
        before = page["start"]
    text = [t for p in pages for t in p["text"]]
    assert len(text) == total and text[0].startswith("New game") and text[-1].startswith("Game over")
    assert text[-views.LOG_LINES:] == final["state"]["log_text"]
    assert client.get(f"/api/games/{gid}/log", params={"limit": 501}).status_code == 400
    assert error_code(client.get("/api/games/nope/log")) == "unknown_game"


def test_replay_of_a_game_in_play_shows_only_what_a_spectator_saw(client: TestClient) -> None:
    game = create(client, 3, seed=8)
    gid = game["game_id"]
    play(client, game, 60, seed=1)
    index = client.get(f"/api/games/{gid}/replay").json()
    steps = index["steps"]
    assert steps == 60 and len(index["index"]) == 60 and index["over"] is False
    assert "seed" not in json.dumps(index)
    assert index["index"][0][:3] == [1, 2, 1]  # round 1, the auction, Step 1
    # the present is as the spectators see it now; earlier steps as they were
    now = client.get(f"/api/games/{gid}").json()
    at_now = client.get(f"/api/games/{gid}/replay/{steps}").json()
    for key in ("players", "plant_market", "resource_market", "round", "phase", "log_text", "houses"):
        assert at_now["state"][key] == now["state"][key], key
    from .test_api import true_state
    now_true = true_state(client, gid)
    for step in (0, 1, 17, 30, steps):
        truth = pg.replay(now_true.scn.config, now_true.actions_taken()[:step])  # what was hidden then
        position = client.get(f"/api/games/{gid}/replay/{step}").json()
        assert position["step"] == step and position["state"]["seat"] is None and "legal" not in position
        assert_no_secrets(position, truth)
    r = client.get(f"/api/games/{gid}/replay/{steps + 1}")  # not the future
    assert r.status_code == 404 and error_code(r) == "unknown_step"
    assert error_code(client.get(f"/api/games/{gid}/replay/-1")) == "unknown_step"


def test_replay_of_a_record_file(client: TestClient) -> None:
    state = bot_game(3, seed=5)
    record = {"format": "powergrid.game", "version": 1,
              "config": {"map": "germany", "players": 3, "seed": 5, "regions": None, "variant": "standard"},
              "actions": [str(a) for a in state.actions_taken()], "final": state.to_dict()}
    body = json.dumps({"record": record, "step": None, "index": True})
    assert len(body) > 16 * 1024  # over the usual body limit: the replay route allows records
    r = client.post("/api/replay", content=body, headers={"Content-Type": "application/json"})
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["over"] is True and out["steps"] == len(record["actions"]) == len(out["index"])
    assert out["state"]["game_over"] and out["state"]["winners"] == list(state.winners)
    r = client.post("/api/replay", json={"record": record, "step": 10})
    assert r.json()["step"] == 10 and r.json()["last"]["action"] == record["actions"][9]
    broken = {**record, "actions": record["actions"][:5] + ["build Nowhere"] + record["actions"][6:]}
    r = client.post("/api/replay", json={"record": broken})
    assert r.status_code == 422 and error_code(r) == "invalid_record"
    r = client.post("/api/replay", json={"record": {**record, "config": {"map": "mars"}}})
    assert error_code(r) == "invalid_record"
    r = client.post("/api/replay", json={"record": record, "step": 10 ** 6})
    assert error_code(r) == "unknown_step"
    assert client.post("/api/replay", content=b"x" * (600 * 1024)).status_code == 413
    assert client.post("/api/games", content=b"x" * (20 * 1024)).status_code == 413  # others unchanged


def test_random_steps_match_a_replay(client: TestClient) -> None:
    game = create(client, 2, seed=6)
    gid = game["game_id"]
    play(client, game, 120, seed=4)
    from .test_api import true_state
    truth = true_state(client, gid)
    actions = truth.actions_taken()
    for step in random.Random(1).sample(range(121), 5):
        expected = pg.replay(truth.scn.config, actions[:step]).view(0).to_dict(include_log=False)
        got = client.get(f"/api/games/{gid}/replay/{step}").json()["state"]
        assert got["players"] == expected["players"] and got["plant_market"] == expected["plant_market"]


def test_the_last_move_is_told_without_the_round_summaries(client: TestClient) -> None:
    game = create(client, 2, seed=3)
    seen: list[dict] = []
    play(client, game, 400, seed=2, seen=seen)
    lasts = [v["last"]["text"] for v in seen if v.get("last")]
    assert lasts and not any(re.search(r"Round \d+, P\d:", t) for t in lasts)
    assert any("Round 2" in t for t in lasts)  # a round's end is told with its events
