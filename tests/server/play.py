"""Driving games through the HTTP API in tests."""

from __future__ import annotations

import random
import time
from typing import Any

from fastapi.testclient import TestClient

from .conftest import auth


def view(client: TestClient, game_id: str, seat: int, token: str) -> dict[str, Any]:
    r = client.get(f"/api/games/{game_id}/view", params={"seat": seat}, headers=auth(token))
    assert r.status_code == 200, r.text
    return r.json()


def choose(legal: list[str], rng: random.Random) -> str:
    """A random legal action, preferring short games (no endless bidding, building when possible)."""
    builds = [a for a in legal if a.startswith("build")]
    if builds and rng.random() < 0.8:
        return rng.choice(builds)
    bids = [a for a in legal if a.startswith(("bid", "open"))]
    if bids and rng.random() < 0.5:
        return bids[0]
    return rng.choice(legal)


def play(client: TestClient, game: dict[str, Any], steps: int, seed: int = 1,
         seen: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Take ``steps`` human actions (or stop when the game is over); the last view."""
    rng = random.Random(seed)
    tokens = {s["seat"]: s["token"] for s in game["seats"] if s["kind"] == "human"}
    gid = game["game_id"]
    current = client.get(f"/api/games/{gid}").json()
    taken = 0
    while taken < steps and not current["state"]["game_over"]:
        seat = current["to_act"]
        if seat not in tokens:  # a bot is thinking
            time.sleep(0.005)
            current = client.get(f"/api/games/{gid}").json()
            continue
        v = view(client, gid, seat, tokens[seat])
        if seen is not None:
            seen.append(v)
        r = client.post(f"/api/games/{gid}/actions", headers=auth(tokens[seat]),
                        json={"seat": seat, "action": choose(v["legal"], rng), "version": v["version"]})
        assert r.status_code == 200, r.text
        current = r.json()
        if seen is not None:
            seen.append(current)
        taken += 1
    return current
