"""The game server: FastAPI over an event-sourced store, bots in seats, live WebSocket views.

``create_app(Settings(...))`` builds the ASGI app; ``powergrid serve`` runs it on uvicorn.
"""

from __future__ import annotations

from .app import create_app
from .settings import Settings

__all__ = ["Settings", "create_app"]
