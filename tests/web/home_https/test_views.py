"""``/https`` ("HTTPS at home") and ``/https/ca.pem``, the authority ``serve --https`` made."""

from __future__ import annotations

import pytest

from scorekeeper.cli import certificates
from tests.support.parsed import Page, hrefs

pytestmark = pytest.mark.no_database


def test_the_page_explains_without_an_authority(client):
    response = client.get("/https")
    assert response.status_code == 200
    page = Page(response)
    assert page.heading(1) == "HTTPS at home"
    assert page.names("heading") == [
        "HTTPS at home", "What plain HTTP leaves out", "Two ways to HTTPS",
        "Trust the authority on a phone", "iPhone and iPad", "Android"]
    assert {"scorekeeper serve --https", "scorekeeper serve --cert FILE --key FILE"} <= set(
        page.texts("code"))
    assert "/https/ca.pem" not in hrefs(page.all("a[href]"))  # no file to offer
    assert "This server was started without --https, so it has no authority" in page.text()


def test_no_authority_no_file(client):
    assert client.get("/https/ca.pem").status_code == 404


def test_the_authority_serve_made_is_offered(app, client, tmp_path):
    made = certificates.ensure(tmp_path / "https", ["192.168.1.20", "table.lan"])
    app.config.update(HTTPS_AUTHORITY=str(made.authority),
                      HTTPS_URL="https://192.168.1.20:5000/")
    page = Page(client.get("/https"))
    assert page.href("Download the certificate authority") == "/https/ca.pem"
    assert page.href("https://192.168.1.20:5000/") == "https://192.168.1.20:5000/"
    download = client.get("/https/ca.pem")
    assert download.status_code == 200
    assert download.mimetype == "application/x-x509-ca-cert"
    assert download.data == made.authority.read_bytes()
    assert "attachment" in download.headers["Content-Disposition"]


def test_over_https_the_page_says_the_phone_has_it_all(client):
    page = Page(client.get("/https", base_url="https://localhost"))
    assert "this phone has the whole app" in page.text()
