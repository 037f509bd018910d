"""Seat tokens: 192 random bits, stored only as SHA-256, compared in constant time."""

from __future__ import annotations

import hashlib
import hmac
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


def new_game_id() -> str:
    return secrets.token_urlsafe(9)
