"""One Core statement run for many rows of plain values at the driver's own speed.

``connection.execute(statement, rows)`` prepares each row's parameters in Python
(about 3 µs a row); an import writes each seat's cards and then its points, tens of
thousands of rows each, and that preparation alone would cost more than the database's
work. :func:`execute_many` compiles the statement once per dialect and hands the
driver's ``executemany`` the rows as they are (SQLite's positional tuples, or
PostgreSQL's named ones), so the statement stays a SQLAlchemy construct, portable and
checked, while each row costs what the driver takes.

For values the driver stores as given (integers, text, NULL): a type SQLAlchemy
converts on the way in (a datetime on SQLite) goes through ``connection.execute``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.sql import Executable

__all__ = ["execute_many"]


@lru_cache(maxsize=32)
def _compiled(statement: Executable, dialect: Dialect) -> tuple[str, tuple[str, ...] | None]:
    """The statement's text for ``dialect`` and, for a positional driver, the order of
    its parameters (None: the driver takes them by name)."""
    compiled = statement.compile(dialect=dialect, for_executemany=True)  # type: ignore[attr-defined]
    order = tuple(compiled.positiontup) if compiled.positional else None
    return compiled.string, order


def execute_many(connection: Connection, statement: Executable, names: tuple[str, ...],
                 rows: Sequence[tuple[Any, ...]]) -> None:
    """Run ``statement`` once for each of ``rows``, each row the values of its
    parameters ``names``, in the order the statement takes them (a positional driver is
    handed the rows as they are: another order is refused, not guessed)."""
    if not rows:
        return
    sql, order = _compiled(statement, connection.dialect)
    if order is not None and order != names:
        raise ValueError(f"the statement takes {order}, not {names}")
    given = rows if order is not None else [dict(zip(names, row, strict=True)) for row in rows]
    connection.exec_driver_sql(sql, given)
