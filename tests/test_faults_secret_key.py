"""One secret key for every host: a host whose key differs from the one the database
knows refuses to start, says why, and ``/readyz`` reports it; an operator changes the
key on purpose with ``scorekeeper secret-key adopt``. On SQLite and PostgreSQL."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import delete, select

from scorekeeper import create_app
from scorekeeper.secret_key import SecretKeyMismatch
from scorekeeper.store import keys
from scorekeeper.store.extensions import db


@pytest.fixture
def host(app, tmp_path, monkeypatch):
    """Start another host on the app's database with the key given (None: no key set,
    so SQLite makes one in the instance folder). The app's start stored its key's
    fingerprint first (on both databases the test begins with it stored)."""
    monkeypatch.delenv("SCOREKEEPER_SECRET_KEY", raising=False)
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path / "other-host"))

    def start(key: str | None):
        config = {"TESTING": True, "SQLALCHEMY_DATABASE_URI":
                  app.config["SQLALCHEMY_DATABASE_URI"]}
        return create_app({**config, "SECRET_KEY": key} if key else config)

    return start


def _stored(app) -> list[str]:
    with app.app_context():
        return list(db.session.scalars(select(keys.SecretKeyFingerprint.fingerprint)))


def test_a_host_with_another_key_refuses_to_start_and_says_why(app, host):
    with pytest.raises(SecretKeyMismatch) as refused:
        host("a key of its own")
    message = str(refused.value)
    assert "secret key differs" in message
    assert "SCOREKEEPER_SECRET_KEY" in message and "scorekeeper secret-key adopt" in message
    assert host("test-secret-key").config["SECRET_KEY"] == "test-secret-key"  # the same key


def test_the_database_keeps_a_fingerprint_never_the_key(app, host):
    assert _stored(app) == [keys.fingerprint("test-secret-key")]
    assert all("test-secret-key" not in value for value in _stored(app))
    assert keys.fingerprint("test-secret-key") != keys.fingerprint("test-secret-kez")


def test_hosts_starting_at_once_agree_on_one_fingerprint(app):
    """The first start's race is settled by the table's one row: one insert lands."""
    with app.app_context():
        db.session.execute(delete(keys.SecretKeyFingerprint))
        db.session.commit()

    def start(key: str) -> str:
        with app.app_context():
            return keys.settle(key)

    with ThreadPoolExecutor(6) as pool:
        verdicts = list(pool.map(start, [f"host {n}" for n in range(6)]))
    assert sorted(verdicts) == ["differs"] * 5 + ["stored"]
    winner = f"host {verdicts.index('stored')}"
    assert _stored(app) == [keys.fingerprint(winner)]


def test_adopt_changes_the_key_on_purpose(app, host, monkeypatch):
    monkeypatch.setenv("FLASK_RUN_FROM_CLI", "true")  # as the command line builds the app
    operator = host("the new key")
    result = operator.test_cli_runner().invoke(args=["secret-key", "adopt"])
    assert result.exit_code == 0, result.output
    assert "every host must use" in result.output
    monkeypatch.delenv("FLASK_RUN_FROM_CLI")
    assert host("the new key").config["SECRET_KEY"] == "the new key"
    with pytest.raises(SecretKeyMismatch):
        host("test-secret-key")


def test_a_running_host_whose_key_was_replaced_is_not_ready_and_serves_nothing(app):
    client = app.test_client()
    assert client.get("/readyz").status_code == 200
    with app.app_context():
        keys.adopt("rotated elsewhere")
    ready = client.get("/readyz")
    assert ready.status_code == 503
    assert "secret key differs" in ready.json["failed"]["secret_key"]
    page = client.get("/rules")
    assert page.status_code == 503 and "secret key differs" in page.json["error"]["message"]
    assert client.get("/healthz").status_code == 200  # alive, just not to be used


def test_a_database_not_yet_upgraded_is_checked_once_it_is(fresh_app):
    """A host started before the release step's migration: /readyz says the key is not
    checked yet, and checks (storing the fingerprint) once the table is there."""
    client = fresh_app.test_client()
    ready = client.get("/readyz")
    assert ready.status_code == 503
    assert "not upgraded" in ready.json["failed"]["secret_key"]
    with fresh_app.app_context():
        db.create_all()
    assert client.get("/readyz").status_code == 200
    assert _stored(fresh_app) == [keys.fingerprint("x")]


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_sqlite_an_instance_key_made_anew_is_adopted_a_configured_one_is_not(
        app, host, tmp_path, caplog):
    """With no key configured, SQLite's instance makes one (instance/secret_key). If that
    file is lost the old key is gone for good: the new one is adopted, and logged. A key
    that is configured and differs is refused as on any database."""
    first = host(None)  # the instance makes its key; the fixture's host stored another
    made = first.config["SECRET_KEY"]
    assert made != "test-secret-key"
    assert any("made anew" in r.getMessage() for r in caplog.records)
    assert _stored(app) == [keys.fingerprint(made)]
    assert host(None).config["SECRET_KEY"] == made  # read from the file: the same
    with pytest.raises(SecretKeyMismatch):
        host("configured and different")



def test_the_start_check_leaves_no_connection_to_inherit(app, host):
    """gunicorn --preload builds the app in the master, then forks: a connection left
    in the pool would be shared by every worker (garbled conversations, 500s)."""
    started = host("test-secret-key")
    with started.app_context():
        assert db.engine.pool.checkedin() == 0
