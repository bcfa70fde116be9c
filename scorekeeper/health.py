"""Health checks for load balancers: ``/healthz`` (alive) and ``/readyz`` (ready).

* ``/healthz`` answers 200 while the process serves requests; it touches nothing else.
* ``/readyz`` answers 200 when the database answers a query and the rate-limit storage
  is the shared one configured; otherwise 503 naming each part that failed.

Both are answered by a small WSGI layer in front of the app, before the ``Host``
header is looked at: a balancer asks each host by its own address, which
``TRUSTED_HOSTS`` rightly refuses for pages. Accepting any ``Host`` here opens
nothing: these answers read only the method and the path, build no link, set no
cookie and echo nothing from the request.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from scorekeeper.extensions import storage_problem
from scorekeeper.store.extensions import db

LIVE = "/healthz"
READY = "/readyz"
HEADERS = [("Content-Type", "application/json"), ("Cache-Control", "no-store"),
           ("X-Content-Type-Options", "nosniff")]

StartResponse = Callable[..., Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


def readiness(app: Flask) -> dict[str, str]:
    """The parts that are not ready, each with why (empty when all are)."""
    failed: dict[str, str] = {}
    with app.app_context():
        try:
            db.session.execute(text("SELECT 1"))
        except SQLAlchemyError as exc:
            app.logger.warning("readiness: the database does not answer: %s", exc)
            failed["database"] = f"does not answer ({type(exc).__name__})"
        finally:
            db.session.remove()
        problem = storage_problem(app)
        if problem:
            failed["rate_limits"] = problem
    return failed


class Health:
    """The WSGI layer answering the two health paths; every other request passes on."""

    def __init__(self, app: Flask, inner: WsgiApp) -> None:
        self.app, self.inner = app, inner

    def __call__(self, environ: dict[str, Any], start_response: StartResponse):
        path = environ.get("PATH_INFO", "")
        if path not in (LIVE, READY):
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
    app.wsgi_app = Health(app, app.wsgi_app)  # type: ignore[method-assign]
