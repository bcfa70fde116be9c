"""Every ``>>>`` example in the package's docstrings runs and holds.

The one place doctests run (pytest's ``--doctest-modules`` is not used). The modules
are those whose source shows an example, read from the files that exist when the tests
are collected, so a module added, split or removed is picked up by itself; each case
must find and run at least one example, so none passes without checking anything.
Every module of the pure core must show an example, and so must each public engine
function and class on :data:`DOCUMENTED`.
"""

from __future__ import annotations

import doctest
import importlib
import inspect
from pathlib import Path
from typing import Any

import pytest

import scorekeeper
import scorekeeper.core.engine as engine

PACKAGE = Path(scorekeeper.__file__).resolve().parent
FINDER = doctest.DocTestFinder(recurse=False)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


SOURCES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))
           if "migrations" not in p.parts}
WITH_EXAMPLES = sorted(name for name, path in SOURCES.items()
                       if ">>>" in path.read_text(encoding="utf-8"))
PURE_CORE = sorted(name for name in SOURCES
                   if name in ("scorekeeper.core.cards", "scorekeeper.core.sheets",
                               "scorekeeper.core.scoring", "scorekeeper.core.deal")
                   or name.startswith("scorekeeper.core.engine"))

# The engine's public API (names from its ``__all__``, methods as ``Class.method``)
# whose docstrings carry an example; an entry losing its example fails below.
DOCUMENTED = (
    "HandInPlay.deal", "HandInPlay.start", "Move.draw", "Move.name", "Move.parse", "Move.play",
    "SetupError", "Sheet.summary", "Verdict", "Verdict.but", "parse_card", "run",
)


def public_api() -> dict[str, Any]:
    """Every name of the engine's ``__all__``, and each public method of its classes,
    mapped to the object whose docstring documents it."""
    found: dict[str, Any] = {}
    for name in engine.__all__:
        obj = getattr(engine, name)
        found[name] = obj
        if inspect.isclass(obj):
            for attr, member in vars(obj).items():
                if not attr.startswith("_"):
                    found[f"{name}.{attr}"] = _documented(member)
    return found


def _documented(member: Any) -> Any:
    """The function behind a class attribute (classmethods and properties unwrapped)."""
    if isinstance(member, classmethod | staticmethod):
        return member.__func__
    if isinstance(member, property):
        return member.fget
    return member


def examples_of(obj: Any, name: str) -> int:
    """How many ``>>>`` examples the object's own docstring holds."""
    if not (inspect.isclass(obj) or inspect.isroutine(obj)):
        return 0
    return sum(len(test.examples) for test in FINDER.find(obj, name, module=False))


@pytest.mark.parametrize("name", WITH_EXAMPLES)
def test_examples_hold(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0, f"{name} shows '>>>' but no docstring example was found"
    assert result.failed == 0


@pytest.mark.parametrize("name", PURE_CORE)
def test_the_pure_core_shows_examples(name: str) -> None:
    assert name in WITH_EXAMPLES, f"{name} has no >>> example"


def test_the_documented_engine_api_is_public() -> None:
    missing = sorted(set(DOCUMENTED) - public_api().keys())
    assert not missing, f"not in the engine's public API (update DOCUMENTED): {missing}"


@pytest.mark.parametrize("name", DOCUMENTED)
def test_the_engine_api_keeps_its_examples(name: str) -> None:
    obj = public_api().get(name)
    assert obj is None or examples_of(obj, name) > 0, f"{name} lost its >>> example"


def test_every_example_of_the_engine_api_is_kept() -> None:
    # A new example on the public API joins DOCUMENTED, so it is kept from then on.
    shown = sorted(name for name, obj in public_api().items() if examples_of(obj, name))
    assert sorted(set(shown) - set(DOCUMENTED)) == [], "add these to DOCUMENTED"
