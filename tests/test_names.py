"""One meaning per name: a module (or package) name, a public class name, or a public
function name outside the page views that the package uses twice must share one meaning,
and is listed here with it; any other twin fails, and a class name has no twin at all.

A name may repeat across layers for the same thing seen from each (``core/deal.py``
deals, ``api/deal.py`` answers ``/api/v1/deal`` with it), and every page room has its
``views`` and ``forms`` (a view function is named by its URL's task, ``show``,
``edit``, in each room). A second meaning gets a name of its own: the engine's hand in
play is ``HandInPlay`` beside a game's ``Game`` definition, the match's standing
after its last hand ``MatchTally`` beside the engine's ``Position``.
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
# Public functions defined at the top of more than one module outside the views (see
# function_twins), with the one meaning they share.
SHARED_FUNCTIONS = {
    # a part of the app installed on it (Flask's init_app)
    "register": {"api/__init__.py", "cli/__init__.py", "health.py", "web/__init__.py",
                 "web/assets.py", "web/error_pages.py", "web/security.py"},
    "member_version": {"store/versions.py", "web/access.py"},  # the web's: a 404 if none
    "watched_version": {"store/versions.py", "web/access.py"},  # the web's: a 404 if none
    "reseason": {"store/projection/__init__.py", "store/projection/rating_chains.py"},
    "read_sheet": {"core/sheets.py", "core/engine/setup.py"},  # a rule sheet from its data
    # the engine's Answer to a question (the checker's: the question read off its form)
    "answer": {"core/engine/replay.py", "web/check/answer.py"},
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


def _is_view(node: ast.FunctionDef) -> bool:
    """Whether a function is a page or API view (a blueprint's route decorator on it)."""
    return any(isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute)
               and d.func.attr in {"route", "get", "post", "put", "patch", "delete"}
               for d in node.decorator_list)


def function_twins(package: Path = PACKAGE) -> dict[str, set[str]]:
    """Each public function name defined at the top of more than one module, views left
    out (a view's name is its endpoint in its own room), with where."""
    found: dict[str, set[str]] = defaultdict(set)
    for path in _sources(package):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if (isinstance(node, ast.FunctionDef) and not node.name.startswith("_")
                    and not _is_view(node)):
                found[node.name].add(path.relative_to(package).as_posix())
    return {name: places for name, places in found.items() if len(places) > 1}


def test_a_module_name_has_one_meaning():
    assert module_twins() == SHARED_MODULES


def test_a_class_name_has_no_twin():
    assert class_twins() == {}


def test_a_function_name_has_one_meaning():
    assert function_twins() == SHARED_FUNCTIONS


@pytest.mark.parametrize("listed", [SHARED_MODULES, SHARED_FUNCTIONS])
def test_every_listed_place_exists(listed):
    missing = sorted(where for places in listed.values() for where in places
                     if not (PACKAGE / where).exists())
    assert missing == []


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


def test_a_function_twin_is_found_but_not_a_view(tmp_path):
    package = tmp_path / "scorekeeper"
    files = {"__init__.py": "",
             "core/ratings.py": "def shown(mu, sigma):\n    return 0\n",
             "web/check/fields.py": "def shown(field):\n    return ''\n",
             "web/groups/views.py": "@bp.get('/')\ndef index():\n    pass\n",
             "web/history/views.py": "@bp.route('/h')\ndef index():\n    pass\n"
                                     "def _index():\n    pass\n",
             "store/history.py": "def _index():\n    pass\n"}
    for where, source in files.items():
        (package / where).parent.mkdir(parents=True, exist_ok=True)
        (package / where).write_text(source)
    assert function_twins(package) == {"shown": {"core/ratings.py", "web/check/fields.py"}}
