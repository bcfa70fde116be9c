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

After every test on the ``app`` fixture, on both databases, two checks of the store's
promise: no code outside the projection wrote a derived value (every statement's
target is watched, :mod:`tests.support.derived_writes`), and ``db verify`` finds
nothing (:func:`tests.support.derived.differences`). A test that corrupts derived rows
on purpose says so with the ``corrupts_derived`` mark.

A test marked ``no_database`` needs an app but reads and writes no table (a rules
page, the play checker, a pure API endpoint): running it on PostgreSQL too would prove
nothing more, so it runs on SQLite alone, and the ``app`` fixture fails it if it sends
the database a single statement after all.

A test marked ``slow`` is the exhaustive rest of a check whose quick part always runs
(the fuzzer's long run, the many random playouts, the store's random write sequences
beyond their first seed): it runs where ``CI`` is set (so ``.ci/run`` runs every test)
or with ``--slow``, and is deselected otherwise. Hypothesis follows the same split: its
``quick`` profile (:data:`QUICK_EXAMPLES` examples a property) without them, its
``thorough`` one (Hypothesis's own default, 100) with them; a test that names its own
``max_examples`` keeps it, and ``--hypothesis-profile`` picks either.
"""

from __future__ import annotations

import gc
import itertools
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import settings
from hypothesis.configuration import set_hypothesis_home_dir
from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import Engine
from sqlalchemy.pool import NullPool

from scorekeeper import create_app
from scorekeeper.store import keys
from scorekeeper.store.extensions import db
from tests.support import pgcluster
from tests.support.derived import differences
from tests.support.derived_writes import watched
from tests.support.static_files import share_static_files
from tests.support.template_cache import share_compiled_templates
from tests.support.url_builders import share_url_builders

IN_CI = bool(os.environ.get("CI"))
share_url_builders()  # a new app per test: its URL map's builders made once per process
share_compiled_templates()  # and its templates compiled once per process
share_static_files()  # and the static files fingerprinted and looked at once per process
# Python's cyclic garbage collector, tuned for a test process (a server keeps the default).
# Each test's app, engine and pages are cycles that live as long as the test: with the
# default thresholds (700, 10, 10) they outlived enough young collections to be moved to
# the oldest generation, and full collections, each walking everything alive, came every
# few tests. Collecting the young generation after 50,000 allocations, not 700, lets a
# test's objects die young. tests/web in one process: 24.7 -> 8.5 s in the collector, 111
# -> 77 s of CPU (gc.callbacks timing; 60 full collections -> 10).
gc.set_threshold(50_000, 10, 100)
KEY = "test-secret-key"  # every test app's; the SQLite schema file knows its fingerprint

# Hypothesis keeps its examples and caches outside the work tree (the top level of the
# repository is part of the design).
set_hypothesis_home_dir(Path(tempfile.gettempdir()) / "scorekeeper-hypothesis")
QUICK_EXAMPLES = 25
settings.register_profile("quick", max_examples=QUICK_EXAMPLES)
settings.register_profile("thorough", max_examples=settings.get_profile("default").max_examples)
_counter = itertools.count()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--slow", action="store_true",
                     help="also run the tests marked slow (they run anyway where CI is set)")


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: one test process more than the cores this process may run on. A test
    process spends about a fifth of its time waiting (a phone's retry timer, a server
    starting, a page rendering in Chromium's own processes), and a spare process fills
    those waits. The whole suite on 2 cores: 2 processes took 426 s with 20 % of the CPU
    idle, 3 took 361 s with 4 % idle."""
    return len(os.sched_getaffinity(0)) + 1


def _thorough(config: pytest.Config) -> bool:
    return IN_CI or bool(config.getoption("--slow"))


def pytest_configure(config: pytest.Config) -> None:
    """Hypothesis's profile: ``thorough`` where the slow tests run, else ``quick``."""
    if not config.getoption("--hypothesis-profile", None):
        settings.load_profile("thorough" if _thorough(config) else "quick")


@pytest.hookimpl(trylast=True)  # after the hooks of the folders' conftests mark theirs
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Deselect the ``slow`` tests unless CI is set or ``--slow`` is given."""
    if _thorough(config):
        return
    slow = [item for item in items if item.get_closest_marker("slow")]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if not item.get_closest_marker("slow")]


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
def _pg_schema(pg_url: str, _shared: dict[str, Path]) -> str:
    app = _app_in(_shared["instance"], {"TESTING": True, "SECRET_KEY": "schema",
                                        "SQLALCHEMY_DATABASE_URI": pg_url})
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
    """Built once per session: the static cache folder every test app links to, an
    SQLite database holding the empty schema that each SQLite test copies, and an
    instance folder for the apps that build schemas.

    The schema file also holds the fingerprint of :data:`KEY`, as a host's first start
    stores it: each new app's key check (``secret_key.check_at_start``) then reads it
    and writes nothing, where it stored it, committed and checkpointed on every copy."""
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
        assert keys.settle(KEY) == "stored"
        db.engine.dispose()
    return {"instance": instance, "static-cache": cache, "schema.db": template}


_SEQUENCES = ("SELECT pg_get_serial_sequence(quote_ident(table_name), column_name) "
              "FROM information_schema.columns WHERE table_schema = current_schema() "
              "AND column_default LIKE 'nextval%'")


@pytest.fixture(scope="session")
def _pg_reset(_pg_schema: str) -> Iterator[Callable[[], None]]:
    """What makes the shared PostgreSQL database as a new test expects it, before the
    test's app starts: every table emptied, every id counting from 1 again, and the
    fingerprint of :data:`KEY` stored (as in the SQLite schema file), so the app's key
    check only reads it. One script in one round trip on a connection of the session's
    own: row by row, children first, as the tables hold a test's few rows (DELETE with the
    sequences reset took 3.5 ms where TRUNCATE … RESTART IDENTITY took 35; 15 tables, 20
    times each), and the 17 statements sent one by one through the app took 19 ms a test
    under cProfile."""
    engine = create_engine(_pg_schema, poolclass=NullPool)
    with engine.connect() as connection:
        sequences = list(connection.scalars(text(_SEQUENCES)))
    fingerprint = keys.SecretKeyFingerprint.__table__
    statements = [f'DELETE FROM "{table.name}"' for table in reversed(db.metadata.sorted_tables)
                  if table is not fingerprint]
    if sequences:
        statements.append("SELECT " + ", ".join(f"setval('{name}', 1, false)"
                                                for name in sequences))
    statements.append(
        f'INSERT INTO "{fingerprint.name}" (id, fingerprint, stored_at) '
        f"VALUES ({keys.ROW}, '{keys.fingerprint(KEY)}', now()) "
        "ON CONFLICT (id) DO UPDATE SET fingerprint = EXCLUDED.fingerprint")
    script = ";\n".join(statements)
    raw = engine.raw_connection()
    driver = raw.driver_connection  # psycopg's: a script without parameters goes as it is
    driver.autocommit = True
    yield lambda: driver.execute(script)
    raw.close()
    engine.dispose()


@pytest.hookimpl(tryfirst=True)
def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A ``no_database`` test runs on SQLite only: its backend is fixed before the
    ``backend`` fixture would parametrise it over both."""
    test = metafunc.definition
    if "backend" not in metafunc.fixturenames or not test.get_closest_marker("no_database"):
        return
    if any("backend" in str(m.args[0]) for m in test.iter_markers("parametrize")):
        return  # the test names its backends itself
    test.add_marker(pytest.mark.parametrize("backend", ["sqlite"], indirect=True))


@contextmanager
def _no_statements(test: str) -> Iterator[None]:
    """Fail ``test`` if any engine executes SQL inside the block."""
    sent: list[str] = []

    def record(_conn, _cursor, statement, *_args) -> None:
        sent.append(statement)

    event.listen(Engine, "before_cursor_execute", record)
    try:
        yield
    finally:
        event.remove(Engine, "before_cursor_execute", record)
    assert not sent, (f"{test} is marked no_database but sent {len(sent)} statement(s), "
                      f"the first: {sent[0]!r}; drop the mark so it runs on both databases")


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
    # A statement may run as long as a loaded machine needs: the app's 5 s cancelled a
    # 20 ms UPDATE once in a loaded run. The timeouts themselves are tested on an app of
    # their own (tests/test_faults_database.py); the lock timeout stays the app's 2 s.
    config = {"TESTING": True, "SECRET_KEY": KEY, "WTF_CSRF_ENABLED": False,
              "RATE_LIMITS": False,  # tests of the limits turn them back on
              "DATABASE_STATEMENT_TIMEOUT": 120_000}
    for marker in reversed(list(request.node.iter_markers("app_config"))):  # nearest wins
        config.update(marker.kwargs)
    if backend == "postgresql":
        config["SQLALCHEMY_DATABASE_URI"] = request.getfixturevalue("_pg_schema")
        request.getfixturevalue("_pg_reset")()
    else:
        shutil.copyfile(_shared["schema.db"], instance / "test.db")
        config["SQLALCHEMY_DATABASE_URI"] = f"sqlite:///{instance / 'test.db'}"
    application = _app_in(instance, config)
    if request.node.get_closest_marker("no_database"):
        with _no_statements(request.node.nodeid):
            yield application
    else:
        with watched() as outside:
            yield application
        if not request.node.get_closest_marker("corrupts_derived"):
            _check_derived(application, outside)
    with application.app_context():
        db.session.remove()
        db.engine.dispose()


def _check_derived(application, outside: list[str]) -> None:
    """The store kept its promise through the test: only the projection wrote derived
    values, and they are what the stored hands give (``db verify``)."""
    assert not outside, "derived values written outside the projection:\n" + "\n".join(
        sorted(set(outside)))
    with application.app_context():
        db.session.remove()  # verify reads what was committed, on connections of its own
        found = differences()
    assert not found, "db verify after the test:\n" + "\n".join(str(d) for d in found)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def fresh_app(request, tmp_path):
    """An app on an empty database: no tables at all."""
    if request.param == "postgresql":
        pg = request.getfixturevalue("pg")
        url = pg.create_database(f"sk_migrate_{os.getpid()}_{next(_counter)}")
    else:
        url = f"sqlite:///{tmp_path / 'fresh.db'}"
    os.environ["SCOREKEEPER_INSTANCE_PATH"] = str(tmp_path / "instance")
    try:
        app = create_app({"TESTING": True, "SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": url})
    finally:
        del os.environ["SCOREKEEPER_INSTANCE_PATH"]
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def pytest_terminal_summary(terminalreporter) -> None:
    """Print the figures a test recorded to be read at the end of the run (the cluster
    test's hands/s and latencies). Here, in the top conftest, because under xdist only
    the controller prints the summary, and it loads no conftest of a subfolder."""
    from tests.support.cluster import FIGURES

    for report in terminalreporter.stats.get("passed", []):
        for name, value in getattr(report, "user_properties", ()):
            if name == FIGURES:
                terminalreporter.write_line(value)
