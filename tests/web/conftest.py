"""Browser tests: a real `powergrid serve` on a free port (temp SQLite) driven by headless Chromium."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("POWERGRID_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
#: screenshots are for people looking at the pages (POWERGRID_SCREENSHOTS=1); the tests' checks read
#: the page itself, and a software-drawn screenshot costs a fifth of a second of CI's two cores
TAKE_SCREENSHOTS = os.environ.get("POWERGRID_SCREENSHOTS") == "1"

sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
pytest.importorskip("uvicorn", reason="the server extra (powergrid[server]) is not installed")
if not Path(CHROMIUM).exists():
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install -y chromium, or set POWERGRID_CHROMIUM)",
                allow_module_level=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def serving(folder: Path, env: dict[str, str] | None = None) -> Iterator[str]:
    """A `powergrid serve` on a free port with its SQLite database in ``folder``; its address."""
    port = free_port()
    database = folder / "games.db"
    log = (folder / "server.log").open("w")
    command = [sys.executable, "-c", "from powergrid.cli.main import main; main()", "serve",
               "--port", str(port), "--database-url", f"sqlite:///{database}"]
    # one browser plays many games from one address here: the per-client limits (tested in
    # tests/server/test_limits.py) would refuse the later ones; bots answer at once (the undo
    # window against bots has its own server in test_browser_undo.py); and hints and analyses
    # search at the fast level: the pages show them the same, for a quarter of the calls
    server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT,
                              env={**os.environ, "POWERGRID_LIMITS": "0", "POWERGRID_UNDO_WINDOW_MS": "0",
                                   "POWERGRID_HINT_LEVEL": "fast", "POWERGRID_ANALYSIS_LEVEL": "fast",
                                   **(env or {})})
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            if server.poll() is not None:
                pytest.fail(f"powergrid serve exited: {(folder / 'server.log').read_text()}")
            try:
                with urllib.request.urlopen(f"{url}/api/maps", timeout=1) as reply:
                    json.load(reply)
                break
            except OSError:
                time.sleep(0.1)
        else:
            pytest.fail("powergrid serve did not answer within 20 s")
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


@pytest.fixture(scope="package")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serving(tmp_path_factory.mktemp("web")) as url:
        yield url


# the package's scope, not the session's: the browser closes after the last browser test of a
# worker, and with it Playwright's event loop (tests/conftest.py runs the browser tests first)
@pytest.fixture(scope="package")
def browser() -> Iterator[object]:
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture()
def new_page(browser):  # type: ignore[no-untyped-def]
    """Pages in fresh browser contexts (own localStorage), each collecting its script errors.

    They ask for less motion (prefers-reduced-motion), as a person may: the pages then draw no
    glows or pulses, which in a software-drawn headless browser cost a third of a game's CPU.
    ``motion=True`` gives a page with them (test_browser_motion.py checks both)."""
    contexts = []

    def make(width: int = 1366, height: int = 768, motion: bool = False):  # type: ignore[no-untyped-def]
        context = browser.new_context(viewport={"width": width, "height": height},
                                      reduced_motion="no-preference" if motion else "reduce")
        contexts.append(context)
        page = context.new_page()
        page.script_errors = []
        page.on("pageerror", lambda error: page.script_errors.append(str(error)))
        page.set_default_timeout(20_000)
        return page

    yield make
    for context in contexts:
        context.close()


def screenshot(page, name: str, folder: Path = SCREENSHOTS) -> Path:  # type: ignore[no-untyped-def]
    """The page as it looks, in ``folder`` (when POWERGRID_SCREENSHOTS=1)."""
    path = folder / f"{name}.png"
    if TAKE_SCREENSHOTS:
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(path))
    return path
