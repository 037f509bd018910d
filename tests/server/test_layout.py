"""The server's layout: subpackages by domain in declared layers, imports only downward, no circles.

The graph is built from the source with ``ast`` (every import, those inside functions included).
A module may import its own package's modules and those of lower layers, never a higher layer's;
and no import chain, inside a package or across, comes back to where it started.
"""

from __future__ import annotations

import ast
from pathlib import Path

import powergrid.server

SERVER = Path(powergrid.server.__file__).parent
#: lowest first; each package may import only itself and those before it
LAYERS = ["common", "fanout", "storage", "games", "chat", "bots", "coach", "api"]


def module_name(path: Path) -> str:
    parts = path.relative_to(SERVER).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(("powergrid", "server", *parts))


def server_modules() -> dict[str, Path]:
    return {module_name(p): p for p in SERVER.rglob("*.py") if "migrations" not in p.parts}


def imports_of(path: Path, name: str, known: set[str]) -> set[str]:
    """The server modules ``path`` imports (absolute or relative, at top level or in a function)."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            # ``from package import module`` imports the module; ``from module import name`` the module
            targets = [f"{module}.{a.name}" if f"{module}.{a.name}" in known else module for a in node.names]
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name and target.startswith("powergrid.server."):
                found.add(target)
    return found


def layer_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[2] in LAYERS else None


def graph() -> dict[str, set[str]]:
    modules = server_modules()
    known = set(modules)
    return {name: imports_of(path, name, known) for name, path in modules.items()}


def test_every_server_module_lives_in_a_declared_package() -> None:
    loose = [name for name in server_modules() if name != "powergrid.server" and layer_of(name) is None]
    assert loose == [], f"modules outside the declared packages {LAYERS}: {loose}"
    for package in LAYERS:
        init = SERVER / package / "__init__.py"
        assert init.exists() and ast.get_docstring(ast.parse(init.read_text())), \
            f"{package}/__init__.py should say in a sentence what lives there"


def test_imports_only_go_down_the_layers() -> None:
    upward = []
    for name, targets in graph().items():
        here = layer_of(name)
        if here is None:
            continue  # powergrid.server itself: the package's wiring imports from the top
        for target in targets:
            there = layer_of(target)
            if there is not None and LAYERS.index(there) > LAYERS.index(here):
                upward.append(f"{name} -> {target}")
    assert upward == [], "imports from a lower layer to a higher one:\n" + "\n".join(sorted(upward))


def test_no_import_circles() -> None:
    edges = {name: {t for t in targets if t != "powergrid.server"} for name, targets in graph().items()
             if name != "powergrid.server"}
    # every import of a package's __init__ also runs the package's parent inits: ignore those
    # (they hold only docstrings, and powergrid.server's wiring is tested by the layering above)
    state: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                circles.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node)
    assert circles == [], "import circles:\n" + "\n".join(" -> ".join(c) for c in circles)


def test_the_checker_sees_relative_imports_of_modules_and_of_names(tmp_path: Path) -> None:
    source = "from ..api import app\nfrom .b import x\nfrom ..common.errors import ApiError\n"
    (tmp_path / "a.py").write_text(source)
    found = imports_of(tmp_path / "a.py", "powergrid.server.games.a",
                       {"powergrid.server.api.app", "powergrid.server.games.b", "powergrid.server.api",
                        "powergrid.server.common.errors"})
    assert found == {"powergrid.server.api.app", "powergrid.server.games.b", "powergrid.server.common.errors"}


def test_the_server_finds_the_browser_client_it_serves(tmp_path: Path) -> None:
    # moving the app into api/ once pointed it at a folder that does not exist: the pages fell back
    # to a placeholder and every script was a 404
    from fastapi.testclient import TestClient

    from powergrid.server import Settings, create_app
    from powergrid.server.common.limits import Limits

    app = create_app(Settings(database_url=f"sqlite:///{tmp_path}/g.db", redis_url=None,
                              limits=Limits(enabled=False)))
    with TestClient(app) as client:
        for page in ("/", "/replay"):
            r = client.get(page)
            assert r.status_code == 200 and "not installed" not in r.text and "<script" in r.text
        assert client.get("/static/js/common.js").status_code == 200
