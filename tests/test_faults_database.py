"""The database out of reach, for real: a PostgreSQL cluster of this module's own
(``tests/support/pgcluster.py``) is stopped, and frozen (SIGSTOP of the postmaster and
every backend), under an app that is serving.

Stopped: every request needing it is a 503 with ``Retry-After`` (JSON under /api/
telling the client to resend, a friendly page elsewhere), logged once for the outage,
and all is well again when the server is back. Frozen: ``/readyz`` still answers, 503,
once its probe has waited (the time is printed with the run's figures). Locked: a row
held by a stuck transaction fails a request after the lock timeout instead of holding
it. Dropped (every backend terminated, or the server restarted): a live poll is
answered on a new connection, as if nothing had happened.
"""

from __future__ import annotations

import itertools
import logging
import os
import time

import psycopg
import pytest
from flask.testing import FlaskClient
from sqlalchemy import text

from scorekeeper.health import PROBE_SECONDS
from scorekeeper.store.extensions import db
from scorekeeper.store.models import Match
from scorekeeper.store.timeouts import LONG_STATEMENT_MS, allow_long_statements
from tests.support import pgcluster
from tests.support.cluster import FIGURES
from tests.support.faults import app_with_group
from tests.support.web import add_players, start_group, start_match

pytestmark = pytest.mark.postgres
_names = itertools.count()


@pytest.fixture(scope="module")
def cluster():
    """A cluster for this module alone: stopping it stops no other test's database."""
    bindir = pgcluster.find_bin()
    if bindir is None:
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL server binaries are missing (apt-get install postgresql)")
        pytest.skip("PostgreSQL server binaries not found")
    own = pgcluster.Cluster(bindir).start()
    yield own
    own.thaw()
    own.stop()


@pytest.fixture
def served(cluster, tmp_path, monkeypatch):
    """An app on a new database of the module's cluster, with one group: (app, token)."""
    url = cluster.create_database(f"faults_{next(_names)}")
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path / "instance"))
    app, token = app_with_group(url, "faults")
    yield app, token
    cluster.thaw()
    with app.app_context():
        db.engine.dispose()


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_postgresql_stopped_is_a_503_with_retry_after_logged_once(served, cluster, caplog):
    app, token = served
    client = app.test_client()
    assert client.get("/api/v1/group", headers=_bearer(token)).status_code == 200
    caplog.set_level(logging.INFO, logger="scorekeeper")
    cluster.halt()
    try:
        answers = [client.get("/api/v1/group", headers=_bearer(token)) for _ in range(5)]
        answers.append(client.post("/api/v1/players", headers=_bearer(token),
                                   json={"name": "Ann"}))
        page = client.get(f"/join/{token}")
        ready = client.get("/readyz")
    finally:
        cluster.serve()
    for answer in answers:
        assert answer.status_code == 503
        assert answer.headers["Retry-After"] == "5"
        error = answer.json["error"]
        assert error["status"] == 503 and "Send the same request again" in error["message"]
    assert page.status_code == 503 and page.headers["Retry-After"] == "5"
    assert page.mimetype == "text/html" and "try again" in page.text
    assert ready.status_code == 503 and "database" in ready.json["failed"]
    lines = [r for r in caplog.records if "does not answer" in r.getMessage()]
    assert len(lines) == 1, [r.getMessage() for r in lines]
    assert not [r for r in caplog.records if r.exc_info], "no traceback for an outage"
    # Back: the same requests succeed, and the return is logged once.
    assert client.get("/api/v1/group", headers=_bearer(token)).status_code == 200
    assert client.post("/api/v1/players", headers=_bearer(token),
                       json={"name": "Ann"}).status_code == 201
    assert client.get("/readyz").status_code == 200
    back = [r for r in caplog.records if "answers again" in r.getMessage()]
    assert len(back) == 1


def test_postgresql_frozen_readyz_answers_503_after_its_probe_waits(served, cluster,
                                                                  record_property):
    app, _token = served
    client = app.test_client()
    assert client.get("/readyz").status_code == 200
    cluster.freeze()
    try:
        timings, answers = [], []
        for _ in range(2):  # the second joins the probe still waiting
            started = time.perf_counter()
            answers.append(client.get("/readyz"))
            timings.append(time.perf_counter() - started)
    finally:
        cluster.thaw()
    assert [a.status_code for a in answers] == [503, 503]
    assert all("does not answer within" in a.json["failed"]["database"] for a in answers)
    # The answer names the probe's wait, so it came from the probe giving up, not from
    # the database; the bound only catches a request that hangs (the figure is printed).
    assert max(timings) < PROBE_SECONDS + 60, timings
    record_property(FIGURES, "readyz with PostgreSQL frozen (SIGSTOP): 503 in "
                    + ", ".join(f"{t:.2f} s" for t in timings)
                    + f" (the probe waits {PROBE_SECONDS:g} s)")
    deadline = time.monotonic() + 60  # thawed: the stuck probe ends, the next one passes
    while client.get("/readyz").status_code != 200:
        assert time.monotonic() < deadline, "not ready again after the thaw"
        time.sleep(0.1)


def test_a_row_locked_by_a_stuck_transaction_fails_the_request_in_bounded_time(served,
                                                                                 cluster):
    """Another client holds the group's row (FOR UPDATE) and never commits: adding a
    player waits for its key-share lock only as long as ``lock_timeout`` (2 s)."""
    app, token = served
    client = app.test_client()
    with app.app_context():
        url = db.engine.url
    holder = psycopg.connect(host=url.host, port=url.port, user=url.username,
                             dbname=url.database)
    try:
        holder.execute('SELECT * FROM "group" FOR UPDATE')
        started = time.perf_counter()
        answer = client.post("/api/v1/players", headers=_bearer(token), json={"name": "Ann"})
        took = time.perf_counter() - started
    finally:
        holder.rollback()
        holder.close()
    assert answer.status_code == 503 and answer.headers["Retry-After"] == "5"
    assert took < 10, took  # lock_timeout 2 s (a hung request would wait for ever)
    assert client.post("/api/v1/players", headers=_bearer(token),
                       json={"name": "Ann"}).status_code == 201


def test_connections_carry_the_timeouts_and_an_import_gets_longer_statements(served):
    app, _token = served
    with app.app_context():
        show = {name: db.session.execute(text(f"SHOW {name}")).scalar()
                for name in ("statement_timeout", "lock_timeout")}
        assert show == {"statement_timeout": "5s", "lock_timeout": "2s"}
        allow_long_statements(db.session)  # what an import's transaction does first
        long = db.session.execute(text("SHOW statement_timeout")).scalar()
        assert long == f"{LONG_STATEMENT_MS // 60_000}min"
        db.session.rollback()
        assert db.session.execute(text("SHOW statement_timeout")).scalar() == "5s"


def _watched_match(app) -> tuple[FlaskClient, dict[str, str]]:
    """A member's phone with a match of Ann and Bo: its two live URLs, each with the
    ETag its first poll answered."""
    client = app.test_client()
    gid = start_group(client)
    mid = start_match(client, gid, add_players(client, gid, "Ann", "Bo"))
    with app.app_context():
        view = db.session.get(Match, mid).view_token
    urls = (f"/groups/{gid}/matches/{mid}/live", f"/view/{view}/live")
    return client, {url: client.get(url).headers["ETag"] for url in urls}


def _end_every_backend(url) -> int:
    """PostgreSQL ends every connection to the app's database (as an idle timeout or an
    administrator would); the app learns of it only when it next uses one."""
    with psycopg.connect(host=url.host, port=url.port, user=url.username,
                         dbname="postgres", autocommit=True) as admin:
        return len(admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
            (url.database,)).fetchall())


def test_a_live_poll_on_a_dropped_connection_is_answered(served):
    """The version read takes no ping before it: a connection found dropped is replaced
    and the read sent again, so a spectator never sees the drop."""
    app, _token = served
    client, polls = _watched_match(app)
    with app.app_context():
        url = db.engine.url
    assert _end_every_backend(url) >= 1
    for live, etag in polls.items():
        assert client.get(live, headers={"If-None-Match": etag}).status_code == 304


def test_a_live_poll_after_postgresql_restarted_is_answered(served, cluster):
    app, _token = served
    client, polls = _watched_match(app)
    cluster.halt()
    try:
        stopped = [client.get(live, headers={"If-None-Match": etag})
                   for live, etag in polls.items()]
    finally:
        cluster.serve()
    assert [answer.status_code for answer in stopped] == [503, 503]
    for live, etag in polls.items():
        assert client.get(live, headers={"If-None-Match": etag}).status_code == 304
