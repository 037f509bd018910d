"""The coach on the server: hints as bot-worker jobs (legal, limited, switchable, counted in the
record) and a finished game's analysis with its progress."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

import powergrid as pg
from powergrid.server.coach import coach_jobs

from .conftest import auth, create, error_code, true_state


@pytest.fixture(autouse=True)
def small_searches(monkeypatch: pytest.MonkeyPatch) -> None:
    """Quick searches, so the tests stay short (the levels are measured in benchmarks/)."""
    monkeypatch.setattr(coach_jobs, "HINT_LEVEL", "fast")
    monkeypatch.setattr(coach_jobs, "HINT_BUDGET", 100)
    monkeypatch.setattr(coach_jobs, "ANALYSIS_LEVEL", "fast")
    monkeypatch.setattr(coach_jobs, "ANALYSIS_BUDGET", 0)
    monkeypatch.setattr(coach_jobs, "ANALYSIS_MIN_SAMPLES", 1)
    monkeypatch.setattr(coach_jobs, "ANALYSIS_HORIZON", 1)
    monkeypatch.setattr(coach_jobs, "ANALYSIS_SLICE_S", 0.3)


def ask(client: TestClient, gid: str, seat: int, token: str, version: int | None = None) -> Any:
    body: dict[str, Any] = {"seat": seat}
    if version is not None:
        body["version"] = version
    return client.post(f"/api/games/{gid}/hints", json=body, headers=auth(token))


def wait_hint(client: TestClient, gid: str, seat: int, token: str, answer: dict[str, Any]) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while answer["status"] == "pending" and time.monotonic() < deadline:
        time.sleep(0.1)
        answer = client.get(f"/api/games/{gid}/hints?seat={seat}", headers=auth(token)).json()
    return answer


def human_game(client: TestClient, **extra: Any) -> tuple[str, list[str]]:
    game = create(client, 2, [{"kind": "human"}, {"kind": "human"}], seed=5, **extra)
    return game["game_id"], [s["token"] for s in game["seats"]]


def test_a_hint_is_legal_for_the_asking_seat_and_counted_once(client: TestClient) -> None:
    gid, tokens = human_game(client)
    state = true_state(client, gid)
    seat = state.current_player
    before = client.get(f"/api/games/{gid}/hints?seat={seat}", headers=auth(tokens[seat])).json()
    assert before == {"enabled": True, "per_seat": 10, "used": 0, "left": 10, "version": 0,
                      "status": "none", "hint": None}
    answer = wait_hint(client, gid, seat, tokens[seat], ask(client, gid, seat, tokens[seat], 0).json())
    assert answer["status"] == "done" and answer["used"] == 1 and answer["left"] == 9
    hint = answer["hint"]
    assert pg.parse_action(hint["action"]) in state.legal_actions()
    assert hint["reason"] and hint["show"]["plants"]
    # asked again at the same position: the same hint, not counted again
    again = ask(client, gid, seat, tokens[seat]).json()
    assert again["hint"] == hint and again["used"] == 1
    # play the suggestion: it is accepted
    r = client.post(f"/api/games/{gid}/actions", json={"seat": seat, "action": hint["action"], "version": 0},
                    headers=auth(tokens[seat]))
    assert r.status_code == 200, r.text
    assert client.get(f"/api/games/{gid}/hints?seat={seat}", headers=auth(tokens[seat])).json()["used"] == 1


def test_the_record_says_how_many_hints_each_seat_used(client: TestClient) -> None:
    from powergrid.bots import heuristic

    game = create(client, 2, [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}], seed=8, bot_pace_ms=0)
    gid, token = game["game_id"], game["seats"][0]["token"]
    asked = 0
    deadline = time.monotonic() + 120
    while True:
        view = client.get(f"/api/games/{gid}/view?seat=0", headers=auth(token)).json()
        if view["state"]["game_over"]:
            break
        assert time.monotonic() < deadline
        if view["to_act"] != 0:
            time.sleep(0.02)
            continue
        if asked < 2 and view["state"]["phase"] == 2:  # two hints, in two auctions
            answer = ask(client, gid, 0, token, view["version"]).json()
            asked += answer["used"] - asked
        state = true_state(client, gid)
        action = heuristic.decide(state, 0, state.legal_actions())
        client.post(f"/api/games/{gid}/actions", json={"seat": 0, "action": str(action),
                                                         "version": view["version"]}, headers=auth(token))
    record = client.get(f"/api/games/{gid}/record").json()
    assert record["hints"] == {"0": 2}


def test_hints_refuse_the_wrong_seat_token_turn_and_version(client: TestClient) -> None:
    gid, tokens = human_game(client)
    seat = true_state(client, gid).current_player
    other = 1 - seat
    assert error_code(ask(client, gid, seat, tokens[other])) == "wrong_token"
    assert error_code(client.post(f"/api/games/{gid}/hints", json={"seat": seat})) == "missing_token"
    assert error_code(ask(client, gid, other, tokens[other])) == "not_your_turn"
    assert error_code(ask(client, gid, seat, tokens[seat], version=3)) == "stale_version"
    assert error_code(client.post(f"/api/games/{gid}/hints", json={"seat": seat, "extra": 1},
                                  headers=auth(tokens[seat]))) == "malformed_request"
    assert client.get(f"/api/games/{gid}/hints?seat={other}", headers=auth(tokens[other])).json()["used"] == 0


def test_hints_can_be_switched_off_and_are_limited_per_seat(client: TestClient) -> None:
    gid, tokens = human_game(client, hints=False)
    seat = true_state(client, gid).current_player
    r = ask(client, gid, seat, tokens[seat])
    assert r.status_code == 403 and error_code(r) == "hints_off"
    status = client.get(f"/api/games/{gid}/hints?seat={seat}", headers=auth(tokens[seat])).json()
    assert status["enabled"] is False and status["left"] == 0

    gid, tokens = human_game(client, hints_per_seat=1)
    seat = true_state(client, gid).current_player
    wait_hint(client, gid, seat, tokens[seat], ask(client, gid, seat, tokens[seat]).json())
    legal = true_state(client, gid).legal_actions()
    r = client.post(f"/api/games/{gid}/actions", json={"seat": seat, "action": str(legal[0]), "version": 0},
                    headers=auth(tokens[seat]))
    assert r.status_code == 200
    state = true_state(client, gid)
    if state.current_player == seat:
        r = ask(client, gid, seat, tokens[seat])
        assert r.status_code == 429 and error_code(r) == "hint_limit"
    too_many = client.post("/api/games", json={"players": 2, "hints_per_seat": 500})
    assert error_code(too_many) == "invalid_config"


def test_a_public_game_has_hints_off_by_default(client: TestClient) -> None:
    game = create(client, 2, [{"kind": "human"}, {"kind": "human"}], seed=5, public=True)
    gid, tokens = game["game_id"], [s["token"] for s in game["seats"]]
    seat = true_state(client, gid).current_player
    status = client.get(f"/api/games/{gid}/hints?seat={seat}", headers=auth(tokens[seat])).json()
    assert status["enabled"] is False
    assert error_code(ask(client, gid, seat, tokens[seat])) == "hints_off"
    game = create(client, 2, [{"kind": "human"}, {"kind": "human"}], seed=5, public=True, hints=True)
    gid, tokens = game["game_id"], [s["token"] for s in game["seats"]]
    assert client.get(f"/api/games/{gid}/hints?seat=0", headers=auth(tokens[0])).json()["enabled"] is True


def test_a_public_game_has_hints_off_unless_asked_for() -> None:
    from powergrid.server.api.coach_routes import hint_options
    from powergrid.server.api.schemas import CreateGame

    private = CreateGame(players=2)
    assert hint_options(private) == (True, 10)
    if "public" in CreateGame.model_fields:
        assert hint_options(CreateGame(players=2, public=True)) == (False, 10)
        assert hint_options(CreateGame(players=2, public=True, hints=True, hints_per_seat=3)) == (True, 3)


def test_a_persons_bot_moves_while_an_analysis_runs(client: TestClient,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """One search worker, busy with an analysis: a bot turn in a game with a person goes first. (Queued
    due at once, analyses went before every paced bot turn: 20 of them held a bot's reply 246 s.)"""
    from sqlalchemy import select

    from powergrid.server.storage import db

    from .play import play

    finished = create(client, 2, [{"kind": "bot", "bot": "heuristic"}] * 2, seed=3)["game_id"]
    game = create(client, 2, [{"kind": "human"}, {"kind": "bot", "bot": "pimc:fast"}], seed=8)
    gid = game["game_id"]

    def current(game_id: str) -> dict[str, Any]:
        return client.get(f"/api/games/{game_id}").json()  # type: ignore[no-any-return]

    deadline = time.monotonic() + 60
    while not current(finished)["state"]["game_over"] or current(gid)["to_act"] != 0:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    # tenths of a second a decision: the analysis takes tens of seconds, and one job would judge it all
    monkeypatch.setattr(coach_jobs, "ANALYSIS_BUDGET", 5000)
    monkeypatch.setattr(coach_jobs, "ANALYSIS_SLICE_S", 600.0)
    engine = client.app.state.service.store.engine  # type: ignore[attr-defined]
    j = db.jobs.c
    try:
        assert client.post(f"/api/games/{finished}/analysis").status_code == 202
        while True:  # the worker is on it
            with engine.connect() as conn:
                if conn.execute(select(j.status).where(j.kind == "analysis")).scalar() == "running":
                    break
            assert time.monotonic() < deadline
            time.sleep(0.05)
        view = current(gid)
        while view["to_act"] == 0:  # the person acts until the bot is to act
            view = play(client, game, 1)
        asked = view["version"]
        while current(gid)["version"] == asked:
            assert time.monotonic() < deadline + 60
            time.sleep(0.05)
        analysis = client.get(f"/api/games/{finished}/analysis").json()
        assert analysis["status"] != "done", "the bot waited for the whole analysis"
    finally:
        monkeypatch.setattr(coach_jobs, "ANALYSIS_SLICE_S", 0.0)  # the running job stops at its next decision


def test_a_finished_game_is_analysed_once_with_progress(client: TestClient) -> None:
    game = create(client, 2, [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "heuristic"}], seed=3)
    gid = game["game_id"]
    assert client.get(f"/api/games/{gid}/analysis").json()["status"] == "none"
    deadline = time.monotonic() + 60
    while not true_state(client, gid).is_over:
        r = client.post(f"/api/games/{gid}/analysis")
        if r.status_code == 409:
            assert error_code(r) == "game_not_over"
        assert time.monotonic() < deadline
        time.sleep(0.1)
    started = client.post(f"/api/games/{gid}/analysis")
    assert started.status_code == 202 and started.json()["status"] in ("queued", "running", "done")
    seen_progress = False
    deadline = time.monotonic() + 120
    while True:
        data = client.get(f"/api/games/{gid}/analysis").json()
        if data["status"] == "running" and data["progress"]["total"]:
            seen_progress = 0 < data["progress"]["done"] < data["progress"]["total"] or seen_progress
        if data["status"] == "done":
            break
        assert time.monotonic() < deadline, data
        time.sleep(0.1)
    # a quiet machine may finish between two polls: then the finished progress must still be whole
    assert seen_progress or 0 < data["progress"]["done"] == data["progress"]["total"]
    analysis = data["analysis"]
    final = true_state(client, gid)
    assert analysis["winners"] == list(final.winners)
    assert len(analysis["decisions"]) == data["progress"]["total"] == data["progress"]["done"]
    assert analysis["chances"][-1]["chances"] == [1.0 if s in final.winners else 0.0 for s in range(2)]
    # started again: the same analysis, no new work
    assert client.post(f"/api/games/{gid}/analysis").json()["analysis"] == analysis
    # the same as the engine's analysis of the record, at the same settings (deterministic replay),
    # the chances weighing who played each seat
    from powergrid.coach import Analyser

    local = Analyser(final.config, final.actions_taken(), seed=0, level="fast", budget=0, min_samples=1,
                     horizon=1, players=["greedy", "heuristic"])
    blind = Analyser(final.config, final.actions_taken(), seed=0, level="fast", budget=0, min_samples=1,
                     horizon=1)
    assert blind.chances[:-1] != local.chances[:-1]
    from powergrid.coach.analysis import in_language

    full = local.result([local.judge(n) for n in range(local.total)]).to_dict()
    assert in_language(full, "en") == analysis  # (each reader gets the words of their language)
    polish = client.get(f"/api/games/{gid}/analysis", headers={"Accept-Language": "pl"}).json()["analysis"]
    assert polish == in_language(full, "pl")
    assert client.get("/api/games/nope/analysis").status_code == 404


def test_a_hint_is_said_in_the_language_of_the_person_who_asked(client: TestClient) -> None:
    from powergrid.coach import hint as coach_hint

    gid, tokens = human_game(client)
    state = true_state(client, gid)
    seat = state.current_player
    headers = {**auth(tokens[seat]), "Accept-Language": "pl-PL,pl;q=0.9,en;q=0.5"}
    first = client.post(f"/api/games/{gid}/hints", json={"seat": seat, "version": 0}, headers=headers).json()
    answer = wait_hint(client, gid, seat, tokens[seat], first)
    assert answer["status"] == "done"
    expected = coach_hint(state.view(seat), seed=coach_jobs.hint_seed(gid, seat, 0), level="fast",
                          budget=100, lang="pl").to_dict()
    assert answer["hint"] == expected
    english = coach_hint(state.view(seat), seed=coach_jobs.hint_seed(gid, seat, 0), level="fast",
                         budget=100, lang="en").to_dict()
    assert answer["hint"]["action"] == english["action"]
