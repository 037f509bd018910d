"""Seeds derived from a master seed: stable across processes, machines and Python versions."""

from __future__ import annotations

import hashlib


def derive_seed(master: int, *path: int | str) -> int:
    """A 63-bit seed from the master seed and a path such as (game index, "bot", seat).

    Hash-based (not ``hash()``, which is salted per process) so that every worker,
    local or on a cluster, derives the same seeds.
    """
    text = ":".join(str(part) for part in (master, *path))
    digest = hashlib.sha256(text.encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def game_seed(master: int, index: int) -> int:
    """The seed of the game (deck order, regions) of tournament game ``index``."""
    return derive_seed(master, index, "game")


def bot_seed(master: int, index: int, seat: int) -> int:
    """The seed of the bot in ``seat`` of tournament game ``index``."""
    return derive_seed(master, index, "bot", seat)
