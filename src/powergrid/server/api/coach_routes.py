"""The coach's routes: hints for a seat during play, and a finished game's analysis.

- ``GET  /api/games/{id}/hints?seat=N`` (the seat's token): whether hints are on, how many are
  used and left, and the hint for the current position if one was asked for.
- ``POST /api/games/{id}/hints`` ``{"seat": N, "version": V}`` (the seat's token): ask for a hint
  at the current position (its job runs in a bot worker); waits a few seconds for it, else
  answers ``pending`` (poll the GET). Asking again at the same position counts once.
- ``POST /api/games/{id}/analysis``: start the analysis of a finished game (once per game).
- ``GET  /api/games/{id}/analysis``: its status and progress, and the analysis when done.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import FastAPI, Header, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from powergrid.coach.analysis import in_language
from powergrid.i18n import negotiate

from ..coach import coach_store
from ..coach.coach_jobs import analysis_job, hint_job
from ..common.errors import ApiError
from ..common.limits import Limits
from ..fanout.doorbell import JOBS
from .schemas import MAX_SEATS, MAX_VERSION

#: how long a POST waits for its hint before answering ``pending``
HINT_WAIT_S = 6.0
POLL_S = 0.1
MAX_HINTS_PER_SEAT = 50


class AskHint(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    seat: int = Field(ge=0, lt=MAX_SEATS, description="the seat, 0 to players - 1")
    version: int | None = Field(None, ge=0, lt=MAX_VERSION,
                                description="the version the client saw; a stale one is refused")


def hint_options(body: Any) -> tuple[bool, int]:
    """A new game's hint settings from its CreateGame body: ``hints`` (default: on, off for a
    public game) and ``hints_per_seat``."""
    enabled = getattr(body, "hints", None)
    if enabled is None:
        enabled = not bool(getattr(body, "public", False))
    per_seat = getattr(body, "hints_per_seat", None)
    return bool(enabled), coach_store.DEFAULT_HINTS_PER_SEAT if per_seat is None else int(per_seat)


async def after_create(service: Any, game_id: str, body: Any) -> None:
    """Store the new game's hint settings (a hook in the create-game route)."""
    enabled, per_seat = hint_options(body)
    await asyncio.to_thread(coach_store.set_options, service.store.engine, game_id, enabled, per_seat)


async def hints_used(service: Any, game_id: str) -> dict[str, int]:
    """For the game record: hints each seat used."""
    used = await asyncio.to_thread(coach_store.hints_used, service.store.engine, game_id)
    return {str(seat): n for seat, n in sorted(used.items())}


def add_coach_routes(app: FastAPI, service_of: Callable[[Any], Any],
                     bearer: Callable[[str | None], str | None], client_of: Callable[[Request], str],
                     limits: Limits) -> None:
    async def hint_status(service: Any, game_id: str, seat: int, version: int) -> dict[str, Any]:
        engine = service.store.engine
        opts = await asyncio.to_thread(coach_store.options, engine, game_id)
        used = (await asyncio.to_thread(coach_store.hints_used, engine, game_id)).get(seat, 0)
        outcome = await asyncio.to_thread(coach_store.job_outcome, engine, coach_store.HINT,
                                          coach_store.hint_key(game_id, seat, version))
        status, advice = "none", None
        if outcome is not None:
            state, result = outcome
            if state == "done" and result is not None:
                status, advice = ("stale", None) if result.get("stale") else ("done", result)
            elif state == "failed":
                status = "failed"
            else:
                status = "pending"
        return {"enabled": opts.enabled, "per_seat": opts.per_seat, "used": used,
                "left": max(0, opts.per_seat - used) if opts.enabled else 0, "version": version,
                "status": status, "hint": advice}

    @app.get("/api/games/{game_id}/hints", tags=["coach"])
    async def get_hint(game_id: str, request: Request, seat: Annotated[int, Query()],
                       authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        """Hint settings and use for a seat, and its hint at the current position if asked for."""
        service = service_of(request)
        live = await service.live(game_id)
        await service.authenticate(live, seat, bearer(authorization))
        live = await service.fresh(game_id)
        return await hint_status(service, game_id, seat, live.version)

    @app.post("/api/games/{game_id}/hints", tags=["coach"])
    async def ask_hint(game_id: str, body: AskHint, request: Request,
                       authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        """Ask the coach what it would do from this seat's view (counts against the seat's hints)."""
        service = service_of(request)
        live = await service.live(game_id)
        await service.authenticate(live, body.seat, bearer(authorization))
        live = await service.fresh(game_id)
        state, version = live.state, live.version
        engine = service.store.engine
        opts = await asyncio.to_thread(coach_store.options, engine, game_id)
        if not opts.enabled:
            raise ApiError("hints_off", "hints are switched off in this game")
        if state.is_over:
            raise ApiError("game_over", "the game is over")
        if body.version is not None and body.version != version:
            raise ApiError("stale_version", f"the game is at version {version}, not {body.version}")
        if state.current_player != body.seat:
            raise ApiError("not_your_turn", f"seat {state.current_player} is to act, not seat {body.seat}")
        await asyncio.to_thread(coach_store.request_hint, engine, game_id, body.seat, version,
                                opts.per_seat, hint_job(game_id, body.seat, version,
                                                                      negotiate(request.headers.get("accept-language"))))
        service.store.ring(JOBS)
        waited = 0.0
        while True:
            answer = await hint_status(service, game_id, body.seat, version)
            if answer["status"] != "pending" or waited >= HINT_WAIT_S:
                return answer
            await asyncio.sleep(POLL_S)
            waited += POLL_S

    def analysis_body(row: Any, lang: str) -> dict[str, Any]:
        """The analysis in the reader's language (each decision's words are stored in all)."""
        if row is None:
            return {"status": "none", "progress": None, "analysis": None}
        return {"status": row.status, "progress": {"done": row.done, "total": row.total},
                "analysis": in_language(json.loads(row.result), lang) if row.result else None}

    @app.get("/api/games/{game_id}/analysis", tags=["coach"])
    async def get_analysis(game_id: str, request: Request) -> dict[str, Any]:
        """A finished game's analysis: ``none`` (not started), ``queued``, ``running`` with its
        progress, or ``done`` with each seat's chances by round and costliest decisions."""
        service = service_of(request)
        await service.live(game_id)  # unknown_game
        row = await asyncio.to_thread(coach_store.analysis_row, service.store.engine, game_id)
        return analysis_body(row, negotiate(request.headers.get("accept-language")))

    @app.post("/api/games/{game_id}/analysis", tags=["coach"], status_code=202)
    async def start_analysis(game_id: str, request: Request) -> dict[str, Any]:
        """Start the analysis of a finished game (computed once; later calls just answer its status).
        A client may have ``POWERGRID_ANALYSES_PER_CLIENT`` analyses in progress (``429
        analysis_limit``), the server ``POWERGRID_ANALYSIS_QUEUE`` (``503 analysis_queue_full``)."""
        service = service_of(request)
        live = await service.fresh(game_id)
        if not live.state.is_over:
            raise ApiError("game_not_over", "a game is analysed once it is over")
        engine = service.store.engine
        per_client = limits.analyses_per_client if limits.on(limits.analyses_per_client) else 0
        most = limits.analysis_queue if limits.on(limits.analysis_queue) else 0
        await asyncio.to_thread(coach_store.start_analysis, engine, game_id, analysis_job(game_id, 0),
                                client_of(request), per_client, most)
        service.store.ring(JOBS)
        row = await asyncio.to_thread(coach_store.analysis_row, engine, game_id)
        return analysis_body(row, negotiate(request.headers.get("accept-language")))
