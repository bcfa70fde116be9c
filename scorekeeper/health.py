"""Health checks for load balancers: ``/healthz`` (alive) and ``/readyz`` (ready).

* ``/healthz`` answers 200 while the process serves requests; it touches nothing else.
* ``/readyz`` answers 200 when an SQLite database's file has no fault (it is there,
  readable, writable, an SQLite database, with room on its disk) and the database
  answers a query within
  :data:`PROBE_SECONDS`, this host's secret key is the one the database knows
  (``secret_key.py``) and the rate-limit storage is the shared one configured;
  otherwise 503 naming each part that failed.
* A host found holding the wrong secret key answers every other request with a 503
  saying so (its forms and cookies would fail anyway).

Both are answered by a small WSGI layer in front of the app, before the ``Host``
header is looked at: a balancer asks each host by its own address, which
``TRUSTED_HOSTS`` rightly refuses for pages. Accepting any ``Host`` here opens
nothing: these answers read only the method and the path, build no link, set no
cookie and echo nothing from the request.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask
from sqlalchemy.exc import SQLAlchemyError

from scorekeeper import secret_key
from scorekeeper.extensions import storage_problem
from scorekeeper.store import transaction
from scorekeeper.store.database_file import error_fault, file_fault

LIVE = "/healthz"
READY = "/readyz"
HEADERS = [("Content-Type", "application/json"), ("Cache-Control", "no-store"),
           ("X-Content-Type-Options", "nosniff")]

StartResponse = Callable[..., Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]
PROBE_SECONDS = 1.5  # how long /readyz waits for the database before it says "not ready"
_PROBE = "scorekeeper.readiness"  # app.extensions: the app's database probe


def readiness(app: Flask) -> dict[str, str]:
    """The parts that are not ready, each with why (empty when all are)."""
    failed = app.extensions[_PROBE].ask()
    problem = storage_problem(app)
    if problem:
        failed["rate_limits"] = problem
    return failed


def _database(app: Flask) -> dict[str, str]:
    """Check an SQLite database's file (gone, empty, read-only, not a database, a full
    disk: ``store/database_file.py``), ask the database (one query), then check the
    secret key against it."""
    fault = file_fault(app.config["SQLALCHEMY_DATABASE_URI"])
    if fault:
        return {"database": fault}
    with app.app_context():
        try:
            transaction.ping()
        except SQLAlchemyError as exc:
            transaction.report_outage(exc)
            named = error_fault(exc, app.config["SQLALCHEMY_DATABASE_URI"])
            return {"database": named or f"does not answer ({type(exc).__name__})"}
        finally:
            transaction.release()
    key = secret_key.check_key(app)
    return {"secret_key": key} if key else {}


class _Probe:
    """The database part of the readiness check, run in a thread of its own so that a
    database that never answers (its server frozen) cannot hold the check: the answer
    is "not ready" after :data:`PROBE_SECONDS`. One probe runs at a time per app;
    checks asked meanwhile wait for its answer, so a frozen database holds one thread
    (and one connection), however often the balancer asks."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self._lock = threading.Lock()
        self._current: tuple[threading.Event, dict[str, str]] | None = None

    def ask(self) -> dict[str, str]:
        with self._lock:
            if self._current is None:
                started: tuple[threading.Event, dict[str, str]] = (threading.Event(), {})
                self._current = started
                threading.Thread(target=self._run, args=started, daemon=True,
                                 name="scorekeeper-readiness").start()
            done, answer = self._current
        if not done.wait(PROBE_SECONDS):
            return {"database": f"does not answer within {PROBE_SECONDS:g} s"}
        return dict(answer)

    def _run(self, done: threading.Event, answer: dict[str, str]) -> None:
        try:
            answer.update(_database(self.app))
        except Exception as exc:  # never leave the waiters without an answer
            answer["database"] = f"could not be checked ({type(exc).__name__})"
        finally:
            with self._lock:
                self._current = None
            done.set()


class Health:
    """The WSGI layer answering the two health paths; every other request passes on."""

    def __init__(self, app: Flask, inner: WsgiApp) -> None:
        self.app, self.inner = app, inner

    def __call__(self, environ: dict[str, Any], start_response: StartResponse):
        path = environ.get("PATH_INFO", "")
        if path not in (LIVE, READY):
            if refused := secret_key.problem(self.app):  # the wrong key: serve nothing
                return _answer(start_response, "503 Service Unavailable",
                               {"error": {"status": 503, "message": refused}})
            return self.inner(environ, start_response)
        method = environ.get("REQUEST_METHOD")
        if method not in ("GET", "HEAD"):
            answer = _answer(start_response, "405 Method Not Allowed", {"status": "use GET"},
                             [("Allow", "GET, HEAD")])
        elif path == LIVE:
            answer = _answer(start_response, "200 OK", {"status": "alive"})
        elif failed := readiness(self.app):
            answer = _answer(start_response, "503 Service Unavailable",
                             {"status": "not ready", "failed": failed})
        else:
            answer = _answer(start_response, "200 OK", {"status": "ready"})
        return [] if method == "HEAD" else answer


def _answer(start_response: StartResponse, status: str, body: dict[str, Any],
            extra: list[tuple[str, str]] | None = None) -> list[bytes]:
    data = (json.dumps(body) + "\n").encode()
    start_response(status, [*HEADERS, *(extra or []), ("Content-Length", str(len(data)))])
    return [data]


def register(app: Flask) -> None:
    """Put the health layer in front of everything else the app's WSGI stack holds."""
    app.extensions[_PROBE] = _Probe(app)
    app.wsgi_app = Health(app, app.wsgi_app)  # type: ignore[method-assign]
