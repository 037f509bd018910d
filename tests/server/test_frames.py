"""A state message is spliced from parts encoded once (the public part once per version, each log
entry once): it must say exactly what encoding the seat's payload whole would."""

from __future__ import annotations

import json
import random

import orjson
import pytest

import powergrid as pg
from powergrid.server.games import frames, views


@pytest.mark.parametrize(("map_name", "players", "undo"), [("germany", 3, True), ("usa", 4, False),
                                                          ("germany", 6, True)])
def test_a_seat_s_encoded_state_is_its_payload(map_name: str, players: int, undo: bool) -> None:
    state = pg.new_game(pg.GameConfig(map=map_name, players=players, seed=players))
    frame = frames.first_frame(state, undo_allowed=undo)
    rng = random.Random(players)
    checked = 0
    while True:
        if frame.version % 23 == 0 or frame.state.is_over:
            for seat in (None, *range(players)):
                encoded = frame.encoded(seat)
                assert orjson.loads(encoded) == frame.payload(seat)
                assert json.loads(frame.message(seat)) == {"type": "state", **frame.payload(seat)}
                checked += 1
        if frame.state.is_over:
            break
        frame = frames.advance(frame, frame.state.current_player, rng.choice(frame.state.legal_actions()))
    assert checked > 10 * (players + 1)
    assert frame.log_tail.total > views.LOG_LINES  # the tail was cut, and still spliced right
    assert len(frame.payload(0)["state"]["log_text"]) == views.LOG_LINES
