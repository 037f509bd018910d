"""What a chat message may be: its text cleaned and bounded, the quick phrases, who wrote it.

Text is kept as the person typed it, made single-line (line breaks and tabs become spaces) and
without control or formatting characters; clients show it as text, never as markup. A quick
phrase is sent by its key, so that every reader sees it in their own language.
"""

from __future__ import annotations

import hashlib
import unicodedata
from typing import Any

from ..common.errors import ApiError

#: characters a message may have once cleaned
MAX_CHARS = 300
#: a writer may post RATE_BURST messages in any RATE_WINDOW_S seconds (``chat_rate_limited``)
RATE_BURST = 5
RATE_WINDOW_S = 10.0
#: messages a history request answers at most (the newest)
HISTORY = 200

#: the quick phrases, by key: the English words (the browser shows them in the reader's language)
PHRASES = {
    "good_luck": "Good luck!",
    "good_game": "Good game",
    "your_turn": "Your turn",
    "one_moment": "One moment",
    "well_played": "Well played",
    "thanks": "Thanks!",
}

_JOINERS = frozenset("\u200c\u200d")
_SPACES = frozenset("\t\n\r\x0b\x0c\x85\u2028\u2029")


def clean_text(raw: Any) -> str:
    """The text as stored and shown; raises ``chat_empty`` or ``chat_too_long``."""
    if not isinstance(raw, str):
        raise ApiError("malformed_request", "a chat message's text is a string")
    kept = []
    for ch in unicodedata.normalize("NFC", raw):
        if ch in _SPACES:
            kept.append(" ")
        elif ch in _JOINERS or unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co", "Cn"):
            kept.append(ch)
    text = "".join(kept).strip()
    if not text:
        raise ApiError("chat_empty", "the message is empty")
    if len(text) > MAX_CHARS:
        raise ApiError("chat_too_long", f"a message has at most {MAX_CHARS} characters, not {len(text)}")
    return text


def content(text: Any, phrase: Any) -> tuple[str, str | None]:
    """(text, phrase key) of a message that has either its own text or a quick phrase."""
    if phrase is not None:
        if text is not None:
            raise ApiError("malformed_request", "a message has text or a phrase, not both")
        if not isinstance(phrase, str) or phrase not in PHRASES:
            raise ApiError("malformed_request", f"the quick phrases are {', '.join(PHRASES)}")
        return PHRASES[phrase], phrase
    if text is None:
        raise ApiError("chat_empty", "the message is empty")
    return clean_text(text), None


def seat_author(seat: int) -> str:
    return f"seat:{seat}"


def spectator_author(game_id: str, client_key: str) -> str:
    """A spectator's pseudonym in one game: the same client is the same writer (for the rate limit
    and for muting), and nothing links it to the client or to its pseudonym in another game."""
    digest = hashlib.sha256(f"{game_id}\0{client_key}".encode("utf-8", "surrogatepass")).hexdigest()
    return f"spectator:{digest[:12]}"
