"""The game server: FastAPI over an event-sourced store, bots in seats, live WebSocket views.

``create_app(Settings(...))`` builds the ASGI app; ``powergrid serve`` runs it on uvicorn.

Subpackages by domain, lowest first; each imports only itself and those below it
(``tests/server/test_layout.py``): ``common`` (settings, limits, errors, ids, tokens), ``fanout``
(telling other processes), ``storage`` (the database, the store of games, the job queue),
``games`` (games in play and the service), ``bots`` (bot workers), ``coach`` (hint and analysis
jobs), ``api`` (the app, its routes and the connection guard). docs/architecture.md draws it.
"""

from __future__ import annotations

from .api.app import create_app
from .bots import deadlines as _deadlines  # noqa: F401  (registers the deadline job with the bot workers)
from .bots import order_turns as _order_turns  # noqa: F401  (registers the standing orders' job)
from .coach import coach_jobs as _coach_jobs  # noqa: F401  (registers the coach's jobs with the bot workers)
from .common.settings import Settings

__all__ = ["Settings", "create_app"]
