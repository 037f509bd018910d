"""A game at one version: its state, per-round history, log tail and the JSON sent about it.

A game's *version* is the number of entries in its log (actions and ``undo`` entries). ``advance``
is the one place an action is applied to a game the server holds (a person's or a bot's): it
validates through the engine and makes the next frame, leaving the old one untouched; an ``undo``
entry's frame is made by ``undo.rewind``. Each frame carries the undo window (``Ledger``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import orjson

import powergrid as pg
from powergrid.rules.state import events_after
from powergrid.rules.undo import Ledger

from . import views
from .clocks import Clocks

#: frames kept per live game, so a watcher is sent every version in order (one further behind is
#: sent the latest)
FRAMES_KEPT = 16
#: frames, counted from the latest, that keep their encoded socket messages (older ones re-encode)
MESSAGES_KEPT = 3
History = dict[str, list[list[int]]]


def encode(data: Any) -> bytes:
    """JSON bytes (UTF-8, compact). The state is the server's largest answer, encoded for every seat
    and version: orjson does it about ten times faster than the standard library."""
    return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS)


@dataclass
class Frame:
    """The game at one version, and the action that led to it."""

    version: int
    state: pg.GameState
    history: History
    #: {"seat", "action", "text"} of the entry that made this version (None for version 0 / unknown);
    #: an undo's has "action": "undo" and "undone": the action taken back
    last: dict[str, Any] | None
    log_tail: views.LogTail
    #: which actions may still be taken back (docs/rules.md, Undo)
    ledger: Ledger = Ledger()
    #: whether the game lets seats take actions back (the creator's choice)
    undo_allowed: bool = True
    #: the players' clocks and who holds each seat at this version (clocks.py); None: not known
    clock: Clocks | None = None
    #: when the bots may answer the person whose action made this version: the end of its undo
    #: window by the server's clock (undo_window.py); None: they do not wait (or it is not known here)
    undo_until: float | None = None
    _public: dict[str, Any] | None = None
    #: the public part's JSON, less its closing brace (``encoded``)
    _public_json: bytes | None = None
    _payloads: dict[int | None, dict[str, Any]] = field(default_factory=dict)
    #: each seat's payload, encoded once: the HTTP answer and the socket message are made from it
    _encoded: dict[int | None, bytes] = field(default_factory=dict)
    _messages: dict[int | None, str] = field(default_factory=dict)

    def encoded(self, seat: int | None) -> bytes:
        """The seat's payload as JSON bytes (an object: ``{...}``, the JSON of ``payload(seat)``);
        made once per seat and version.

        The public part, the same for every seat, is encoded once per version, and its log tail
        (most of its bytes) is joined from entries encoded once each (``LogTail.json``); each seat
        adds only its own members."""
        data = self._encoded.get(seat)
        if data is None:
            public = self._public_json
            if public is None:
                shown = views.state_payload(self.state.view(0), self.history, self.log_tail, with_log=False)
                public = self._public_json = encode(shown)[:-1] + b"," + self.log_tail.json()
            view = self.state.view(0 if seat is None else seat)
            own = encode({**views.seat_extras(view, seat), **self.undo_extras(seat), "last": self.last})
            if self.clock is not None:  # the same for every seat: encoded once (``clock_extras``)
                own = b"".join((own[:-1], b',"clocks":', self.clock.shown_json, b"}"))
            who = b"null" if seat is None else str(seat).encode()
            data = b"".join((b'{"version":', str(self.version).encode(), b',"seat":', who,
                             b',"state":', public, b',"seat":', who,
                             b',"allow_undo":', b"true" if self.undo_allowed else b"false", b"},", own[1:]))
            self._encoded[seat] = data
        return data

    def message(self, seat: int | None) -> str:
        """The WebSocket message (JSON text) for a seat: ``{"type": "state", ...the payload}``."""
        text = self._messages.get(seat)
        if text is None:
            text = '{"type":"state",' + self.encoded(seat)[1:].decode()
            self._messages[seat] = text
        return text

    def body(self, game_id: str, seat: int | None, **extra: Any) -> bytes:
        """The HTTP answer (JSON bytes) about this version for a seat: ``{"game_id", ...the payload}``."""
        if extra:
            return encode({"game_id": game_id, **extra, **self.payload(seat)})
        return b'{"game_id":' + encode(game_id) + b"," + self.encoded(seat)[1:]

    def retire(self, keep_messages: bool) -> None:
        """A newer frame exists: free what only the latest needs (the messages last longest)."""
        self._public = None
        self._public_json = None
        self._payloads.clear()
        self._encoded.clear()
        if not keep_messages:
            self._messages.clear()

    def encoded_bytes(self) -> int:
        return (sum(len(b) for b in self._encoded.values()) + sum(len(m) for m in self._messages.values())
                + len(self._public_json or b""))

    def payload(self, seat: int | None) -> dict[str, Any]:
        """The JSON a seat (None: a spectator) is sent about this version; built once per seat."""
        cached = self._payloads.get(seat)
        if cached is None:
            view = self.state.view(0 if seat is None else seat)
            if self._public is None:
                # every seat sees the same cards (only the deck is hidden, from all alike)
                self._public = views.state_payload(view, self.history, self.log_tail)
            state = {**self._public, "seat": seat, "allow_undo": self.undo_allowed}
            cached = {"version": self.version, "seat": seat, "state": state,
                      **views.seat_extras(view, seat), **self.undo_extras(seat), "last": self.last,
                      **self.clock_extras()}
            self._payloads[seat] = cached
        return cached

    def clock_extras(self) -> dict[str, Any]:
        """``clocks``: the players' clocks and stand-ins (clocks.py), the same for every seat."""
        return {} if self.clock is None else {"clocks": self.clock.public()}

    def undo_extras(self, seat: int | None) -> dict[str, Any]:
        """For a seat: whether it may take back an action now, which ones, and if not, why not (the
        refusal of the undo route: code, message and facts); ``until``, when the bots wait for it."""
        if seat is None:
            return {}
        actions = [t.action for t in self.ledger.undoable(seat)] if self.undo_allowed else []
        refused = None
        if not self.undo_allowed:
            refused = {"code": "undo_off", "message": "the game's creator turned undo off"}
        elif not actions:
            why = self.ledger.refusal(seat)
            refused = None if why is None else {"code": why.reason, "message": str(why), **why.facts}
        undo: dict[str, Any] = {"actions": actions, "refused": refused}
        if actions and self.undo_until is not None:
            undo["until"] = self.undo_until
        return {"can_undo": bool(actions), "undo": undo}


def first_frame(state: pg.GameState, undo_allowed: bool = True, display_log: bool = True) -> Frame:
    """A new game's frame at version 0 (``display_log=False``: frames that keep no display log,
    for a process that sends no states)."""
    tail = views.LogTail.of(state) if display_log else views.NO_LOG_TAIL
    return Frame(0, state, views.empty_history(state.config.players), None, tail, undo_allowed=undo_allowed)


def advance(frame: Frame, seat: int, action: pg.Action) -> Frame:
    """The next frame: the action applied to a copy (raises pg.IllegalAction, frame unchanged)."""
    state = frame.state.clone()
    round_before = state.round
    state.apply(action)
    events = new_events(state, frame.state)
    history = frame.history
    if state.round != round_before or state.is_over:
        history = {k: [row[:] for row in v] for k, v in history.items()}
        views.record_round(history, state)
    log_tail = frame.log_tail.extended(state, events)
    text = "; ".join(log_tail.last_text) if events else str(action)
    ledger = frame.ledger.acted(seat, action, frame.version, events)
    return Frame(frame.version + 1, state, history, {"seat": seat, "action": str(action), "text": text},
                 log_tail, ledger, frame.undo_allowed)


def new_events(state: pg.GameState, before: pg.GameState) -> list[tuple[Any, ...]]:
    """Log entries added since ``before`` (the log is a shared linked list: walk only the new part)."""
    return events_after(state._log, before._log)
