"""Named API errors: HTTP status + a code from the contract + words."""

from __future__ import annotations

from typing import Any

STATUS = {
    "malformed_request": 400, "malformed_action": 400, "illegal_action": 400,
    "missing_token": 401, "wrong_token": 403,
    "unknown_game": 404, "unknown_seat": 404, "unknown_map": 404, "not_found": 404,
    "unknown_step": 404,
    "method_not_allowed": 405,
    "stale_version": 409, "not_your_turn": 409, "seat_taken": 409, "game_over": 409,
    "body_too_large": 413, "invalid_config": 422, "invalid_record": 422,
}


class ApiError(Exception):
    """A refusal the client can act on; nothing was changed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    @property
    def status(self) -> int:
        return STATUS.get(self.code, 400)

    def body(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message}}
