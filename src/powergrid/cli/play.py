"""`powergrid play`: people against bots (or each other, hot-seat) in the terminal."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

import powergrid as pg
from powergrid.bots import bot_names, make_bot
from powergrid.i18n import LANGUAGES, _, language_from_env, ngettext, use
from powergrid.sim.records import HUMAN, Seat, load_game_record
from powergrid.sim.seeds import bot_seed
from powergrid.tui import Session

from .common import BOTS_HELP, GameFileError, fail, load_timeline
from .main import app


def default_bot() -> str:
    return "heuristic" if "heuristic" in bot_names() else "random"


def make_seats(players: int, humans: int, bots: str | None, seed: int) -> list[Seat]:
    """Humans in the first seats, then one bot per remaining seat (one name fills them all)."""
    if not 0 <= humans <= players:
        fail(f"--humans must be 0 to {players}, not {humans}")
    specs = [b.strip() for b in (bots or default_bot()).split(",") if b.strip()]
    left = players - humans
    if len(specs) == 1:
        specs *= left
    if len(specs) != left:
        fail(f"--bots names {len(specs)} bots for the {left} seats without a human "
             "(give one name for all, or one per seat)")
    for spec in dict.fromkeys(specs):
        try:
            make_bot(spec, 0)
        except ValueError as exc:
            fail(str(exc))
    seats = [Seat(s, HUMAN) for s in range(humans)]
    seats += [Seat(humans + i, spec, bot_seed(seed, 0, humans + i)) for i, spec in enumerate(specs)]
    return seats


def resume(path: Path) -> tuple[pg.Timeline, list[Seat] | None]:
    """The saved game replayed (with its log), and who sat where (None if the file does not say)."""
    try:
        timeline = load_timeline(path)
    except GameFileError as exc:
        fail(str(exc))
    state = timeline.state
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("format") != "powergrid.game" or not data.get("bots"):
        return timeline, None
    try:
        seats = load_game_record(data).seats
    except pg.PowerGridError as exc:
        fail(f"{path}: {exc}")
    if sorted(s.seat for s in seats) != list(range(state.players)):
        fail(f"{path}: the record's seats do not match its {state.players} players")
    for seat in seats:
        if not seat.is_human:
            try:
                make_bot(seat.spec, 0)
            except ValueError as exc:
                fail(f"{path}: {exc}")
    return timeline, seats


@app.command()
def play(
    map_name: Annotated[str, typer.Option("--map", help="Map name (germany, usa) or a map JSON file.")]
    = "germany",
    players: Annotated[int, typer.Option("--players", "-p", help="Number of players, 2 to 6.")] = 4,
    bots: Annotated[str | None, typer.Option(help="Bots for the seats without a human: one name for all, "
                                                  "or a comma-separated list (default: heuristic). "
                                                  + BOTS_HELP)] = None,
    humans: Annotated[int, typer.Option(help="People playing at this terminal (hot-seat).")] = 1,
    seed: Annotated[int | None, typer.Option(help="Game seed (default: random).")] = None,
    regions: Annotated[str | None, typer.Option(help="Comma-separated regions in play.")] = None,
    variant: Annotated[str, typer.Option(help="standard or first_game (short: ends at 7 cities).")]
    = "standard",
    save: Annotated[Path | None, typer.Option(help="Save the game to this file after every action.")] = None,
    resume_file: Annotated[Path | None, typer.Option("--resume", help="Continue a game saved with --save "
                                                                      "(and keep saving to it).")] = None,
    lang: Annotated[str | None, typer.Option("--lang", help=f"Language: {', '.join(LANGUAGES)} "
                                                            "(default: from LANG).")] = None,
    join: Annotated[str | None, typer.Option("--join", help="Play a seat of a game on a server: its seat "
                                                            "link (http://host:8000/game/<id>#seat=1&token=…).")]
    = None,
    server: Annotated[str | None, typer.Option(help="With --join: the server's address, for a link "
                                                    "without one (/game/<id>#seat=…).")] = None,
    name: Annotated[str | None, typer.Option(help="With --join: your name at the table (1 to 24 "
                                                  "characters).")] = None,
) -> None:
    """Play Power Grid in the terminal against bots, hot-seat with friends, or online (--join)."""
    if lang is not None and lang not in LANGUAGES:
        fail(f"--lang must be one of {', '.join(LANGUAGES)}, not {lang!r}")
    use(lang or language_from_env())
    console = Console(highlight=False)
    if join is not None:
        raise typer.Exit(play_online(console, join, server, name, lang or language_from_env()))
    if server is not None or name is not None:
        fail("--server and --name go with --join")
    if resume_file is not None:
        timeline, seats = resume(resume_file)
        state = timeline.state
        if seats is None:
            seats = make_seats(state.players, humans, bots, state.config.seed)
        save = save or resume_file
        console.print(ngettext("Resuming {path}: round {round}, {n} action played.",
                               "Resuming {path}: round {round}, {n} actions played.", state.decisions,
                               path=str(resume_file), round=state.round))
    else:
        if seed is None:
            seed = random.SystemRandom().randrange(1 << 31)
        region_list = tuple(r.strip() for r in regions.split(",") if r.strip()) if regions else None
        try:
            config = pg.GameConfig(map=map_name, players=players, seed=seed, regions=region_list,
                                   variant=variant, map_file=map_name if map_name.endswith(".json") else None)
            state = pg.new_game(config)
        except pg.PowerGridError as exc:
            fail(str(exc))
        seats = make_seats(players, humans, bots, seed)
        timeline = pg.Timeline.starting_at(state)
        console.print(_("New game, seed {seed}; saving to {path}.", seed=str(seed), path=str(save)) if save
                      else _("New game, seed {seed}.", seed=str(seed)))
        console.print(_("Type 'help' at any prompt."))
    session = Session(timeline, seats, console, save_path=save)
    if resume_file is not None:
        from powergrid.tui.coach import hints_in_record
        saved = json.loads(resume_file.read_text(encoding="utf-8"))
        session.hints_used = hints_in_record(saved, state.players)
    session.save()
    session.print_log(last=0)
    session.run()


def play_online(console: Console, link: str, server: str | None, name: str | None, lang: str) -> int:
    """One seat of a server's game at this terminal (powergrid.tui.online); the exit status."""
    from powergrid.tui.online import OnlineSession
    from powergrid.tui.remote import BadLink, Remote, parse_seat_link
    try:
        seat_link = parse_seat_link(link, server)
    except BadLink as exc:
        fail(str(exc))
    try:
        remote = Remote(seat_link, lang)
    except RuntimeError as exc:
        fail(str(exc))
    return OnlineSession(remote, console).run(name)
