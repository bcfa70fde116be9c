"""``/https``: the page a phone on plain HTTP is pointed to ("HTTPS at home"), and
``/https/ca.pem``, the certificate authority ``scorekeeper serve --https`` made.

``serve --https`` says which authority it serves (``HTTPS_AUTHORITY``, the path of its
``ca.pem``) and the HTTPS address (``HTTPS_URL``); without them (plain ``serve``,
gunicorn) the page explains the two ways to HTTPS and offers no file. The same page is
what the plain-HTTP port beside HTTPS shows, so a phone gets the file and the steps in
one place.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, abort, current_app, render_template, request, send_file
from flask.wrappers import Response

bp = Blueprint("home_https", __name__)

# What phones install: a PEM certificate. Android's installer lists .crt files; iOS
# offers the profile for this media type.
AUTHORITY_TYPE = "application/x-x509-ca-cert"
AUTHORITY_NAME = "scorekeeper-ca.crt"


def _authority() -> Path | None:
    path = current_app.config.get("HTTPS_AUTHORITY")
    return Path(path) if path and Path(path).is_file() else None


@bp.get("/https")
def index() -> str:
    """What plain HTTP lacks, the two ways to HTTPS, the phone steps; the authority's
    file and the HTTPS address when this server made one."""
    return render_template("home_https/index.html", authority=_authority() is not None,
                           https_url=current_app.config.get("HTTPS_URL"),
                           secure=request.is_secure)


@bp.get("/https/ca.pem")
def authority() -> Response:
    """The authority's certificate, for a phone to install and trust."""
    path = _authority()
    if path is None:
        abort(404, "This server has made no certificate authority.")
    return send_file(path, mimetype=AUTHORITY_TYPE, as_attachment=True,
                     download_name=AUTHORITY_NAME, max_age=0)
