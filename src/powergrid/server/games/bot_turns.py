"""A bot's turn: its seed, its decision from its seat's view only, and checking bot names."""

from __future__ import annotations

import hashlib
import logging
import time

import powergrid as pg

from ..common.errors import ApiError
from ..common.settings import Settings
from ..storage.jobs import QUICK, SEARCH, JobSpec
from ..storage.store import GameRow

log = logging.getLogger("powergrid.server")


def derive_seed(*parts: int) -> int:
    digest = hashlib.blake2b(":".join(str(p) for p in parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def bot_decision(spec: str, seed: int, state: pg.GameState, seat: int,
                 max_budget: int | None = None) -> pg.Action:
    """The bot's move; it sees only its seat's view. A failing or illegal bot plays the first legal action.

    ``max_budget`` caps a search bot's forward-model calls (the server's bound on its thinking).
    """
    from powergrid.bots import make_bot

    view = state.view(seat)
    try:
        bot = make_bot(spec, seed)
        if max_budget is not None and bot.budget is not None and bot.budget > max_budget:
            bot.budget = max_budget
        action = bot.act(view)
        if state.is_legal(action):
            return action
        log.error("bot %s in seat %d chose an illegal action %s; playing the first legal one", spec, seat,
                  action)
    except Exception:
        log.exception("bot %s in seat %d failed; playing the first legal action", spec, seat)
    return state.legal_actions()[0]


def check_bot_spec(spec: str) -> None:
    from powergrid.bots import make_bot

    try:
        make_bot(spec, 0)
    except Exception as exc:
        raise ApiError("invalid_config", f"bot {spec!r}: {exc}") from None


BOT_TURN = "bot_turn"


def lane_of(spec: str) -> str:
    """Search bots (``pimc``, alias ``mcts``) think for seconds: they get a lane of their own."""
    from powergrid.bots import searches

    return SEARCH if searches(spec) else QUICK


def turn_job(row: GameRow, version: int, to_act: int | None) -> JobSpec | None:
    """The job for the bot to act at ``version`` (None when nobody, or a person, is to act)."""
    if to_act is None:
        return None
    seat = row.seats[to_act]
    if seat.kind != "bot" or seat.bot is None:
        return None
    return JobSpec(kind=BOT_TURN, lane=lane_of(seat.bot), key=f"{row.game_id}:{version}",
                   payload={"seat": to_act}, game_id=row.game_id, version=version, client=row.creator,
                   not_before=time.time() + row.bot_pace_ms / 1000)


def pace_ms(requested: int | None, seat_kinds: list[str], settings: Settings) -> int:
    """The game's pause before each bot move: the request's, bounded by the server, else the default
    (a pause where a person watches, none in all-bot games)."""
    if requested is None:
        return settings.bot_pace_ms if "human" in seat_kinds else 0
    return max(0, min(requested, settings.bot_pace_max_ms))
