"""Routes for reading back a game: the whole log page by page, and the replay viewer's positions.

A *step* is a number of actions played: step 0 is the deal, step n the game after its n-th action.
A position at a past step is rebuilt by replaying the actions from the config (a whole game
replays in a few milliseconds) and shown as a spectator would have seen it then: the view's JSON
hides the deck order and the seed, and a game in play can be read only up to its present.
A record file (the config with its seed and the actions) may be posted instead: its owner has it
all already. Actions taken back (``undo`` entries in the log) are not steps: a position is the
game after its standing actions, which is exactly the state the undos returned to.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, ConfigDict, Field

import powergrid as pg

from ..common.errors import ApiError
from ..games import views

#: a record posted to the replay viewer may be this large (the usual body limit is smaller)
MAX_RECORD_BYTES = 512 * 1024
MAX_RECORD_ACTIONS = 10_000
LOG_PAGE_MAX = 500

router = APIRouter()


@dataclass
class Position:
    """The game after ``step`` actions, with the standings history and the action that led there."""

    step: int
    state: pg.GameState
    history: dict[str, list[list[int]]]
    last: dict[str, Any] | None

    def payload(self) -> dict[str, Any]:
        view = self.state.view(0)  # every seat sees the same cards: this is the spectators' view
        state = {**views.state_payload(view, self.history, views.LogTail.of(self.state)), "seat": None}
        return {"step": self.step, "state": state, "to_act": view.current_player, "last": self.last}


def replay_to(config: pg.GameConfig, actions: list[pg.Action], step: int) -> Position:
    """The position after the first ``step`` actions (raises pg.PowerGridError on a bad action)."""
    state = pg.new_game(config)
    history = views.empty_history(config.players)
    last = None
    for action in actions[:step]:
        seat = state.current_player
        round_before = state.round
        state.apply(action)
        if state.round != round_before or state.is_over:
            views.record_round(history, state)
        last = {"seat": seat, "action": str(action), "text": f"P{seat}: {action}"}
    return Position(step, state, history, last)


def step_index(config: pg.GameConfig, actions: list[pg.Action]) -> tuple[list[list[Any]], bool]:
    """Per action: [round, phase, Step, seat, action] when it was taken; whether the game is over after."""
    state = pg.new_game(config)
    out: list[list[Any]] = []
    for action in actions:
        out.append([state.round, int(state.phase), state.step, state.current_player, str(action)])
        state.apply(action)
    return out, state.is_over


def _step(requested: int | None, steps: int) -> int:
    if requested is None:
        return steps
    if not 0 <= requested <= steps:
        raise ApiError("unknown_step", f"steps run from 0 to {steps}, not {requested}")
    return requested


async def _stored(request: Request, game_id: str) -> tuple[pg.GameConfig, list[pg.Action], bool, Any]:
    service = request.app.state.service
    live = await service.fresh(game_id)
    state = live.state
    config = pg.GameConfig.from_dict(live.row.config)  # with its seed: stays on the server
    return config, state.actions_taken(), state.is_over, live


@router.get("/api/games/{game_id}/log", tags=["games"])
async def game_log(game_id: str, request: Request, before: Annotated[int | None, Query(ge=0)] = None,
                   limit: Annotated[int, Query(ge=1, le=LOG_PAGE_MAX)] = 200) -> dict[str, Any]:
    """Up to ``limit`` entries of the whole log (events in words and round summaries) before ``before``.

    ``before`` is an index in the display log (a view's ``log_total`` counts its entries); leave it
    out for the last page. The answer's ``start`` is the index of its first entry.
    """
    live = await request.app.state.service.fresh(game_id)
    return {"game_id": game_id, **await asyncio.to_thread(log_page, live.state, before, limit)}


def log_page(state: pg.GameState, before: int | None, limit: int) -> dict[str, Any]:
    entries, text, total = views.display_log(state)
    stop = total if before is None else min(before, total)
    start = max(0, stop - limit)
    return {"total": total, "start": start, "entries": entries[start:stop], "text": text[start:stop]}


@router.get("/api/games/{game_id}/replay", tags=["replay"])
async def replay_index(game_id: str, request: Request) -> dict[str, Any]:
    """The steps of a game so far: per action its round, phase, Step, seat and notation."""
    config, actions, over, live = await _stored(request, game_id)
    index, _ = await asyncio.to_thread(step_index, config, actions)
    return {"game_id": game_id, "steps": len(actions), "over": over, "index": index,
            "players": config.players, "map": config.map, "variant": config.variant,
            "seats": [views_seat(s) for s in live.row.seats]}


@router.get("/api/games/{game_id}/replay/{step}", tags=["replay"])
async def replay_position(game_id: str, step: int, request: Request) -> dict[str, Any]:
    """The game as a spectator saw it after ``step`` actions (0: the deal)."""
    config, actions, over, _live = await _stored(request, game_id)
    step = _step(step, len(actions))
    position = await asyncio.to_thread(replay_to, config, actions, step)
    return {"game_id": game_id, "steps": len(actions), "over": over, **position.payload()}


class PostedRecord(BaseModel):
    # a downloaded record also has "bots", "final", ...
    model_config = ConfigDict(extra="ignore", strict=True)
    config: dict[str, Any]
    actions: list[Annotated[str, Field(max_length=300)]] = Field(max_length=MAX_RECORD_ACTIONS)


class ReplayRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    record: PostedRecord
    step: int | None = Field(None, description="null: the end of the record")
    index: bool = Field(False, description="also send the per-action index")


@router.post("/api/replay", tags=["replay"])
async def replay_record(body: ReplayRequest) -> dict[str, Any]:
    """A position of a game record file (as downloaded from ``/api/games/{id}/record``)."""
    return await asyncio.to_thread(_replay_record, body)


def _replay_record(body: ReplayRequest) -> dict[str, Any]:
    try:
        config = pg.GameConfig.from_dict(body.record.config, map_files=False)  # never a file: data only
        # a record's log may hold undo entries (the terminal client's): the viewer steps through the
        # actions still standing
        actions = pg.replay_log(config, body.record.actions).state.actions_taken()
        step = _step(body.step, len(actions))
        index, over = step_index(config, actions)  # replays the whole record: a bad action shows here
        position = replay_to(config, actions, step)
    except pg.PowerGridError as exc:
        raise ApiError("invalid_record", f"the record does not replay: {exc}") from None
    out: dict[str, Any] = {"steps": len(actions), "over": over, "players": config.players,
                           "map": config.map, "variant": config.variant, **position.payload()}
    if body.index:
        out["index"] = index
    return out


def views_seat(row: Any) -> dict[str, Any]:
    from ..games.seats import public_seat
    return public_seat(row)
