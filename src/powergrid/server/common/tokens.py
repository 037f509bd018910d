"""Seat tokens: 192 random bits, stored only as SHA-256, compared in constant time."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets


def new_token() -> str:
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(token: str, stored_hash: str | None) -> bool:
    if stored_hash is None:
        hmac.compare_digest(token_hash(token), "0" * 64)  # same work whether or not a hash exists
        return False
    return hmac.compare_digest(token_hash(token), stored_hash)


def bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header."""
    if not authorization:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


def new_game_id() -> str:
    return secrets.token_urlsafe(9)


#: what new_game_id makes (and a little room): anything else is no game, whatever the database
_GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def well_formed_game_id(game_id: str) -> bool:
    """Whether ``game_id`` could name a game. NUL bytes, spaces, long or other odd ids never reach the
    database (PostgreSQL refuses NUL in text, and would answer 500 instead of 404)."""
    return _GAME_ID.fullmatch(game_id) is not None
