"""`powergrid analyse`: who was winning after every round, and each player's costliest decisions."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from powergrid.coach.analysis import DEFAULT_LEVEL, Analysis, analyse
from powergrid.coach.hint import HINT_LEVELS
from powergrid.i18n import LANGUAGES, Translator, language_from_env, terms, translator

from .common import GameFileError, console, fail, load_game, record_players, write_json
from .main import app

BAR_WIDTH = 12


def chance_bar(chance: float) -> Text:
    filled = round(chance * BAR_WIDTH)
    bar = Text("█" * filled, style="green")
    bar.append("·" * (BAR_WIDTH - filled), style="dim")
    bar.append(f" {chance:4.0%}")
    return bar


def chances_table(analysis: Analysis, tr: Translator) -> Table:
    table = Table(title=tr.gettext("Estimated chance to win at the start of each round"), title_style="bold")
    table.add_column(tr.gettext("round"), justify="right")
    for seat in range(analysis.players):
        table.add_column(tr.gettext("{player} (winner)", player=terms.seat(seat)) if seat in analysis.winners
                         else terms.seat(seat))
    last = len(analysis.chances) - 1
    for i, (round_no, chances) in enumerate(analysis.chances):
        label = tr.gettext("end") if i == last and analysis.winners else str(round_no)
        table.add_row(label, *(chance_bar(c) for c in chances))
    return table


def costliest_table(analysis: Analysis, tr: Translator) -> Table:
    table = Table(title=tr.gettext("Each player's costliest decisions (as the search judged them from that "
                                   "player's view)"), title_style="bold")
    table.add_column(tr.gettext("seat"))
    table.add_column(tr.gettext("round"), justify="right")
    table.add_column(tr.gettext("phase"))
    table.add_column(tr.gettext("what was done"))
    table.add_column(tr.gettext("what the search preferred"))
    table.add_column(tr.gettext("cost"), justify="right")
    for seat in range(analysis.players):
        worst = analysis.costliest(seat)
        if not worst:
            nothing = Text(tr.gettext("no decision cost a clear amount"), style="dim")
            table.add_row(terms.seat(seat), "", "", nothing, "", "")
        for d in worst:
            done, preferred = d.words.get(tr.lang, (d.done, d.preferred))
            table.add_row(terms.seat(seat), str(d.round), terms.phase(tr, d.phase), done, preferred,
                          Text(f"-{d.cost:.0%}" if d.cost >= 0.01 else f"-{d.cost:.1%}", style="bold red"))
        table.add_section()
    return table


@app.command(name="analyse")
def analyse_command(
    game_file: Annotated[Path, typer.Argument(help="A finished game record (play --save, simulate --save).")],
    seed: Annotated[int, typer.Option(help="Seed of the search's samples (same seed, same analysis).")] = 0,
    level: Annotated[str, typer.Option(help=f"Search level: {', '.join(HINT_LEVELS)}.")] = DEFAULT_LEVEL,
    json_out: Annotated[Path | None,
                        typer.Option("--json", help="Also write the analysis as JSON here.")] = None,
    lang: Annotated[str | None,
                    typer.Option(help=f"Language: {', '.join(LANGUAGES)} (default from LANG).")] = None,
) -> None:
    """Analyse a game: each player's chance to win after every round and three costliest decisions."""
    if level not in HINT_LEVELS:
        fail(f"no level {level!r}; levels: {', '.join(HINT_LEVELS)}")
    if lang is not None and lang not in LANGUAGES:
        fail(f"no language {lang!r}; languages: {', '.join(LANGUAGES)}")
    tr = translator(lang or language_from_env())
    try:
        state = load_game(game_file)
    except GameFileError as exc:
        fail(str(exc))
    actions = state.actions_taken()
    if len(actions) != state.decisions:
        fail(f"{game_file}: a saved state without its whole action log cannot be analysed")
    with Progress(TextColumn(tr.gettext("judging decisions")), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=console, transient=True) as bar:
        task = bar.add_task("analyse", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        result = analyse(state.config, actions, seed=seed, level=level, progress=progress,
                         players=record_players(game_file, state.players))
    heading = tr.ngettext("{map}, {players} players, {n} round", "{map}, {players} players, {n} rounds",
                          state.round, map=state.scn.map.name, players=state.players)
    console.print(heading if state.is_over else tr.gettext("{game} (not finished)", game=heading))
    console.print(chances_table(result, tr))
    console.print(costliest_table(result, tr))
    judged = tr.ngettext("{n} decision judged at level {level}, seed {seed}; a cost is shown when "
                         "it is at least 1 point and more than twice its sampling error.",
                         "{n} decisions judged at level {level}, seed {seed}; a cost is shown when "
                         "it is at least 1 point and more than twice its sampling error.",
                         len(result.decisions), level=level, seed=seed)
    console.print(Text(judged, style="dim"))
    if json_out is not None:
        write_json(json_out, result.to_dict())
        console.print(tr.gettext("analysis written to {path}", path=str(json_out)))


