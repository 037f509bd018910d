"""The legal auction bids as ranges, so masks over hundreds of bids cost a few slice writes.

``GameState.legal_actions()`` lists every bid amount as its own action; reading them one by one
was most of the cost of a mask. These are the same actions as runs of amounts
(docs/rules.md, Phase 2 — auction): an opener may open any plant of the current market it can
afford at any amount from the plant's number to its money (only the number when it is the last
player still to buy, and passing only after round 1 or when it can afford nothing); in a running
auction the player to act may raise to any amount it can pay, or pass. ``tests/rl`` holds these
ranges equal to ``legal_actions()`` over random games of every player count.

``ActionCodec`` writes its auction masks from the same runs, read straight from the state (no
ranges object on that path: it runs on every auction decision).
"""

from __future__ import annotations

from typing import NamedTuple

from ..rules import GameState
from ..rules.phase import AUCTION


class AuctionRanges(NamedTuple):
    #: the current market, slot order
    market: list[int]
    #: (market slot, lowest amount, highest amount) of each plant that may be opened
    opens: list[tuple[int, int, int]]
    #: (lowest, highest) raise in a running auction, or None
    bids: tuple[int, int] | None
    can_pass: bool


def auction_ranges(state: GameState) -> AuctionRanges | None:
    """The auction decision's legal bids as ranges; None outside an auction decision (discards
    included), where the engine's list is short."""
    if state.phase != AUCTION or state.discard_seat >= 0:
        return None
    market = state.current_market()
    if state.auc_plant:
        seat = state.auc_turn
        money = state.money[seat]
        bids = (state.auc_bid + 1, money) if money > state.auc_bid else None
        return AuctionRanges(market, [], bids, True)
    done = state.auc_done
    seat = next(p for p in state.order if not done >> p & 1)
    money = state.money[seat]
    alone = done | 1 << seat == (1 << state.players) - 1
    opens = [(slot, plant, plant if alone else money)
             for slot, plant in enumerate(market) if plant <= money]
    return AuctionRanges(market, opens, None, state.round > 1 or not opens)
