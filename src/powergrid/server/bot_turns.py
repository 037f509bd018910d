"""A bot's turn: its seed, its decision from its seat's view only, and checking bot names."""

from __future__ import annotations

import hashlib
import logging

import powergrid as pg

from .errors import ApiError

log = logging.getLogger("powergrid.server")


def derive_seed(*parts: int) -> int:
    digest = hashlib.blake2b(":".join(str(p) for p in parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def bot_decision(spec: str, seed: int, state: pg.GameState, seat: int) -> pg.Action:
    """The bot's move; it sees only its seat's view. A failing or illegal bot plays the first legal action."""
    from powergrid.bots import make_bot

    view = state.view(seat)
    try:
        action = make_bot(spec, seed).act(view)
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
