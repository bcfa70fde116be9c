"""The core is pure (STYLE.md principle 1): no web or database framework in it."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"
FORBIDDEN = {"flask", "sqlalchemy", "flask_sqlalchemy", "wtforms", "flask_wtf"}
CORE = sorted(
    [PACKAGE / name for name in ("cards.py", "sheets.py", "scoring.py", "deal.py")
     if (PACKAGE / name).exists()]
    + list((PACKAGE / "engine").rglob("*.py"))
)


def imported_modules(path: Path) -> set[str]:
    """Top-level names of every module the file imports (relative imports excluded)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def relative_imports(path: Path) -> set[str]:
    """Modules of the package a core file imports relatively (``from .x import``)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            found.add(node.module or "")
    return found


def test_the_core_exists():
    names = {p.name for p in CORE}
    assert {"cards.py", "sheets.py", "scoring.py"} <= names


@pytest.mark.parametrize("path", CORE, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_core_imports_no_framework(path):
    assert imported_modules(path) & FORBIDDEN == set()


@pytest.mark.parametrize("path", CORE, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_core_imports_only_the_core(path):
    # a relative import of a web module (models, extensions, api...) would smuggle
    # the frameworks in
    allowed_top = {"cards", "sheets", "scoring", "deal", "engine", ""}
    for module in relative_imports(path):
        assert module.split(".")[0] in allowed_top | {p.stem for p in CORE}, module


def test_imported_modules_sees_every_form(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import os, flask.json\nfrom sqlalchemy.orm import Mapped\n"
                      "def f():\n    import wtforms\n")
    assert imported_modules(sample) == {"os", "flask", "sqlalchemy", "wtforms"}


def test_importing_the_core_loads_no_web_stack():
    # Run in a fresh interpreter: this test process has Flask loaded already.
    code = (
        "import sys\n"
        "import scorekeeper.cards, scorekeeper.sheets, scorekeeper.scoring\n"
        "import scorekeeper.deal, scorekeeper.engine\n"
        "web = {'flask', 'sqlalchemy', 'flask_sqlalchemy', 'wtforms', 'flask_wtf', 'werkzeug'}\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in web))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=60)
    assert out.stdout.strip() == "[]"
