"""Links: absolute ones to share (invite and view links), and cheap ones for pages.

With ``SCOREKEEPER_PUBLIC_URL`` set, every shared link starts with it, whatever Host
header a request carried; without it, the request's host is used (the embedded server
on a home network, where ``TRUSTED_HOSTS`` may also be set).

``url_for`` walks the URL map each time (tens of microseconds); a page that links
every row of a table pays that dozens of times. :func:`url_for_ids`, :func:`url_pattern`
and :func:`static_url` give the same URLs from what was built once per app (see
:mod:`scorekeeper.web.memo`).
"""

from __future__ import annotations

from typing import Any

from flask import current_app, has_request_context, url_for

from scorekeeper.web.memo import remembered

_STAND_IN = 1_000_000_007  # built into a pattern in place of each value: digits no route spells


def public_url(endpoint: str, **values: Any) -> str:
    """The absolute URL of ``endpoint`` for people to open on their phones."""
    base = current_app.config.get("PUBLIC_URL", "")
    if base:
        return base + url_for(endpoint, **values)
    return url_for(endpoint, _external=True, **values)


def url_for_ids(endpoint: str, **values: Any) -> str:
    """``url_for(endpoint, **values)`` when every value is a whole number (ids, hand
    numbers): the route's :func:`url_pattern`, filled in. Anything else (text, a
    blueprint-relative endpoint) goes to ``url_for`` itself."""
    if endpoint.startswith(".") or not all(type(v) is int and v >= 0 for v in values.values()):
        return url_for(endpoint, **values)
    return url_pattern(endpoint, *values).format_map(values)


def url_pattern(endpoint: str, *names: str) -> str:
    """The URL of ``endpoint`` with ``{name}`` where each (whole-number) value goes, for
    ``str.format``: built by ``url_for`` once per app, so a table can link every row."""
    if not has_request_context():
        return _pattern(endpoint, names)
    return remembered(("url_pattern", endpoint, names), lambda: _pattern(endpoint, names))


def static_url(filename: str) -> str:
    """``url_for("static", filename=...)`` (a fingerprinted name), once per file."""
    if not has_request_context():
        return url_for("static", filename=filename)
    return remembered(("static", filename), lambda: url_for("static", filename=filename))


def _pattern(endpoint: str, names: tuple[str, ...]) -> str:
    """The route's URL with ``{name}`` where each value goes, for ``str.format_map``."""
    stand_ins: dict[str, Any] = {name: _STAND_IN + i for i, name in enumerate(names)}
    url = url_for(endpoint, **stand_ins).replace("{", "{{").replace("}", "}}")
    for name, number in stand_ins.items():
        url = url.replace(str(number), "{" + name + "}")
    return url
