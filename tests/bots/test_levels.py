"""What each bot is like: the published ladder (benchmarks/ladder.py --write) and the speeds."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from powergrid.bots import UNOFFERED, bot_names, levels, rated_names
from powergrid.cli.main import _register, app


def test_the_published_ladder_rates_every_bot_the_lobby_offers() -> None:
    published = levels.ladder()
    assert published["games"] >= 1000 and "benchmarks/ladder.py" in published["command"]
    assert set(published["ratings"]) == set(rated_names())
    assert published["ratings"]["heuristic"]["elo"] == 1500  # the anchor
    for name, rated in published["ratings"].items():
        assert rated["low"] <= rated["elo"] <= rated["high"], name
    # the ladder's ends are not in doubt: random is the weakest, the searches beat the heuristic
    elo = {name: rated["elo"] for name, rated in published["ratings"].items()}
    assert min(elo, key=elo.__getitem__) == "random"
    assert all(elo[name] > elo["heuristic"] for name in elo if name.startswith(("pimc", "expert")))


def test_the_levels_offered_of_a_kind_are_ordered_by_the_ladder() -> None:
    """A player picks a level expecting a stronger opponent: the lobby offers a kind's levels only
    where the published ladder orders them (pimc's, about level with each other, are not offered)."""
    elo = {name: rated["elo"] for name, rated in levels.ladder()["ratings"].items()}
    rank = {"fast": 0, "": 1, "strong": 2}
    kinds: dict[str, list[tuple[int, str]]] = {}
    for name in bot_names():
        kind, _, level = name.partition(":")
        kinds.setdefault(kind, []).append((rank[level], name))
    for kind, named in kinds.items():
        ladder = [elo[name] for _, name in sorted(named)]
        assert ladder == sorted(ladder), kind
    assert len(kinds["expert"]) == 2 and kinds["pimc"] == [(1, "pimc")]
    assert not set(UNOFFERED) & set(bot_names())
    # what is not offered is not ordered: the reason it is held back
    assert not elo["pimc:fast"] < elo["pimc"] < elo["pimc:strong"]


@pytest.mark.parametrize("name, kind, searches", [("random", "plays any legal move", False),
                                                  ("mcts:fast", "plan search", True),
                                                  ("expert", "evaluator-guided search", True),
                                                  ("expert:fast", "evaluator-guided search", True)])
def test_a_bots_facts_and_words(name: str, kind: str, searches: bool) -> None:
    facts = levels.facts(name)
    assert facts.kind == kind and facts.elo is not None
    assert (facts.seconds > 0) == searches
    words = facts.words()
    assert words.startswith(kind) and f"Elo {facts.elo} ±" in words  # with its interval's half width
    assert facts.margin == round((facts.high - facts.low) / 2) > 0
    assert levels.facts("heuristic").rating() == "Elo 1500"  # the anchor: no interval
    assert ("s a move" in words) == searches and ("instant" in words) != searches
    assert levels.facts("pimc:default") == levels.facts("pimc")
    assert levels.facts("expert:strong") == levels.facts("expert")  # a former name


def test_the_bots_option_lists_every_bot_with_its_figures() -> None:
    _register()
    text = CliRunner().invoke(app, ["tournament", "--help"], env={"COLUMNS": "400"}).output
    flat = " ".join(text.replace("│", " ").split())  # the help's box and its line breaks away
    for name in bot_names():
        assert f"{name} ({levels.facts(name).short()})" in flat
    summary = levels.summary()
    assert summary.index("random (") < summary.index("heuristic (")  # weakest first
