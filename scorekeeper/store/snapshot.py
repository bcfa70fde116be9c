"""One snapshot for a read of several statements: a match's row, its hands, their seats'
cards and its rulings as they all stood at one moment, whatever is written meanwhile.

A page that reads a match in several statements would otherwise see a hand saved or
edited between two of them: a hand without its cards, or a hand whose row says one
seat went out while its cards say another. Each database gives one snapshot its own
way, and this module is the one place that knows them:

- PostgreSQL: a transaction at ``REPEATABLE READ`` sees the database as of its first
  statement (``READ COMMITTED``, the default, takes a new snapshot per statement). A
  transaction that only reads never fails for it.
- SQLite: in write-ahead-log mode, the statements of one transaction read one snapshot;
  Python's driver opens no transaction for a ``SELECT``, so an explicit ``BEGIN``
  opens it (deferred: it takes no lock and holds no writer back).

The connection is a new one from the pool, not the session's: what it reads is only
read, and it is rolled back when the block ends.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy.engine import Connection

from scorekeeper.store.extensions import db

__all__ = ["snapshot"]


@contextmanager
def snapshot() -> Iterator[Connection]:
    """A connection whose every read inside the block sees one moment of the database."""
    with db.engine.connect() as connection:
        if connection.dialect.name == "sqlite":
            connection.exec_driver_sql("BEGIN")
        else:
            connection.execution_options(isolation_level="REPEATABLE READ")
        try:
            yield connection
        finally:
            connection.rollback()
