"""The engine's modules import each other without a cycle, type-only imports
included; the position's data module imports no other engine module; no engine
module reads or writes another object's private fields; and none builds objects
behind their constructors (``object.__new__``) or keys a cache by ``id()``.

Read from the source with :mod:`ast`, so an ``if TYPE_CHECKING:`` import counts.
"""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import scorekeeper.core.engine as engine

ENGINE = Path(engine.__file__).parent
PACKAGE = "scorekeeper.core.engine"


def trees() -> dict[str, ast.Module]:
    return {path.stem: ast.parse(path.read_text(), str(path))
            for path in sorted(ENGINE.glob("*.py"))}


def engine_imports(tree: ast.Module) -> set[str]:
    """The engine modules a module imports, anywhere in it (type-only ones too)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == PACKAGE:
            found |= {alias.name for alias in node.names if (ENGINE / f"{alias.name}.py").exists()}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(PACKAGE + "."):
            found.add(node.module.removeprefix(PACKAGE + ".").split(".")[0])  # type: ignore[union-attr]
        elif isinstance(node, ast.Import):
            found |= {a.name.removeprefix(PACKAGE + ".").split(".")[0] for a in node.names
                      if a.name.startswith(PACKAGE + ".")}
    return found


def graph() -> dict[str, set[str]]:
    return {name: engine_imports(tree) - {name} for name, tree in trees().items()
            if name != "__init__"}


def test_the_engine_modules_import_each_other_without_a_cycle() -> None:
    deps = graph()
    try:
        order = list(TopologicalSorter(deps).static_order())
    except CycleError as exc:
        raise AssertionError(f"import cycle: {' -> '.join(exc.args[1])}") from None
    assert set(order) >= set(deps) and "state" in deps and "listing" in deps["state"]


def test_type_only_imports_count_towards_the_graph() -> None:
    tree = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                     f"    from {PACKAGE}.state import Game\n")
    assert engine_imports(tree) == {"state"}


def test_the_position_data_imports_no_other_engine_module() -> None:
    assert graph()["position"] == set()


def own_objects(function: ast.AST, classes: set[str]) -> set[str]:
    """Names a function binds to an object it builds itself (``game = cls(...)``):
    a class's constructors may set up the private fields of what they build."""
    names = set()
    for node in ast.walk(function):
        if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Name)
                and node.value.func.id in classes | {"cls"}):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return names


def test_no_engine_module_touches_another_objects_private_fields() -> None:
    own = {"self", "cls", "other"}  # other: the same class, compared in __eq__
    for name, tree in trees().items():
        classes = {node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef):
                continue
            allowed = own | classes | own_objects(function, classes)
            for node in ast.walk(function):
                if (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                        and not node.attr.startswith("__")):
                    owner = node.value.id if isinstance(node.value, ast.Name) else None
                    assert owner in allowed, (f"{name}.py line {node.lineno}: .{node.attr} "
                                              f"of {ast.unparse(node.value)}")


def test_no_object_new_and_no_cache_keyed_by_id() -> None:
    for name, tree in trees().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == "__new__":
                assert not (isinstance(node.value, ast.Name) and node.value.id == "object"), (
                    f"{name}.py line {node.lineno} builds an object behind its constructor")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id != "id", f"{name}.py line {node.lineno} calls id()"
