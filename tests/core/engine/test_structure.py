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
    assert set(order) >= set(deps) and "state" in deps and "legal" in deps["state"]


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


# Radon's count (``radon cc``, default options): one, plus each branch point a reader
# has to follow.
MOST_COMPLEX = 15


class BranchCount(ast.NodeVisitor):
    """The branch points of one function's body, as radon's ``ComplexityVisitor``
    counts them by default: each if and conditional expression; each for and while,
    one more with an ``else``; each except handler, one more for a ``try``'s
    ``else``; each extra operand of and/or; each for and if of a comprehension; each
    case of a match but the wildcard; each assert (and nothing inside it). A function
    or class defined inside is counted on its own, not towards this one."""

    def __init__(self) -> None:
        self.count = 0

    def generic_visit(self, node: ast.AST) -> None:
        if isinstance(node, (ast.If, ast.IfExp)):
            self.count += 1
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            self.count += 1 + bool(node.orelse)
        elif isinstance(node, ast.Try):
            self.count += len(node.handlers) + bool(node.orelse)
        elif isinstance(node, ast.BoolOp):
            self.count += len(node.values) - 1
        elif isinstance(node, ast.comprehension):
            self.count += 1 + len(node.ifs)
        elif isinstance(node, ast.Match):
            wildcard = any(getattr(case.pattern, "pattern", False) is None
                           for case in node.cases)
            self.count += max(0, len(node.cases) - wildcard)
        super().generic_visit(node)

    def visit_Assert(self, node: ast.Assert) -> None:
        self.count += 1

    def visit_FunctionDef(self, node: ast.AST) -> None:
        """Counted on its own."""

    visit_AsyncFunctionDef = visit_ClassDef = visit_FunctionDef


def complexity(function: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """The cyclomatic complexity of ``function`` as radon counts it (:class:`BranchCount`
    over its body: decorators and defaults are not counted)."""
    counter = BranchCount()
    for statement in function.body:
        counter.visit(statement)
    return 1 + counter.count


def only_function(source: str) -> ast.FunctionDef:
    node = ast.parse(source).body[0]
    assert isinstance(node, ast.FunctionDef)
    return node


def test_the_count_follows_each_branch() -> None:
    f = only_function("def f(a, b):\n    if a and b or a:\n        return [x for x in a if x]\n"
                      "    try:\n        pass\n    except ValueError:\n        pass\n"
                      "    return 1 if b else 2\n")
    assert complexity(f) == 1 + 1 + 2 + 2 + 1 + 1


def test_the_count_takes_asserts_and_elses_as_radon_does() -> None:
    """An assert is one (what it tests is not looked into); a try's else, a loop's else
    one more; a nested function apart (radon 6.0.1 gives these same figures)."""
    f = only_function("def f(a):\n    assert a and a > 1\n    try:\n        pass\n"
                      "    except ValueError:\n        pass\n    else:\n        pass\n"
                      "    for x in a:\n        pass\n    else:\n        pass\n"
                      "    def g(b):\n        return b or 1\n")
    assert complexity(f) == 1 + 1 + (1 + 1) + (1 + 1)
    g = f.body[-1]
    assert isinstance(g, ast.FunctionDef) and complexity(g) == 2


def test_no_engine_function_is_more_complex_than_fifteen() -> None:
    found = {f"{name}.{node.name}": complexity(node) for name, tree in trees().items()
             for node in ast.walk(tree)
             if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
    assert len(found) > 100
    assert {name: n for name, n in found.items() if n > MOST_COMPLEX} == {}


def test_the_checker_page_matches_no_text_with_regular_expressions() -> None:
    """The page reads the verdict's fields; nothing in its room imports ``re``."""
    import scorekeeper.web.check as room

    for path in sorted(Path(room.__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module] if isinstance(node, ast.ImportFrom) else [])
            assert "re" not in names, f"{path.name} line {node.lineno} imports re"


def test_the_forced_pass_is_asked_in_one_place() -> None:
    """``facts.only_pass_left`` is the forced pass's one source, and one function of
    the package asks it; the pass it allows is taken only there."""
    import scorekeeper

    callers = {"only_pass_left": set(), "forced_pass": set()}
    for path in sorted(Path(scorekeeper.__file__).parent.rglob("*.py")):
        tree = ast.parse(path.read_text())
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef):
                continue
            for node in ast.walk(function):
                if isinstance(node, ast.Call):
                    called = getattr(node.func, "id", getattr(node.func, "attr", None))
                    if called in callers:
                        callers[called].add(f"{path.stem}.{function.name}")
    assert callers == {"only_pass_left": {"state.move_on"},
                       "forced_pass": {"state.move_on"}}
