"""Request bodies (Pydantic): unknown fields are refused, sizes are bounded."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

# Every integer a client sends is bounded by its range (a seat is 0-5, a game has at most
# tens of thousands of versions); anything else is a named 400/422, never parsed at length.
MAX_SEATS = 64
MAX_VERSION = 2**31


class SeatSpec(BaseModel):
    """A seat: a person (who gets a token) or a bot of a kind and level (``heuristic``, ``mcts:fast``)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    kind: Literal["human", "bot"]
    bot: str | None = Field(None, max_length=64, description="for kind 'bot': random, heuristic, mcts...")
    open: bool = Field(False, description="a human seat of a public game that anyone may take from "
                                          "the lobby (no link); other human seats are joined by their links")

    @model_validator(mode="after")
    def _bot_named(self) -> SeatSpec:
        if self.kind == "bot" and not self.bot:
            raise ValueError("a bot seat needs a bot name, e.g. \"random\" or \"heuristic\"")
        if self.kind == "human" and self.bot is not None:
            raise ValueError("a human seat has no bot")
        if self.kind == "bot" and self.open:
            raise ValueError("only a human seat can be open")
        return self


class TimeControlSpec(BaseModel):
    """A game's clock (games/clocks.py): none, live (a bank per player plus an increment per
    action) or correspondence (a deadline per turn plus a vacation allowance per player)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    kind: Literal["none", "live", "correspondence"] = "none"
    bank_s: float | None = Field(None, description="live: each player's time in seconds (10 to 14400; "
                                                   "default 480)")
    increment_s: float | None = Field(None, description="live: seconds added for each action (0 to 600; "
                                                        "default 15)")
    turn_s: float | None = Field(None, description="correspondence: seconds for each turn (60 to 14 days; "
                                                   "default 86400)")
    vacation_s: float | None = Field(None, description="correspondence: each player's vacation allowance in "
                                                       "seconds, drawn when a turn runs over (0 to 60 days; "
                                                       "default 7 days)")


class CreateGame(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    map: str = Field("germany", max_length=64, description="germany or usa")
    map_data: dict[str, Any] | None = Field(
        None, description="a custom map as data (the JSON object of a map file: regions, connections, "
                          "positions), validated; it replaces map. A file on the server is never named")
    players: int = Field(4, ge=0, lt=MAX_SEATS, description="2 to 6")
    regions: list[str] | None = Field(None, max_length=12,
                                      description="regions in play, or null for a random connected choice")
    variant: str = Field("standard", max_length=32, description="standard or first_game")
    seed: int | None = Field(None, ge=0, lt=2**63, description="null (the default): the server draws the "
                             "seed; a chosen seed makes the game 'seeded', which every seat is shown")
    public: bool = Field(False, description="false (private): only the seat links join; true: the lobby "
                                            "lists the game and its open seats")
    seats: list[SeatSpec] | None = Field(None, max_length=6, description="one per player; null: all human")
    hints: bool | None = Field(None, description="whether players may ask the coach for hints; "
                                                 "null: on, but off in a public game")
    hints_per_seat: int | None = Field(None, ge=0, le=50,
                                       description="hints each seat may ask for (default 10)")
    bot_pace_ms: int | None = Field(None, ge=0, le=60_000,
                                    description="pause before each bot move (bounded by the server); "
                                                "null: the server's default with a person seated, 0 without")
    allow_undo: bool = Field(True, description="whether players may take back their last actions until "
                                               "another player acts or new information comes out")
    undo_window_ms: int | None = Field(None, ge=0, le=30_000,
                                       description="after a person's action that may be taken back, how "
                                                   "long the bots wait before they move (the Undo "
                                                   "button counts it down); null: the server's setting "
                                                   "(POWERGRID_UNDO_WINDOW_MS, 5 s by default); 0: no wait")
    chat: bool = Field(True, description="whether the game has a chat (seats and spectators)")
    time_control: TimeControlSpec | None = Field(None, description="the players' clocks; null: none")
    stand_in: str | None = Field(None, max_length=64,
                                 description="the bot that plays a seat whose person left, ran out of "
                                             "time or (live clocks) lost their connection; default heuristic")


class PostAction(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    seat: int = Field(ge=0, lt=MAX_SEATS, description="the seat, 0 to players - 1")
    action: str = Field(max_length=300, description="action notation, e.g. 'bid 16' or 'build Köln'")
    version: int | None = Field(None, ge=0, lt=MAX_VERSION,
                                description="the version the client saw; a stale one is refused")


class PostSeat(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    seat: int = Field(ge=0, lt=MAX_SEATS, description="the seat, 0 to players - 1")


class PostUndo(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    seat: int = Field(ge=0, lt=MAX_SEATS, description="the seat, 0 to players - 1")
    version: int = Field(ge=0, lt=MAX_VERSION,
                         description="the version the client saw; a stale one is refused")
