"""`powergrid show`: a saved game's log in words, then the standings."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

import powergrid as pg

from .common import GameFileError, console, fail, load_game
from .main import app


def log_line(line: str) -> Text:
    """One log entry, styled by what it announces."""
    if line.startswith("Round "):
        return Text(f"\n── {line} ──", style="bold reverse")
    if line.startswith("Phase "):
        return Text(line, style="bold cyan")
    if line.startswith(("Step ", "The Step 3 card")):
        return Text(line, style="bold magenta")
    if line.startswith("Game over"):
        return Text(line, style="bold green")
    if line.startswith(("New game", "Player order", "Resupply")):
        return Text(line, style="yellow")
    if line.startswith("Plant "):
        return Text(line, style="dim")
    return Text(line)


def standings(state: pg.GameState) -> Table:
    """Seats ranked as the winner rule ranks them: powered cities, then money, then cities."""
    powered = [state.powerable(p) if state.is_over else state.powered[p] for p in range(state.players)]
    ranked = sorted(range(state.players),
                    key=lambda p: (-powered[p], -state.money[p], -len(state.cities[p]), p))
    title = "Final standings" if state.is_over else (
        f"Standings in round {state.round}, step {state.step}, phase {state.phase_name}")
    table = Table(title=title, title_style="bold")
    table.add_column("seat")
    table.add_column("cities", justify="right")
    table.add_column("powered" if state.is_over else "powered last", justify="right")
    table.add_column("money", justify="right")
    table.add_column("plants")
    table.add_column("resources")
    table.add_column("")
    for p in ranked:
        coal, oil, garbage, uranium = state.resources_of(p)
        stock = ", ".join(f"{n} {name}" for n, name in
                          ((coal, "coal"), (oil, "oil"), (garbage, "garbage"), (uranium, "uranium")) if n)
        won = p in state.winners
        table.add_row(f"P{p}", str(len(state.cities[p])), str(powered[p]), str(state.money[p]),
                      " ".join(f"{x:02d}" for x in state.plants[p]), stock or "-",
                      Text("winner", style="bold green") if won else "",
                      style="bold" if won else None)
    return table


@app.command()
def show(
    game_file: Annotated[Path, typer.Argument(help="A game record (simulate --save) or a saved state.")],
    tail: Annotated[int | None, typer.Option(min=0, help="Show only the last N log lines.")] = None,
) -> None:
    """Print a saved game's log in words, then the standings."""
    try:
        state = load_game(game_file)
    except GameFileError as exc:
        fail(str(exc))
    lines = state.log
    if tail is not None:
        lines = lines[len(lines) - tail:] if tail else []
    for line in lines:
        console.print(log_line(line))
    console.print()
    console.print(f"{state.scn.map.name}, {state.players} players, regions {', '.join(state.regions)}; "
                  f"{state.decisions} decisions, round {state.round}, step {state.step}")
    console.print(standings(state))
