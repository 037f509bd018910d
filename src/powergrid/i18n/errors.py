"""Named errors in words a player can read, one per error code of the API
(server/common/errors.py). The API keeps its codes and its English (detailed) messages; the
browser shows this table's message for the code in the reader's language (``errors`` in
static/i18n/<lang>.json)."""

from __future__ import annotations

from .runtime import N_, Translator

ERRORS: dict[str, str] = {
    "malformed_request": N_("The request is malformed."),
    "malformed_action": N_("That action is not written in the game's notation."),
    "illegal_action": N_("That move is not allowed now."),
    "binary_message": N_("Messages must be text, not binary."),
    "nesting_too_deep": N_("The message is nested too deeply."),
    "missing_token": N_("This needs your seat's token: join the game first."),
    "wrong_token": N_("That token does not belong to this seat."),
    "unknown_game": N_("There is no such game."),
    "unknown_seat": N_("There is no such seat in this game."),
    "unknown_map": N_("There is no such map."),
    "not_found": N_("Not found."),
    "unknown_step": N_("The replay has no such step."),
    "method_not_allowed": N_("That method is not allowed here."),
    "stale_version": N_("The game moved on meanwhile: here is the latest position."),
    "not_your_turn": N_("It is not your turn."),
    "seat_taken": N_("That seat is taken."),
    "seat_not_open": N_("That seat is not open to join."),
    "game_over": N_("The game is over."),
    "game_not_over": N_("The game is not over yet."),
    "body_too_large": N_("The request is too large."),
    "headers_too_large": N_("The request's headers are too large."),
    "invalid_config": N_("Those game settings are not valid."),
    "invalid_record": N_("That game record does not replay."),
    "rate_limited": N_("Too many requests: wait a moment and try again."),
    "creation_rate_limited": N_("Too many new games from this address: wait a moment and try again."),
    "server_busy": N_("The server is busy: try again in a moment."),
    "active_games_limit": N_("Too many games in play from this address: finish one first."),
    "bot_games_limit": N_("Too many games of bots only in play: try again later."),
    "socket_limit": N_("Too many connections from this address."),
    "message_rate_limited": N_("Too many messages: slow down."),
    "hints_off": N_("Hints are switched off in this game."),
    "hint_limit": N_("You have used all the hints of this game."),
    "analysis_limit": N_("Too many analyses asked for: wait for one to finish."),
    "analysis_queue_full": N_("The analysis queue is full: try again later."),
    "undo_off": N_("Taking back is switched off in this game."),
    "nothing_to_undo": N_("There is no action to take back."),
    "not_your_action": N_("The last action is not yours to take back."),
    "another_player_acted": N_("Another player has acted since: it cannot be taken back."),
    "new_information": N_("Something new was revealed since: it cannot be taken back."),
    "invalid_name": N_("A name has 1 to 24 characters, without control characters."),
    "chat_empty": N_("The message is empty."),
    "chat_too_long": N_("That message is too long."),
    "chat_rate_limited": N_("Slow down: too many messages at once. Try again in a few seconds."),
    "chat_off": N_("The game's creator turned chat off."),
    "too_many_tokens": N_("Too many seats asked about at once."),
    "seat_taken_over": N_("A bot plays this seat now: take your seat back first."),
    "seat_not_taken_over": N_("You hold this seat: no bot plays it."),
    "malformed_order": N_("That order is not written correctly."),
    "illegal_order": N_("That order is not allowed."),
    "order_not_now": N_("That order is not for this moment of the game."),
    "not_in_auction": N_("You are out of this auction."),
    "bid_limit_too_low": N_("The bid is already at or above that limit."),
    "bid_over_money": N_("You do not have that much money."),
    "pass_not_allowed": N_("In the first round everybody must buy a plant: you may not pass."),
    "already_acted": N_("You have already made that choice this round."),
    "price_changed": N_("A price has changed since you planned it: choose again."),
    "no_order": N_("There is no such order (it may have been played already)."),
    "no_rematch": N_("Nobody has asked to play this game again yet."),
    "internal_error": N_("The server failed; nothing was changed."),
}


def error_message(code: str, tr: Translator) -> str:
    """The code's message in the reader's language (a general one for a code not in the table)."""
    return tr.gettext(ERRORS.get(code, N_("The server refused.")))
