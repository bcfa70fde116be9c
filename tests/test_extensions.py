"""The rate limiter as an operator configures it: switched off, pointed at a storage
that does not answer, or at Redis without its client. In every case pages and the API
keep answering (never a 500), and the host says in its log and its readiness check
what it is doing.

The failing-storage cases run in a fresh interpreter each: Flask-Limiter keeps one
limiter per process, and a storage marked dead there would colour later tests.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from scorekeeper.store.extensions import db
from scorekeeper.store.models import Group
from tests.support.http import bearer, twin
from tests.support.serve import STARTED, free_port

# Run in a child interpreter: builds the app on a fresh SQLite file with rate limits on
# (small ones), sends the requests below and prints each answer's status as JSON.
PROBE = textwrap.dedent("""
    import json, sys, tempfile, os
    {block}
    os.environ["SCOREKEEPER_INSTANCE_PATH"] = tempfile.mkdtemp()
    from flask_migrate import upgrade
    from scorekeeper import create_app
    app = create_app({{"SECRET_KEY": "k", "WTF_CSRF_ENABLED": False,
                      "RATELIMIT_STORAGE_URI": {uri!r}, "RATELIMIT_JOINS": "2 per minute",
                      "RATELIMIT_BEARER_FAILURES": "2 per minute", **{extra}}})
    with app.app_context():
        upgrade()
    phone = app.test_client()
    made = phone.post("/groups", data={{"name": "Kitchen"}})
    gid = made.location.split("/groups/")[1].split("/")[0]
    token = phone.get("/groups/" + gid).text.split("/join/")[1].split('"')[0]
    answers = {{
        "page": phone.get("/").status_code,
        "new group": made.status_code,
        "right token": phone.get("/api/v1/group",
                                 headers={{"Authorization": "Bearer " + token}}).status_code,
        "wrong tokens": [phone.get("/api/v1/group",
                                   headers={{"Authorization": "Bearer nope"}}).status_code
                         for _ in range(3)],
        "wrong invites": [phone.get("/join/nope").status_code for _ in range(3)],
        "ready": app.test_client().get("/readyz").status_code,
        "why": json.loads(app.test_client().get("/readyz").data).get("failed", {{}}),
    }}
    print(json.dumps(answers))
""")

# Makes ``import redis`` fail as if the client were not installed.
NO_REDIS_CLIENT = textwrap.dedent("""
    import importlib.abc
    class NoRedis(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name == "redis" or name.startswith("redis."):
                raise ModuleNotFoundError(f"No module named {name!r}")
    sys.meta_path.insert(0, NoRedis())
""")


def _probe(uri: str, block: str = "", **extra: object) -> tuple[dict, str]:
    code = PROBE.format(uri=uri, block=block, extra=repr(extra))
    ran = subprocess.run([sys.executable, "-c", code],
                         capture_output=True, text=True, timeout=STARTED)
    assert ran.returncode == 0, ran.stderr
    return json.loads(ran.stdout.strip().splitlines()[-1]), ran.stderr


def test_a_storage_that_does_not_answer_degrades_to_limits_per_process():
    pytest.importorskip("redis")
    answers, log = _probe(f"redis://127.0.0.1:{free_port()}")  # nothing listens there
    assert answers["page"] == 200 and answers["new group"] == 302
    assert answers["right token"] == 200
    # Still limited, now by this process's own counts.
    assert answers["wrong tokens"] == [404, 404, 429]
    assert answers["wrong invites"] == [404, 404, 429]
    assert answers["ready"] == 503
    assert "does not answer" in answers["why"]["rate_limits"]
    assert log.count("Rate limit storage unreachable - falling back to in-memory storage") == 1
    assert "Traceback" not in log


def test_with_the_fallback_off_a_storage_error_is_swallowed_not_a_500():
    """``RATELIMIT_IN_MEMORY_FALLBACK_ENABLED = False``: no counting at all while the
    storage is gone, but ``RATELIMIT_SWALLOW_ERRORS`` still keeps every answer whole."""
    pytest.importorskip("redis")
    answers, log = _probe(f"redis://127.0.0.1:{free_port()}",
                          RATELIMIT_IN_MEMORY_FALLBACK_ENABLED=False)
    assert answers["page"] == 200 and answers["new group"] == 302
    assert answers["right token"] == 200
    assert answers["wrong tokens"] == [404, 404, 404]
    assert answers["wrong invites"] == [404, 404, 404]
    assert answers["ready"] == 503
    assert "Swallowing error" in log


def test_redis_without_its_client_starts_and_says_so():
    answers, log = _probe("redis://127.0.0.1:6379", NO_REDIS_CLIENT)
    assert answers["page"] == 200 and answers["new group"] == 302
    assert answers["right token"] == 200
    assert answers["wrong tokens"] == [404, 404, 429]
    assert answers["ready"] == 503
    assert "pip install 'scorekeeper[redis]'" in answers["why"]["rate_limits"]
    assert "pip install 'scorekeeper[redis]'" in log
    assert "counted in each process's memory" in log


def test_flask_limiters_own_switch_turns_every_limit_off(app, tmp_path, monkeypatch):
    """``RATELIMIT_ENABLED = False``: no limit anywhere, and bearer calls still work."""
    off = twin(app, tmp_path, monkeypatch, RATE_LIMITS=True, RATELIMIT_ENABLED=False,
               RATELIMIT_GROUPS="1 per hour", RATELIMIT_JOINS="1 per minute",
               RATELIMIT_BEARER_FAILURES="1 per minute")
    phone = off.test_client()
    made = [phone.post("/groups", data={"name": f"Table {n}"}) for n in range(3)]
    assert [m.status_code for m in made] == [302, 302, 302]
    gid = int(made[0].location.rsplit("/", 2)[1])
    wrong = [phone.get("/api/v1/group", headers=bearer("nope")).status_code for _ in range(3)]
    assert wrong == [404, 404, 404]
    assert [phone.get("/join/nope").status_code for _ in range(3)] == [404, 404, 404]
    with off.app_context():
        token = db.session.get(Group, gid).invite_token
    right = phone.get("/api/v1/group", headers=bearer(token))
    assert right.status_code == 200
    assert "X-RateLimit-Limit" not in right.headers
    assert off.test_client().get("/readyz").status_code == 200
