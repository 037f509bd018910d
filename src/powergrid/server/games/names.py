"""Display names: what a person is called at the table, beside their colour.

A name is 1 to 24 characters once normalised (Unicode NFC) and trimmed, with no control or
formatting characters (a right-to-left override would turn the text around it); anything else is
refused with ``invalid_name`` and changes nothing. Names are shown escaped by every client: they
are text, never markup.
"""

from __future__ import annotations

import asyncio
import unicodedata
from typing import Any

from ..common.errors import ApiError
from ..fanout.pubsub import SEATS_CHANGED, Hub
from ..storage.store import Store
from .cache import LiveGame
from .seats import check_seat

MAX_NAME = 24
#: joiners that emoji sequences and some scripts need (category Cf, like the bidi controls)
JOINERS = frozenset("\u200c\u200d")
#: categories refused: controls, formatting (bidi overrides, zero-width spaces), surrogates,
#: private use, unassigned, line and paragraph separators
REFUSED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def clean_name(raw: Any) -> str:
    """The name as stored and shown; raises ApiError ``invalid_name``."""
    if not isinstance(raw, str):
        raise ApiError("invalid_name", "a name is text: 1 to 24 characters")
    name = unicodedata.normalize("NFC", raw).strip()
    if not name:
        raise ApiError("invalid_name", "a name needs at least one character that is not a space")
    if len(name) > MAX_NAME:
        raise ApiError("invalid_name", f"a name has at most {MAX_NAME} characters, not {len(name)}")
    for ch in name:
        if ch not in JOINERS and unicodedata.category(ch) in REFUSED:
            raise ApiError("invalid_name", f"a name may not hold the control character U+{ord(ch):04X}")
    return name


async def set_name(store: Store, hub: Hub, live: LiveGame, seat: int, raw: Any) -> str:
    """Give a human seat (its token already checked) its display name; the name kept."""
    name = clean_name(raw)
    # under the game's lock: a reload of the seats begun before this commit (another change's
    # notice) would otherwise put back rows read without the name
    async with live.lock:
        row = check_seat(live, seat)
        if row.kind != "human":
            raise ApiError("seat_taken", f"seat {seat} is played by the bot {row.bot}")
        await asyncio.to_thread(store.set_seat_name, live.game_id, seat, name)
        row.name = name
    await hub.publish(live.game_id, SEATS_CHANGED)  # this process's sockets and lobby learn it at once
    return name
