"""Entry point of the `powergrid` command: each subcommand lives in its own module."""

from __future__ import annotations

import typer

app = typer.Typer(help="Power Grid (Funkenschlag 2004): play, simulate, serve.", no_args_is_help=True,
                  add_completion=False)


def _register() -> None:
    from . import show, simulate  # noqa: F401  (each module adds its command to `app`)


def main() -> None:
    _register()
    app()
