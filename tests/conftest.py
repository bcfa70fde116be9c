"""Shared fixtures: the app on each database backend, its client and CLI runner.

Every test that takes ``app`` (or ``client``/``runner``) runs twice: on SQLite, the
embedded default, and on a real PostgreSQL cluster that the session starts itself.
Without PostgreSQL binaries those runs are skipped locally and fail under CI.
"""

from __future__ import annotations

import itertools
import os
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


def _empty_tables() -> None:
    names = ", ".join(f'"{t.name}"' for t in db.metadata.sorted_tables)
    db.session.execute(text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
    db.session.commit()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def backend(request: pytest.FixtureRequest) -> str:
    """Which database the test runs on; also parametrises every app-based test."""
    return request.param


@pytest.fixture
def app(backend: str, tmp_path: Path, request: pytest.FixtureRequest):
    """A fresh app with empty tables on the chosen backend."""
    instance = tmp_path / f"instance-{next(_counter)}"
    config = {"TESTING": True, "SECRET_KEY": "test-secret-key", "WTF_CSRF_ENABLED": False,
              "RATE_LIMITS": False}  # tests of the limits turn them back on
    if backend == "postgresql":
        config["SQLALCHEMY_DATABASE_URI"] = request.getfixturevalue("_pg_schema")
    else:
        config["SQLALCHEMY_DATABASE_URI"] = f"sqlite:///{instance / 'test.db'}"
    os.environ["SCOREKEEPER_INSTANCE_PATH"] = str(instance)
    try:
        application = create_app(config)
    finally:
        del os.environ["SCOREKEEPER_INSTANCE_PATH"]
    with application.app_context():
        if backend == "postgresql":
            _empty_tables()
        else:
            db.create_all()
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
