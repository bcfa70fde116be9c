"""Hardening for the open internet, wired in one place by :func:`create_app`.

* **Body size**: each request gets a limit before anything reads its body — the import
  endpoints ``IMPORT_MAX_BYTES`` (plus the upload form around the file), every other
  request ``REQUEST_MAX_BYTES`` — and a declared ``Content-Length`` over it is a 413 at
  once; a chunked body is read up to the limit, and one that goes on is a 413 too.
* **Ids**: an ``<int:…>`` in the path above 2³¹ − 1 is a 404 on every page and
  endpoint before its view runs, so it never reaches PostgreSQL's 32-bit ``integer``.
* **Proxies and hosts**: ``PROXIES`` = N trusts N proxies' ``X-Forwarded-*`` headers
  (Werkzeug's ``ProxyFix``), so the client's address, scheme and host are right under
  cheroot and gunicorn alike; Flask checks ``TRUSTED_HOSTS`` itself.
* **Cookies**: the session cookie (and the membership cookie, see ``web/access.py``)
  is ``Secure`` whenever the request came over HTTPS.
* **Headers** on every response: a Content-Security-Policy without inline script or
  style, ``frame-ancestors 'none'`` and ``X-Frame-Options: DENY`` against
  clickjacking, ``nosniff``, ``Referrer-Policy: same-origin`` (capability links must
  not leak to other sites), and HSTS over HTTPS; a 304 only ``nosniff`` and HSTS
  (see :data:`NOT_MODIFIED_HEADERS`). A dozen lines here rather than a
  library: these are all the headers the app needs, and the policy reads in one place.
* **Rate limits**: Flask-Limiter, set up in ``scorekeeper/extensions.py``.
"""

from __future__ import annotations

import io

from flask import Flask, current_app, request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from flask.wrappers import Request, Response
from werkzeug.exceptions import NotFound, RequestEntityTooLarge
from werkzeug.middleware.proxy_fix import ProxyFix

from scorekeeper.store.groups import MAX_ID

# Endpoints that take an export file; every other request gets REQUEST_MAX_BYTES.
IMPORT_ENDPOINTS = frozenset({"api_transfer.import_matches", "history.upload"})
# A replay of a whole hand (5,000 events at most) may be larger than other JSON bodies.
REPLAY_ENDPOINT = "api_replay.replay_view"
UPLOAD_FORM_BYTES = 64 * 1024

CSP = "; ".join((
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "media-src 'self' blob:",  # the screen kept on without a wake lock (app.js)
    "connect-src 'self'",
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
))
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
}
HSTS = "max-age=31536000"
# A 304 brings no document: a browser revalidating a page keeps the headers it stored
# with it (a 304's only update them), and a script's poll has nothing a policy could
# govern. So of the headers above it carries only nosniff (besides HSTS over HTTPS);
# the policy alone was 260 of a live poll's 548 bytes.
NOT_MODIFIED_HEADERS = {"X-Content-Type-Options": HEADERS["X-Content-Type-Options"]}


class SecureWhenHttps(SecureCookieSessionInterface):
    """The session cookie is ``Secure`` when the request came over HTTPS (seen through
    ``ProxyFix`` behind a TLS proxy), as well as when configured so; a request without
    one opens an empty session without building a signer."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(super().get_cookie_secure(app) or request.is_secure)

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        """A request without a session cookie (a spectator's live poll) gets an empty
        session at once: Flask would build the cookie's signer first, on every request."""
        if app.secret_key and not request.cookies.get(self.get_cookie_name(app)):
            return self.session_class()
        return super().open_session(app, request)


def body_limit() -> int:
    """The body size this request may send."""
    if request.endpoint in IMPORT_ENDPOINTS:
        return current_app.config["IMPORT_MAX_BYTES"] + UPLOAD_FORM_BYTES
    if request.endpoint == REPLAY_ENDPOINT:
        return current_app.config["REPLAY_MAX_BYTES"]
    return current_app.config["REQUEST_MAX_BYTES"]


def _limit_body() -> None:
    """Refuse an oversized body before anything reads it (registered first)."""
    limit = body_limit()
    request.max_content_length = limit
    if request.content_length is not None and request.content_length > limit:
        raise RequestEntityTooLarge(f"The request body is larger than {limit} bytes.")
    if request.content_length is None and "chunked" in request.headers.get(
            "Transfer-Encoding", "").lower():
        _buffer_chunked(limit)


def _buffer_chunked(limit: int) -> None:
    """Read a chunked body (no ``Content-Length``) up to ``limit``: a 413 if it goes on,
    else it is handed on as a body of known length.

    A server that passes chunked bodies through (gunicorn) leaves the limit to the app,
    and Werkzeug's limited stream then stops reading *at* the limit without saying so:
    the view would get a body cut short. Waitress and nginx buffer the body and refuse
    it themselves; this gives the same 413 under any server.
    """
    stream = request.environ["wsgi.input"]
    body = bytearray()
    while len(body) <= limit:
        data = stream.read(min(64 * 1024, limit + 1 - len(body)))
        if not data:
            break
        body.extend(data)
    if len(body) > limit:
        raise RequestEntityTooLarge(f"The request body is larger than {limit} bytes.")
    request.environ["wsgi.input"] = io.BytesIO(bytes(body))
    request.environ["CONTENT_LENGTH"] = str(len(body))


def _ids_in_range() -> None:
    """An id in the path beyond what a row can have is a 404, on every route, before
    any view runs (PostgreSQL's ``integer`` stops at 2³¹ − 1)."""
    for value in (request.view_args or {}).values():
        if isinstance(value, int) and not 0 <= value <= MAX_ID:
            raise NotFound("Nothing here by that id.")


def _headers(response: Response) -> Response:
    return secured(response, request.is_secure)


def secured(response: Response, https: bool) -> Response:
    """``response`` with the headers above (a 304's few), and HSTS when it goes out over
    HTTPS. Every answer gets them here: Flask's after its request, and a live poll's
    304 answered before Flask's request is made (``web/matches/live.py``)."""
    for name, value in (NOT_MODIFIED_HEADERS if response.status_code == 304
                        else HEADERS).items():
        response.headers.setdefault(name, value)
    if https:
        response.headers.setdefault("Strict-Transport-Security", HSTS)
    return response


def register(app: Flask) -> None:
    """Install proxies, body limits, cookies and headers on the app.

    Called before the other extensions, so the body limit runs before CSRF reads a form.
    """
    proxies = app.config["PROXIES"]
    if proxies:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies,  # type: ignore[method-assign]
                                x_host=proxies, x_port=proxies, x_prefix=proxies)
    app.session_interface = SecureWhenHttps()
    app.before_request(_limit_body)
    app.before_request(_ids_in_range)
    app.after_request(_headers)
    # Static files are answered before Flask sees the request (WhiteNoise, in
    # web/assets.py); it adds these to every file it serves.
    app.config["STATIC_HEADERS"] = dict(HEADERS)
