"""The package's imports, read from its source with ``ast`` (nothing is imported).

Every ``import`` statement counts, wherever it stands: at the top, inside a function,
under ``if TYPE_CHECKING:``. A name is resolved to the module it names:
``from scorekeeper.web import error_pages`` imports ``scorekeeper.web.error_pages`` when that is
a module, and ``from scorekeeper.web.access import join`` imports
``scorekeeper.web.access``. Importing a module is not counted as importing the
packages above it: Python runs their ``__init__`` first, but that is no cycle of ours.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

# Top-level names whose imports are kept: our package, and the tests (which the
# package must never import).
OURS = frozenset({"scorekeeper", "tests"})


class Import(NamedTuple):
    """One import: the module that imports, where, and the module it names."""

    source: str
    line: int
    target: str


def module_of(path: Path, package: Path) -> str:
    """``…/scorekeeper/store/records.py`` → ``scorekeeper.store.records``."""
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def sources(package: Path) -> list[Path]:
    """The package's modules, without the migration scripts (Alembic loads those)."""
    return sorted(p for p in package.rglob("*.py") if "versions" not in p.parts)


def _named(node: ast.Import | ast.ImportFrom, here: str, is_package: bool,
           known: frozenset[str]) -> Iterator[str]:
    """The modules an import statement imports, made absolute: ``import a.b`` imports
    ``a.b``; ``from a import b`` imports ``a.b`` when that is a module, else ``a``."""
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
        return
    base = node.module or ""
    if node.level:
        parts = here.split(".") if is_package else here.split(".")[:-1]
        parts = parts[: len(parts) - node.level + 1]
        base = ".".join(parts + ([node.module] if node.module else []))
    for alias in node.names:
        yield f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base


def imports_of(path: Path, package: Path, known: frozenset[str]) -> list[Import]:
    """Every import of ours in the file at ``path``, resolved against ``known``."""
    here = module_of(path, package)
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            for name in _named(node, here, path.name == "__init__.py", known):
                if name.split(".")[0] in OURS:
                    found.append(Import(here, node.lineno, name))
    return sorted(set(found), key=lambda i: (i.line, i.target))


def all_imports(package: Path) -> list[Import]:
    """Every import of ours in every module of the package."""
    files = sources(package)
    known = frozenset(module_of(p, package) for p in files)
    return [found for path in files for found in imports_of(path, package, known)]


def cycles(imports: list[Import]) -> list[tuple[str, ...]]:
    """The groups of modules that import each other in a ring, each sorted: a module
    and every module it reaches that reaches it back (one importing itself counts)."""
    graph: dict[str, set[str]] = {}
    for found in imports:
        graph.setdefault(found.source, set()).add(found.target)
    reach = {module: _reached(graph, module) for module in graph}
    rings = {tuple(sorted(other for other in reach[module] if module in reach.get(other, ())))
             for module in graph if module in reach[module]}
    return sorted(rings)


def _reached(graph: dict[str, set[str]], start: str) -> set[str]:
    """Every module ``start`` imports, directly or through others."""
    seen: set[str] = set()
    todo = list(graph.get(start, ()))
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo.extend(graph.get(module, ()))
    return seen
