"""Health checks for load balancers: alive, and ready (the database and the rate-limit
storage answer), answered for any Host header while pages still refuse strange hosts."""

from __future__ import annotations

import pytest

from tests.support.http import twin
from tests.support.serve import free_port


@pytest.fixture
def public(app, tmp_path, monkeypatch):
    """The same database, served under a public URL (so only its host is trusted)."""
    return twin(app, tmp_path, monkeypatch, PUBLIC_URL="https://cards.example.org",
                RATE_LIMITS=True)


@pytest.mark.parametrize("host", ["cards.example.org", "10.0.0.2:8000", "127.0.0.3",
                                  "evil.example"])
def test_health_answers_for_any_host(public, host):
    client = public.test_client()
    alive = client.get("/healthz", headers={"Host": host})
    assert alive.status_code == 200 and alive.json == {"status": "alive"}
    ready = client.get("/readyz", headers={"Host": host})
    assert ready.status_code == 200 and ready.json == {"status": "ready"}
    assert ready.headers["Cache-Control"] == "no-store"
    assert "Set-Cookie" not in ready.headers


def test_pages_still_refuse_an_untrusted_host(public):
    client = public.test_client()
    assert client.get("/", headers={"Host": "evil.example"}).status_code == 400
    assert client.get("/healthz/", headers={"Host": "evil.example"}).status_code == 400
    assert client.get("/", headers={"Host": "cards.example.org"}).status_code == 200


def test_health_takes_only_get_and_head(public):
    client = public.test_client()
    refused = client.post("/readyz")
    assert refused.status_code == 405 and refused.headers["Allow"] == "GET, HEAD"
    head = client.head("/readyz")
    assert head.status_code == 200 and head.data == b""


@pytest.mark.no_database
def test_readiness_names_a_database_that_does_not_answer(app, tmp_path, monkeypatch):
    gone = twin(app, tmp_path, monkeypatch, SQLALCHEMY_DATABASE_URI=(
        f"postgresql+psycopg://postgres@127.0.0.1:{free_port()}/none"))
    answer = gone.test_client().get("/readyz")
    assert answer.status_code == 503
    assert answer.json["status"] == "not ready"
    assert set(answer.json["failed"]) == {"database"}
    assert "OperationalError" in answer.json["failed"]["database"]
    assert gone.test_client().get("/healthz").status_code == 200
