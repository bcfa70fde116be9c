"""Absolute links to share (invite and view links): never built from a client's Host.

With ``SCOREKEEPER_PUBLIC_URL`` set, every shared link starts with it, whatever Host
header a request carried; without it, the request's host is used (the embedded server
on a home network, where ``TRUSTED_HOSTS`` may also be set).
"""

from __future__ import annotations

from typing import Any

from flask import current_app, url_for


def public_url(endpoint: str, **values: Any) -> str:
    """The absolute URL of ``endpoint`` for people to open on their phones."""
    base = current_app.config.get("PUBLIC_URL", "")
    if base:
        return base + url_for(endpoint, **values)
    return url_for(endpoint, _external=True, **values)
