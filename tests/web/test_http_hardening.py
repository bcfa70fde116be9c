"""Hardening for the open internet, on both databases: each test sends what once broke
a live server and checks the answer it gets now.

1. request size: 413 before the body is read;   4. security headers on every response;
5. bad input: 400/404, never a 500;              6. links and cookies not built from
   whatever Host and scheme a client claims.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from scorekeeper.store.extensions import db
from scorekeeper.store.models import Group, Player
from tests.support.http import bearer, json_error, twin
from tests.support.parsed import Page

HUGE = 2**31  # one past PostgreSQL's integer
ROOT = Path(__file__).resolve().parents[2]
SCORE = {"sheet": {"game": "crazy-eights", "options": {}}, "seats": ["Ann", "Bob"],
         "out": "Ann", "blocked": False, "remaining": {"Ann": "", "Bob": "9c"}}


class Unreadable(io.RawIOBase):
    """A request body of ``size`` bytes that fails the test if anything reads it (it
    only answers the test client's questions about its length)."""

    def __init__(self, size: int) -> None:
        self.size, self.position = size, 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = 0) -> int:
        self.position = self.size + offset if whence == 2 else offset
        return self.position

    def tell(self) -> int:
        return self.position

    def readinto(self, buffer) -> int:
        raise AssertionError("the body was read")


@pytest.fixture
def home(app):
    """A group with three players: (group id, invite token, player ids)."""
    with app.app_context():
        group = Group(name="Home")
        group.players = [Player(name=n) for n in ("Ann", "Bob", "Cy")]
        db.session.add(group)
        db.session.commit()
        return group.id, group.invite_token, [p.id for p in group.players]


# ---- 1. no request size limit ----------------------------------------------------------

@pytest.mark.parametrize("path", ["/api/v1/score", "/api/v1/replay", "/api/v1/import"])
def test_a_huge_body_is_refused_before_it_is_read(client, home, path):
    """Was: a 1 GB body to /api/v1/score was buffered whole (3.1 GB RSS)."""
    response = client.post(path, input_stream=Unreadable(10**9),
                           content_type="application/json", headers=bearer(home[1]))
    assert "larger than" in json_error(response, 413)["message"]


def test_json_endpoints_take_less_than_the_import(app, client, home):
    limit = app.config["REQUEST_MAX_BYTES"]
    padded = b'{"pad": "' + b"x" * limit + b'"}'
    json_error(client.post("/api/v1/score", data=padded, content_type="application/json"), 413)
    # The same body is within the import's limit: refused for what it says, not its size.
    imported = client.post("/api/v1/import", data=padded, content_type="application/json",
                           headers=bearer(home[1]))
    assert json_error(imported, 400)["field"] == "format"


def test_a_page_form_is_limited_too(app, client):
    body = {"name": "x" * (app.config["REQUEST_MAX_BYTES"] + 1)}
    response = client.post("/groups", data=body)
    assert response.status_code == 413 and "text/html" in response.content_type


# ---- 4. clickjacking and missing headers -------------------------------------------------

@pytest.mark.parametrize("path", ["/", "/rules/last-one", "/api/v1/openapi.json",
                                  "/static/style.css", "/no-such-page", "/api/v1/nothing"])
def test_security_headers_on_every_response(client, path):
    headers = client.get(path).headers
    csp = headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp
    assert "worker-src 'self'" in csp and "connect-src 'self'" in csp
    assert "unsafe-inline" not in csp
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"
    assert "Strict-Transport-Security" not in headers  # plain HTTP on a home network


def test_hsts_only_over_https(client):
    assert client.get("/", base_url="https://localhost").headers[
        "Strict-Transport-Security"].startswith("max-age=")


def test_a_framed_group_page_is_refused_and_the_policy_allows_no_inline_code(client):
    """Was: a framed group page let one click rotate the invite. The policy forbids
    framing; no template relies on inline script, handlers or style attributes."""
    offenders = []
    for template in sorted((ROOT / "templates").rglob("*.html")):
        text = template.read_text(encoding="utf-8")
        for pattern in (r"<script(?![^>]*\bsrc=)[^>]*>", r"\son[a-z]+\s*=", r"\sstyle\s*="):
            offenders += [f"{template.name}: {m.group(0)}" for m in re.finditer(pattern, text)]
    assert offenders == []


# ---- 5. 500s from bad input --------------------------------------------------------------

@pytest.mark.parametrize("name", ["Ann\x00", "\ud800", "Bo\u200bb", "\u202eCy"])
def test_hostile_names_are_a_400_naming_the_field(client, home, name):
    """Was: a NUL byte (PostgreSQL) and a lone surrogate (both) were 500s."""
    raw = json.dumps({"name": name})  # \u0000, \ud800 … escapes, as a client sends them
    response = client.post("/api/v1/players", data=raw, content_type="application/json",
                           headers=bearer(home[1]))
    assert json_error(response, 400)["field"] == "name"
    if "\ud800" not in name:  # a form's broken UTF-8 arrives as U+FFFD, which is harmless
        assert client.post("/groups", data={"name": name}).status_code == 400


@pytest.mark.parametrize("path", ["/api/v1/score", "/api/v1/replay", "/api/v1/matches/{}/hands"])
def test_deeply_nested_json_is_a_400(client, home, path):
    """Was: JSON nested ~1,000 deep was a 500 with a logged traceback."""
    started = client.post("/api/v1/matches", headers=bearer(home[1]), json={
        "sheet": {"game": "crazy-eights", "options": {}}, "players": ["Ann", "Bob"]})
    path = path.format(started.json["id"])
    body = "[" * 1000 + "]" * 1000
    response = client.post(path, data=body, content_type="application/json",
                           headers=bearer(home[1]))
    error = json_error(response, 400)
    assert error["field"] == "body" and "deep" in error["message"]


def test_ids_beyond_32_bits_are_404_everywhere(client, home):
    """Was: ids above 2³¹ on …/record and …/stats were 500s on PostgreSQL."""
    gid, token, _ = home
    client.get(f"/join/{token}")
    for path in (f"/groups/{gid}/matches/{HUGE}/record", f"/groups/{gid}/players/{HUGE}/stats",
                 f"/groups/{HUGE}", f"/groups/{gid}/matches/{HUGE}",
                 f"/groups/{gid}/matches/{HUGE}/hands/{HUGE}"):
        assert client.get(path).status_code == 404, path
    for method, path in (("GET", f"/api/v1/matches/{HUGE}"),
                         ("DELETE", f"/api/v1/matches/1/hands/{HUGE}"),
                         ("GET", f"/api/v1/matches/{10**30}/export")):
        json_error(client.open(path, method=method, headers=bearer(token)), 404)


@pytest.mark.parametrize("option", ["threshold", "target"])
def test_huge_thresholds_are_refused(client, home, option):
    """Was: threshold/target ≥ 10³⁰⁹ were stored and the record page always failed."""
    game = "last-one" if option == "threshold" else "crazy-eights"
    body = {"sheet": {"game": game, "options": {option: 10**309}},
            "players": ["Ann", "Bob"], "first_dealer": 0}
    raw = str(body).replace("'", '"')
    response = client.post("/api/v1/matches", data=raw, content_type="application/json",
                           headers=bearer(home[1]))
    error = json_error(response, 400)
    assert option in error["field"] and "at most 1000000" in error["message"]
    assert client.post("/api/v1/score", json={**SCORE, "sheet": {
        "game": game, "options": {option: 1_000_001}}}).status_code == 400


# ---- 6. links from the Host header, cookies behind a TLS proxy ---------------------------

def test_invite_links_use_the_public_url(app, client, home):
    """Was: Host: evil.example made the page show http://evil.example/join/<token>."""
    gid, token, _ = home
    app.config["PUBLIC_URL"] = "https://cards.example.org"
    client.get(f"/join/{token}", base_url="http://evil.example")
    page = Page(client.get(f"/groups/{gid}", base_url="http://evil.example"))
    assert page.get("textbox", "Invite link")["value"] == f"https://cards.example.org/join/{token}"
    pointing = [f"{tag.name}[{name}]={value}" for tag in page.soup.find_all(True)
                for name, value in tag.attrs.items() if "evil.example" in str(value)]
    assert pointing == [] and "evil.example" not in page.text(), pointing


def test_trusted_hosts_refuse_other_hosts(backend, tmp_path, monkeypatch):
    from scorekeeper import create_app

    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path))
    monkeypatch.setenv("SCOREKEEPER_PUBLIC_URL", "https://cards.example.org/")
    app = create_app({"TESTING": True, "SECRET_KEY": "x",
                      "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    assert app.config["TRUSTED_HOSTS"] == ["cards.example.org"]
    client = app.test_client()
    assert client.get("/rules", headers={"Host": "evil.example"}).status_code == 400
    assert client.get("/rules", base_url="https://cards.example.org").status_code == 200


def test_cookies_are_secure_behind_a_tls_proxy(app, home, tmp_path, monkeypatch):
    """Was: waitress ignored X-Forwarded-Proto, so cookies were never Secure."""
    client = twin(app, tmp_path, monkeypatch, PROXIES=1).test_client()
    joined = client.get(f"/join/{home[1]}", headers={"X-Forwarded-Proto": "https",
                                                   "X-Forwarded-For": "203.0.113.9"})
    cookies = joined.headers.getlist("Set-Cookie")
    assert cookies and all("Secure" in c for c in cookies)
    assert "Strict-Transport-Security" in joined.headers


def test_forwarded_headers_are_ignored_without_proxies(client, home):
    joined = client.get(f"/join/{home[1]}", headers={"X-Forwarded-Proto": "https"})
    assert not any("Secure" in c for c in joined.headers.getlist("Set-Cookie"))
