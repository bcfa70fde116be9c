"""The package's layers: imports point one way, core ← store ← (web, api, cli).

Every ``scorekeeper`` module belongs to a layer by its folder. A module may import its
own layer and the layers below it; ``web`` and ``api`` sit side by side and never import
each other. The top of the package (``create_app``, the app-wide error pages, settings)
wires the layers together and may import any of them. The core imports no framework.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"
FRAMEWORKS = {"flask", "sqlalchemy", "flask_sqlalchemy", "wtforms", "flask_wtf", "werkzeug",
              "alembic", "flask_migrate", "itsdangerous", "jinja2", "markupsafe"}

# What each layer may import from the package, besides itself.
BELOW = {
    "core": set(),
    "store": {"core"},
    "web": {"core", "store"},
    "api": {"core", "store"},
    "cli": {"core", "store", "top"},
    "top": {"core", "store", "web", "api", "cli"},
}
SOURCES = sorted(p for p in PACKAGE.rglob("*.py") if "versions" not in p.parts)


def layer_of(module: str) -> str:
    """``scorekeeper.store.records`` → ``store``; the package's own modules → ``top``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in BELOW else "top"


def module_of(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def package_imports(path: Path) -> list[tuple[int, str]]:
    """Every ``scorekeeper`` module the file imports, made absolute, with its line."""
    module = module_of(path)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            # ``from scorekeeper import web`` imports the module scorekeeper.web
            found += [(node.lineno, f"{name}.{a.name}" if name == "scorekeeper" else name)
                      for a in node.names]
    return [(line, name) for line, name in found if name.split(".")[0] == "scorekeeper"]


def wrong_imports(path: Path) -> list[str]:
    """The imports in ``path`` that point the wrong way, as readable lines."""
    own = layer_of(module_of(path))
    allowed = BELOW[own] | {own}
    return [f"{path.relative_to(PACKAGE.parent)}:{line}: {own} imports {name} ({layer_of(name)})"
            for line, name in package_imports(path) if layer_of(name) not in allowed]


def test_every_layer_exists():
    for layer in ("core", "store", "web", "api", "cli"):
        assert (PACKAGE / layer / "__init__.py").is_file(), layer
    assert (PACKAGE / "core" / "engine" / "state.py").is_file()


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_point_down(path):
    assert wrong_imports(path) == []


def room_of(module: str) -> str | None:
    """``scorekeeper.web.hands.views`` → ``hands``: the web room (a package per user
    task) a module belongs to or names; None for the web layer's common modules."""
    parts = module.split(".")
    if len(parts) >= 3 and parts[:2] == ["scorekeeper", "web"]:
        return parts[2] if (PACKAGE / "web" / parts[2]).is_dir() else None
    return None


ROOM_SOURCES = sorted(p for p in (PACKAGE / "web").rglob("*.py")
                      if room_of(module_of(p)) and p.name != "__init__.py")


@pytest.mark.parametrize("path", ROOM_SOURCES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_web_rooms_do_not_import_each_other(path):
    """What two rooms need lives in a common web module (``web/board.py``…)."""
    own = room_of(module_of(path))
    assert [f"{line}: {name}" for line, name in package_imports(path)
            if room_of(name) not in (None, own)] == []


@pytest.mark.parametrize("path", sorted((PACKAGE / "core").rglob("*.py")),
                         ids=lambda p: str(p.relative_to(PACKAGE)))
def test_core_imports_no_framework(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import)
             for a in n.names}
    names |= {n.module.split(".")[0] for n in ast.walk(tree)
              if isinstance(n, ast.ImportFrom) and n.level == 0 and n.module}
    assert names & FRAMEWORKS == set()


@pytest.mark.parametrize(("where", "source", "complaint"), [
    ("core/bad.py", "from scorekeeper.store.models import Hand\n",
     "core imports scorekeeper.store.models"),
    ("core/bad.py", "from ..web import access\n", "core imports scorekeeper.web (web)"),
    ("store/bad.py", "from scorekeeper.api.common import api_error\n",
     "store imports scorekeeper.api.common"),
    ("web/bad.py", "from scorekeeper.api import replay\n", "web imports scorekeeper.api (api)"),
    ("api/bad.py", "from ..web.access import join\n", "api imports scorekeeper.web.access"),
    ("api/bad.py", "import scorekeeper.web.hands.form\n", "api imports scorekeeper.web.hands.form"),
    ("store/bad.py", "from scorekeeper import web\n", "store imports scorekeeper.web"),
])
def test_a_wrong_import_is_caught(tmp_path, monkeypatch, where, source, complaint):
    # The checker itself must fail on the imports it exists to forbid.
    fake = tmp_path / "scorekeeper"
    (fake / where).parent.mkdir(parents=True)
    (fake / where).write_text(source)
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", fake)
    (found,) = wrong_imports(fake / where)
    assert complaint in found


@pytest.mark.parametrize("source", [
    "from scorekeeper.core.cards import Card\n", "from .records import record_hand\n",
    "from scorekeeper.core.engine import Game\n",
])
def test_a_right_import_passes(tmp_path, monkeypatch, source):
    fake = tmp_path / "scorekeeper"
    (fake / "store").mkdir(parents=True)
    (fake / "store" / "ok.py").write_text(source)
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", fake)
    assert wrong_imports(fake / "store" / "ok.py") == []


def test_importing_the_core_loads_no_web_stack():
    # A fresh interpreter: this test process has Flask loaded already.
    code = ("import sys, pkgutil, importlib, scorekeeper.core as core\n"
            "for m in pkgutil.walk_packages(core.__path__, 'scorekeeper.core.'):\n"
            "    importlib.import_module(m.name)\n"
            f"print(sorted(m for m in sys.modules if m.split('.')[0] in {sorted(FRAMEWORKS)!r}))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=60)
    assert out.stdout.strip() == "[]"
