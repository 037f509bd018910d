"""Names, chat and the My games endpoint, on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from powergrid.server.chat import messages

from .conftest import auth, create, error_code, run_migration
from .play import view
from .test_socket import seat_socket

pytestmark = pytest.mark.timeout(120)

XSS = "<img src=x onerror=alert(1)><script>"


def tokens_of(game: dict[str, Any]) -> dict[int, str]:
    return {s["seat"]: s["token"] for s in game["seats"] if s.get("token")}


def name_seat(client: TestClient, gid: str, seat: int, token: str, name: Any) -> Any:
    return client.put(f"/api/games/{gid}/seats/{seat}/name", json={"name": name}, headers=auth(token))


def next_of(ws: Any, kind: str, most: int = 10) -> dict[str, Any]:
    """The socket's next message of a type (others, such as pushed chat, are passed over)."""
    for _ in range(most):
        got = ws.receive_json()
        if got["type"] == kind:
            return got  # type: ignore[no-any-return]
    raise AssertionError(f"no {kind!r} message in {most}")


def chat(client: TestClient, gid: str, token: str | None = None, **body: Any) -> Any:
    return client.post(f"/api/games/{gid}/chat", json=body, headers=auth(token) if token else {})


# ------------------------------------------------------------------ names
def test_a_seat_is_named_and_the_name_is_shown_with_the_seat(client: TestClient) -> None:
    game = create(client, 3)
    gid, tokens = game["game_id"], tokens_of(game)
    r = name_seat(client, gid, 1, tokens[1], "  Ada\u0301 Lovelace ")  # trimmed, NFC: á is one character
    assert r.status_code == 200, r.text
    assert r.json() == {"seat": 1, "name": "Adá Lovelace"}
    seats = client.get(f"/api/games/{gid}").json()["seats"]
    assert [s["name"] for s in seats] == [None, "Adá Lovelace", None]
    listed = next(g for g in client.get("/api/games").json()["games"] if g["game_id"] == gid)
    assert listed["seats"][1]["name"] == "Adá Lovelace"
    # another seat's token does not name it
    r = name_seat(client, gid, 1, tokens[0], "Mallory")
    assert r.status_code == 403 and error_code(r) == "wrong_token"
    # renamed by its own token
    assert name_seat(client, gid, 1, tokens[1], XSS[:24]).json()["name"] == XSS[:24]


@pytest.mark.parametrize("bad", ["", "   ", "x" * 25, "a\u0000b", "tab\there", "line\nbreak", "\u202eevil",
                                 "zero\u200bwidth", 7, None])
def test_bad_names_are_refused_by_name_and_change_nothing(client: TestClient, bad: Any) -> None:
    game = create(client, 2)
    gid, tokens = game["game_id"], tokens_of(game)
    assert name_seat(client, gid, 0, tokens[0], "Kept").status_code == 200
    r = name_seat(client, gid, 0, tokens[0], bad)
    if isinstance(bad, str):
        assert r.status_code == 422 and error_code(r) == "invalid_name", r.text
    else:  # not text at all: the request's shape is wrong
        assert r.status_code in (400, 422) and error_code(r) in ("invalid_name", "malformed_request")
    assert client.get(f"/api/games/{gid}").json()["seats"][0]["name"] == "Kept"


def test_names_of_24_characters_and_emoji_sequences_are_kept(client: TestClient) -> None:
    game = create(client, 2)
    gid, tokens = game["game_id"], tokens_of(game)
    assert name_seat(client, gid, 0, tokens[0], "y" * 24).json()["name"] == "y" * 24
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # joined by zero-width joiners
    assert name_seat(client, gid, 1, tokens[1], family).json()["name"] == family


def test_claiming_an_open_seat_gives_the_name_or_refuses_before_taking_it(client: TestClient) -> None:
    game = create(client, 2, seats=[{"kind": "human"}, {"kind": "human", "open": True}], public=True)
    gid = game["game_id"]
    r = client.post(f"/api/games/{gid}/seats/1/claim", json={"name": "\x07bell"})
    assert r.status_code == 422 and error_code(r) == "invalid_name"
    taken = client.post(f"/api/games/{gid}/seats/1/claim", json={"name": " Grace "})
    assert taken.status_code == 200, taken.text
    seat = client.get(f"/api/games/{gid}").json()["seats"][1]
    assert seat["claimed"] is True and seat["name"] == "Grace"


def test_the_record_names_the_seats(client: TestClient) -> None:
    from .play import play

    game = create(client, 2, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    gid, tokens = game["game_id"], tokens_of(game)
    name_seat(client, gid, 0, tokens[0], "Lin")
    play(client, game, 100_000)
    record = client.get(f"/api/games/{gid}/record").json()
    assert record["names"] == ["Lin", None]


# ------------------------------------------------------------------ chat
def test_seats_and_spectators_chat_and_everyone_reads_it(client: TestClient) -> None:
    game = create(client, 2)
    gid, tokens = game["game_id"], tokens_of(game)
    name_seat(client, gid, 0, tokens[0], "Ada")
    r = chat(client, gid, tokens[0], seat=0, text="  hello\tthere\n ")
    assert r.status_code == 201, r.text
    first = r.json()
    assert first["text"] == "hello there" and first["name"] == "Ada" and first["spectator"] is False
    assert first["author"] == "seat:0" and first["seat"] == 0
    r = chat(client, gid, seat=None, name="Watcher", phrase="good_luck")
    assert r.status_code == 201, r.text
    second = r.json()
    assert second["spectator"] is True and second["seat"] is None and second["name"] == "Watcher"
    assert second["phrase"] == "good_luck" and second["text"] == "Good luck!"
    assert second["author"].startswith("spectator:")
    history = client.get(f"/api/games/{gid}/chat").json()
    assert history["chat"] is True and "good_game" in history["phrases"]
    assert [m["id"] for m in history["messages"]] == [first["id"], second["id"]]
    assert client.get(f"/api/games/{gid}/chat", params={"after": first["id"]}).json()["messages"] == [second]
    # a seat needs its token; a spectator needs a name
    r = chat(client, gid, tokens[0], seat=1, text="as the other seat")
    assert r.status_code == 403 and error_code(r) == "wrong_token"
    r = chat(client, gid, seat=None, text="who am I")
    assert r.status_code == 422 and error_code(r) == "invalid_name"
    assert len(client.get(f"/api/games/{gid}/chat").json()["messages"]) == 2


def test_chat_is_stored_as_sent_html_and_all(client: TestClient) -> None:
    game = create(client, 2)
    gid, tokens = game["game_id"], tokens_of(game)
    r = chat(client, gid, tokens[1], seat=1, text=XSS)
    assert r.status_code == 201 and r.json()["text"] == XSS  # text: the clients show it as text
    assert client.get(f"/api/games/{gid}/chat").json()["messages"][0]["text"] == XSS


def test_chat_limits_are_named_and_change_nothing(client: TestClient,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(messages, "RATE_WINDOW_S", 3600.0)  # the burst is spent however slow the machine
    game = create(client, 2)
    gid, tokens = game["game_id"], tokens_of(game)
    for text in ("", "   ", "\n\t"):
        r = chat(client, gid, tokens[0], seat=0, text=text)
        assert r.status_code == 400 and error_code(r) == "chat_empty", r.text
    r = chat(client, gid, tokens[0], seat=0)
    assert r.status_code == 400 and error_code(r) == "chat_empty"
    r = chat(client, gid, tokens[0], seat=0, text="x" * (messages.MAX_CHARS + 1))
    assert r.status_code == 400 and error_code(r) == "chat_too_long"
    assert chat(client, gid, tokens[0], seat=0, text="y" * messages.MAX_CHARS).status_code == 201
    r = chat(client, gid, tokens[0], seat=0, phrase="rude_word")
    assert r.status_code == 400 and error_code(r) == "malformed_request"
    r = chat(client, gid, tokens[0], seat=0, phrase="thanks", text="both")
    assert r.status_code == 400 and error_code(r) == "malformed_request"
    for i in range(messages.RATE_BURST - 1):
        assert chat(client, gid, tokens[0], seat=0, text=f"m{i}").status_code == 201
    r = chat(client, gid, tokens[0], seat=0, text="one too many")
    assert r.status_code == 429 and error_code(r) == "chat_rate_limited"
    assert int(r.headers["Retry-After"]) >= 1 and r.json()["error"]["retry_after"] >= 1
    # the limit is the writer's: the other seat still talks
    assert chat(client, gid, tokens[1], seat=1, text="my turn to talk").status_code == 201
    texts = [m["text"] for m in client.get(f"/api/games/{gid}/chat").json()["messages"]]
    assert "one too many" not in texts and len(texts) == messages.RATE_BURST + 1


def test_a_game_created_without_chat_refuses_messages(client: TestClient) -> None:
    game = create(client, 2, chat=False)
    gid, tokens = game["game_id"], tokens_of(game)
    assert game["chat"] is False
    r = chat(client, gid, tokens[0], seat=0, text="anyone?")
    assert r.status_code == 403 and error_code(r) == "chat_off"
    r = chat(client, gid, seat=None, name="Watcher", text="anyone?")
    assert r.status_code == 403 and error_code(r) == "chat_off"
    assert client.get(f"/api/games/{gid}/chat").json() == {
        "chat": False, "phrases": messages.PHRASES, "max_chars": messages.MAX_CHARS, "messages": []}
    on = create(client, 2)
    assert on["chat"] is True
    assert chat(client, on["game_id"], tokens_of(on)[0], seat=0, text="hi").status_code == 201


def test_chat_goes_over_the_socket_to_every_socket_of_the_game(client: TestClient) -> None:
    game = create(client, 2)
    gid, tokens = game["game_id"], tokens_of(game)
    with seat_socket(client, gid, 0, tokens[0]) as ws0, seat_socket(client, gid, 1, tokens[1]) as ws1, \
            client.websocket_connect(f"/api/games/{gid}/ws") as watcher:
        for ws in (ws0, ws1, watcher):
            assert ws.receive_json()["type"] == "state"
        ws0.send_json({"type": "chat", "text": XSS, "id": 7})
        done = ws0.receive_json()
        pushed = ws0.receive_json()
        if done["type"] == "chat":  # the push may come before the answer
            done, pushed = pushed, done
        assert done["type"] == "done" and done["id"] == 7
        assert pushed["type"] == "chat" and [m["text"] for m in pushed["messages"]] == [XSS]
        assert pushed["messages"][0]["id"] == done["chat"]
        for ws in (ws1, watcher):
            got = ws.receive_json()
            assert got["type"] == "chat" and got["messages"] == pushed["messages"]
        watcher.send_json({"type": "chat", "phrase": "good_game", "name": "Fan"})
        assert watcher.receive_json()["type"] in ("done", "chat")
        got = ws1.receive_json()
        assert got["messages"][0]["spectator"] is True and got["messages"][0]["name"] == "Fan"
        watcher.send_json({"type": "chat", "text": "", "name": "Fan", "id": "e"})
        refused = next_of(watcher, "error")
        assert refused["id"] == "e" and refused["error"]["code"] == "chat_empty"
        # a name given is pushed to the game's sockets
        name_seat(client, gid, 1, tokens[1], "Bea")
        seats = next_of(ws0, "seats")
        assert seats["type"] == "seats" and seats["seats"][1]["name"] == "Bea"


# ------------------------------------------------------------------ My games
def test_my_games_puts_the_games_waiting_for_me_first(client: TestClient) -> None:
    games = [create(client, 2, seed=seed) for seed in (3, 4, 5)]
    held = []
    for game in games:
        gid = game["game_id"]
        to_act = client.get(f"/api/games/{gid}").json()["to_act"]
        # in the first two games I hold the seat that is not to act; in the last, the one to act
        mine = to_act if game is games[-1] else 1 - to_act
        held.append({"game_id": gid, "seat": mine, "token": tokens_of(game)[mine]})
    name_seat(client, games[0]["game_id"], 0, tokens_of(games[0])[0], "Zoe")
    held.append({"game_id": games[1]["game_id"], "seat": 0, "token": "not-a-token"})
    held.append({"game_id": "gone", "seat": 0, "token": "whatever"})
    r = client.post("/api/my-games", json={"seats": held})
    assert r.status_code == 200, r.text
    answer = r.json()
    order = [g["game_id"] for g in answer["games"]]
    assert order[0] == games[-1]["game_id"] and set(order) == {g["game_id"] for g in games}
    first = answer["games"][0]
    assert first["your_turn"] is True and first["to_act"] in first["seats"] and first["over"] is False
    assert first["map"] == "germany" and first["round"] == 1 and first["phase"]
    assert all(not g["your_turn"] for g in answer["games"][1:])
    zoe = next(g for g in answer["games"] if g["game_id"] == games[0]["game_id"])
    assert zoe["players"][0]["name"] == "Zoe" and len(zoe["players"]) == 2
    codes = {(x["game_id"], x["error"]["code"]) for x in answer["refused"]}
    assert codes == {(games[1]["game_id"], "wrong_token"), ("gone", "unknown_game")}


def test_my_games_refuses_more_than_fifty_tokens(client: TestClient) -> None:
    held = [{"game_id": f"g{i}", "seat": 0, "token": "t"} for i in range(51)]
    r = client.post("/api/my-games", json={"seats": held})
    assert r.status_code == 400 and error_code(r) == "too_many_tokens"
    assert client.post("/api/my-games", json={"seats": held[:50]}).status_code == 200


def test_my_games_shows_a_finished_game_last(client: TestClient) -> None:
    from .play import play

    done = create(client, 2, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}], seed=9)
    play(client, done, 100_000)
    waiting = create(client, 2, seed=10)
    to_act = client.get(f"/api/games/{waiting['game_id']}").json()["to_act"]
    held = [{"game_id": done["game_id"], "seat": 0, "token": tokens_of(done)[0]},
            {"game_id": waiting["game_id"], "seat": to_act, "token": tokens_of(waiting)[to_act]}]
    games = client.post("/api/my-games", json={"seats": held}).json()["games"]
    assert [g["game_id"] for g in games] == [waiting["game_id"], done["game_id"]]
    assert games[1]["over"] is True and games[1]["to_act"] is None and games[1]["winners"]
    assert view(client, waiting["game_id"], to_act, tokens_of(waiting)[to_act])["seat"] == to_act


# ------------------------------------------------------------------ the migration
def test_the_social_migration_goes_down_and_up_again(database_url: str) -> None:
    from sqlalchemy import inspect

    from powergrid.server.storage import db

    engine = db.make_engine(database_url)
    try:
        db.migrate(engine)

        def tables() -> set[str]:
            return set(inspect(engine).get_table_names())

        assert {"chat_messages", "chat_games"} <= tables()
        assert "name" in {c["name"] for c in inspect(engine).get_columns("seats")}
        run_migration(engine, "downgrade", "0006")
        assert not {"chat_messages", "chat_games"} & tables()
        assert "name" not in {c["name"] for c in inspect(engine).get_columns("seats")}
        run_migration(engine, "upgrade", "head")
        assert {"chat_messages", "chat_games"} <= tables()
    finally:
        engine.dispose()


def test_a_chat_notice_names_its_message_between_processes() -> None:
    from powergrid.server.fanout.pubsub import CHAT_POSTED, _parse, message

    text = message("AbC_12-x", CHAT_POSTED, (42, "chat", None))
    assert text == "AbC_12-x chat 42" and len(text) <= 64  # the notices table's column
    assert _parse(text) == ("AbC_12-x", CHAT_POSTED, (42, "chat", None))
    assert _parse("AbC_12-x chat nope") is None
