"""The request's transaction and the app's database, as the rest of the package may
touch them: through these few functions, never through the session or the engine.

The store commits its own writes and rolls back its own refusals. What is left to the
front doors is the end of a request that failed (an error handler discards whatever
the request began), the readiness check's question to the database, and the
command line's and the server start's dealings with the engine as a whole.
"""

from __future__ import annotations

import contextlib

from sqlalchemy import text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError

from scorekeeper.store import outage
from scorekeeper.store.extensions import db

__all__ = ["database", "discard", "discard_if_reachable", "drop_connections", "ping",
           "release", "report_outage"]


def discard() -> None:
    """Roll back whatever this request began: nothing a refused request wrote is kept."""
    db.session.rollback()


def discard_if_reachable() -> None:
    """:func:`discard`, when the connection may be gone already (an outage)."""
    with contextlib.suppress(SQLAlchemyError):
        db.session.rollback()


def report_outage(exc: SQLAlchemyError) -> None:
    """Log that the app's database is out of reach, once per outage (:mod:`.outage`)."""
    outage.report(db.engine, exc)


def ping() -> None:
    """Ask the database one trivial question (the readiness check); its error if it
    cannot answer."""
    db.session.execute(text("SELECT 1"))


def release() -> None:
    """Give the session's connection back to the pool and forget the session."""
    db.session.remove()


def drop_connections() -> None:
    """Close every pooled connection, so none outlives a fork (gunicorn ``--preload``)."""
    db.engine.dispose()


def database() -> Engine:
    """The app's engine, to hand to the store's own functions that take one (the
    derived rows' verify and rebuild, :mod:`.upkeep`)."""
    return db.engine
