"""Loaded by a bot worker started with this folder on PYTHONPATH (tests/server/test_bot_workers.py):
every bot turn waits POWERGRID_TEST_TURN_DELAY_S seconds before the bot decides, so that a test
that kills a worker while it plays a turn does so mid-turn, however quick the bot's first move is
on the machine (about 0.08 s: a test that polled for the turn could miss it and wait in vain)."""

import os
import time

if os.environ.get("POWERGRID_TEST_TURN_DELAY_S"):
    from powergrid.server.bots import bot_worker

    _delay = float(os.environ["POWERGRID_TEST_TURN_DELAY_S"])
    _decide = bot_worker.bot_decision

    def _slow_decision(*args, **kwargs):  # type: ignore[no-untyped-def]
        time.sleep(_delay)
        return _decide(*args, **kwargs)

    # the name the worker's turns call (imported into bot_worker from games.bot_turns)
    bot_worker.bot_decision = _slow_decision
