"""One meaning per name: a module (or package) name, or a public class name, that the
package uses twice is one of the twins listed here, each pair with the one meaning it
shares; any other twin fails.

A name may repeat across layers for the same thing seen from each (``core/deal.py``
deals, ``api/deal.py`` answers ``/api/v1/deal`` with it), and every page room has its
``views`` and ``forms``. A second meaning (``store/reading.py`` for what pages ask of a
match beside ``store/transfer/reading.py`` for an import file) gets a name of its own.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"

ROOM_MODULES = frozenset({"views", "forms"})  # each page room has its own
# Module and package names used more than once, where each is used (packages end in
# "/"), with the one meaning they share.
SHARED_MODULES = {
    "bg_stats": {"core/bg_stats.py", "store/bg_stats.py"},  # a play for BG Stats
    "deal": {"core/deal.py", "api/deal.py", "web/deal/"},  # the deal helper
    "extensions": {"extensions.py", "store/extensions.py"},  # Flask extensions
    "fields": {"web/fields.py", "web/check/fields.py"},  # WTForms field kinds
    "groups": {"store/groups.py", "web/groups/"},
    "hands": {"api/hands.py", "web/hands/"},
    "history": {"store/history.py", "web/history/"},
    "leaderboard": {"store/leaderboard.py", "api/leaderboard.py", "web/leaderboard/"},
    "matches": {"api/matches.py", "web/matches/"},
    "places": {"core/places.py", "store/places.py"},  # the places of a finished match
    "replay": {"core/engine/replay.py", "api/replay.py"},  # the engine's replay of events
    "transfer": {"store/transfer/", "api/transfer.py", "cli/transfer.py"},  # export/import
}
# Public class names defined twice with two meanings, left as they are for now: a new
# twin is not added here but named for what it is.
SHARED_CLASSES = {
    "Game": {"core/games/definition.py", "core/engine/state.py"},  # a game's rules; one in play
    "Line": {"core/chart.py", "store/transfer/export.py"},  # a chart's line; a CSV row's
}


def _sources(package: Path) -> list[Path]:
    return sorted(p for p in package.rglob("*.py") if "migrations" not in p.parts)


def module_twins(package: Path = PACKAGE) -> dict[str, set[str]]:
    """Each module or package name used more than once (but a room's own modules), with
    where."""
    found: dict[str, set[str]] = defaultdict(set)
    for path in _sources(package):
        where = path.relative_to(package)
        if path.name == "__init__.py":
            if where.parent != Path("."):
                found[where.parent.name].add(f"{where.parent.as_posix()}/")
        elif not (path.stem in ROOM_MODULES and where.parts[0] == "web"):
            found[path.stem].add(where.as_posix())
    return {name: places for name, places in found.items() if len(places) > 1}


def class_twins(package: Path = PACKAGE) -> dict[str, set[str]]:
    """Each public class name defined at the top of more than one module, with where."""
    found: dict[str, set[str]] = defaultdict(set)
    for path in _sources(package):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                found[node.name].add(path.relative_to(package).as_posix())
    return {name: places for name, places in found.items() if len(places) > 1}


def test_a_module_name_has_one_meaning():
    assert module_twins() == SHARED_MODULES


def test_a_class_name_has_one_meaning():
    assert class_twins() == SHARED_CLASSES


# ---- the checks catch what they exist to catch, on a small fake package

@pytest.mark.parametrize(("files", "modules", "classes"), [
    ({"store/reading.py": "", "store/transfer/__init__.py": "",
      "store/transfer/reading.py": ""},
     {"reading": {"store/reading.py", "store/transfer/reading.py"}}, {}),
    ({"core/engine/replay.py": "", "store/projection/replay.py": ""},
     {"replay": {"core/engine/replay.py", "store/projection/replay.py"}}, {}),
    ({"web/check/fields.py": "class SeatField:\n    pass\n",
      "web/matches/forms.py": "class SeatField:\n    pass\nclass _Hidden:\n    pass\n",
      "web/check/forms.py": "class _Hidden:\n    pass\n"},
     {}, {"SeatField": {"web/check/fields.py", "web/matches/forms.py"}}),
    ({"web/hands/views.py": "", "web/check/views.py": "", "store/projection/__init__.py": "",
      "store/projection/migrations/x.py": "class Seat:\n    pass\n",
      "core/y.py": "class Seat:\n    pass\n"}, {}, {}),
])
def test_a_name_with_two_meanings_is_found(tmp_path, files, modules, classes):
    package = tmp_path / "scorekeeper"
    for where, source in {"__init__.py": "", **files}.items():
        (package / where).parent.mkdir(parents=True, exist_ok=True)
        (package / where).write_text(source)
    assert module_twins(package) == modules
    assert class_twins(package) == classes
