"""A link's QR code on the page, so a second phone joins by pointing its camera.

Drawn on the server as SVG (segno) and sent as a ``data:`` image: the page needs no
script for it and the Content-Security-Policy (no inline style) is kept. A link's code
is made once per process: the scoreboard is shown after every save.
"""

from __future__ import annotations

from functools import lru_cache

import segno


@lru_cache(maxsize=512)
def qr_code(url: str) -> str:
    """The QR code of ``url`` as a ``data:image/svg+xml`` address, dark on white (a
    camera reads it in the dark theme too)."""
    return str(segno.make(url, error="m").svg_data_uri(scale=1, border=2, dark="#000",
                                                        light="#fff"))
