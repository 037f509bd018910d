"""docs/rules.md, Setup: deck, markets, money, regions, seating."""

from __future__ import annotations

import json
from importlib import resources

import pytest

import powergrid as pg
from powergrid.rules.catalog import STEP3

from .positions import ALL_PLANTS, plant_places

REMOVED = {2: 8, 3: 8, 4: 4, 5: 0, 6: 0}
REGIONS = {2: 3, 3: 3, 4: 4, 5: 5, 6: 5}


def _map_data(name: str) -> dict:
    text = resources.files("powergrid.rules.data").joinpath(f"{name}.json").read_text("utf-8")
    return json.loads(text)


def _adjacent_regions(name: str) -> dict[str, set[str]]:
    """Region adjacency computed here from the raw connections, independently of the engine."""
    data = _map_data(name)
    region_of = {c: r for r, cities in data["regions"].items() for c in cities}
    adj: dict[str, set[str]] = {r: set() for r in data["regions"]}
    for a, b, _ in data["connections"]:
        if region_of[a] != region_of[b]:
            adj[region_of[a]].add(region_of[b])
            adj[region_of[b]].add(region_of[a])
    return adj


def _connected(regions: tuple[str, ...], adj: dict[str, set[str]]) -> bool:
    seen = {regions[0]}
    todo = [regions[0]]
    while todo:
        for r in adj[todo.pop()] & set(regions):
            if r not in seen:
                seen.add(r)
                todo.append(r)
    return seen == set(regions)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_deck_13_on_top_step3_at_bottom_removals_unseen(players: int) -> None:
    s = pg.new_game(pg.GameConfig(map="usa", players=players, seed=11))
    assert s.deck[-1] == 13                      # the top is the end of the list
    assert s.deck[0] == STEP3
    assert len(s.removed) == REMOVED[players]
    assert not set(s.removed) & {3, 4, 5, 6, 7, 8, 9, 10, 13}
    assert len(s.deck) == 42 - 8 - REMOVED[players] + 1     # + the Step 3 card
    assert plant_places(s) == list(ALL_PLANTS)
    view = s.view(0)
    assert view.deck_top_known == [13]
    assert view.removed_count == REMOVED[players]
    assert set(view.to_dict()["removed"]) <= {-1}
    assert not set(s.removed) & set(view.to_dict()["deck"])


def test_deck_order_and_removals_come_from_the_seed() -> None:
    decks = {tuple(pg.new_game(pg.GameConfig(players=4, seed=k)).deck) for k in range(6)}
    removed = {pg.new_game(pg.GameConfig(players=2, seed=k)).removed for k in range(6)}
    assert len(decks) == 6 and len(removed) == 6
    again = pg.new_game(pg.GameConfig(players=4, seed=3))
    assert again.deck == pg.new_game(pg.GameConfig(players=4, seed=3)).deck


def test_start_markets_money_and_pieces() -> None:
    s = pg.new_game(pg.GameConfig(players=3, seed=1))
    assert s.market == [3, 4, 5, 6, 7, 8, 9, 10]
    assert s.current_market() == [3, 4, 5, 6]
    assert s.future_market() == [7, 8, 9, 10]
    assert s.market_res == [24, 18, 6, 2]
    assert s.supply == [0, 6, 18, 10]
    assert (s.price("coal"), s.price("oil"), s.price("garbage"), s.price("uranium")) == (1, 3, 7, 14)
    assert s.money == [50, 50, 50]
    assert s.plants == [(), (), ()]
    assert s.cities == [(), (), ()]
    assert all(s.resources_of(p) == (0, 0, 0, 0) for p in range(3))
    assert s.round == 1 and s.step == 1 and s.phase == pg.Phase.AUCTION
    assert s.phase_name == "auction"


def test_resource_tracks_have_the_printed_spaces() -> None:
    tracks = pg.catalog().tracks
    for r in range(3):
        assert tracks[r].slot_prices == tuple(p for p in range(1, 9) for _ in range(3))
    assert tracks[3].slot_prices == (1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16)
    assert [t.total for t in tracks] == [24, 24, 24, 12]


@pytest.mark.parametrize("map_name", ["germany", "usa"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_regions_are_connected_and_of_the_right_number(map_name: str, players: int) -> None:
    adj = _adjacent_regions(map_name)
    seen = set()
    for seed in range(12):
        s = pg.new_game(pg.GameConfig(map=map_name, players=players, seed=seed))
        regions = s.regions
        assert len(regions) == len(set(regions)) == REGIONS[players]
        assert _connected(regions, adj)
        in_play = {s.scn.map.cities[c] for c in s.scn.board.in_play}
        data = _map_data(map_name)
        assert in_play == {c for r in regions for c in data["regions"][r]}
        seen.add(frozenset(regions))
    assert len(seen) > 1, "regions are drawn from the seed"


def test_connected_region_sets_are_exactly_the_connected_choices() -> None:
    adj = _adjacent_regions("germany")
    m = pg.load_map("germany")
    from itertools import combinations
    for k in (3, 4, 5):
        expected = {frozenset(c) for c in combinations(m.region_names, k) if _connected(c, adj)}
        assert {frozenset(c) for c in m.connected_region_sets(k)} == expected
    # brown and purple do not touch: a 2-region pick of them is never offered
    assert ("brown", "purple") not in m.connected_region_sets(2)


def test_explicit_regions_are_used() -> None:
    cfg = pg.GameConfig(map="germany", players=3, seed=5, regions=("purple", "cyan", "yellow"))
    s = pg.new_game(cfg)
    assert set(s.regions) == {"purple", "cyan", "yellow"}
    m = s.scn.map
    for c in range(len(m.cities)):
        playable = m.city_region[c] in s.regions
        assert (c in s.scn.board.in_play) == playable
        assert (s.build_cost(0, c) is not None) == playable


@pytest.mark.parametrize("regions, words", [
    (("red", "cyan"), "3 regions"),
    (("red", "cyan", "green", "yellow"), "3 regions"),
    (("red", "cyan", "atlantis"), "atlantis"),
    (("red", "red", "cyan"), "twice"),
    (("brown", "cyan", "purple"), "connected"),
])
def test_bad_explicit_regions(regions: tuple[str, ...], words: str) -> None:
    with pytest.raises(pg.InvalidRegions, match=words) as err:
        pg.new_game(pg.GameConfig(map="germany", players=3, regions=regions))
    assert err.value.code == "invalid_regions"
    assert isinstance(err.value, pg.InvalidConfig)


def test_seating_is_random_from_the_seed_and_fixed() -> None:
    seatings = {pg.new_game(pg.GameConfig(players=5, seed=k)).seating for k in range(10)}
    assert len(seatings) > 3
    for seating in seatings:
        assert sorted(seating) == list(range(5))
    s = pg.new_game(pg.GameConfig(players=5, seed=4))
    assert s.seating == pg.new_game(pg.GameConfig(players=5, seed=4)).seating
    assert s.order == s.seating                       # round 1 keeps the random order
    assert s.current_player == s.seating[0]


def test_player_count_table() -> None:
    table = {2: (3, 8, 4, 10, 21), 3: (3, 8, 3, 7, 17), 4: (4, 4, 3, 7, 17),
             5: (5, 0, 3, 7, 15), 6: (5, 0, 3, 6, 14)}
    for n, row in table.items():
        r = pg.new_game(pg.GameConfig(map="usa", players=n)).scn.rules
        assert (r.regions, r.plants_removed, r.max_plants, r.step2_cities, r.end_cities) == row


def test_cards_match_the_shared_data() -> None:
    plants = pg.catalog().plants
    assert sorted(plants) == list(range(3, 41)) + [42, 44, 46, 50]
    assert plants[3] == pg.Plant(3, "oil", 2, 1)
    assert plants[5] == pg.Plant(5, "hybrid", 2, 1)
    assert plants[13] == pg.Plant(13, "ecological", 0, 1)
    assert plants[50] == pg.Plant(50, "fusion", 0, 6)
    assert plants[29].storage == 2
    assert pg.catalog().payout == (10, 22, 33, 44, 54, 64, 73, 82, 90, 98, 105, 112, 118, 124, 129,
                                   134, 138, 142, 145, 148, 150)
    assert pg.catalog().pay(25) == 150
