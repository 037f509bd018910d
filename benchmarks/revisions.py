"""Modules of ``powergrid`` as they were at an earlier git revision, run on today's engine.

Benchmarks that measure new code against the code it replaced load the old modules from the
repository's history instead of keeping copies in the tree::

    old = load("cd1fcb8", ["bots.heuristic", "bots.search", "rules.view"])
    HeuristicBefore = old["bots.heuristic"].HeuristicBot

Each named module's source is read with ``git show REV:src/powergrid/<path>.py`` and imported
under a package of its own (``powergrid_at_<commit>_<set>``), so it never replaces today's module.
Every other module it imports, relatively or not, is today's: ``from ..rules import Action``
in an old bot gives the current engine's ``Action``. That is what a comparison of bots wants
(the same engine under both, only the named modules old); name an engine module too
(``rules.view``) to take that one from the revision as well. The revision must be in this
clone's history (a shallow clone may need ``git fetch --unshallow``).
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import linecache
import pkgutil
import subprocess
import sys
import types
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

#: the bots and views before issue 12 (the speed passes): the heuristic and plan search as
#: they were, and a view that copies and masks the whole state on every call
BEFORE_ISSUE_12 = "cd1fcb8296f727ad95784e13f79f11ceaed5fc25"
#: the heuristic before its fifth speed pass, which raised by one in auctions
HEURISTIC_V4 = "6ec1397ad464eb222249d7d1969f9c2a39bfac9f"


class RevisionError(RuntimeError):
    """The revision or a module in it cannot be read from git."""


def commit_of(rev: str) -> str:
    """The full commit hash that ``rev`` names in this repository."""
    found = _git("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    if not found:
        raise RevisionError(f"{rev!r} names no commit in {ROOT} (a shallow clone? git fetch --unshallow)")
    return found.strip()


def source_at(commit: str, module: str) -> str:
    """The source of ``powergrid.<module>`` at ``commit``."""
    path = f"src/powergrid/{module.replace('.', '/')}.py"
    text = _git("show", f"{commit}:{path}")
    if text is None:
        raise RevisionError(f"{path} is not in revision {commit[:12]}")
    return text


def load(rev: str, modules: Sequence[str]) -> dict[str, types.ModuleType]:
    """``powergrid.<name>`` for each name in ``modules`` (e.g. ``"bots.heuristic"``) as it was
    at ``rev``, imported on today's engine; loading the same revision again returns the same
    modules."""
    commit = commit_of(rev)
    old = set(modules)
    # one package per revision and set of old modules: an old module is never imported from a
    # package where today's module of that name stands (nor the other way round)
    alias = f"powergrid_at_{commit[:12]}_{zlib.crc32(' '.join(sorted(old)).encode()):08x}"
    if not all(f"{alias}.{name}" in sys.modules for name in old):
        _install(alias, commit, old)
    return {name: importlib.import_module(f"{alias}.{name}") for name in modules}


@dataclass(frozen=True)
class OldBots:
    """The heuristic and plan-search bot classes and the view maker of a revision."""

    HeuristicBot: Any
    SearchBot: Any
    view: Callable[[Any, int], Any]


def old_bots(rev: str = BEFORE_ISSUE_12) -> OldBots:
    """The bots and views at ``rev``, a revision whose rules/view.py still masks a whole copy of
    the state (``_mask(state)``, as before issue 12)."""
    old = load(rev, ["bots.heuristic", "bots.search", "rules.view"])
    mask = getattr(old["rules.view"], "_mask", None)
    if mask is None or mask.__code__.co_argcount != 1:
        raise RevisionError(f"rules/view.py at {rev} has no _mask(state): give a revision before 742d1a5")
    from powergrid.rules import GameView

    def view(state: Any, seat: int) -> Any:
        return GameView(mask(state), seat)

    return OldBots(old["bots.heuristic"].HeuristicBot, old["bots.search"].SearchBot, view)


def _install(alias: str, commit: str, old: set[str]) -> None:
    # Packages that hold an old module are new, empty packages (so that importing the old
    # module never sets an attribute on today's package); their other names, and every other
    # module, are today's.
    parts = [name.split(".") for name in old]
    packages = {".".join(p[:i]) for p in parts for i in range(1, len(p))}
    for top in {name.split(".")[0] for name in packages}:
        _import_all(f"powergrid.{top}")
    for name, module in list(sys.modules.items()):
        if name.startswith("powergrid.") and module is not None:
            rest = name.removeprefix("powergrid.")
            if rest not in old and rest not in packages:
                sys.modules.setdefault(f"{alias}.{rest}", module)
    for rest in ["", *sorted(packages)]:
        today = importlib.import_module("powergrid" + (f".{rest}" if rest else ""))
        package = types.ModuleType(alias + (f".{rest}" if rest else ""))
        package.__dict__.update({key: value for key, value in vars(today).items()
                                 if not key.startswith("__") and not isinstance(value, types.ModuleType)})
        package.__path__ = []
        package.__package__ = package.__name__
        sys.modules.setdefault(package.__name__, package)
    sys.meta_path.insert(0, _Finder(alias, commit, old))


def _import_all(package_name: str) -> None:
    package = importlib.import_module(package_name)
    for info in pkgutil.walk_packages(package.__path__, package_name + "."):
        importlib.import_module(info.name)


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds the old modules under ``alias`` and runs their source from git."""

    def __init__(self, alias: str, commit: str, old: set[str]) -> None:
        self.alias, self.commit, self.old = alias, commit, old

    def find_spec(self, fullname: str, path: object = None,
                  target: object = None) -> importlib.machinery.ModuleSpec | None:
        rest = fullname.removeprefix(self.alias + ".")
        if rest == fullname or rest not in self.old:
            return None
        return importlib.machinery.ModuleSpec(fullname, self, origin=self._filename(rest))

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None

    def exec_module(self, module: types.ModuleType) -> None:
        rest = module.__name__.removeprefix(self.alias + ".")
        source = source_at(self.commit, rest)
        filename = self._filename(rest)
        # tracebacks and profilers show the old lines
        linecache.cache[filename] = (len(source), None, source.splitlines(keepends=True), filename)
        module.__file__ = filename
        exec(compile(source, filename, "exec"), module.__dict__)

    def _filename(self, rest: str) -> str:
        return f"{self.commit[:12]}:src/powergrid/{rest.replace('.', '/')}.py"


def _git(*args: str) -> str | None:
    try:
        done = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True, check=False)
    except FileNotFoundError as e:
        raise RevisionError("git is needed to load code from an earlier revision") from e
    return done.stdout if done.returncode == 0 else None
