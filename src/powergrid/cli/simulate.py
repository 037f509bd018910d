"""`powergrid simulate`: play many bot games and summarise them."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

import powergrid as pg
from powergrid.bots import Bot, make_bot

from .common import BOTS_HELP, console, derive_seed, err_console, fail, game_record, write_json
from .main import app

#: Summary fields that depend on the machine, not on the games played.
TIMING_FIELDS = ("seconds", "games_per_s", "decisions_per_s")


@dataclass
class GameResult:
    rounds: int
    decisions: int
    winners: tuple[int, ...]
    winners_powered: list[int]


@dataclass
class Tally:
    players: int
    results: list[GameResult] = field(default_factory=list)

    def add(self, state: pg.GameState) -> None:
        self.results.append(GameResult(
            rounds=state.round, decisions=state.decisions, winners=state.winners,
            winners_powered=[state.powerable(w) for w in state.winners]))

    def summary(self, seconds: float) -> dict[str, Any]:
        results = self.results
        games = len(results)
        rounds = [r.rounds for r in results]
        decisions = sum(r.decisions for r in results)
        powered = [p for r in results for p in r.winners_powered]
        wins = [0] * self.players
        for r in results:
            for w in r.winners:
                wins[w] += 1
        return {
            "games": games,
            "rounds": {"mean": _mean(rounds), "min": min(rounds, default=0), "max": max(rounds, default=0)},
            "decisions": {"total": decisions, "mean": round(decisions / games, 2) if games else 0.0},
            "winners_powered_mean": _mean(powered),
            "wins_by_seat": wins,
            "shared_wins": sum(1 for r in results if len(r.winners) > 1),
            "seconds": round(seconds, 4),
            "games_per_s": round(games / seconds, 2) if seconds > 0 else 0.0,
            "decisions_per_s": round(decisions / seconds, 1) if seconds > 0 else 0.0,
        }


def _mean(values: list[int]) -> float:
    return round(sum(values) / len(values), 2) if values else 0.0


def seat_bots(specs: list[str], seed: int, game: int) -> tuple[list[Bot], list[dict[str, Any]]]:
    """One bot per seat, each seeded from the run's seed, the game number and the seat."""
    bots, described = [], []
    for seat, spec in enumerate(specs):
        bot_seed = derive_seed(seed, game, seat + 1)
        bots.append(make_bot(spec, bot_seed))
        described.append({"seat": seat, "bot": spec, "seed": bot_seed})
    return bots, described


def play_game(state: pg.GameState, bots: list[Bot]) -> pg.GameState:
    """Play to the end; each bot sees only its own seat's view."""
    while True:
        seat = state.current_player
        if seat is None:
            return state
        action = bots[seat].act(state.view(seat))
        state.apply(action)


def _bot_specs(bots: str, players: int) -> list[str]:
    specs = [b.strip() for b in bots.split(",") if b.strip()]
    if len(specs) == 1:
        specs *= players
    if len(specs) != players:
        fail(f"--bots names {len(specs)} bots for {players} players (give one name, or one per seat)")
    for spec in set(specs):
        try:
            make_bot(spec, 0)
        except ValueError as exc:
            fail(str(exc))
    return specs


@app.command()
def simulate(
    map_name: Annotated[str, typer.Option("--map", help="Map name (germany, usa) or a map JSON file.")]
    = "germany",
    players: Annotated[int, typer.Option("--players", "-p", help="Number of players, 2 to 6.")] = 4,
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Number of games to play.")] = 10,
    seed: Annotated[int, typer.Option(help="Seed of the run; each game and bot seed comes from it.")] = 1,
    bots: Annotated[str, typer.Option(help="Bot for every seat, or a comma-separated list, one per seat. "
                                          + BOTS_HELP)]
    = "random",
    regions: Annotated[str | None, typer.Option(help="Comma-separated regions in play (default: drawn "
                                                     "per game).")] = None,
    variant: Annotated[str, typer.Option(help="standard or first_game.")] = "standard",
    save: Annotated[Path | None, typer.Option(help="Write the first game's record to this JSON file.")]
    = None,
    save_dir: Annotated[Path | None, typer.Option(help="Write every game's record to this folder.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON (no progress bar).")]
    = False,
) -> None:
    """Play games between bots (random by default) and print a summary."""
    region_list = tuple(r.strip() for r in regions.split(",") if r.strip()) if regions else None
    try:
        map_file = map_name if map_name.endswith(".json") else None
        configs = [pg.GameConfig(map=map_name, players=players, seed=derive_seed(seed, g),
                                 regions=region_list, variant=variant, map_file=map_file)
                   for g in range(games)]
        pg.new_game(configs[0])  # validates the map and regions before the run starts
    except pg.PowerGridError as exc:
        fail(str(exc))
    specs = _bot_specs(bots, players)

    tally = Tally(players)
    progress = Progress(TextColumn("[bold]simulating"), BarColumn(), MofNCompleteColumn(),
                        TextColumn("games"), TimeRemainingColumn(), console=err_console,
                        disable=as_json, transient=True)
    started = time.perf_counter()
    with progress:
        task = progress.add_task("games", total=games)
        for g, config in enumerate(configs):
            game_bots, described = seat_bots(specs, seed, g)
            state = play_game(pg.new_game(config), game_bots)
            tally.add(state)
            if save_dir is not None:
                _save(save_dir / f"game-{g + 1:04d}.json", game_record(state, described))
            if save is not None and g == 0:
                _save(save, game_record(state, described))
            progress.advance(task)
    seconds = time.perf_counter() - started

    summary = tally.summary(seconds)
    summary = {"map": map_name, "players": players, "variant": variant, "seed": seed, "bots": specs,
               "regions": list(region_list) if region_list else None, **summary}
    if as_json:
        console.print_json(json.dumps(summary))
        return
    console.print(summary_table(summary))
    if save is not None:
        console.print(f"Saved the first game to {save}")
    if save_dir is not None:
        console.print(f"Saved {games} game(s) to {save_dir}/")


def _save(path: Path, record: dict[str, Any]) -> None:
    try:
        write_json(path, record)
    except OSError as exc:
        fail(f"cannot write {path}: {exc.strerror or exc}")


def summary_table(summary: dict[str, Any]) -> Table:
    bots = summary["bots"]
    who = bots[0] if len(set(bots)) == 1 else ", ".join(bots)
    table = Table(title=f"{summary['games']} games on {summary['map']}, {summary['players']} players, "
                        f"{who} bots, seed {summary['seed']}", show_header=False, title_style="bold")
    table.add_column(style="cyan")
    table.add_column(justify="right")
    r = summary["rounds"]
    table.add_row("games", str(summary["games"]))
    table.add_row("rounds (mean / min / max)", f"{r['mean']:.1f} / {r['min']} / {r['max']}")
    table.add_row("decisions per game (mean)", f"{summary['decisions']['mean']:.1f}")
    table.add_row("winners' powered cities (mean)", f"{summary['winners_powered_mean']:.2f}")
    wins = "  ".join(f"P{seat}: {n}" for seat, n in enumerate(summary["wins_by_seat"]))
    table.add_row("wins by seat", wins)
    table.add_row("shared wins", str(summary["shared_wins"]))
    table.add_row("games/s", f"{summary['games_per_s']:,.2f}")
    table.add_row("decisions/s", f"{summary['decisions_per_s']:,.0f}")
    return table
