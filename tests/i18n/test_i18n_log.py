"""The game log by locale: English word for word as the engine and the round summaries say it;
Polish and Romanian plural forms; every event kind rendered."""

from __future__ import annotations

import json
import random

import pytest

import powergrid as pg
from powergrid.i18n import translator
from powergrid.i18n.log import describe, display_texts, summary_text
from powergrid.rules.events import describe as english_describe
from powergrid.server.games.round_log import RoundTally, display_entries


def random_game(seed: int, players: int, variant: str = "standard") -> pg.GameState:
    state = pg.new_game(pg.GameConfig(map="germany", players=players, seed=seed, variant=variant))
    rng = random.Random(seed)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    return state


GAMES = [(1, 2, "standard"), (2, 3, "first_game"), (3, 5, "standard"), (4, 6, "standard")]


@pytest.mark.parametrize(("seed", "players", "variant"), GAMES)
def test_english_log_is_the_engines_word_for_word(seed: int, players: int, variant: str) -> None:
    state = random_game(seed, players, variant)
    kinds = set()
    for event in state.events:
        kinds.add(event[0])
        assert describe(state.scn, event) == english_describe(state.scn, event)
    entries, _tally = display_entries(state.scn, state.events, RoundTally())
    as_json = json.loads(json.dumps([entry for entry, _words in entries]))
    assert display_texts(state.scn, as_json, translator("en")) == [words for _entry, words in entries]
    assert {"setup", "round", "phase", "act", "payout", "over"} <= kinds


@pytest.mark.parametrize("lang", ["pl", "ro", "he"])
def test_every_event_is_rendered_from_its_json_in_another_language(lang: str) -> None:
    state = random_game(3, 5)
    tr = translator(lang)
    entries, _tally = display_entries(state.scn, state.events, RoundTally())
    as_json = json.loads(json.dumps([entry for entry, _words in entries]))
    texts = display_texts(state.scn, as_json, tr)
    english = [words for _entry, words in entries]
    assert len(texts) == len(english)
    changed = sum(1 for a, b in zip(texts, english, strict=True) if a != b)
    assert changed > len(texts) // 2  # the translated messages show, not the English
    assert not any("{" in t for t in texts)  # every placeholder filled in


PAYOUT = {
    "pl": {1: "P1 zasila 1 miasto i zarabia 22", 2: "P1 zasila 2 miasta i zarabia 22",
           5: "P1 zasila 5 miast i zarabia 22", 12: "P1 zasila 12 miast i zarabia 22",
           22: "P1 zasila 22 miasta i zarabia 22", 25: "P1 zasila 25 miast i zarabia 22"},
    "ro": {1: "P1 alimentează 1 oraș și câștigă 22", 2: "P1 alimentează 2 orașe și câștigă 22",
           5: "P1 alimentează 5 orașe și câștigă 22", 12: "P1 alimentează 12 orașe și câștigă 22",
           22: "P1 alimentează 22 de orașe și câștigă 22", 25: "P1 alimentează 25 de orașe și câștigă 22"},
}


@pytest.mark.parametrize("lang", ["pl", "ro"])
@pytest.mark.parametrize("n", [1, 2, 5, 12, 22, 25])
def test_payout_plural_forms(lang: str, n: int) -> None:
    scn = pg.new_game(pg.GameConfig(map="germany", players=3, seed=1)).scn
    assert describe(scn, ("payout", 1, n, 22), translator(lang)) == PAYOUT[lang][n]


BUILT = {
    "pl": {1: "zbudował 1 miasto", 2: "zbudował 2 miasta", 5: "zbudował 5 miast", 12: "zbudował 12 miast",
           22: "zbudował 22 miasta", 25: "zbudował 25 miast"},
    "ro": {1: "a construit 1 oraș", 2: "a construit 2 orașe", 5: "a construit 5 orașe",
           12: "a construit 12 orașe", 22: "a construit 22 de orașe", 25: "a construit 25 de orașe"},
}


@pytest.mark.parametrize("lang", ["pl", "ro"])
@pytest.mark.parametrize("n", [1, 2, 5, 12, 22, 25])
def test_round_summary_plural_forms(lang: str, n: int) -> None:
    done = {"plant": None, "fuel": [0, 0, 0, 0], "fuel_paid": 0, "built": [f"C{i}" for i in range(n)],
            "build_paid": 10 * n, "powered": None, "earned": None}
    text = summary_text(4, 0, done, tr=translator(lang))
    assert BUILT[lang][n] in text

