"""`hint` at a terminal prompt: the coach's advice for the seat to act, from its view only."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..coach import Hint, hint
from ..i18n import N_, _, current, pgettext
from ..rules import GameState
from .names import money


def ask_coach(state: GameState, seat: int, seed: int, level: str = "default",
              players: Sequence[str | None] | None = None) -> Hint:
    """The hint for ``seat`` (its view only; the seed makes it repeatable; ``players``: the bot in
    each seat, None for a person, weighed in the chances shown)."""
    return hint(state.view(seat), seed=seed, level=level, lang=current().lang, players=players)


def hints_in_record(data: Any, players: int) -> dict[int, int]:
    """The hints each seat used, from a saved game's ``"hints"`` (malformed entries are ignored)."""
    hints = data.get("hints") if isinstance(data, dict) else None
    if not isinstance(hints, dict):
        return {}
    out = {}
    for seat, n in hints.items():
        if isinstance(seat, str) and seat.isdigit() and int(seat) < players and isinstance(n, int) and n > 0:
            out[int(seat)] = n
    return out


def percent(chance: float) -> str:
    """A chance as a whole percentage: ``34%``."""
    return pgettext("percent", "{n}%", n=round(chance * 100))


#: said under the choices when one the coach ranks lower shows a higher chance than the one above it
#: (docs/coach.md)
WEIGHED = N_("Ranked by the chance to win and by where the plan leaves you against the best rival, in "
             "Elektro: a higher chance can come with a weaker position.")


def standing(score: float) -> str:
    """A plan's position against the best rival after the look-ahead: ``+12 E``, ``−34 E`` (a
    minus sign, as the plus is one)."""
    amount = round(score)
    return ("+" if amount > 0 else "−" if amount < 0 else "") + money(abs(amount))


def out_of_order(chances: list[float]) -> bool:
    """Whether a plan ranked lower shows a higher chance to win than the one just above it (by more
    than the half percent the table rounds away): the table then says why."""
    return any(later > earlier + 0.005 for earlier, later in itertools.pairwise(chances))


def hint_panel(advice: Hint) -> Panel:
    """The suggestion, its reason, and the next best choices with their chances to win."""
    head = Text(_("Suggested: "), style="bold")
    head.append(str(advice.action), style="bold green")
    chance = _("(estimated chance to win {percent})", percent=percent(advice.win_chance))
    head.append("   " + chance, style="dim")
    parts: list[Text | Table] = [head, Text(advice.reason)]
    if advice.alternatives:
        table = Table(show_header=True, header_style="dim", box=None, padding=(0, 2))
        table.add_column(pgettext("column", "plan"))
        table.add_column(pgettext("column", "starts with"))
        table.add_column(pgettext("column", "chance to win"), justify="right")
        table.add_column(pgettext("column", "against the best rival"), justify="right")
        if advice.best is not None:
            table.add_row(Text(advice.best.plan, style="green"), str(advice.best.action),
                          percent(advice.best.win_chance), standing(advice.best.score))
        for choice in advice.alternatives:
            table.add_row(choice.plan, str(choice.action), percent(choice.win_chance), standing(choice.score))
        parts.append(table)
        best = advice.best.win_chance if advice.best is not None else advice.win_chance
        if out_of_order([best, *(choice.win_chance for choice in advice.alternatives)]):
            parts.append(Text(_(WEIGHED), style="dim"))
    return Panel(Group(*parts), title=_("hint"), border_style="green")
