"""Error pages: a friendly page, or the API's JSON error under the API's paths.

Never a bare 500: unexpected errors are logged, the transaction is rolled back, and
the person sees a short apology with a way back. The database out of reach is no bug:
a 503 with ``Retry-After``, logged once per outage. Flask keeps one handler per kind of
error for the whole app, so the pages and the API share these handlers; the app
factory hands over the API's path prefix and its error body, so this module never
imports the API.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from flask import Flask, current_app, render_template, request
from flask.globals import request_ctx
from flask.typing import ResponseReturnValue
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import (
    DatabaseError,
    IntegrityError,
    InterfaceError,
    OperationalError,
    SQLAlchemyError,
)
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.exceptions import Conflict, HTTPException, InternalServerError

from scorekeeper.core.errors import InputError
from scorekeeper.store import outage, transaction
from scorekeeper.store.database_file import error_fault

# The JSON error body and its status, given the status, message and field at fault.
JsonError = Callable[[int, str, "str | None"], tuple[ResponseReturnValue, int]]
_KEY = "scorekeeper.json_errors"


@dataclass(frozen=True)
class _JsonErrors:
    """Which paths answer errors in JSON, and the body they answer with."""

    prefix: str
    body: JsonError


def _json_errors() -> _JsonErrors:
    found: _JsonErrors = current_app.extensions[_KEY]
    return found


def wants_json() -> bool:
    """API paths answer in JSON, whatever the client accepts."""
    return request.path.startswith(_json_errors().prefix)


def _json_error(status: int, message: str, field: str | None = None):
    """The error in JSON, as the API answers it."""
    return _json_errors().body(status, message, field)


def _http_error(exc: HTTPException):
    status = exc.code or 500
    message = exc.description or exc.name
    # Keep the exception's own headers (a 405's Allow), not its HTML content type.
    headers = [(k, v) for k, v in exc.get_headers() if k.lower() != "content-type"]
    if wants_json():
        body, status = _json_error(status, message)
        return body, status, headers
    if request_ctx.url_adapter is None:  # an untrusted Host: no links can be built
        return f"{status} {exc.name}: {message}\n", status, [
            *headers, ("Content-Type", "text/plain; charset=utf-8")]
    page = render_template("error.html", status=status, title=exc.name, message=message)
    return page, status, headers


def _csrf_error(exc: CSRFError):
    message = "This form was open too long or came from elsewhere. Reload the page and try again."
    if wants_json():
        return _json_error(400, message)
    return render_template("error.html", status=400, title="Form expired", message=message), 400


def _input_error(exc: InputError):
    """Bad input an endpoint let through: in the API its status, message and field; on
    a page it is a bug (pages show input errors on their fields), so a 500."""
    if wants_json():
        transaction.discard()  # nothing a refused request began is kept
        return _json_error(exc.status, exc.message, exc.field)
    return _unexpected(exc)


def _integrity_error(exc: IntegrityError):
    """A constraint the database enforced (a unique name, a foreign key) and no view
    caught: two requests raced. Nothing was saved; a 409 says so, never a 500."""
    current_app.logger.warning("integrity clash on %s %s: %s", request.method, request.path,
                               exc.orig)
    transaction.discard()
    return _http_error(Conflict("Someone changed this at the same moment, so nothing was "
                                "saved. Reload and try again."))


def _database_error(exc: SQLAlchemyError):
    """The database out of reach (down, frozen, too slow): a 503 with ``Retry-After``,
    logged once per outage (``store/outage.py``); any other database error is a bug."""
    if not outage.unavailable(exc):
        return _unexpected(exc)
    transaction.report_outage(exc)
    transaction.discard_if_reachable()  # the connection may be gone already
    retry = [("Retry-After", str(outage.RETRY_AFTER))]
    # the database file's own fault, named (database_file.py)
    fault = error_fault(exc, current_app.config["SQLALCHEMY_DATABASE_URI"])
    if wants_json():
        body, status = _json_error(503, f"The database file has a fault: {fault}; nothing "
                                   "was saved." if fault else "The database is not "
                                   "answering just now, so nothing was saved. Send the same "
                                   "request again in a few seconds (a new hand with the "
                                   "same Idempotency-Key).")
        return body, status, retry
    message = (f"The scorekeeper cannot save: its database file has a fault ({fault}). "
               "Nothing was saved." if fault else "The scorekeeper cannot reach its records "
               "just now, so nothing was saved. Wait a few seconds and try again.")
    page = render_template("error.html", status=503, title="Back in a moment",
                           message=message)
    return page, 503, retry


def _unexpected(exc: Exception):
    current_app.logger.exception("unhandled error on %s %s", request.method, request.path)
    transaction.discard()
    return _http_error(InternalServerError("Something went wrong on our side; nothing was saved."))


def register(app: Flask, json_prefix: str, json_error: JsonError) -> None:
    """Install the handlers on the app: under ``json_prefix`` errors are answered with
    ``json_error(status, message, field)``, elsewhere with the error page."""
    app.extensions[_KEY] = _JsonErrors(json_prefix, json_error)
    app.register_error_handler(CSRFError, _csrf_error)
    app.register_error_handler(InputError, _input_error)
    app.register_error_handler(IntegrityError, _integrity_error)
    app.register_error_handler(OperationalError, _database_error)
    app.register_error_handler(DatabaseError, _database_error)  # a damaged SQLite file
    app.register_error_handler(InterfaceError, _database_error)
    app.register_error_handler(PoolTimeout, _database_error)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _unexpected)
