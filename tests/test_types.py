"""The type checker's verdict: mypy is clean on the package, strictly on the pure core.

The settings live in pyproject.toml (``[tool.mypy]``): the whole package under the
defaults, ``scorekeeper.core`` under the flags ``mypy --strict`` turns on.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

api = pytest.importorskip("mypy.api", reason="mypy comes with the test extra")

ROOT = Path(__file__).resolve().parent.parent
STRICT_FLAGS = {"disallow_untyped_defs", "disallow_incomplete_defs", "disallow_untyped_calls",
                "disallow_untyped_decorators", "disallow_any_generics", "check_untyped_defs",
                "warn_return_any", "no_implicit_reexport", "strict_equality"}


def test_the_core_is_configured_strict():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    core = [o for o in config["overrides"] if "scorekeeper.core.*" in o["module"]]
    assert len(core) == 1
    assert {flag for flag in STRICT_FLAGS if core[0].get(flag) is True} == STRICT_FLAGS


def test_mypy_is_clean(monkeypatch):
    monkeypatch.chdir(ROOT)
    # mypy's own incremental cache (in the venv, see pyproject.toml): warm after
    # `.ci/run` has run mypy, and after any earlier run of this test.
    out, err, status = api.run([])
    assert status == 0, out + err
    assert "Success: no issues found" in out
