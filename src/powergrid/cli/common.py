"""What the subcommands share: consoles, failing cleanly, seeds, and game files on disk.

A *game record* is a config plus the game's log: the actions played and any ``undo`` entries
(enough to replay the game exactly),
with the bots that played it and the final state for checking::

    {"format": "powergrid.game", "version": 1, "config": {...}, "actions": ["open 3 3", ...],
     "bots": [{"seat": 0, "bot": "random", "seed": 123}, ...], "final": {...state JSON...}}

A bare saved state (``state.to_dict()``, format ``powergrid.state``) is read as well.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

import typer
from rich.console import Console

import powergrid as pg
from powergrid.bots import levels as bot_levels

#: the --bots options' list of bots, weakest first, with their ladder rating and time a move
BOTS_HELP = "The bots (ladder rating, time a searched move): " + bot_levels.summary() + "."

RECORD_FORMAT = "powergrid.game"
RECORD_VERSION = 1

#: Exit status for bad input (the same as a command-line usage error).
BAD_INPUT = 2

console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)


class GameFileError(Exception):
    """A game file that cannot be read; the message names the problem in one line."""


def fail(message: str) -> NoReturn:
    """Print a one-line error (no traceback) and exit with status 2."""
    err_console.print(f"[bold red]error:[/] {message}", markup=True, soft_wrap=True)
    raise typer.Exit(BAD_INPUT)


def derive_seed(*parts: int) -> int:
    """A 63-bit seed from integers, stable across runs and Python versions."""
    digest = hashlib.blake2b(":".join(str(p) for p in parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


# ------------------------------------------------------------------ records
def game_record(state: pg.GameState, bots: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
    """The record of a game so far: enough to replay it, plus its final state for checking."""
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "config": state.config.to_dict(),
        "actions": [str(a) for a in state.actions_taken()],
        "bots": list(bots),
        "final": state.to_dict(),
    }


def write_json(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, ensure_ascii=False) + "\n", encoding="utf-8")


def load_game(path: Path) -> pg.GameState:
    """Load a game record (replayed and checked) or a bare saved state.

    :raises GameFileError: the file is missing, not JSON, or not a valid game.
    """
    return load_timeline(path).state


def record_players(path: Path, players: int) -> list[str | None] | None:
    """The bot in each seat of a game record (None for a seat a person played); None when the
    file names no bots (a bare saved state, or a record of people only). Read after
    :func:`load_game` has checked the file."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        seats: list[str | None] = [None] * players
        for entry in data.get("bots") or ():
            seats[int(entry["seat"])] = str(entry["bot"])
    except (OSError, ValueError, TypeError, KeyError, IndexError, AttributeError):
        return None
    return seats if any(seats) else None


def load_timeline(path: Path) -> pg.Timeline:
    """Like :func:`load_game`, with the game's log (undo entries included) and its undo window.

    :raises GameFileError: the file is missing, not JSON, or not a valid game.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise GameFileError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise GameFileError(f"{path}: is a directory, not a game file") from None
    except UnicodeDecodeError:
        raise GameFileError(f"{path}: not a text file (expected JSON)") from None
    except OSError as exc:
        raise GameFileError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise GameFileError(f"{path}: not JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from None
    kind = data.get("format") if isinstance(data, dict) else None
    if kind == RECORD_FORMAT:
        return _replay_record(path, data)
    if kind == "powergrid.state":
        try:
            return pg.Timeline.starting_at(pg.GameState.from_dict(data))
        except pg.PowerGridError as exc:
            raise GameFileError(f"{path}: {exc}") from None
    if kind == "powergrid.view":
        raise GameFileError(f"{path}: a player's view with hidden cards, not a full game or state")
    raise GameFileError(f"{path}: not a Power Grid game record or saved state "
                        f"(format {kind!r}, expected {RECORD_FORMAT!r} or 'powergrid.state')")


def _replay_record(path: Path, data: dict[str, Any]) -> pg.Timeline:
    version = data.get("version")
    if version != RECORD_VERSION:
        raise GameFileError(f"{path}: game record version {version!r}; this powergrid reads "
                            f"version {RECORD_VERSION}")
    try:
        config = pg.GameConfig.from_dict(data.get("config"))
    except pg.PowerGridError as exc:
        raise GameFileError(f"{path}: bad config: {exc}") from None
    actions = data.get("actions")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise GameFileError(f"{path}: 'actions' must be a list of action texts")
    try:
        timeline = pg.Timeline(config)
    except pg.PowerGridError as exc:
        raise GameFileError(f"{path}: bad config: {exc}") from None
    # The same as pg.replay_log, step by step, so an error can say which entry failed.
    for number, text in enumerate(actions, 1):
        try:
            timeline.apply(text)
        except pg.PowerGridError as exc:
            raise GameFileError(f"{path}: action {number} ({text!r}) does not replay: {exc}") from None
    state = timeline.state
    final = data.get("final")
    if final is not None:
        replayed = json.loads(json.dumps(state.to_dict()))
        if replayed != final:
            where = sorted(k for k in set(replayed) | set(final if isinstance(final, dict) else {})
                           if not isinstance(final, dict) or replayed.get(k) != final.get(k))
            raise GameFileError(f"{path}: the replayed game does not match the recorded final state "
                                f"(differs in: {', '.join(where[:5]) or 'everything'})")
    return timeline
