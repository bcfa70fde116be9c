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

import re
from typing import Any

from flask import current_app, has_request_context, url_for

from scorekeeper.web.memo import remembered

_TOKEN = re.compile(r"[A-Za-z0-9_-]+")
_STAND_IN = 1_000_000_007  # built into a pattern in place of each value: digits no route spells


def public_url(endpoint: str, **values: Any) -> str:
    """The absolute URL of ``endpoint`` for people to open on their phones."""
    base = current_app.config.get("PUBLIC_URL", "")
    if base:
        return base + url_for(endpoint, **values)
    return url_for(endpoint, _external=True, **values)


def url_for_ids(endpoint: str, **values: Any) -> str:
    """``url_for(endpoint, **values)`` when every value is a whole number (ids, hand
    numbers) or a token of letters, digits, ``-`` and ``_`` (which URLs carry as they
    are): the route's :func:`url_pattern`, filled in. Anything else (other text, a
    blueprint-relative endpoint) goes to ``url_for`` itself."""
    if endpoint.startswith(".") or not all(map(_plain, values.values())):
        return url_for(endpoint, **values)
    return url_pattern(endpoint, *values).format_map(values)


def _plain(value: Any) -> bool:
    """Whether ``url_for`` would put ``value`` into a URL unchanged, as its digits or
    characters (a bool is refused: it is an int, but not an id)."""
    if type(value) is int:
        return value >= 0
    return type(value) is str and _TOKEN.fullmatch(value) is not None


def url_pattern(endpoint: str, *names: str) -> str:
    """The URL of ``endpoint`` with ``{name}`` where each value goes (a whole number or a
    plain token, see :func:`url_for_ids`), for ``str.format``: built by ``url_for`` once
    per app, so a table can link every row."""
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
