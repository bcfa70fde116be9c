"""Who writes the derived rows: a watch on every statement an engine runs.

The projection (``scorekeeper.store.projection``) alone writes a derived value. Which
values those are is read from the projection itself: every table its figures keep
(:data:`~scorekeeper.store.projection.DERIVED_FIGURES`), with the compared columns. A
table whose every column is a key or a compared one is derived as a whole (any
INSERT, UPDATE or DELETE of it counts); in a table of facts (``match``, ``seat``,
``hand``, ``hand_entry``) only the compared columns do.

A statement is the projection's when the nearest frame of the package on the stack,
the code that ran it, belongs to ``scorekeeper.store.projection``.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

from sqlalchemy import Delete, Insert, Update, event
from sqlalchemy.engine import Engine

from scorekeeper.store.extensions import db
from scorekeeper.store.projection import DERIVED_FIGURES

__all__ = ["PROJECTION", "derived_columns", "derived_writes", "watched"]

PROJECTION = "scorekeeper.store.projection"


@lru_cache(maxsize=1)
def derived_columns() -> dict[str, frozenset[str] | None]:
    """Each table the projection keeps: the derived columns of a table of facts, or
    None for a table derived as a whole."""
    found: dict[str, set[str]] = {}
    keys: dict[str, set[str]] = {}
    for figure in DERIVED_FIGURES:
        for kept in figure.tables:
            found.setdefault(kept.table, set()).update(kept.columns)
            keys.setdefault(kept.table, set()).update(kept.key)
    tables = db.metadata.tables
    return {name: None if set(tables[name].c.keys()) - {"id"} <= columns | keys[name]
            else frozenset(columns)
            for name, columns in found.items()}


def _written(statement: Any, multiparams: Any, params: Any) -> set[str]:
    """The columns an INSERT or UPDATE gives values to: its ``values()`` and the keys of
    its parameter sets."""
    names = {getattr(key, "key", key) for key in (getattr(statement, "_values", None) or {})}
    for given in (multiparams, params):
        rows = given if isinstance(given, list | tuple) else [given]
        for row in rows:
            if isinstance(row, Mapping):
                names.update(str(key) for key in row)
            elif isinstance(row, list | tuple):
                names.update(str(key) for item in row if isinstance(item, Mapping)
                             for key in item)
    return names


def _caller() -> str:
    """The package module nearest on the stack (the code that ran the statement)."""
    frame = sys._getframe(2)
    while frame is not None:
        name = frame.f_globals.get("__name__", "")
        if name.startswith("scorekeeper.") or name.startswith("tests."):
            return name
        frame = frame.f_back  # type: ignore[assignment]
    return "?"


def derived_writes(statement: Any, multiparams: Any, params: Any) -> str | None:
    """What of a derived table ``statement`` writes (``"rating_step"``,
    ``"hand.dealer"``), or None when it writes no derived value."""
    if not isinstance(statement, Insert | Update | Delete):
        return None
    table = getattr(statement.table, "name", None)
    derived = derived_columns()
    if table not in derived:
        return None
    columns = derived[table]
    if columns is None:
        return table
    if isinstance(statement, Delete):
        return None  # deleting facts (a hand, its entries) is the writer's
    hit = sorted(columns & _written(statement, multiparams, params))
    return ", ".join(f"{table}.{name}" for name in hit) or None


@contextmanager
def watched() -> Iterator[list[str]]:
    """Within the block, every derived write run by code outside the projection, as
    ``"<module> writes <what>"`` lines (an empty list: none)."""
    found: list[str] = []

    def check(conn: Any, clauseelement: Any, multiparams: Any, params: Any,
              execution_options: Any) -> None:
        statement = clauseelement
        what = derived_writes(statement, multiparams, params)
        if what is not None:
            caller = _caller()
            if not caller.startswith(PROJECTION):
                found.append(f"{caller} writes {what}")

    event.listen(Engine, "before_execute", check)
    try:
        yield found
    finally:
        event.remove(Engine, "before_execute", check)
