"""The browser client: static HTML, CSS and ES-module JavaScript served by the game server."""

from pathlib import Path

#: The folder the server mounts at ``/static`` (``index.html`` is the lobby, ``game.html`` a game).
STATIC_DIR = Path(__file__).resolve().parent / "static"

__all__ = ["STATIC_DIR"]
