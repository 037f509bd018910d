"""Bad input: configs, map files, action text, illegal actions, saved states."""

from __future__ import annotations

import json
import random
from importlib import resources
from pathlib import Path

import pytest

import powergrid as pg

from .positions import game, random_game, refused


# ---------------------------------------------------------------- configs
def test_unknown_map() -> None:
    with pytest.raises(pg.UnknownMap, match="atlantis") as err:
        pg.new_game(pg.GameConfig(map="atlantis"))
    assert err.value.code == "unknown_map"
    assert isinstance(err.value, pg.InvalidConfig) and isinstance(err.value, pg.PowerGridError)
    assert isinstance(err.value, ValueError)


@pytest.mark.parametrize("players", [0, 1, 7, -3, "4", 4.0, True, None])
def test_players_out_of_range(players: object) -> None:
    with pytest.raises(pg.InvalidConfig) as err:
        pg.GameConfig(players=players)  # type: ignore[arg-type]
    assert err.value.code == "invalid_config"


@pytest.mark.parametrize("field, value", [("variant", "expert"), ("seed", "x"), ("seed", 1.5),
                                          ("regions", "red"), ("regions", (1, 2, 3)), ("map", 3)])
def test_other_bad_config_fields(field: str, value: object) -> None:
    with pytest.raises(pg.InvalidConfig):
        pg.GameConfig(**{field: value})  # type: ignore[arg-type]


def test_new_game_needs_a_config() -> None:
    with pytest.raises(pg.InvalidConfig):
        pg.new_game({"map": "germany"})  # type: ignore[arg-type]


# ---------------------------------------------------------------- map files
def _small_map(per_region: int = 7) -> dict:
    """Three regions of ``per_region`` cities in a chain (21 cities: enough for 2 players)."""
    regions = {r: [f"{r.upper()}{i}" for i in range(1, per_region + 1)] for r in "abc"}
    connections: list[list[object]] = []
    for cities in regions.values():
        connections += [[x, y, i] for i, (x, y) in enumerate(zip(cities, cities[1:], strict=False))]
    connections += [[regions["a"][-1], "B1", 5], [regions["b"][-1], "C1", 7]]
    return {"map": "tiny", "regions": regions, "connections": connections}


def _write(tmp_path: Path, data: object, raw: str | None = None) -> str:
    path = tmp_path / "map.json"
    path.write_text(raw if raw is not None else json.dumps(data), "utf-8")
    return str(path)


def test_a_valid_custom_map_is_played(tmp_path: Path) -> None:
    cfg = pg.GameConfig(players=2, seed=4, map_file=_write(tmp_path, _small_map()))
    s = pg.new_game(cfg)
    assert s.scn.map.cities[:3] == ("A1", "A2", "A3")
    assert set(s.regions) == {"a", "b", "c"}
    played = random_game(cfg, 4, stop=300)
    assert played.decisions == 300 or played.is_over
    s.apply(s.legal_actions()[0])


def test_the_packaged_map_as_a_file(tmp_path: Path) -> None:
    text = resources.files("powergrid.rules.data").joinpath("germany.json").read_text("utf-8")
    path = tmp_path / "germany.json"
    path.write_text(text, "utf-8")
    s = pg.new_game(pg.GameConfig(players=3, seed=2, map_file=str(path)))
    assert len(s.scn.map.cities) == 42


@pytest.mark.parametrize("change, words", [
    (lambda m: m["connections"].append(["A1", "Nowhere", 3]), "unknown city"),
    (lambda m: m["connections"].append(["A1", "C3", -1]), "negative"),
    (lambda m: m["connections"].remove(["B7", "C1", 7]), "not connected"),
    (lambda m: m["connections"].append(["A1", "A1", 1]), "itself"),
    (lambda m: m["connections"].append(["A1", "C3", "5"]), "integer"),
    (lambda m: m["connections"].append(["A2", "A1", 1]), "twice"),
    (lambda m: m["regions"]["c"].append("A1"), "twice"),
    (lambda m: m.pop("regions"), "regions"),
    (lambda m: m.__setitem__("connections", {}), "connections"),
    (lambda m: m["connections"].append(["A1", "C3"]), "cost"),
])
def test_malformed_map_files(tmp_path: Path, change, words: str) -> None:  # type: ignore[no-untyped-def]
    data = _small_map()
    change(data)
    with pytest.raises(pg.InvalidMap, match=words) as err:
        pg.new_game(pg.GameConfig(players=2, map_file=_write(tmp_path, data)))
    assert err.value.code == "invalid_map"


def test_map_file_that_is_not_json_or_missing(tmp_path: Path) -> None:
    with pytest.raises(pg.InvalidMap, match="not valid JSON"):
        pg.load_map_file(_write(tmp_path, None, raw="{regions: oops"))
    with pytest.raises(pg.InvalidMap, match="JSON object"):
        pg.load_map_file(_write(tmp_path, [1, 2, 3]))
    with pytest.raises(pg.InvalidMap, match="cannot read"):
        pg.load_map_file(str(tmp_path / "absent.json"))


def test_custom_map_too_small_to_end_the_game(tmp_path: Path) -> None:
    # 9 cities in play can never reach the 21 cities that end a 2-player game.
    with pytest.raises(pg.InvalidConfig, match="21"):
        pg.new_game(pg.GameConfig(players=2, map_file=_write(tmp_path, _small_map(3))))
    pg.new_game(pg.GameConfig(players=2, variant="first_game", map_file=_write(tmp_path, _small_map(3))))


def test_custom_map_with_too_few_regions(tmp_path: Path) -> None:
    with pytest.raises(pg.InvalidRegions):
        pg.new_game(pg.GameConfig(players=4, map_file=_write(tmp_path, _small_map())))


# ---------------------------------------------------------------- action text
@pytest.mark.parametrize("text", [
    "", "   ", "fly", "open 3", "open x 4", "open 3 4 5", "bid", "bid -1", "bid 1.5", "bid 12x",
    "buy 0 coal", "buy 2 gold", "buy coal 2", "buy 2", "discard 5", "discard 5 keep",
    "discard 5 keep 2coal 2coal", "discard 5 take 2coal", "discard 5 keep 2gold",
    "power 3 3 burn 2oil", "power burn 2oil", "power 3", "power 3 burn", "power x burn nothing",
    "pass now", "done 1", "build", "bid 99999999", "a" * 300,
])
def test_malformed_action_text(text: str) -> None:
    with pytest.raises(pg.MalformedAction) as err:
        pg.parse_action(text)
    assert err.value.code == "malformed_action" and str(err.value)


def test_action_text_that_is_not_text() -> None:
    for thing in (None, 3, ["pass"]):
        with pytest.raises(pg.MalformedAction):
            pg.parse_action(thing)  # type: ignore[arg-type]


def test_action_text_is_forgiving_about_case_and_spaces() -> None:
    assert pg.parse_action("  OPEN   12  15 ") == pg.Action.open(12, 15)
    assert pg.parse_action("Buy 3 COAL") == pg.Action.buy("coal", 3)
    assert pg.parse_action("build Frankfurt-M") == pg.Action.build("Frankfurt-M")
    assert pg.parse_action("build New York") == pg.Action.build("New York")
    assert pg.parse_action("power 10 5 burn 1oil 3coal") == pg.Action.power((5, 10), (3, 1, 0, 0))


# ---------------------------------------------------------------- illegal actions
def test_illegal_actions_name_seat_phase_reason_and_change_nothing() -> None:
    s = game(4, seed=0)
    err = refused(s, "open 9 9")
    assert err.seat == 2 and err.phase == "auction" and "current market" in err.reason
    assert err.action == pg.Action.open(9, 9)
    assert err.code == "illegal_action"
    assert "seat 2" in str(err) and "open 9 9" in str(err)


def test_applying_something_that_is_not_an_action() -> None:
    s = game(4, seed=0)
    before = s.to_dict()
    with pytest.raises(pg.IllegalAction, match="parse_action"):
        s.apply("pass")  # type: ignore[arg-type]
    assert s.to_dict() == before


def test_every_unlisted_action_is_refused_in_a_random_game() -> None:
    """Actions close to the legal ones (other amounts, plants, cities) are refused unless listed."""
    s = pg.new_game(pg.GameConfig(map="usa", players=3, seed=8))
    rng = random.Random(8)
    cities = s.scn.map.cities
    while not s.is_over:
        legal = s.legal_actions()
        candidates = [pg.Action.pass_(), pg.Action.done(), pg.Action.bid(rng.randint(0, 120)),
                      pg.Action.open(rng.choice([3, 7, 13, 25, 50]), rng.randint(0, 80)),
                      pg.Action.buy(rng.randrange(4), rng.randint(1, 9)),
                      pg.Action.build(rng.choice(cities)), pg.Action.power((), (0, 0, 0, 0)),
                      pg.Action.power((rng.choice([3, 4, 10, 20]),), (2, 0, 0, 0)),
                      pg.Action.discard(rng.choice([3, 5, 10]), (0, 0, 0, 0))]
        for a in candidates:
            if a not in legal:
                refused(s, a, log=False)
        s.apply(rng.choice(legal))


# ---------------------------------------------------------------- saved states
def _saved() -> dict:
    return random_game(pg.GameConfig(map="germany", players=3, seed=5), 5, stop=200).to_dict()


def _corrupt(change) -> dict:  # type: ignore[no-untyped-def]
    d = json.loads(json.dumps(_saved()))
    change(d)
    return d


@pytest.mark.parametrize("change", [
    lambda d: d.pop("players"),
    lambda d: d.__setitem__("format", "chess"),
    lambda d: d["players"][0].__setitem__("money", -5),
    lambda d: d["players"][0].__setitem__("money", "lots"),
    lambda d: d["players"][1]["resources"].__setitem__(0, 99),
    lambda d: d["supply"].__setitem__(2, 0),
    lambda d: d["plant_market"].reverse(),
    lambda d: d["plant_market"].append(3),
    lambda d: d["deck"].pop(),
    lambda d: d["players"][0]["cities"].append("Atlantis"),
    lambda d: d["players"][0].__setitem__("plants", [3, 3]),
    lambda d: d.__setitem__("seating", [0, 0, 1]),
    lambda d: d.__setitem__("order", [0, 1]),
    lambda d: d.__setitem__("phase", 9),
    lambda d: d.__setitem__("step", 4),
    lambda d: d["config"].__setitem__("map", "atlantis"),
    lambda d: d["config"].__setitem__("players", 9),
    lambda d: d.__setitem__("regions", ["red"]),
    lambda d: d.__setitem__("log", [["act", 0, "fly away"]]),
    lambda d: d.__setitem__("log", "nothing"),
    lambda d: d["auction"].__setitem__("leader", 7),
    lambda d: d.__setitem__("rng", -1),
])
def test_corrupt_saved_states(change) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(pg.CorruptState) as err:
        pg.GameState.from_dict(_corrupt(change))
    assert err.value.code in ("corrupt_state", "unsupported_version")


def test_wrong_version() -> None:
    d = _saved()
    d["version"] = 99
    with pytest.raises(pg.UnsupportedVersion) as err:
        pg.GameState.from_dict(d)
    assert err.value.code == "unsupported_version"
    assert isinstance(err.value, pg.CorruptState)


@pytest.mark.parametrize("thing", [None, [], "state", 3])
def test_not_a_state_at_all(thing: object) -> None:
    with pytest.raises(pg.CorruptState):
        pg.GameState.from_dict(thing)


def _fresh() -> dict:
    return json.loads(json.dumps(game(4, seed=0).to_dict()))


def test_saved_state_with_a_house_outside_the_regions_in_play() -> None:
    d = _fresh()
    d["players"][0]["cities"] = ["München"]
    with pytest.raises(pg.CorruptState, match="outside"):
        pg.GameState.from_dict(d)


def test_saved_state_with_more_houses_than_the_step_allows() -> None:
    d = _fresh()
    d["players"][0]["cities"] = ["Essen"]
    pg.GameState.from_dict(d)
    d["players"][1]["cities"] = ["Essen"]
    with pytest.raises(pg.CorruptState, match="Step 1"):
        pg.GameState.from_dict(d)


def test_saved_state_with_resources_that_do_not_fit() -> None:
    d = _fresh()
    d["players"][0]["resources"] = [1, 0, 0, 0]
    d["resource_market"][0] = 23
    with pytest.raises(pg.CorruptState, match="store"):
        pg.GameState.from_dict(d)
    d["players"][0]["plants"] = [4]
    d["plant_market"].remove(4)
    pg.GameState.from_dict(d)
