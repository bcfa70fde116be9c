"""The database out of reach: which errors mean it, and one log line per outage.

A database server that is down, restarting, frozen or too slow (a statement or lock
timeout, see ``timeouts.py``) fails every request that needs it. That is no bug of
the request: it is answered with a 503 and ``Retry-After`` (``web/errors.py``), and a
client resends. Logging a traceback per request would bury the one fact that matters,
so each process logs the outage once, when it begins, and once more when a connection
succeeds again (SQLAlchemy's ``engine_connect`` event, after the pool's pre-ping).
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time

from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError, OperationalError, SQLAlchemyError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from scorekeeper.store.database_file import error_fault

log = logging.getLogger("scorekeeper")  # the app's logger (Flask names it after the app)
RETRY_AFTER = 5  # seconds a client should wait before it resends
_down: dict[str, float] = {}  # database (its URL, no password) → when the outage began
_lock = threading.Lock()


def unavailable(exc: BaseException) -> bool:
    """Whether ``exc`` says the database cannot be reached or did not answer in time
    (rather than that a statement is wrong)."""
    if isinstance(exc, PoolTimeout):  # every pooled connection is held up
        return True
    if not isinstance(exc, DBAPIError):
        return False
    if exc.connection_invalidated:
        return True
    if isinstance(exc.orig, sqlite3.Error):  # a file, not a server: busy, or at fault
        busy = "locked" in str(exc.orig) or "busy" in str(exc.orig)
        return busy or error_fault(exc) is not None  # full disk, read-only, damaged…
    return isinstance(exc, OperationalError)  # psycopg: refused, closed, timed out


def _name(engine: Engine) -> str:
    return engine.url.render_as_string(hide_password=True)


def report(engine: Engine, exc: SQLAlchemyError) -> None:
    """Log that ``engine``'s database is out of reach, once per outage."""
    name = _name(engine)
    with _lock:
        if name in _down:
            return
        _down[name] = time.monotonic()
    reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()
    log.error("the database %s does not answer (%s: %s); requests get a 503 until it does",
              name, type(exc).__name__, reason[0] if reason else "")


@event.listens_for(Engine, "engine_connect")
def _answers_again(connection: Connection) -> None:
    if not _down:
        return
    name = _name(connection.engine)
    with _lock:
        began = _down.pop(name, None)
    if began is not None:
        log.warning("the database %s answers again after %.1f s", name,
                    time.monotonic() - began)
