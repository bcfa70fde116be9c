"""Static files carry a content hash in their URL and are cached for a year; pages
are compressed for browsers that accept it, and only for them."""

from __future__ import annotations

import gzip
import hashlib
import re
from pathlib import Path

from scorekeeper.web.assets import minified
from tests.support.parsed import Page

STATIC = Path(__file__).resolve().parents[2] / "static"
LINKED = re.compile(r"/static/([\w.-]+)\.([0-9a-f]{12})\.(\w+)")


def linked_static(page: Page) -> list[tuple[str, str, str]]:
    """Every static file the page names in an attribute (a stylesheet, a script, an
    icon, a script's data-* URL): its stem, its content hash, its extension."""
    return [found.groups() for tag in page.soup.find_all(True) for value in tag.attrs.values()
            if isinstance(value, str) and (found := LINKED.fullmatch(value))]


def test_static_urls_carry_a_content_hash_and_are_immutable_for_a_year(client):
    linked = linked_static(Page(client.get("/rules/")))
    assert {f"{stem}.{ext}" for stem, _, ext in linked} >= {"style.css", "app.js", "icon.svg"}
    for stem, digest, ext in linked:
        served = minified(f"{stem}.{ext}", (STATIC / f"{stem}.{ext}").read_bytes())
        assert digest == hashlib.sha256(served).hexdigest()[:12]
        response = client.get(f"/static/{stem}.{digest}.{ext}")
        assert response.status_code == 200
        assert response.data == served
        control = response.headers["Cache-Control"]
        assert "immutable" in control
        assert int(re.search(r"max-age=(\d+)", control).group(1)) >= 31536000


def test_static_files_come_compressed_and_answer_conditional_requests(client):
    sheets = Page(client.get("/rules/")).all('link[rel~="stylesheet"]')
    (url,) = [str(link["href"]) for link in sheets]
    assert re.fullmatch(r"/static/style\.[0-9a-f]{12}\.css", url)
    response = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert response.headers["Content-Encoding"] == "gzip"
    served = minified("style.css", (STATIC / "style.css").read_bytes())
    assert gzip.decompress(response.data) == served
    again = client.get(url, headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304


def test_plain_static_names_are_still_served_and_revalidated(client):
    response = client.get("/static/style.css")
    assert response.status_code == 200
    assert response.headers["Cache-Control"].startswith("max-age=0")


def test_html_is_compressed_when_the_browser_accepts_it(client):
    plain = client.get("/rules/")
    assert "Content-Encoding" not in plain.headers
    zipped = client.get("/rules/", headers={"Accept-Encoding": "gzip"})
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in zipped.headers["Vary"]
    assert gzip.decompress(zipped.data) == plain.data
    assert len(zipped.data) < len(plain.data) / 2
