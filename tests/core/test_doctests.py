"""Every ``>>>`` example in the package's docstrings runs and holds.

The one place doctests run (pytest's ``--doctest-modules`` is not used): the whole
package, so an example anywhere (cards, sheets, scoring, deal, engine, records...) is
checked once; and every module of the pure core must show at least one.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import scorekeeper

MODULES = sorted(
    info.name for info in pkgutil.walk_packages(scorekeeper.__path__, "scorekeeper.")
    if ".migrations" not in info.name
)
PURE_CORE = ("scorekeeper.core.cards", "scorekeeper.core.sheets", "scorekeeper.core.scoring",
             "scorekeeper.core.deal", "scorekeeper.core.engine",
             *(m for m in MODULES if m.startswith("scorekeeper.core.engine.")))


@pytest.mark.parametrize("name", MODULES)
def test_examples_hold(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0


@pytest.mark.parametrize("name", PURE_CORE)
def test_the_pure_core_shows_examples(name: str) -> None:
    finder = doctest.DocTestFinder()
    examples = sum(len(t.examples) for t in finder.find(importlib.import_module(name)))
    assert examples > 0, f"{name} has no >>> example"
