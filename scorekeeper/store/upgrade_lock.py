"""One migration at a time, however many hosts start at once.

Every host may run the upgrade as it starts (``scorekeeper serve`` does; so may a
release step on each machine). Without a lock, two upgrades on an empty database both
try to create ``alembic_version`` and one fails. Held around the whole migration run,
the lock makes the others wait; each then reads the version the first one left and
finds nothing to do.

* PostgreSQL: a session-level advisory lock (``pg_advisory_lock``), held by the
  migrating connection and released when it ends, even if the process dies.
* SQLite: a lock file beside the database (``filelock``: ``flock`` on POSIX, the
  Windows equivalent there), released when the process ends too.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from filelock import FileLock
from sqlalchemy import text
from sqlalchemy.engine import Connection

# The advisory lock's key: any fixed 64-bit number the app's other locks do not use.
ADVISORY_KEY = 0x5C0E_4EE9  # "scorekeeper"
WAIT_SECONDS = 600  # an upgrade that long is stuck: fail rather than hang a deploy


@contextmanager
def upgrade_lock(connection: Connection) -> Iterator[None]:
    """Hold the database's migration lock on ``connection`` for the block."""
    dialect = connection.dialect.name
    if dialect == "postgresql":
        with _advisory(connection):
            yield
    elif dialect == "sqlite" and connection.engine.url.database not in (None, "", ":memory:"):
        with FileLock(f"{connection.engine.url.database}.upgrade-lock", timeout=WAIT_SECONDS):
            yield
    else:  # an in-memory database belongs to one process: nobody to wait for
        yield


@contextmanager
def _advisory(connection: Connection) -> Iterator[None]:
    connection.execute(text(f"SET lock_timeout = '{WAIT_SECONDS}s'"))
    connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": ADVISORY_KEY})
    # The migrations wait for locks and run as long as they need: no lock or statement
    # timeout (the app's connections start with both, see store/timeouts.py).
    connection.execute(text("SET lock_timeout = 0"))
    connection.execute(text("SET statement_timeout = 0"))
    connection.commit()  # the lock outlives this transaction; the migrations begin anew
    try:
        yield
    finally:
        connection.rollback()  # a failed migration leaves its transaction aborted
        connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": ADVISORY_KEY})
        connection.execute(text("RESET lock_timeout"))  # the pool gets it back as it was
        connection.execute(text("RESET statement_timeout"))
        connection.commit()
