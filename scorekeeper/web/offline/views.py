"""``/sw.js``: the service worker, served at the root so its scope is the whole app.

The script lives in ``static/sw.js``; its ``__VERSION__`` is replaced by a digest of
every static file, so any change to the CSS, the scripts or the icons makes a new
worker, which the browser finds on the next visit (the script is never cached) and
which drops the old caches when it takes over.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from flask import Blueprint, Response, current_app

bp = Blueprint("offline", __name__)


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
    source = (Path(folder) / "sw.js").read_text(encoding="utf-8")
    response = Response(source.replace("__VERSION__", _version(folder)),
                        mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Service-Worker-Allowed"] = "/"
    return response
