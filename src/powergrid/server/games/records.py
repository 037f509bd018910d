"""The game record: config (with the seed), bots, every action, and the final state once over."""

from __future__ import annotations

from typing import Any

from .cache import LiveGame


def record(live: LiveGame) -> dict[str, Any]:
    state = live.state
    out: dict[str, Any] = {
        "format": "powergrid.game", "version": 1, "config": dict(live.row.config),
        "actions": [str(a) for a in state.actions_taken()],
        "bots": [{"seat": s.seat, "bot": s.bot, "seed": s.bot_seed} for s in live.row.seats
                 if s.kind == "bot"],
        # each seat's display name (null for a bot or a person who gave none)
        "names": [s.name for s in live.row.seats],
    }
    if state.is_over:
        out["final"] = state.to_dict()
    return out
