"""Bounded waits on a database server: no request waits for PostgreSQL for long.

Every connection to PostgreSQL is opened with a connect timeout (psycopg's
``connect_timeout``) and starts with PostgreSQL's ``statement_timeout`` and
``lock_timeout`` (sent in the connection's ``options``), so a server that is slow, or
a row locked by a stuck transaction, fails the statement in seconds; the failure is a
503 that tells the client to resend (``store/outage.py``). Writes that are long on
purpose ask for more: an import (:func:`allow_long_statements`), and the migrations
(``upgrade_lock.py``), which keep no statement or lock timeout at all.

A server that stops answering altogether (its process frozen) holds an open socket
that no server-side timeout can end: the health check bounds its own wait
(``health.py``); a request then waits until the host's worker timeout.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import text
from sqlalchemy.orm import Session, scoped_session

# Defaults, each a setting of its own (instance/config.py).
DEFAULTS: dict[str, Any] = {
    "DATABASE_CONNECT_TIMEOUT": 3,  # seconds to connect (psycopg counts 2 at least)
    "DATABASE_STATEMENT_TIMEOUT": 5_000,  # milliseconds a statement may run
    "DATABASE_LOCK_TIMEOUT": 2_000,  # milliseconds a statement may wait for a lock
}
# An import writes up to 5,000 hands in one transaction; each statement may take this long.
LONG_STATEMENT_MS = 120_000


def engine_options(config: dict[str, Any]) -> dict[str, Any]:
    """SQLAlchemy engine options for a PostgreSQL URI: the timeouts above, merged into
    any ``connect_args`` the configuration gives (whose own values win)."""
    options = dict(config.get("SQLALCHEMY_ENGINE_OPTIONS") or {})
    given = dict(options.get("connect_args") or {})
    server = (f"-c statement_timeout={int(config['DATABASE_STATEMENT_TIMEOUT'])} "
              f"-c lock_timeout={int(config['DATABASE_LOCK_TIMEOUT'])}")
    if given.get("options"):
        server = f"{server} {given['options']}"
    options["connect_args"] = {"connect_timeout": int(config["DATABASE_CONNECT_TIMEOUT"]),
                               **given, "options": server}
    return options


def allow_long_statements(session: Session | scoped_session[Any]) -> None:
    """Let each statement of ``session``'s current transaction run
    :data:`LONG_STATEMENT_MS` (PostgreSQL's ``SET LOCAL``: the connection's own timeout
    comes back with the commit or rollback)."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(text(f"SET LOCAL statement_timeout = {LONG_STATEMENT_MS}"))
