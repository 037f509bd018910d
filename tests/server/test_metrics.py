"""What a web process measures of itself (metrics.py): the bots' replies to people."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from powergrid.server.common.metrics import BotReplies

BOT, PERSON = 1, 0


class Game(SimpleNamespace):
    awaiting_bot: tuple[int, float] | None = None

    def is_bot(self, seat: int) -> bool:
        return seat == BOT


def frame(version: int, seat: int) -> Any:
    return SimpleNamespace(version=version, last={"seat": seat, "action": "pass"})


def test_a_bots_answer_to_the_action_is_timed_once() -> None:
    replies, game = BotReplies(), Game()
    replies.acted(game, 5, arrived=0.0)
    replies.sent(game, frame(5, PERSON))  # the person's own new view first: still awaited
    assert game.awaiting_bot == (5, 0.0) and not replies.samples
    replies.sent(game, frame(6, BOT))
    replies.sent(game, frame(6, BOT))  # the same answer on a second socket
    assert len(replies.samples) == 1 and replies.samples[0] > 0 and game.awaiting_bot is None
    assert replies.summary()["samples"] == 1


def test_a_person_answering_or_a_version_skipped_is_not_a_bots_reply() -> None:
    replies, game = BotReplies(), Game()
    replies.acted(game, 5, arrived=0.0)
    replies.sent(game, frame(6, PERSON))  # the other person acted next
    replies.acted(game, 8, arrived=0.0)
    replies.sent(game, frame(10, BOT))  # the socket missed version 9: no telling when the bot answered
    assert not replies.samples and game.awaiting_bot is None
    assert replies.summary() == {"p50": 0.0, "p99": 0.0, "samples": 0}
