"""``/https`` ("HTTPS at home") and ``/https/ca.pem``, the authority ``serve --https`` made."""

from __future__ import annotations

import pytest

from scorekeeper.cli import certificates

pytestmark = pytest.mark.no_database


def text(response) -> str:
    return " ".join(response.get_data(as_text=True).split())


def test_the_page_explains_without_an_authority(client):
    page = client.get("/https")
    assert page.status_code == 200
    html = text(page)
    assert "HTTPS at home" in html and "What plain HTTP leaves out" in html
    assert "scorekeeper serve --https" in html and "--cert FILE --key FILE" in html
    assert "iPhone" in html and "Android" in html
    assert "/https/ca.pem" not in html  # no file to offer
    assert "started without <code>--https</code>" in html


def test_no_authority_no_file(client):
    assert client.get("/https/ca.pem").status_code == 404


def test_the_authority_serve_made_is_offered(app, client, tmp_path):
    made = certificates.ensure(tmp_path / "https", ["192.168.1.20", "table.lan"])
    app.config.update(HTTPS_AUTHORITY=str(made.authority),
                      HTTPS_URL="https://192.168.1.20:5000/")
    html = text(client.get("/https"))
    assert 'href="/https/ca.pem"' in html
    assert '<a href="https://192.168.1.20:5000/">' in html
    download = client.get("/https/ca.pem")
    assert download.status_code == 200
    assert download.mimetype == "application/x-x509-ca-cert"
    assert download.data == made.authority.read_bytes()
    assert "attachment" in download.headers["Content-Disposition"]


def test_over_https_the_page_says_the_phone_has_it_all(client):
    html = text(client.get("/https", base_url="https://localhost"))
    assert "this phone has the whole app" in html
