"""Named API errors: HTTP status + a code from the contract + words (+ when to retry, for 429s;
+ the facts behind the words, for clients that word a refusal themselves)."""

from __future__ import annotations

from typing import Any

STATUS = {
    "malformed_request": 400, "malformed_action": 400, "illegal_action": 400,
    "binary_message": 400, "nesting_too_deep": 400,
    "missing_token": 401, "wrong_token": 403,
    "unknown_game": 404, "unknown_seat": 404, "unknown_map": 404, "not_found": 404,
    "unknown_step": 404,
    "method_not_allowed": 405,
    "stale_version": 409, "not_your_turn": 409, "seat_taken": 409, "seat_not_open": 409, "game_over": 409,
    "game_not_over": 409,
    "body_too_large": 413, "headers_too_large": 431, "invalid_config": 422, "invalid_record": 422,
    "rate_limited": 429, "creation_rate_limited": 429, "server_busy": 429, "active_games_limit": 429,
    "bot_games_limit": 429,
    "socket_limit": 429, "message_rate_limited": 429,
    "hints_off": 403, "hint_limit": 429,  # the coach (coach_routes.py)
    "analysis_limit": 429, "analysis_queue_full": 503,
    # taking back (undo.py): the engine's reasons (powergrid.rules.undo); game_over is above
    "undo_off": 403, "nothing_to_undo": 409, "not_your_action": 409, "another_player_acted": 409,
    "new_information": 409,
    # names and chat (games/names.py, chat/), and the My games page (games/my_games.py)
    "invalid_name": 422, "chat_empty": 400, "chat_too_long": 400, "chat_off": 403, "chat_rate_limited": 429,
    "too_many_tokens": 400,
    # absent players (games/absence.py): a stand-in bot plays the seat / the person holds it
    "seat_taken_over": 409, "seat_not_taken_over": 409,
    # standing orders (games/orders.py) and Play again (games/again.py)
    "malformed_order": 400, "illegal_order": 400, "order_not_now": 409, "not_in_auction": 409,
    "bid_limit_too_low": 409, "bid_over_money": 409, "pass_not_allowed": 409, "already_acted": 409,
    "price_changed": 409, "no_order": 404, "no_rematch": 404,
}


class ApiError(Exception):
    """A refusal the client can act on; nothing was changed."""

    def __init__(self, code: str, message: str, retry_after: int | None = None,
                 facts: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        #: seconds after which trying again may succeed (sent as ``Retry-After`` too)
        self.retry_after = retry_after
        #: more members of the error body: what the message says in words, as data (an undo's
        #: refusal: ``by``, the seat whose action is in the way, and ``action``; docs/server-api.md)
        self.facts = dict(facts or {})
        if self.facts.keys() & {"code", "message", "retry_after"}:
            raise ValueError("an error's facts may not replace its code, message or retry_after")

    @property
    def status(self) -> int:
        return STATUS.get(self.code, 400)

    def body(self) -> dict[str, Any]:
        error: dict[str, Any] = {"code": self.code, "message": self.message, **self.facts}
        if self.retry_after is not None:
            error["retry_after"] = self.retry_after
        return {"error": error}

    def headers(self) -> dict[str, str] | None:
        return {"Retry-After": str(self.retry_after)} if self.retry_after is not None else None
