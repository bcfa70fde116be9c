"""Static files with fingerprinted URLs cached for a year, and compressed pages.

- ``url_for('static', filename='style.css')`` gives ``/static/style.<hash>.css``: the
  hash is the first 12 hex digits of the file's SHA-256, so a changed file gets a new
  URL and a phone may keep the old one for a year without asking again.
- WhiteNoise (WSGI middleware, in front of Flask: no session, no database) serves
  ``/static``: fingerprinted names as ``Cache-Control: max-age=31536000, public,
  immutable``, plain names (the service worker, the manifest's icons, old links) with
  ``max-age=0`` so they are revalidated; both answer conditional requests with a 304.
  The fingerprinted copies and their gzip/brotli versions are written once, by
  WhiteNoise's own compressor, into ``instance/static-cache`` (content-addressed, so
  several workers writing at once write the same bytes).
- The fingerprinted copies of scripts and stylesheets are minified (rjsmin, rcssmin:
  comments and indentation go, about a quarter less on the wire after brotli); the
  files in ``static/`` stay as written. The hash is that of the bytes served.
- Flask-Compress compresses HTML and JSON responses for browsers that accept it.
- Static answers carry the app's security headers too (``STATIC_HEADERS``, set by
  ``scorekeeper/web/security.py``): WhiteNoise answers before any ``after_request`` runs.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from typing import Any

from flask import Flask
from flask_compress import Compress
from rcssmin import cssmin
from rjsmin import jsmin
from whitenoise import WhiteNoise
from whitenoise.compress import Compressor

YEAR = 365 * 24 * 60 * 60
FINGERPRINTED = re.compile(r"\.[0-9a-f]{12}(\.[\w]+)?$")


class StaticFiles(WhiteNoise):
    """WhiteNoise with a one-year lifetime for fingerprinted files (its default is ten)."""

    FOREVER = YEAR

    def immutable_file_test(self, path: str, url: str) -> bool:
        """Only fingerprinted names are immutable; a plain name may change any day."""
        return bool(FINGERPRINTED.search(url))


def fingerprinted(name: str, data: bytes) -> str:
    """``style.css`` → ``style.<12 hex digits of SHA-256>.css``."""
    digest = hashlib.sha256(data).hexdigest()[:12]
    stem, dot, ext = name.rpartition(".")
    return f"{stem}.{digest}.{ext}" if dot and stem else f"{name}.{digest}"


def minified(name: str, data: bytes) -> bytes:
    """What is served for a script or stylesheet: the same code without comments and
    indentation (``/*!`` comments are kept); other files as they are."""
    if name.endswith(".js"):
        return jsmin(data.decode("utf-8")).encode("utf-8")
    if name.endswith(".css"):
        return cssmin(data.decode("utf-8")).encode("utf-8")
    return data


def _write_once(path: Path, data: bytes) -> bool:
    """Write a content-addressed file unless it is there; atomic, so workers can race."""
    if path.exists():
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}")
    tmp.write_bytes(data)
    os.replace(tmp, path)
    return True


def build_cache(static: Path, cache: Path) -> dict[str, str]:
    """Fingerprinted (minified, compressed) copies of the files at the top of the static
    folder, the ones pages link to (not the README's screenshots); ``{name: hashed}``."""
    compressor = Compressor(quiet=True)
    names = {}
    for path in sorted(p for p in static.glob("*") if p.is_file()):
        name = path.relative_to(static).as_posix()
        data = minified(name, path.read_bytes())
        names[name] = fingerprinted(name, data)
        target = cache / names[name]
        if _write_once(target, data) and compressor.should_compress(target.name):
            list(compressor.compress(str(target)))  # writes .gz (and .br) beside it
    return names


def register(app: Flask) -> None:
    """Serve ``/static`` through WhiteNoise with fingerprinted URLs; compress responses."""
    static, cache = Path(app.static_folder or ""), Path(app.instance_path) / "static-cache"
    try:
        names = build_cache(static, cache)
    except OSError as exc:  # a read-only instance folder: plain names, still served
        app.logger.warning("static files are not fingerprinted: %s", exc)
        names = {}
    extra = app.config.get("STATIC_HEADERS", {})

    def add_headers(headers: Any, _path: str, _url: str) -> None:
        for name, value in extra.items():
            headers.setdefault(name, value)

    files = StaticFiles(app.wsgi_app, max_age=0, add_headers_function=add_headers)
    files.add_files(str(static), prefix="static/")
    if names:
        files.add_files(str(cache), prefix="static/")
    app.wsgi_app = files  # type: ignore[method-assign]

    @app.url_defaults
    def _fingerprint(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint == "static" and values.get("filename") in names:
            values["filename"] = names[values["filename"]]

    app.config.setdefault("COMPRESS_MIMETYPES", [
        "text/html", "application/json", "text/css", "application/javascript", "text/javascript",
        "image/svg+xml", "text/csv", "application/manifest+json"])
    # Kept where the live poll finds it: it compresses a spectator's answer once per
    # version (web/matches/live.py) with these same settings.
    app.extensions["compress"] = Compress(app)
