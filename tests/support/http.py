"""Helpers for tests of requests at the edge: bearer headers, JSON errors, and a second
app on the same database with other settings."""

from __future__ import annotations


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def json_error(response, status: int) -> dict:
    assert response.status_code == status, response.text[:300]
    assert response.is_json, response.content_type
    assert response.json["error"]["status"] == status
    return response.json["error"]


def twin(app, tmp_path, monkeypatch, **settings):
    """Another app on the same database, with different settings."""
    from scorekeeper import create_app

    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path / "twin"))
    keys = ("TESTING", "SECRET_KEY", "WTF_CSRF_ENABLED", "RATE_LIMITS", "SQLALCHEMY_DATABASE_URI")
    return create_app({**{k: app.config[k] for k in keys}, **settings})
