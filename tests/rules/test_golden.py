"""Golden playthroughs: a checked-in transcript of whole games catches any unintended change of
behaviour (the rule tests say what is right; these say nothing changed by accident).

After an intended change of behaviour, regenerate with:
    python -m tests.rules.test_golden
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import powergrid as pg

GOLDEN = Path(__file__).parent / "golden"
GAMES = [("germany", 4, 7), ("usa", 3, 11), ("germany", 2, 5)]


def transcript(map_name: str, players: int, seed: int) -> str:
    state = pg.new_game(pg.GameConfig(map=map_name, players=players, seed=seed))
    rng = random.Random(seed)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    return "\n".join(state.log) + "\n"


def _path(map_name: str, players: int, seed: int) -> Path:
    return GOLDEN / f"{map_name}-{players}p-seed{seed}.txt"


@pytest.mark.parametrize("map_name, players, seed", GAMES)
def test_playthrough_matches_the_golden_transcript(map_name: str, players: int, seed: int) -> None:
    expected = _path(map_name, players, seed).read_text("utf-8")
    assert transcript(map_name, players, seed) == expected


if __name__ == "__main__":
    for game in GAMES:
        _path(*game).write_text(transcript(*game), "utf-8")
