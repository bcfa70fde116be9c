"""Verifying and rebuilding the derived rows of a live database, a group at a time.

Each group is read in one transaction that sees one consistent snapshot, so a hand
another phone commits meanwhile is seen with all its derived rows or not at all (never
a false difference): SQLite's write-ahead log gives a reading transaction its own
snapshot once it has begun (begun explicitly: the driver would not for a SELECT), and
PostgreSQL gives one per transaction at ``REPEATABLE READ``. A rebuild takes the
group's write locks first — SQLite's ``BEGIN IMMEDIATE``, PostgreSQL's row locks on
the group's matches, which every writer claims before it writes — so no save slips in
between the rows it reads and the rows it rewrites; saves wait, they do not fail.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from sqlalchemy import select
from sqlalchemy.engine import Connection, Engine

from scorekeeper.store import projection
from scorekeeper.store.models import Group, Match
from scorekeeper.store.projection import Difference

__all__ = ["group_ids", "rebuild_groups", "verify_groups"]


def group_ids(engine: Engine) -> list[int]:
    """Every group's id, in order."""
    with engine.connect() as connection:
        return list(connection.scalars(select(Group.id).order_by(Group.id)))


@contextmanager
def _transaction(engine: Engine, *, write: bool) -> Iterator[Connection]:
    """One transaction: a consistent snapshot to read, or the write lock taken first."""
    if engine.dialect.name == "sqlite":
        with engine.connect() as raw:
            connection = raw.execution_options(isolation_level="AUTOCOMMIT")
            connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                yield connection
            except BaseException:
                connection.exec_driver_sql("ROLLBACK")
                raise
            connection.exec_driver_sql("COMMIT")
        return
    level = "READ COMMITTED" if write else "REPEATABLE READ"
    with engine.connect() as raw:
        connection = raw.execution_options(isolation_level=level)
        with connection.begin():
            yield connection


def verify_groups(engine: Engine, groups: Sequence[int]) -> list[Difference]:
    """Every difference between stored and recomputed derived rows in these groups."""
    found = []
    for group_id in groups:
        with _transaction(engine, write=False) as connection:
            found += projection.verify(connection, group_id)
    return found


def rebuild_groups(engine: Engine, groups: Sequence[int]) -> dict[int, int]:
    """Rewrite every derived row of these groups, one transaction per group; answers
    how many values were wrong in each."""
    wrong = {}
    for group_id in groups:
        with _transaction(engine, write=True) as connection:
            if engine.dialect.name != "sqlite":  # the writers' own first lock, taken first
                connection.execute(select(Match.id).where(Match.group_id == group_id)
                                   .order_by(Match.id).with_for_update())
            wrong[group_id] = projection.rebuild(connection, group_id)
    return wrong
