"""Error pages: JSON under ``/api/``, a friendly page everywhere else.

Never a bare 500: unexpected errors are logged, the transaction is rolled back, and
the person sees a short apology with a way back.
"""

from __future__ import annotations

from flask import Flask, current_app, render_template, request
from flask.globals import request_ctx
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import IntegrityError
from werkzeug.exceptions import Conflict, HTTPException, InternalServerError

from scorekeeper.api.common import api_error
from scorekeeper.core.errors import InputError
from scorekeeper.store.extensions import db


def wants_json() -> bool:
    """API paths answer in JSON, whatever the client accepts."""
    return request.path.startswith("/api/")


def _http_error(exc: HTTPException):
    status = exc.code or 500
    message = exc.description or exc.name
    # Keep the exception's own headers (a 405's Allow), not its HTML content type.
    headers = [(k, v) for k, v in exc.get_headers() if k.lower() != "content-type"]
    if wants_json():
        body, status = api_error(status, message)
        return body, status, headers
    if request_ctx.url_adapter is None:  # an untrusted Host: no links can be built
        return f"{status} {exc.name}: {message}\n", status, [
            *headers, ("Content-Type", "text/plain; charset=utf-8")]
    page = render_template("error.html", status=status, title=exc.name, message=message)
    return page, status, headers


def _csrf_error(exc: CSRFError):
    message = "This form was open too long or came from elsewhere. Reload the page and try again."
    if wants_json():
        return api_error(400, message)
    return render_template("error.html", status=400, title="Form expired", message=message), 400


def _input_error(exc: InputError):
    """Bad input an endpoint let through: in the API its status, message and field; on
    a page it is a bug (pages show input errors on their fields), so a 500."""
    if wants_json():
        db.session.rollback()  # nothing a refused request began is kept
        return api_error(exc.status, exc.message, exc.field)
    return _unexpected(exc)


def _integrity_error(exc: IntegrityError):
    """A constraint the database enforced (a unique name, a foreign key) and no view
    caught: two requests raced. Nothing was saved; a 409 says so, never a 500."""
    current_app.logger.warning("integrity clash on %s %s: %s", request.method, request.path,
                               exc.orig)
    db.session.rollback()
    return _http_error(Conflict("Someone changed this at the same moment, so nothing was "
                                "saved. Reload and try again."))


def _unexpected(exc: Exception):
    current_app.logger.exception("unhandled error on %s %s", request.method, request.path)
    db.session.rollback()
    return _http_error(InternalServerError("Something went wrong on our side; nothing was saved."))


def register(app: Flask) -> None:
    """Install the handlers on the app."""
    app.register_error_handler(CSRFError, _csrf_error)
    app.register_error_handler(InputError, _input_error)
    app.register_error_handler(IntegrityError, _integrity_error)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _unexpected)
