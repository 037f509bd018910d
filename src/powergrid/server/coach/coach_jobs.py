"""The coach's work in the bot workers: ``hint`` and ``analysis`` jobs.

Both run on the search lane, so they never delay the quick lane's bot turns. A hint's job has the
asking seat's ``client`` key, so one seat runs one hint at a time; every analysis job has the
client ``analysis``, so analyses together hold at most ``search_per_client`` workers. Analysis
jobs are ``BACKGROUND`` work: a due bot turn or hint of the search lane is claimed before any of
them, and a running one stops after the decision it is judging when such a job is due, then
queues its next part (as it does anyway after a few seconds' worth of decisions).
"""

from __future__ import annotations

import hashlib
import logging
import os
import time
from typing import Any

import powergrid as pg
from powergrid.coach import Analyser, Decision, NoHint, hint
from powergrid.i18n import LANGUAGES

from ..bots.bot_worker import BotWorker, register_handler
from ..storage.jobs import BACKGROUND, SEARCH, Job, JobSpec
from . import coach_store

log = logging.getLogger("powergrid.coach")

#: the search level of hints and analyses (docs/coach.md)
HINT_LEVEL = os.environ.get("POWERGRID_HINT_LEVEL", "default")
ANALYSIS_LEVEL = os.environ.get("POWERGRID_ANALYSIS_LEVEL", "default")
#: smaller searches than a level's (tests): forward-model calls, samples at least, rounds ahead
HINT_BUDGET: int | None = None
ANALYSIS_BUDGET: int | None = None
ANALYSIS_MIN_SAMPLES = 4
ANALYSIS_HORIZON: int | None = None
#: an analysis job stops taking new decisions after this many seconds and queues the rest
ANALYSIS_SLICE_S = float(os.environ.get("POWERGRID_ANALYSIS_SLICE_S", "3"))
ANALYSIS_CLIENT = "analysis"


def hint_seed(game_id: str, seat: int, version: int) -> int:
    digest = hashlib.blake2b(f"hint:{game_id}:{seat}:{version}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def hint_job(game_id: str, seat: int, version: int, lang: str = "en") -> JobSpec:
    """The hint for a seat at a version, in the language of the person who asked."""
    return JobSpec(coach_store.HINT, SEARCH, coach_store.hint_key(game_id, seat, version),
                   {"seat": seat, "lang": lang}, game_id=game_id, version=version,
                   client=f"hint:{game_id}:{seat}")


def analysis_job(game_id: str, start: int) -> JobSpec:
    return JobSpec(coach_store.ANALYSIS, SEARCH, f"{game_id}:{start}", {"from": start}, game_id=game_id,
                   client=ANALYSIS_CLIENT, priority=BACKGROUND)


def _frame_state(worker: BotWorker, game_id: str, version: int,
                 ) -> tuple[pg.GameState, list[str | None]] | None:
    """The game at ``version``, with the bot in each seat (None for a person)."""
    found = worker.game(game_id)
    if found is None:
        return None
    row, frames = found
    for frame in frames:
        if frame.version == version:
            return frame.state, _seat_bots(row)
    return None


def _seat_bots(row: Any) -> list[str | None]:
    return [s.bot if s.kind == "bot" else None for s in row.seats]


def _language(lang: Any) -> str:
    return lang if lang in LANGUAGES else "en"


def do_hint(worker: BotWorker, job: Job) -> None:
    """The hint for the job's seat at the job's version, from that seat's view only."""
    assert job.game_id is not None and job.version is not None
    seat = int(job.payload["seat"])
    found = _frame_state(worker, job.game_id, job.version)
    if found is None:
        worker.queue.done(job, {"stale": True, "message": "the game has moved on"})
        return
    state, players = found
    try:
        advice = hint(state.view(seat), seed=hint_seed(job.game_id, seat, job.version), level=HINT_LEVEL,
                      budget=HINT_BUDGET, lang=_language(job.payload.get("lang")), players=players)
    except NoHint as exc:
        worker.queue.done(job, {"stale": True, "message": str(exc)})
        return
    worker.queue.done(job, advice.to_dict())


def do_analysis(worker: BotWorker, job: Job) -> None:
    """Judge the next few decisions of a finished game; store them; queue the rest or the result."""
    assert job.game_id is not None
    start = int(job.payload["from"])
    found = worker.game(job.game_id)
    if found is None:
        worker.queue.done(job, {"skipped": "no such game"})
        return
    row, frames = found
    final = frames[-1].state
    analyser = Analyser(pg.GameConfig.from_dict(row.config), final.actions_taken(), seed=0,
                        level=ANALYSIS_LEVEL, budget=ANALYSIS_BUDGET, min_samples=ANALYSIS_MIN_SAMPLES,
                        horizon=ANALYSIS_HORIZON, players=_seat_bots(row))
    began = time.perf_counter()
    judged: list[Decision] = []
    n = start
    while n < analyser.total and (not judged or (time.perf_counter() - began < ANALYSIS_SLICE_S
                                                 and not worker.queue.waits_ahead(job.lane, BACKGROUND))):
        judged.append(analyser.judge(n))
        n += 1
    result: dict[str, Any] | None = None
    if n >= analyser.total:
        stored = coach_store.analysis_row(worker.engine, job.game_id)
        earlier = [Decision.from_dict(d) for d in _loads(stored.decisions)] if stored else []
        result = analyser.result(earlier + judged).to_dict()
    coach_store.save_progress(worker.engine, job.game_id, start, [d.to_dict() for d in judged],
                              analyser.total, result,
                              None if result is not None else analysis_job(job.game_id, n), job.id)


def _loads(text: str) -> list[dict[str, Any]]:
    import json

    data: list[dict[str, Any]] = json.loads(text)
    return data


#: the coach's job kinds, registered with the bot workers when this module is imported
COACH_HANDLERS = {coach_store.HINT: do_hint, coach_store.ANALYSIS: do_analysis}
for _kind, _handler in COACH_HANDLERS.items():
    register_handler(_kind, _handler)
