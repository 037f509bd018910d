"""docs/rules.md, Phase 4: building houses."""

from __future__ import annotations

import heapq
import json
from importlib import resources

import pytest

import powergrid as pg

from .positions import act, city, game, give_cities, place_houses, refused, to_phase


def _dijkstra_in_play(map_name: str, regions: tuple[str, ...]) -> dict[tuple[str, str], int]:
    """Cheapest paths between in-play cities through in-play cities only, computed here."""
    text = resources.files("powergrid.rules.data").joinpath(f"{map_name}.json").read_text("utf-8")
    data = json.loads(text)
    allowed = {c for r in regions for c in data["regions"][r]}
    edges: dict[str, list[tuple[str, int]]] = {c: [] for c in allowed}
    for a, b, cost in data["connections"]:
        if a in allowed and b in allowed:
            edges[a].append((b, cost))
            edges[b].append((a, cost))
    out = {}
    for start in allowed:
        dist = {start: 0}
        heap = [(0, start)]
        while heap:
            d, c = heapq.heappop(heap)
            if d > dist[c]:
                continue
            for nxt, cost in edges[c]:
                if d + cost < dist.get(nxt, 1 << 30):
                    dist[nxt] = d + cost
                    heapq.heappush(heap, (d + cost, nxt))
        for c, d in dist.items():
            out[(start, c)] = d
    return out


@pytest.mark.parametrize("map_name, regions", [
    ("germany", ("red", "cyan", "yellow")),
    ("germany", ("green", "brown", "yellow", "purple")),
    ("usa", None),
])
def test_paths_run_only_through_cities_in_play(map_name: str, regions: tuple[str, ...] | None) -> None:
    if regions is None:
        s = pg.new_game(pg.GameConfig(map=map_name, players=5, seed=3))
        regions = s.regions
    else:
        s = pg.new_game(pg.GameConfig(map=map_name, players=len(regions), seed=3, regions=regions))
    expected = _dijkstra_in_play(map_name, regions)
    everywhere = _dijkstra_in_play(map_name, tuple(s.scn.map.region_names))
    names = s.scn.map.cities
    shortcut = 0
    for a in s.scn.board.in_play:
        for b in s.scn.board.in_play:
            pair = (names[a], names[b])
            assert s.scn.board.distance[a][b] == expected[pair]
            shortcut += everywhere[pair] < expected[pair]
    if map_name == "germany" and "red" in regions and "cyan" in regions:
        return
    assert shortcut, "the test needs pairs whose cheapest path leaves the regions in play"


def test_build_cost_ignores_shortcuts_through_regions_not_in_play() -> None:
    regions = ("green", "brown", "yellow", "purple")
    s = pg.new_game(pg.GameConfig(players=4, seed=1, regions=regions))
    part = _dijkstra_in_play("germany", regions)
    full = _dijkstra_in_play("germany", tuple(s.scn.map.region_names))
    a, b = max((pair for pair in part if part[pair] > full[pair]), key=lambda p: part[p] - full[p])
    to_phase(s, pg.Phase.BUILD, order=(1, 2, 3, 0), round=3)
    place_houses(s, 0, a)
    assert s.build_cost(0, b) == 10 + part[(a, b)] > 10 + full[(a, b)]


def _build(players: int = 4, step: int = 1) -> pg.GameState:
    s = game(players, seed=0)
    to_phase(s, pg.Phase.BUILD, order=(1, 2, 3, 0), round=3, step=step)
    s.money = [500] * players
    assert s.current_player == 0
    return s


def test_build_phase_in_reverse_order_and_building_is_optional() -> None:
    s = _build()
    seen = []
    while s.phase == pg.Phase.BUILD:
        seen.append(s.current_player)
        act(s, "done")
    assert seen == [0, 3, 2, 1]
    assert s.cities == [(), (), (), ()]


def test_first_city_anywhere_in_play_for_the_slot_price_only() -> None:
    s = _build()
    legal = {a.city for a in s.legal_actions() if a.kind == "build"}
    assert legal == {s.scn.map.cities[c] for c in s.scn.board.in_play}
    act(s, "build Dortmund")
    assert s.money[0] == 490
    assert s.houses[city(s, "Dortmund")] == (0,)
    err = refused(s, "build München")          # purple is not in play
    assert "not in a region in play" in err.reason
    err = refused(s, "build Gotham")
    assert "no city" in err.reason
    assert s.build_cost(0, "München") is None


@pytest.mark.parametrize("step, open_slots", [(1, 1), (2, 2), (3, 3)])
def test_slots_open_by_step_cheapest_first(step: int, open_slots: int) -> None:
    s = _build(step=step)
    prices = (10, 15, 20)
    # seats 1, 2 occupy Köln's first slots one by one; seat 0 is quoted the next slot each time
    for taken in range(3):
        cost = s.build_cost(0, "Köln")
        if taken < open_slots:
            assert cost == prices[taken]
        else:
            assert cost is None
            err = refused(s, "build Köln")
            assert "no free slot" in err.reason
            return
        place_houses(s, 1 + taken, "Köln")
    assert open_slots == 3
    assert s.build_cost(0, "Köln") is None       # full


def test_never_two_houses_of_one_seat_in_a_city() -> None:
    s = _build(step=3)
    act(s, "build Köln")
    assert s.build_cost(0, "Köln") is None
    assert pg.Action.build("Köln") not in s.legal_actions()
    err = refused(s, "build Köln")
    assert "already" in err.reason


def test_house_order_in_a_city_is_slot_order_and_each_slot_price() -> None:
    s = _build(step=3)
    place_houses(s, 3, "Köln")
    act(s, "build Köln")
    assert s.money[0] == 500 - 15
    act(s, "done")                               # seat 3: has Köln, may build elsewhere
    act(s, "done")                               # seat 2
    assert s.current_player == 2 or s.current_player == 1
    while s.current_player != 1:
        act(s, "done")
    act(s, "build Köln")
    assert s.money[1] == 500 - 20
    assert s.houses[city(s, "Köln")] == (3, 0, 1)


def test_several_cities_in_one_turn_each_priced_from_the_network_so_far() -> None:
    s = _build()
    act(s, "build Essen")
    act(s, "build Düsseldorf")                   # 10 + 2
    act(s, "build Aachen")                       # 10 + 9 from Düsseldorf
    assert s.money[0] == 500 - 10 - 12 - 19
    assert s.cities[0] == (city(s, "Essen"), city(s, "Düsseldorf"), city(s, "Aachen"))


def test_path_may_pass_through_full_or_built_cities() -> None:
    s = _build()
    place_houses(s, 0, "Essen")
    place_houses(s, 2, "Düsseldorf")             # full in Step 1
    assert s.build_cost(0, "Düsseldorf") is None
    assert s.build_cost(0, "Aachen") == 21       # still through Düsseldorf


def test_building_needs_the_money() -> None:
    s = _build()
    place_houses(s, 0, "Essen")
    s.money[0] = 20
    legal = {a.city for a in s.legal_actions() if a.kind == "build"}
    assert "Duisburg" in legal and "Aachen" not in legal      # 10 vs 21
    err = refused(s, "build Aachen")
    assert "costs 21" in err.reason


def test_twenty_two_houses_at_most() -> None:
    s = _build(players=4, step=3)
    give_cities(s, 0, 22)
    assert s.legal_actions() == [pg.Action.done()]
    free = next(s.scn.map.cities[c] for c in s.scn.board.in_play if 0 not in s.houses[c])
    err = refused(s, f"build {free}")
    assert "no houses left" in err.reason
    assert s.build_cost(0, free) is None


def test_city_names_are_exact() -> None:
    s = _build()
    refused(s, "build köln")
    refused(s, "build Koln")
