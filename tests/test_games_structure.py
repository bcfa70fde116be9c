"""A game is one definition: outside the games' own modules (``scorekeeper/core/games/``,
the registry among them) and each game's rules prose (``templates/rules/prose/<key>.html``),
nothing in the package, the templates or the scripts spells a game's key, and so nothing
can compare with one or keep a table keyed by it: the package asks the definition.

Python is read with :mod:`ast`: a string constant equal to a key, or a name standing
for one (``LO``, ``C8``, ``CD``, as the package once spelt them), is a finding; a
docstring that mentions a key in a sentence or a doctest is not. Templates and
scripts are read as text: a key in quotes is a finding.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import scorekeeper
from scorekeeper.core.games import GAMES

PACKAGE = Path(scorekeeper.__file__).parent
ROOT = PACKAGE.parent
GAMES_DIR = PACKAGE / "core" / "games"
KEY_NAMES = {"LO", "C8", "CD"}  # the names the keys once went by


def _keys() -> set[str]:
    return set(GAMES)


def python_findings(path: Path, keys: set[str], root: Path = ROOT) -> list[str]:
    """Each key literal and key name in one module, as ``path:line: text``."""
    where = path.relative_to(root)
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Constant) and node.value in keys:
            found.append(f"{where}:{node.lineno}: {node.value!r}")
        elif isinstance(node, ast.Name) and node.id in KEY_NAMES:
            found.append(f"{where}:{node.lineno}: {node.id}")
        elif isinstance(node, ast.alias) and (node.asname or node.name) in KEY_NAMES:
            found.append(f"{where}: import {node.name}")
    return found


def text_findings(path: Path, keys: set[str], root: Path = ROOT) -> list[str]:
    """Each line of a template or script holding a quoted key, as ``path:line: text``."""
    quoted = re.compile("[\"'](" + "|".join(map(re.escape, sorted(keys))) + ")[\"']")
    return [f"{path.relative_to(root)}:{n}: {line.strip()[:90]}"
            for n, line in enumerate(path.read_text().splitlines(), start=1)
            if quoted.search(line)]


def findings() -> list[str]:
    """Every place outside the games' definitions that spells a game's key."""
    keys = _keys()
    prose = {ROOT / "templates" / "rules" / "prose" / f"{key}.html" for key in keys}
    found: list[str] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if GAMES_DIR not in path.parents:
            found += python_findings(path, keys)
    for path in sorted((ROOT / "templates").rglob("*.html")):
        if path not in prose:
            found += text_findings(path, keys)
    for path in sorted((ROOT / "static").rglob("*.js")):
        found += text_findings(path, keys)
    return found


def test_nothing_outside_the_definitions_spells_a_game_key() -> None:
    found = findings()
    assert not found, "ask the game's definition instead:\n" + "\n".join(found)


def test_the_check_finds_a_key_in_code_and_in_a_template(tmp_path: Path) -> None:
    module = tmp_path / "module.py"
    module.write_text('"""Doctest: Sheet.make("last-one")."""\nif game == "last-one":\n'
                      "    pass\nwords = {LO: 1}\n")
    page = tmp_path / "page.html"
    page.write_text("<p>{{ 'blocked' if game == 'last-one' else 'jammed' }}</p>\n<p>last-one</p>\n")
    assert python_findings(module, _keys(), tmp_path) == ["module.py:2: 'last-one'",
                                                          "module.py:4: LO"]
    assert text_findings(page, _keys(), tmp_path) == [
        "page.html:1: <p>{{ 'blocked' if game == 'last-one' else 'jammed' }}</p>"]
