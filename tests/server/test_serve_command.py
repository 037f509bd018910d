"""`powergrid serve` and `powergrid bots` refuse settings they cannot honour (the real server is
started in test_crash, real bot workers in test_bot_workers)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from powergrid.cli.main import _register, app


@pytest.fixture(autouse=True)
def _no_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("POWERGRID_REDIS_URL", raising=False)
    monkeypatch.delenv("POWERGRID_DATABASE_URL", raising=False)
    _register()


@pytest.mark.parametrize(("args", "words"), [
    (["--bot-workers", "-1", "--database-url", "sqlite:///x.db"], "cannot be negative"),
    (["--database-url", "mysql://root@localhost/test"], "unsupported database URL"),
    (["--workers", "0"], "at least 1"),
])
def test_serve_refuses(args: list[str], words: str) -> None:
    result = CliRunner().invoke(app, ["serve", *args])
    assert result.exit_code == 2
    assert words in result.output.replace("\n", " ")


@pytest.mark.parametrize(("args", "words"), [
    (["--lanes", "slow"], "quick and/or search"),
    (["--processes", "0"], "at least 1"),
    (["--database-url", "mysql://root@localhost/test"], "unsupported database URL"),
])
def test_bots_refuses(args: list[str], words: str) -> None:
    result = CliRunner().invoke(app, ["bots", *args])
    assert result.exit_code == 2
    assert words in result.output.replace("\n", " ")
