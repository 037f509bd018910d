"""Entry point of the `powergrid` command: each subcommand lives in its own module."""

from __future__ import annotations

import importlib

import typer

app = typer.Typer(help="Power Grid (Funkenschlag 2004): play, simulate, serve.", no_args_is_help=True,
                  add_completion=False)

#: Modules of this package that each add their command(s) to `app` when imported.
#: A module not written yet is skipped; any other import error surfaces.
COMMANDS = ("simulate", "show", "play", "tournament", "serve", "bots", "analyse")

_registered = False


def _register() -> None:
    global _registered
    if _registered:
        return
    for name in COMMANDS:
        module = f"{__package__}.{name}"
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
    _registered = True


def main() -> None:
    _register()
    app()
