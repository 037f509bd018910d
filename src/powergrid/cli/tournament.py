"""`powergrid tournament`: many games between bots, with seats rotated; a table, JSON and plots."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

import powergrid as pg
from powergrid.bots import make_bot
from powergrid.sim import BACKENDS, BotSummary, GameResult, Tournament, run_tournament
from powergrid.sim import ratings as rating_fit
from powergrid.sim.backends import default_workers

from .common import BOTS_HELP, console, err_console, fail, write_json
from .main import app


def bot_list(bots: str, players: int | None) -> list[str]:
    """One bot spec per seat: a comma-separated list, or one name for every seat."""
    specs = [b.strip() for b in bots.split(",") if b.strip()]
    if not specs:
        fail("--bots names no bot")
    if players is not None and len(specs) == 1:
        specs *= players
    if players is not None and len(specs) != players:
        fail(f"--bots names {len(specs)} bots for {players} players (give one name, or one per seat)")
    for spec in dict.fromkeys(specs):
        try:
            make_bot(spec, 0)
        except ValueError as exc:
            fail(str(exc))
    return specs


def summary_table(tournament: Tournament, summaries: list[BotSummary]) -> Table:
    config = tournament.config
    played = len(tournament.results) - len(tournament.failures)
    table = Table(title=f"{played} games on {config.map}, {config.players} players, seed {tournament.seed}"
                        + (f", {config.variant}" if config.variant != "standard" else ""),
                  title_style="bold", caption=f"par win rate {100 / config.players:.0f}%; a shared win "
                                              "counts 1/n to each winner; games = seats played")
    for name, justify in (("bot", "left"), ("games", "right"), ("wins", "right"), ("win rate", "right"),
                          ("95% interval", "right"), ("powered", "right"), ("money", "right"),
                          ("Elo", "right")):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for s in summaries:
        low, high = s.interval
        wins = f"{s.wins:.0f}" if s.wins == int(s.wins) else f"{s.wins:.2f}"
        table.add_row(s.spec, str(s.games), wins, f"{100 * s.win_rate:.1f}%",
                      f"{100 * low:.1f}–{100 * high:.1f}%", f"{s.mean_powered:.2f}", f"{s.mean_money:.1f}",
                      f"{s.elo:.0f}")
    return table


def ratings_of(tournament: Tournament) -> list[rating_fit.Rating]:
    """Ratings of the bots (first-place Plackett-Luce over every game, powergrid.sim.ratings);
    the first bot named is 0."""
    names = list(dict.fromkeys(tournament.bots))
    return rating_fit.ratings(rating_fit.tables_of(tournament.results), names, resamples=100)


def ratings_table(rated: list[rating_fit.Rating]) -> Table:
    table = Table(title="Ratings (every place of every game; first bot named = 0)", title_style="bold",
                  caption="a bot of rating r wins a table with weight exp(r); Elo scale: 1500 + 174 r")
    for name in ("bot", "rating", "95% interval", "Elo"):
        table.add_column(name, justify="left" if name == "bot" else "right")
    for r in rated:
        table.add_row(r.bot, f"{r.rating:+.2f}", f"{r.low:+.2f} to {r.high:+.2f}", f"{r.elo:.0f}")
    return table


def write_results(tournament: Tournament, out: Path, plots: bool) -> list[Path]:
    """results.json, a record per game under games/, and the PNG plots; returns the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    written = [out / "results.json"]
    write_json(written[0], tournament.to_dict())
    games_dir = out / "games"
    games_dir.mkdir(exist_ok=True)
    for result in tournament.results:
        write_json(games_dir / f"game-{result.index:04d}.json", result.to_dict())
    written.append(games_dir)
    summaries = tournament.summary()
    if plots and any(s.games for s in summaries):
        from powergrid.sim.plots import plot_by_round, plot_win_rates
        config = tournament.config
        title = (f"{', '.join(tournament.bots)} on {config.map}, {config.players} players, "
                 f"{len(tournament.results) - len(tournament.failures)} games")
        try:
            written.append(plot_win_rates(summaries, config.players, out / "win_rates.png", title))
            written.append(plot_by_round(summaries, out / "by_round.png", title))
        except RuntimeError as exc:  # matplotlib missing: the results still stand
            err_console.print(f"[yellow]no plots:[/] {exc}")
    return written


def _first_line(result: GameResult) -> str:
    return (result.error or "").splitlines()[0]


@app.command()
def tournament(
    bots: Annotated[str, typer.Option(help="Comma-separated bots, one per seat (rotated game by game), "
                                           "or one name for every seat. " + BOTS_HELP)] = "random",
    players: Annotated[int | None, typer.Option("--players", "-p", help="Players (default: one per bot).")]
    = None,
    map_name: Annotated[str, typer.Option("--map", help="Map name (germany, usa) or a map JSON file.")]
    = "germany",
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Number of games.")] = 100,
    seed: Annotated[int, typer.Option(help="Master seed: every game and bot seed derives from it.")] = 1,
    workers: Annotated[int | None, typer.Option(min=1, help="Worker processes (default: the CPU count, "
                                                            "at most 8).")] = None,
    backend: Annotated[str, typer.Option(help="local (process pool) or ray.")] = "local",
    address: Annotated[str | None, typer.Option(help="Ray cluster address (default: a local Ray).")]
    = None,
    regions: Annotated[str | None, typer.Option(help="Comma-separated regions in play (default: drawn "
                                                     "per game).")] = None,
    variant: Annotated[str, typer.Option(help="standard or first_game.")] = "standard",
    out: Annotated[Path, typer.Option(help="Folder for results.json, games/ and the PNG plots.")]
    = Path("tournament"),
    plots: Annotated[bool, typer.Option(help="Draw the PNG plots.")] = True,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON (no progress bar).")]
    = False,
) -> None:
    """Play a tournament between bots: win rates with 95% intervals, Elo, results.json and plots."""
    if backend not in BACKENDS:
        fail(f"unknown backend {backend!r}; the backends are {', '.join(BACKENDS)}")
    specs = bot_list(bots, players)
    region_list = tuple(r.strip() for r in regions.split(",") if r.strip()) if regions else None
    try:
        map_file = map_name if map_name.endswith(".json") else None
        config = pg.GameConfig(map=map_name, players=len(specs), regions=region_list, variant=variant,
                               map_file=map_file)
        pg.new_game(config)  # validates the map and regions before the run starts
    except pg.PowerGridError as exc:
        fail(str(exc))

    progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TextColumn("games"), TimeElapsedColumn(), TimeRemainingColumn(), console=err_console,
                        disable=as_json)
    failed = 0
    with progress:
        task = progress.add_task("tournament", total=games)

        def on_result(result: GameResult) -> None:
            nonlocal failed
            if not result.ok:
                failed += 1
                progress.update(task, description=f"tournament [red]({failed} failed)")
            progress.advance(task)

        try:
            result = run_tournament(config, specs, games, seed, backend=backend,
                                    workers=workers or default_workers(), address=address,
                                    on_result=on_result)
        except RuntimeError as exc:  # the ray backend without ray
            fail(str(exc))
    written = write_results(result, out, plots)
    summaries = result.summary()
    rated = ratings_of(result) if len(set(specs)) > 2 else []
    if as_json:
        console.print_json(json.dumps({"summary": [s.to_dict() for s in summaries],
                                       "ratings": [{"bot": r.bot, "rating": r.rating, "low": r.low,
                                                    "high": r.high, "elo": r.elo} for r in rated],
                                       "failures": [{"index": r.index, "error": _first_line(r)}
                                                    for r in result.failures]}))
    else:
        console.print(summary_table(result, summaries))
        if rated:
            console.print(ratings_table(rated))
        console.print("Wrote " + ", ".join(str(p) for p in written))
    for failure in result.failures:
        err_console.print(f"[red]game {failure.index} failed:[/] {_first_line(failure)}", soft_wrap=True)
    if result.failures:
        raise typer.Exit(1)
