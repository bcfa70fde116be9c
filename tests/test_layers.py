"""The package's shape: imports point one way, core ← store ← (web, api, cli).

Every ``scorekeeper`` module belongs to a layer by its folder. A module may import its
own layer and the layers below it; ``web`` and ``api`` sit side by side and never import
each other. The top of the package (``create_app`` and the ``scorekeeper`` command,
settings) wires the layers together and may import any of them. The core imports no
framework. No modules import each other in a ring; a page room (``web/<room>/``) shares
code with another only through a common module of ``web``, never through the other
room's modules (and a common module needs no room); and nothing in the package imports
the tests or their benchmarks. The tests keep a rule of their own: no test module
imports another (shared code lives in ``tests/support``, fixtures in ``conftest.py``).

Imports are read with ``ast`` (``tests/support/imports.py``): those inside functions
and under ``TYPE_CHECKING`` count too.

The mapped classes (``store/models.py``) and the SQLAlchemy session and engine
(``store/extensions.py``'s ``db``) stay inside ``store``: no module outside it imports
either, and the store's functions that pages, the API and the commands call take and
answer frozen views (a ``GroupView``, a ``GroupPlayer``, a ``MatchView``…), never a
mapped row. Outside ``store`` SQLAlchemy is imported only for its exceptions (the error
pages and the readiness check tell an outage by them). The app factory
(``scorekeeper/__init__.py``) alone may import them: it registers the tables and
initialises ``db`` and ``migrate`` on the app.
What a front door needs of the transaction (a failed request's rollback, the readiness
check's ``SELECT 1``) it asks ``store/transaction.py``.

Two modules at the top are a layer of their own, ``app``: ``scorekeeper/extensions.py``,
the app-level extensions (CSRF, the rate limiter) that the factory sets up and that
pages and the API both decorate their views with, and ``scorekeeper/secret_key.py``,
the shared key's check that the factory, ``/readyz`` and ``scorekeeper serve`` run.
They are about the app, so they do not belong in ``store``; ``web``, ``api`` and
``cli`` may import them, and they import only ``core`` and ``store``, so no layer
reaches the top through them.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import subprocess
import sys
import typing
from collections.abc import Callable
from contextlib import suppress
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, delete, insert, update
from sqlalchemy.exc import IntegrityError

from scorekeeper.store.extensions import db
from scorekeeper.store.match_views import GroupView, PlayerView
from scorekeeper.store.models import Group, Hand, HandEntry, Match, Player, Rating, RatingStep
from scorekeeper.store.seasons import SeasonView
from tests.support.imports import Import, all_imports, cycles, imports_of, module_of, sources
from tests.support.serve import STARTED

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"
TESTS = Path(__file__).resolve().parent
FRAMEWORKS = {"flask", "sqlalchemy", "flask_sqlalchemy", "wtforms", "flask_wtf", "werkzeug",
              "alembic", "flask_migrate", "itsdangerous", "jinja2", "markupsafe"}

# What each layer may import from the package, besides itself.
BELOW = {
    "core": set(),
    "store": {"core"},
    "app": {"core", "store"},
    "web": {"core", "store", "app"},
    "api": {"core", "store", "app"},
    "cli": {"core", "store", "app"},
    "top": {"core", "store", "app", "web", "api", "cli"},
}
APP_MODULES = {"scorekeeper.extensions", "scorekeeper.secret_key"}


def layer_of(module: str) -> str:
    """``scorekeeper.store.records`` → ``store``; the package's own modules → ``top``
    (but the app-level extensions → ``app``)."""
    if module in APP_MODULES:
        return "app"
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in BELOW else "top"


def room_of(module: str, package: Path = PACKAGE) -> str | None:
    """The page room a module belongs to (``scorekeeper.web.hands.forms`` → ``hands``),
    or None for a common module of ``web`` and anything outside it."""
    parts = module.split(".")
    if len(parts) < 3 or parts[1] != "web":
        return None
    return parts[2] if (package / "web" / parts[2] / "__init__.py").is_file() else None


def wrong_imports(path: Path, package: Path = PACKAGE) -> list[str]:
    """The imports in ``path`` that point the wrong way, as readable lines."""
    known = frozenset(module_of(p, package) for p in sources(package))
    own = layer_of(module_of(path, package))
    allowed = BELOW[own] | {own}
    return [f"{path.relative_to(package.parent)}:{found.line}: {own} imports "
            f"{found.target} ({layer_of(found.target)})"
            for found in imports_of(path, package, known)
            if found.target.startswith("scorekeeper") and layer_of(found.target) not in allowed]


def room_imports(imports: list[Import], package: Path = PACKAGE) -> set[tuple[str, str]]:
    """(importer, imported) for every import of a room's module from another room, or
    from a common module of ``web`` (which rooms build on, so it must not need them).
    The ``web`` package itself registers every room's blueprint, so it may."""
    return {(found.source, found.target) for found in imports
            if room_of(found.target, package) and found.source != "scorekeeper.web"
            and found.source.startswith("scorekeeper.web")
            and room_of(found.source, package) != room_of(found.target, package)}


def test_every_layer_exists():
    for layer in ("core", "store", "web", "api", "cli"):
        assert (PACKAGE / layer / "__init__.py").is_file(), layer
    assert (PACKAGE / "core" / "engine" / "state.py").is_file()


@pytest.mark.parametrize("path", sources(PACKAGE), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_point_down(path):
    assert wrong_imports(path) == []


@pytest.mark.parametrize("path", sorted((PACKAGE / "core").rglob("*.py")),
                         ids=lambda p: str(p.relative_to(PACKAGE)))
def test_core_imports_no_framework(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import)
             for a in n.names}
    names |= {n.module.split(".")[0] for n in ast.walk(tree)
              if isinstance(n, ast.ImportFrom) and n.level == 0 and n.module}
    assert names & FRAMEWORKS == set()


def test_no_modules_import_each_other_in_a_ring():
    assert cycles(all_imports(PACKAGE)) == []


def test_no_page_room_imports_another_room():
    """What two rooms need lives in a common module of web (``web/scoreboard.py``…)."""
    assert room_imports(all_imports(PACKAGE)) == set()


def test_the_package_imports_no_test_or_benchmark():
    found = [found for found in all_imports(PACKAGE) if found.target.split(".")[0] == "tests"]
    assert found == []


def test_no_test_module_imports_another():
    found = [f"{found.source}:{found.line} imports {found.target}"
             for found in all_imports(TESTS)
             if found.target.rsplit(".", 1)[-1].startswith(("test_", "conftest"))]
    assert found == []


# ---- the checks themselves catch what they exist to forbid, on a small fake package

def fake_package(tmp_path: Path, files: dict[str, str]) -> Path:
    """A package ``scorekeeper`` under ``tmp_path`` holding ``files`` (path → source)."""
    package = tmp_path / "scorekeeper"
    for where, source in {"__init__.py": "", **files}.items():
        (package / where).parent.mkdir(parents=True, exist_ok=True)
        (package / where).write_text(source)
    return package


@pytest.mark.parametrize(("where", "source", "complaint"), [
    ("core/bad.py", "from scorekeeper.store.models import Hand\n",
     "core imports scorekeeper.store.models"),
    ("core/bad.py", "from ..web import access\n", "core imports scorekeeper.web (web)"),
    ("store/bad.py", "from scorekeeper.api.common import api_error\n",
     "store imports scorekeeper.api.common"),
    ("web/bad.py", "from scorekeeper.api import replay\n", "web imports scorekeeper.api (api)"),
    ("api/bad.py", "from ..web.access import join\n", "api imports scorekeeper.web.access"),
    ("api/bad.py", "import scorekeeper.web.hands.forms\n",
     "api imports scorekeeper.web.hands.forms"),
    ("store/bad.py", "from scorekeeper import web\n", "store imports scorekeeper.web"),
    ("web/bad.py", "def late():\n    from scorekeeper.api import common\n",
     "web imports scorekeeper.api (api)"),
    ("cli/bad.py", "from scorekeeper import create_app\n", "cli imports scorekeeper (top)"),
    ("store/bad.py", "from scorekeeper.extensions import limiter\n",
     "store imports scorekeeper.extensions (app)"),
    ("extensions.py", "from scorekeeper.web import access\n",
     "app imports scorekeeper.web (web)"),
    ("web/bad.py", "from scorekeeper.config import configure\n",
     "web imports scorekeeper.config (top)"),
])
def test_a_wrong_import_is_caught(tmp_path, where, source, complaint):
    package = fake_package(tmp_path, {"web/__init__.py": "", where: source})
    (found,) = wrong_imports(package / where, package)
    assert complaint in found


@pytest.mark.parametrize("source", [
    "from scorekeeper.core.cards import Card\n", "from .records import record_hand\n",
    "from scorekeeper.core.engine import Game\n",
])
def test_a_right_import_passes(tmp_path, source):
    package = fake_package(tmp_path, {"store/ok.py": source})
    assert wrong_imports(package / "store" / "ok.py", package) == []


@pytest.mark.parametrize("where", ["web/ok.py", "api/ok.py", "cli/ok.py"])
def test_pages_and_api_may_use_the_app_level_extensions(tmp_path, where):
    package = fake_package(tmp_path, {where: "from scorekeeper.extensions import csrf, limiter\n"})
    assert wrong_imports(package / where, package) == []


def test_a_ring_is_found_through_type_checking_and_function_imports(tmp_path):
    package = fake_package(tmp_path, {
        "core/__init__.py": "",
        "core/a.py": "from typing import TYPE_CHECKING\n"
                     "if TYPE_CHECKING:\n    from scorekeeper.core.b import B\n",
        "core/b.py": "def late():\n    from scorekeeper.core import c\n",
        "core/c.py": "from . import a\n",
        "core/d.py": "from scorekeeper.core import a\n",
        "core/e.py": "from scorekeeper.core.e import x\n",
    })
    assert cycles(all_imports(package)) == [
        ("scorekeeper.core.a", "scorekeeper.core.b", "scorekeeper.core.c"),
        ("scorekeeper.core.e",)]


def test_a_room_importing_another_room_is_found(tmp_path):
    package = fake_package(tmp_path, {
        "web/__init__.py": "from scorekeeper.web.hands import views\n",
        "web/common.py": "def late():\n    from scorekeeper.web.hands import forms\n",
        "web/hands/__init__.py": "",
        "web/hands/views.py": "from scorekeeper.web.matches.scoreboard import board\n"
                              "from scorekeeper.web import common\n"
                              "from scorekeeper.web.hands import forms\n",
        "web/hands/forms.py": "",
        "web/matches/__init__.py": "",
        "web/matches/scoreboard.py": "from scorekeeper.web.common import x\n",
    })
    assert room_imports(all_imports(package), package) == {
        ("scorekeeper.web.hands.views", "scorekeeper.web.matches.scoreboard"),
        ("scorekeeper.web.common", "scorekeeper.web.hands.forms")}


def test_importing_a_benchmark_is_found(tmp_path):
    package = fake_package(tmp_path, {"cli/__init__.py": "from tests.bench import web\n"
                                                         "import tests.support.figures\n"})
    assert [found.target for found in all_imports(package)] == [
        "tests.bench", "tests.support.figures"]


def test_importing_the_core_loads_no_web_stack():
    # A fresh interpreter: this test process has Flask loaded already.
    code = ("import sys, pkgutil, importlib, scorekeeper.core as core\n"
            "for m in pkgutil.walk_packages(core.__path__, 'scorekeeper.core.'):\n"
            "    importlib.import_module(m.name)\n"
            f"print(sorted(m for m in sys.modules if m.split('.')[0] in {sorted(FRAMEWORKS)!r}))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=STARTED)
    assert out.stdout.strip() == "[]"


# ---- the store's promise: one writer, one projection, one read model ------------------
#
# Pages and the API read a match and its hands through the store's frozen views and
# change anything only by calling the store; derived values are written by the
# projection alone (every statement's target is watched during the app tests, see
# tests/conftest.py; here the watch is shown to catch what it exists to catch).

MAPPED_MATCH = {"Match", "Hand", "HandEntry"}
SESSION_WRITES = {"add", "add_all", "commit", "execute", "delete", "flush", "merge"}
FRONTS = sorted(p for layer in ("web", "api") for p in (PACKAGE / layer).rglob("*.py"))
CALLERS = sorted(p for p in sources(PACKAGE) if not p.is_relative_to(PACKAGE / "store"))


def store_bypasses(path: Path) -> list[str]:
    """Imports of the mapped match and hand classes, and calls that write through the
    session (``db.session.add(...)``, ``session.commit()``…), in ``path``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("store.models"):
            found += [f"{node.lineno}: imports {a.name}" for a in node.names
                      if a.name in MAPPED_MATCH]
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in SESSION_WRITES):
            owner = node.func.value
            if (isinstance(owner, ast.Attribute) and owner.attr == "session") or (
                    isinstance(owner, ast.Name) and owner.id == "session"):
                found.append(f"{node.lineno}: session.{node.func.attr}()")
    return found


@pytest.mark.parametrize("path", FRONTS, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_pages_and_the_api_read_views_and_write_through_the_store(path):
    assert store_bypasses(path) == []


# What works out a derived figure: the core's scorers and the projection's own steps.
# The writer hands facts to the projection's entry points and takes what they answer.
SCORERS = {"standings", "standings_at", "play_hand", "running_state", "advance",
           "after_step", "replay_of", "replayed_figures", "seat_figures", "advance_figures"}
WRITERS = [PACKAGE / "store" / "records.py", PACKAGE / "store" / "transfer" / "writing.py"]


def scoring_in(path: Path) -> list[str]:
    """The scorers ``path`` imports (by name or as a module) or calls as an attribute."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom | ast.Import):
            found += [f"{node.lineno}: imports {a.name}" for a in node.names
                      if a.name.rsplit(".", 1)[-1] in SCORERS]
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in SCORERS):
            found.append(f"{node.lineno}: calls {node.func.attr}")
    return found


@pytest.mark.parametrize("path", WRITERS, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_the_writer_works_out_no_derived_figure(path):
    assert scoring_in(path) == []


@pytest.mark.parametrize(("check", "where", "source", "found"), [
    (store_bypasses, "web/bad.py", "from scorekeeper.store.models import Group, Match\n",
     ["1: imports Match"]),
    (store_bypasses, "api/bad.py", "from ..store.models import Hand\n", ["1: imports Hand"]),
    (store_bypasses, "web/bad.py", "def f(db):\n    db.session.add(x)\n    db.session.commit()\n",
     ["2: session.add()", "3: session.commit()"]),
    (store_bypasses, "web/bad.py", "def f(session):\n    session.execute(x)\n",
     ["2: session.execute()"]),
    (store_bypasses, "web/ok.py",
     "def f(db):\n    db.session.rollback()\n    return db.session.get(Group, 1)\n", []),
    (store_bypasses, "web/ok.py", "from scorekeeper.store.models import Group, Player\n", []),
    (scoring_in, "store/records.py", "from scorekeeper.core.scoring import HandResult, standings\n",
     ["1: imports standings"]),
    (scoring_in, "store/records.py", "from scorekeeper.store.projection import running_state\n",
     ["1: imports running_state"]),
    (scoring_in, "store/records.py", "def f(x):\n    return x.advance(1)\n", ["2: calls advance"]),
    (scoring_in, "store/records.py",
     "from scorekeeper.store.projection.states import after_step, replay_of\n",
     ["1: imports after_step", "1: imports replay_of"]),
    (scoring_in, "store/records.py", "from scorekeeper.core.scoring import check_complete\n"
     "def f(p):\n    return p.next_hand(1)\n", []),
])
def test_a_way_round_the_store_is_found(tmp_path, check, where, source, found):
    """A page writing through the session or holding a mapped match, the writer
    scoring for itself: each check finds what it exists to forbid."""
    package = fake_package(tmp_path, {where: source})
    assert check(package / where) == found


# ---- the mapped classes and the session stay in the store ----------------------------

# The store's modules that hold them, and the one import of them allowed outside.
HOLDERS = {"scorekeeper.store.models", "scorekeeper.store.extensions"}
# create_app: registers the tables (imports the models), then db.init_app(app).
FACTORY = {("scorekeeper", holder) for holder in HOLDERS}


def reaching_in(imports: list[Import]) -> list[str]:
    """Imports of the mapped classes or the session (``db``) from outside ``store``,
    but the app factory's."""
    return [f"{found.source}:{found.line} imports {found.target}" for found in imports
            if found.target in HOLDERS and layer_of(found.source) != "store"
            and (found.source, found.target) not in FACTORY]


def sqlalchemy_used(path: Path) -> list[str]:
    """SQLAlchemy (or Flask-SQLAlchemy) imported in ``path`` for more than its
    exceptions (``sqlalchemy.exc``)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                 [node.module] if isinstance(node, ast.ImportFrom) and node.module
                 and node.level == 0 else [])
        found += [f"{node.lineno}: imports {name}" for name in names
                  if name.split(".")[0] in {"sqlalchemy", "flask_sqlalchemy"}
                  and name != "sqlalchemy.exc"]
    return found


def test_only_the_store_imports_the_mapped_classes_or_the_session():
    assert reaching_in(all_imports(PACKAGE)) == []


@pytest.mark.parametrize("path", CALLERS, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_outside_the_store_sqlalchemy_is_used_for_its_exceptions_alone(path):
    assert sqlalchemy_used(path) == []


@pytest.mark.parametrize(("where", "source", "found"), [
    ("web/bad.py", "from scorekeeper.store.models import Group\n",
     ["scorekeeper.web.bad:1 imports scorekeeper.store.models"]),
    ("cli/bad.py", "from ..store import models\n",
     ["scorekeeper.cli.bad:1 imports scorekeeper.store.models"]),
    ("api/bad.py", "def late():\n    from scorekeeper.store.extensions import db\n",
     ["scorekeeper.api.bad:2 imports scorekeeper.store.extensions"]),
    ("health.py", "from scorekeeper.store.extensions import db\n",
     ["scorekeeper.health:1 imports scorekeeper.store.extensions"]),
    ("__init__.py", "def create_app():\n    from scorekeeper.store.extensions import db\n"
     "    from scorekeeper.store import models\n", []),
    ("store/ok.py", "from scorekeeper.store.models import Group\n", []),
    ("web/ok.py", "from scorekeeper.store.groups import GroupView, group_by_id\n", []),
])
def test_reaching_into_the_store_is_found(tmp_path, where, source, found):
    package = fake_package(tmp_path, {"store/__init__.py": "", "store/models.py": "",
                                      "store/extensions.py": "", where: source})
    assert reaching_in(all_imports(package)) == found


@pytest.mark.parametrize(("source", "found"), [
    ("from sqlalchemy import select\n", ["1: imports sqlalchemy"]),
    ("import sqlalchemy.orm\n", ["1: imports sqlalchemy.orm"]),
    ("def f():\n    from flask_sqlalchemy import SQLAlchemy\n", ["2: imports flask_sqlalchemy"]),
    ("from sqlalchemy.exc import OperationalError\n", []),
    ("from .sqlalchemy import x\n", []),
])
def test_sqlalchemy_beyond_its_exceptions_is_found(tmp_path, source, found):
    path = tmp_path / "bad.py"
    path.write_text(source)
    assert sqlalchemy_used(path) == found


def store_calls(module: Any) -> dict[str, Callable[..., Any]]:
    """The store's functions a module of ``web``, ``api`` or ``cli`` calls: those it
    imports by name, and ``module.name`` of a store module it imports."""
    found = {}
    source = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    used = {(node.value.id, node.attr) for node in ast.walk(source)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)}
    for name, value in vars(module).items():
        if inspect.isfunction(value) and value.__module__.startswith("scorekeeper.store"):
            found[f"{value.__module__}.{value.__qualname__}"] = value
        elif inspect.ismodule(value) and value.__name__.startswith("scorekeeper.store"):
            for owner, attr in used:
                called = getattr(value, attr, None) if owner == name else None
                if inspect.isfunction(called):
                    found[f"{value.__name__}.{attr}"] = called
    return found


def mapped_in(kind: Any, seen: set[Any] | None = None) -> set[str]:
    """The mapped classes a type annotation reaches: itself,
    its arguments (``list[Match]``, ``Match | None``), and the fields of a dataclass or
    named tuple it names, at any depth."""
    seen = set() if seen is None else seen
    if isinstance(kind, list):  # the arguments of a Callable
        return set().union(*(mapped_in(argument, seen) for argument in kind))
    if kind in seen:
        return set()
    seen.add(kind)
    if isinstance(kind, type) and issubclass(kind, db.Model):
        return {kind.__name__}
    found = set()
    for argument in typing.get_args(kind):
        found |= mapped_in(argument, seen)
    if isinstance(kind, type) and (dataclasses.is_dataclass(kind) or hasattr(kind, "_fields")):
        for field in typing.get_type_hints(kind).values():
            found |= mapped_in(field, seen)
    return found


def mapped_handed_out(function: Callable[..., Any]) -> set[str]:
    """The mapped classes a store function takes or answers, by its annotations."""
    return {name for kind in typing.get_type_hints(function).values()
            for name in mapped_in(kind)}


def _callers() -> list[str]:
    return [module_of(path, PACKAGE) for path in CALLERS]


@pytest.mark.parametrize("name", _callers())
def test_nothing_outside_the_store_gets_a_mapped_row_from_it(name):
    module = importlib.import_module(name)
    found = {called: sorted(mapped_handed_out(function))
             for called, function in store_calls(module).items()}
    assert {called: kinds for called, kinds in found.items() if kinds} == {}


@dataclasses.dataclass(frozen=True)
class _Page:
    matches: list[Match]
    group: Group


class _Pair(typing.NamedTuple):
    hand: Hand | None
    player: Player


def _page() -> _Page: ...
def _pairs(group: Group) -> tuple[_Pair, ...]: ...
def _loaded(view: int, match: Match | None = None) -> int: ...
def _rows(answer: Callable[[Player], str]) -> dict[str, list[Player]]: ...
def _none(group: GroupView, seats: list[PlayerView]) -> SeasonView | None: ...


@pytest.mark.parametrize(("function", "found"), [
    (_page, {"Match", "Group"}), (_pairs, {"Group", "Hand", "Player"}), (_loaded, {"Match"}),
    (_rows, {"Player"}), (_none, set())])
def test_a_mapped_class_handed_out_is_found(function, found):
    assert mapped_handed_out(function) == found


def test_the_store_functions_a_page_calls_are_found(tmp_path, monkeypatch):
    package = tmp_path / "fake_front"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "page.py").write_text(
        "from scorekeeper.store import groups\n"
        "from scorekeeper.store.history import history_page\n"
        "from scorekeeper.core.text import clean_name\n"
        "def view(group):\n"
        "    return groups.recent_matches(group), history_page, groups.MAX_ID\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    found = store_calls(importlib.import_module("fake_front.page"))
    assert sorted(found) == ["scorekeeper.store.groups.recent_matches",
                             "scorekeeper.store.history.history_page"]


def _store_dataclasses() -> list[type]:
    """Every dataclass the store defines (its migrations are not imported)."""
    found = []
    for path in sources(PACKAGE):
        if not path.is_relative_to(PACKAGE / "store") or "migrations" in path.parts:
            continue
        module = importlib.import_module(module_of(path, PACKAGE))
        found += [value for value in vars(module).values()
                  if isinstance(value, type) and dataclasses.is_dataclass(value)
                  and value.__module__ == module.__name__]
    return found


def test_everything_the_store_hands_out_is_frozen():
    """Views of a match, a saved hand, a match being written, a page of history, a
    derived state: every dataclass of the store."""
    kinds = _store_dataclasses()
    assert {"MatchView", "HandView", "Written", "NewMatch", "HistoryPage", "MatchState",
            "Plan"} <= {kind.__name__ for kind in kinds}
    assert [kind.__qualname__ for kind in kinds if not kind.__dataclass_params__.frozen] == []


# Statements as a writer would build them, each run from code of ``module``.
STATEMENTS = [
    ("scorekeeper.store.records", lambda: update(Match).values(status="finished"), None,
     "scorekeeper.store.records writes match.status"),
    ("scorekeeper.store.records", lambda: insert(Hand),
     {"match_id": 1, "number": 1, "dealer": 0, "created_at": datetime(2026, 12, 1)},
     "scorekeeper.store.records writes hand.dealer"),
    ("scorekeeper.web.fake", lambda: delete(RatingStep), None,
     "scorekeeper.web.fake writes rating_step"),
    ("scorekeeper.store.seasons", lambda: insert(Rating),
     {"player_id": 1, "game": "x", "scope": "s1", "group_id": 1},
     "scorekeeper.store.seasons writes rating"),
    ("scorekeeper.store.records", lambda: update(Hand).values(out_seat=1), None, None),
    ("scorekeeper.store.records", lambda: delete(HandEntry), None, None),
    ("scorekeeper.store.projection.hand_scores", lambda: update(Hand).values(dealer=1), None,
     None),
    ("scorekeeper.store.projection.rating_chains", lambda: delete(RatingStep), None, None),
]


@pytest.mark.parametrize(("module", "statement", "params", "caught"), STATEMENTS)
def test_a_derived_write_outside_the_projection_is_caught(module, statement, params, caught):
    from tests.support.derived_writes import watched

    engine = create_engine("sqlite://")
    db.metadata.create_all(engine)
    code = compile("connection.execute(statement, params)", f"<{module}>", "exec")
    # The watch sees a statement before the database does: whether the (empty)
    # database then takes the row does not matter here.
    with engine.connect() as connection, watched() as found, suppress(IntegrityError):
        exec(code, {"__name__": module, "connection": connection, "statement": statement(),
                    "params": params})
    assert found == ([] if caught is None else [caught])
