"""``/sw.js``: the service worker, served at the root so its scope is the whole app.

The script lives in ``static/sw.js``; its ``__VERSION__`` is replaced by a digest of
every static file, so any change to the CSS, the scripts or the icons makes a new
worker, which the browser finds on the next visit (the script is never cached) and
which drops the old caches when it takes over. It is served minified like the other
scripts, compressed, with the version as its ETag: the browser's update checks are
answered 304 with no body while nothing changed.

The worker also fetches pages in the background to keep copies of them. Those requests
say so (``Scorekeeper-Copy: keep``) and a page fetched that way leaves the session's
messages alone: "Added Ben." belongs to the page the person is looking at, and a copy
that took it would both hide it from them and answer with a session cookie that races
theirs.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from flask import Blueprint, Response, current_app, get_flashed_messages, request

from scorekeeper.web.assets import minified

bp = Blueprint("offline", __name__)

COPY_HEADER = "Scorekeeper-Copy"


@bp.app_template_global("page_messages")
def page_messages() -> list[str] | list[tuple[str, str]]:
    """The flashed messages to show on this page: none on the worker's background copy."""
    if request.headers.get(COPY_HEADER) == "keep":
        return []
    return get_flashed_messages(with_categories=True)


@cache
def _version(folder: str) -> str:
    """A digest of the static files (screenshots aside): the worker's cache version."""
    digest = hashlib.sha256()
    for path in sorted(Path(folder).rglob("*")):
        if path.is_file() and "screenshots" not in path.parts:
            digest.update(path.relative_to(folder).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


@bp.get("/sw.js")
def worker() -> Response:
    """The service worker script with its version filled in; never cached by HTTP."""
    folder = current_app.static_folder or ""
    version = _version(folder)
    source = minified("sw.js", (Path(folder) / "sw.js").read_bytes())
    response = Response(source.replace(b"__VERSION__", version.encode()),
                        mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Service-Worker-Allowed"] = "/"
    response.set_etag(version)
    response.make_conditional(request)  # 304 with no body when the ETag matches
    return response
