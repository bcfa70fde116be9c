"""Shared fixtures: the app on each database backend, its client and CLI runner.

Every test that takes ``app`` (or ``client``/``runner``) runs twice: on SQLite, the
embedded default, and on a real PostgreSQL cluster that the session starts itself.
Without PostgreSQL binaries those runs are skipped locally and fail under CI.

Each test still gets a new app and empty tables, but the work that would be the same
for every test is done once per session: the schema (SQLite: a template database file
copied per test; PostgreSQL: one database emptied per test) and the fingerprinted,
gzip- and brotli-compressed static files, which every app writes to
``instance/static-cache`` and which the tests share through a link to one folder
(content-addressed, exactly as several server workers share it).
"""

from __future__ import annotations

import itertools
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis.configuration import set_hypothesis_home_dir
from sqlalchemy import text

from scorekeeper import create_app
from scorekeeper.store.extensions import db

from . import pgcluster

IN_CI = bool(os.environ.get("CI"))

# Hypothesis keeps its examples and caches outside the work tree (the top level of the
# repository is part of the design).
set_hypothesis_home_dir(Path(tempfile.gettempdir()) / "scorekeeper-hypothesis")
_counter = itertools.count()


@pytest.fixture(scope="session")
def pg() -> Iterator[pgcluster.Cluster]:
    """The session's PostgreSQL cluster."""
    bindir = pgcluster.find_bin()
    if bindir is None:
        if IN_CI:
            pytest.fail("PostgreSQL server binaries are missing (apt-get install postgresql)")
        pytest.skip("PostgreSQL server binaries not found")
    cluster = pgcluster.Cluster(bindir).start()
    yield cluster
    cluster.stop()


@pytest.fixture(scope="session")
def pg_url(pg: pgcluster.Cluster) -> str:
    """A database in the cluster whose tables the ``app`` fixture empties per test."""
    return pg.create_database("scorekeeper_test")


@pytest.fixture(scope="session")
def _pg_schema(pg_url: str) -> str:
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": pg_url})
    with app.app_context():
        db.create_all()
        db.engine.dispose()
    return pg_url


def _app_in(instance: Path, config: dict[str, object]):
    """``create_app(config)`` with ``instance`` as its instance folder."""
    os.environ["SCOREKEEPER_INSTANCE_PATH"] = str(instance)
    try:
        return create_app(config)
    finally:
        del os.environ["SCOREKEEPER_INSTANCE_PATH"]


@pytest.fixture(scope="session")
def _shared(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Built once per session: the static cache folder every test app links to, and an
    SQLite database holding the empty schema that each SQLite test copies."""
    root = tmp_path_factory.mktemp("shared")
    cache, template = root / "static-cache", root / "schema.db"
    cache.mkdir()
    instance = root / "instance"
    instance.mkdir()
    (instance / "static-cache").symlink_to(cache)
    app = _app_in(instance, {"TESTING": True, "SECRET_KEY": "template",
                             "SQLALCHEMY_DATABASE_URI": f"sqlite:///{template}"})
    with app.app_context():
        db.create_all()
        db.engine.dispose()
    return {"static-cache": cache, "schema.db": template}


def _empty_tables() -> None:
    names = ", ".join(f'"{t.name}"' for t in db.metadata.sorted_tables)
    db.session.execute(text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
    db.session.commit()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def backend(request: pytest.FixtureRequest) -> str:
    """Which database the test runs on; also parametrises every app-based test."""
    return request.param


@pytest.fixture
def app(backend: str, tmp_path: Path, request: pytest.FixtureRequest,
        _shared: dict[str, Path]):
    """A fresh app with empty tables on the chosen backend."""
    instance = tmp_path / f"instance-{next(_counter)}"
    instance.mkdir()
    (instance / "static-cache").symlink_to(_shared["static-cache"])
    config = {"TESTING": True, "SECRET_KEY": "test-secret-key", "WTF_CSRF_ENABLED": False,
              "RATE_LIMITS": False}  # tests of the limits turn them back on
    if backend == "postgresql":
        config["SQLALCHEMY_DATABASE_URI"] = request.getfixturevalue("_pg_schema")
    else:
        shutil.copyfile(_shared["schema.db"], instance / "test.db")
        config["SQLALCHEMY_DATABASE_URI"] = f"sqlite:///{instance / 'test.db'}"
    application = _app_in(instance, config)
    if backend == "postgresql":
        with application.app_context():
            _empty_tables()
    yield application
    with application.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()
