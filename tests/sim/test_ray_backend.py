"""The Ray backend gives the same results as the local pool (on a small local Ray instance)."""

from __future__ import annotations

import json

import pytest

import powergrid as pg
from powergrid.sim import run_tournament

ray = pytest.importorskip("ray", reason="ray is not installed (pip install 'powergrid[cluster]')")


def test_ray_backend_matches_the_local_pool() -> None:
    config = pg.GameConfig(map="germany", players=2, variant="first_game")
    local = run_tournament(config, ["random", "random"], 4, seed=21, workers=1)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        seen: list[int] = []
        remote = run_tournament(config, ["random", "random"], 4, seed=21, backend="ray",
                                on_result=lambda r: seen.append(r.index))
    finally:
        ray.shutdown()
    assert sorted(seen) == [0, 1, 2, 3]
    assert json.dumps(remote.to_dict()) == json.dumps(local.to_dict())


def test_unknown_backend_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown backend"):
        run_tournament(pg.GameConfig(players=2), ["random", "random"], 1, seed=1, backend="spark")
