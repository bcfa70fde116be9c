"""The tests tree mirrors the package, and no test leans on a benchmark.

A folder of ``tests/`` is either a folder of the package at the same place
(``tests/core/engine`` ↔ ``scorekeeper/core/engine``, ``tests/web/hands`` ↔
``scorekeeper/web/hands``) or one of the few kinds that are not about one folder
(:data:`KINDS`). A test named after a subfolder of the package (``test_check*.py``
beside ``scorekeeper/web/check/``), or after a module inside one
(``test_running_state.py`` for ``scorekeeper/store/projection/running_state.py``),
lives in that subfolder's tests. Every folder of
tests is a package (an ``__init__.py``), so two ``test_check.py`` in different folders
never clash. Benchmarks print figures and are no tests' helpers: what a test and a
benchmark both use lives in ``tests/support``; only ``tests/bench`` imports ``tests.bench``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.imports import all_imports

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"
TESTS = Path(__file__).resolve().parent
# Folders of tests/ that stand for no package folder: the benchmarks, tests by how they
# run (a phone's browser, a cluster of hosts) and the helpers they share.
KINDS = frozenset({"bench", "browser", "cluster", "support"})


def folders(root: Path) -> list[Path]:
    """The folders under ``root`` that hold Python files, relative to it."""
    return sorted({p.parent.relative_to(root) for p in root.rglob("*.py")} - {Path(".")})


def misplaced(tests: Path, package: Path) -> list[str]:
    """What in ``tests`` does not mirror ``package``: folders with no twin in the
    package and no kind of their own, folders that are not packages, and test modules
    named after a package subfolder that sit beside it instead of in it."""
    twins = set(folders(package))
    found = []
    for folder in folders(tests):
        if folder.parts[0] not in KINDS and folder not in twins:
            found.append(f"tests/{folder.as_posix()} has no scorekeeper/{folder.as_posix()}")
        if not (tests / folder / "__init__.py").exists():
            found.append(f"tests/{folder.as_posix()} has no __init__.py")
    for folder in [Path("."), *folders(tests)]:
        homes = _homes(package, folder, twins)
        for test in sorted((tests / folder).glob("test_*.py")):
            for name, home in sorted(homes.items()):
                if test.stem == f"test_{name}" or test.stem.startswith(f"test_{name}_"):
                    where = (folder / test.name).as_posix()
                    found.append(f"tests/{where} belongs in tests/{home.as_posix()}/")
    return found


def _homes(package: Path, folder: Path, twins: set[Path]) -> dict[str, Path]:
    """What a test in ``tests/<folder>`` may be named after that puts it deeper: each
    subfolder of ``scorekeeper/<folder>``, and each module of a subfolder (at any
    depth) that ``scorekeeper/<folder>`` has no module of the same name beside, with
    the folder its tests live in."""
    homes = {twin.name: twin for twin in twins if twin.parent == folder}
    beside = {module.stem for module in (package / folder).glob("*.py")}
    for module in sorted((package / folder).rglob("*.py")):
        home = module.parent.relative_to(package)
        if home != folder and module.stem != "__init__" and module.stem not in beside:
            homes.setdefault(module.stem, home)
    return homes


def bench_imports(tests: Path) -> list[str]:
    """Imports of ``tests.bench`` by modules outside ``tests/bench``."""
    return [f"{found.source}:{found.line} imports {found.target}"
            for found in all_imports(tests)
            if found.target.split(".")[:2] == ["tests", "bench"]
            and found.source.split(".")[:2] != ["tests", "bench"]]


def test_the_tests_tree_mirrors_the_package():
    assert misplaced(TESTS, PACKAGE) == []


def test_no_test_imports_a_benchmark():
    assert bench_imports(TESTS) == []


# ---- the checks catch what they exist to forbid, on a small fake tree

PACKAGE_FILES = ["__init__.py", "core/__init__.py", "core/engine/__init__.py",
                 "core/engine/listing.py", "core/cards.py", "web/__init__.py",
                 "web/check/__init__.py", "web/check/fields.py", "web/fields.py",
                 "web/assets.py"]
TESTS_FILES = ["__init__.py", "test_app.py", "core/__init__.py", "core/engine/__init__.py",
               "web/__init__.py", "web/test_assets.py", "web/check/__init__.py",
               "web/check/test_check.py", "support/__init__.py", "support/web.py",
               "bench/__init__.py", "bench/web.py", "browser/__init__.py",
               "browser/test_check.py"]


def fake_tree(tmp_path: Path, extra: dict[str, str]) -> tuple[Path, Path]:
    """A package and a tests tree that mirror each other, with ``extra`` files (path
    under ``tests/`` → source) added to the tests; (tests, package)."""
    files = {f"scorekeeper/{p}": "" for p in PACKAGE_FILES}
    files |= {f"tests/{p}": "" for p in TESTS_FILES} | {f"tests/{p}": s for p, s in extra.items()}
    for where, source in files.items():
        (tmp_path / where).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / where).write_text(source)
    return tmp_path / "tests", tmp_path / "scorekeeper"


def test_a_mirrored_tree_passes(tmp_path):
    assert misplaced(*fake_tree(tmp_path, {})) == []


@pytest.mark.parametrize(("extra", "complaint"), [
    ({"engine/__init__.py": "", "engine/test_flow.py": ""},
     "tests/engine has no scorekeeper/engine"),
    ({"web/engine/__init__.py": "", "web/engine/test_flow.py": ""},
     "tests/web/engine has no scorekeeper/web/engine"),
    ({"web/deal/__init__.py": "", "web/deal/test_deal.py": ""},
     "tests/web/deal has no scorekeeper/web/deal"),
    ({"web/check/sub/test_x.py": ""}, "tests/web/check/sub has no __init__.py"),
    ({"web/test_check.py": ""}, "tests/web/test_check.py belongs in tests/web/check/"),
    ({"web/test_check_going_out.py": ""},
     "tests/web/test_check_going_out.py belongs in tests/web/check/"),
    ({"test_core.py": ""}, "tests/test_core.py belongs in tests/core/"),
    # a module of a subpackage: its tests live in the subpackage's folder
    ({"core/test_listing.py": ""}, "tests/core/test_listing.py belongs in tests/core/engine/"),
    ({"core/test_listing_order.py": ""},
     "tests/core/test_listing_order.py belongs in tests/core/engine/"),
    ({"test_listing.py": ""}, "tests/test_listing.py belongs in tests/core/engine/"),
])
def test_a_misplaced_test_is_caught(tmp_path, extra, complaint):
    assert complaint in misplaced(*fake_tree(tmp_path, extra))


@pytest.mark.parametrize("extra", [
    {"web/test_checker.py": ""},  # not named after the room: "checker" is no folder
    {"core/engine/test_listing.py": ""},  # in its subpackage's folder
    {"core/test_cards.py": ""},  # a module of the folder itself
    {"web/test_fields.py": ""},  # web/fields.py is beside it (web/check/ has one too)
    {"browser/check/__init__.py": "", "browser/check/test_x.py": ""},  # a kind's own folders
])
def test_a_name_or_kind_that_mirrors_nothing_passes(tmp_path, extra):
    assert misplaced(*fake_tree(tmp_path, extra)) == []


@pytest.mark.parametrize(("where", "source", "caught"), [
    ("core/engine/test_flow.py", "from tests.bench.engine import run_bench\n", True),
    ("browser/test_weight.py", "import tests.bench.browser\n", True),
    ("support/web.py", "def late():\n    from tests.bench import web\n", True),
    ("web/check/test_check.py", "from tests.support.web import start_group\n", False),
    ("bench/web.py", "from tests.bench import engine\n", False),
])
def test_a_test_importing_a_benchmark_is_caught(tmp_path, where, source, caught):
    tests, _ = fake_tree(tmp_path, {where: source})
    assert bool(bench_imports(tests)) is caught
