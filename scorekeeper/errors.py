"""Error pages: JSON under ``/api/``, a friendly page everywhere else.

Never a bare 500: unexpected errors are logged, the transaction is rolled back, and
the person sees a short apology with a way back.
"""

from __future__ import annotations

from flask import Flask, current_app, jsonify, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, InternalServerError

from .extensions import db


def wants_json() -> bool:
    """API paths answer in JSON, whatever the client accepts."""
    return request.path.startswith("/api/")


def api_error(status: int, message: str, field: str | None = None, **extra: object):
    """A JSON error body: ``{"error": {"status", "message", "field"}}``."""
    body: dict[str, object] = {"status": status, "message": message}
    if field is not None:
        body["field"] = field
    body.update(extra)
    return jsonify(error=body), status


def _http_error(exc: HTTPException):
    status = exc.code or 500
    message = exc.description or exc.name
    # Keep the exception's own headers (a 405's Allow), not its HTML content type.
    headers = [(k, v) for k, v in exc.get_headers() if k.lower() != "content-type"]
    if wants_json():
        body, status = api_error(status, message)
        return body, status, headers
    page = render_template("error.html", status=status, title=exc.name, message=message)
    return page, status, headers


def _csrf_error(exc: CSRFError):
    message = "This form was open too long or came from elsewhere. Reload the page and try again."
    if wants_json():
        return api_error(400, message)
    return render_template("error.html", status=400, title="Form expired", message=message), 400


def _unexpected(exc: Exception):
    current_app.logger.exception("unhandled error on %s %s", request.method, request.path)
    db.session.rollback()
    return _http_error(InternalServerError("Something went wrong on our side; nothing was saved."))


def register(app: Flask) -> None:
    """Install the handlers on the app."""
    app.register_error_handler(CSRFError, _csrf_error)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _unexpected)
