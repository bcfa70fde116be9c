"""A link's QR code, so a second phone joins by pointing its camera at the first.

Drawn on the server as SVG (segno) and served as an image of its own (the pages that
show it link it with ``loading="lazy"``): the scoreboard, shown after every save, costs
nothing more, and the Content-Security-Policy (no inline style) is kept.
"""

from __future__ import annotations

import io
from functools import lru_cache

import segno
from flask import Response

__all__ = ["qr_response", "qr_svg"]


@lru_cache(maxsize=256)
def qr_svg(url: str) -> bytes:
    """The QR code of ``url`` as SVG, dark on white (a camera reads it in the dark
    theme too)."""
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=4, border=2, dark="#000",
                                    light="#fff", xmldecl=False)
    return out.getvalue()


def qr_response(url: str) -> Response:
    """The code as an image response, kept by the phone for a day (a new link is a
    new image address, so nothing stale is shown)."""
    response = Response(qr_svg(url), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "private, max-age=86400"
    return response
