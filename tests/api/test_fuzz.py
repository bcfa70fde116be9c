"""Fuzz the whole OpenAPI document in-process with schemathesis.

Every operation the document describes is fuzzed, so endpoints join the fuzzing as
soon as their module publishes its paths. Responses must never be a 500, must use a
documented status, and must match the documented JSON. Runs on a SQLite app holding
one group, whose token is sent so the fuzzer reaches past the access check.
"""

from __future__ import annotations

import os
import re

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from scorekeeper import create_app
from scorekeeper.api import PREFIX, document
from scorekeeper.core.cards import parse_cards
from scorekeeper.core.sheets import Sheet
from scorekeeper.store.extensions import db
from scorekeeper.store.models import Group, Match, Player
from scorekeeper.store.records import create_match, record_hand
from tests.support.views import match_view

DOCUMENT = f"{PREFIX}/openapi.json"


@pytest.fixture(scope="module")
def fuzz_app(tmp_path_factory, monkeypatch_module):
    """An app on a throwaway SQLite file, with its tables and one group whose invite
    token the fuzzer sends (see :class:`GroupToken`)."""
    instance = tmp_path_factory.mktemp("fuzz")
    monkeypatch_module.setenv("SCOREKEEPER_INSTANCE_PATH", str(instance))
    app = create_app({"TESTING": True, "SECRET_KEY": "fuzz", "WTF_CSRF_ENABLED": False,
                      "RATE_LIMITS": False,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{instance / 'fuzz.db'}"})
    with app.app_context():
        db.create_all()
        db.session.add(Group(name="Fuzzers", invite_token=TOKEN))
        db.session.commit()
    return app


@pytest.fixture(scope="module")
def monkeypatch_module():
    """A monkeypatch that lasts the module (the fuzz app is built once)."""
    with pytest.MonkeyPatch.context() as patch:
        yield patch


# The document is built from the API modules alone, so collecting these tests starts
# no app and touches no disk; the fixture above does that when the tests run.
schema = schemathesis.openapi.from_dict(document())
# The fuzz group's invite token, fixed so the fuzzer can send it before the app exists.
TOKEN = "fuzz-group-invite-token-0123456789abcdef"


@schema.auth()
class GroupToken:
    """Send the fuzz group's invite token, except in the cases schemathesis generates
    to test a missing or broken Authorization header (a header passed on every call
    would turn those into valid requests)."""

    def get(self, case, context):
        return TOKEN

    def set(self, case, data, context):
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}


EXCLUDED = [
    # The document states every rule a schema can say (tests/api/test_document_rules.py
    # checks them: seats and players each once, names without control characters and
    # within their length, an import with a match). The server refuses with a 400
    # naming the field what a schema cannot say, so schema-valid is not valid for:
    # - rules that join two fields or read the group: a card twice in one hand, an
    #   option of another game, `counts` outside Countdown, `held` empty outside
    #   Countdown, `out` not one of the seats, a player not of this group, a seat count
    #   the game does not allow (Last One 2-6), a name and its id for one seat;
    # - what the text rules judge per character: invisible formatting characters, lone
    #   surrogates, unassigned code points, a length counted after trimming and NFC;
    # - what the engine judges: a replay's events or hands that cannot have happened.
    schemathesis.checks.positive_data_acceptance,
    # A token that opens no group is a 404 by design, like a wrong invite link (see
    # scorekeeper/api/auth.py), where this check wants 401/403.
    schemathesis.checks.ignored_auth,
]


@schema.parametrize()
# Under CI the examples are derandomized, so a run is repeatable and a red CI means a
# real, reproducible finding; locally each run explores new inputs.
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck),
          derandomize=bool(os.environ.get("CI")))
def test_api_conforms(case, fuzz_app):
    response = case.call_and_validate(app=fuzz_app, excluded_checks=EXCLUDED)
    assert response.status_code < 500
    if response.status_code >= 400:
        content_type = {k.lower(): v for k, v in response.headers.items()}["content-type"]
        assert str(content_type).startswith("application/json") or "application/json" in str(
            content_type), content_type
        assert "error" in response.json()


def _nested(depth: int) -> list:
    body: list = []
    for _ in range(depth - 1):
        body = [body]
    return body


def _match_id(app) -> int:
    """A match in the fuzz group, so hand bodies get past the lookup to their parsing."""
    with app.app_context():
        group = db.session.scalar(db.select(Group).where(Group.invite_token == TOKEN))
        match_id = db.session.scalar(db.select(Match.id).where(Match.group_id == group.id))
        match = None if match_id is None else match_view(match_id)
        if match is None:
            players = [Player(group=group, name=f"P{i}") for i in range(3)]
            db.session.add_all(players)
            db.session.flush()
            match = create_match(group, Sheet.from_dict({"game": "crazy-eights",
                                                         "options": {}}), players, 0)
        if not match.hand_count:  # the fuzzer may have deleted them: PUT needs hand 1
            match = record_hand(match, 1, 0, [[], parse_cards("2c"), parse_cards("3c")]).match
        return match.id


def _hostile(app, kind: str, label: str):
    """A deeply nested body (at the top or in a field) or one just over the size limit."""
    if kind == "deep":
        return _nested(200)
    if kind == "deep-field":
        return {"sheet": _nested(200), "held": _nested(200), "matches": _nested(200)}
    limit = app.config["IMPORT_MAX_BYTES" if label.endswith("/import") else
                       "REPLAY_MAX_BYTES" if label.endswith("/replay") else "REQUEST_MAX_BYTES"]
    return {"pad": "x" * (limit + 64 * 1024 + 1)}


BODY_OPERATIONS = {op.label: op for op in (r.ok() for r in schema.get_all_operations())
                   if op.body}


@pytest.mark.parametrize("kind", ["deep", "deep-field", "oversized"])
@pytest.mark.parametrize("label", sorted(BODY_OPERATIONS))
def test_hostile_bodies_are_refused_as_documented(fuzz_app, label, kind):
    """Every operation that takes a body answers a deeply nested one with a
    documented 400 and an oversized one with a documented 413, in the JSON error shape
    (schemathesis validates the response against the document)."""
    operation = BODY_OPERATIONS[label]
    ids = {"match_id": _match_id(fuzz_app), "number": 1}
    case = operation.Case(body=_hostile(fuzz_app, kind, label), media_type="application/json",
                          path_parameters={p.name: ids[p.name]
                                           for p in operation.path_parameters})
    case.headers = {"Authorization": f"Bearer {TOKEN}"}
    response = case.call_and_validate(app=fuzz_app, excluded_checks=EXCLUDED)
    assert response.status_code == (413 if kind == "oversized" else 400), response.text[:200]
    assert "error" in response.json()


def test_document_loads_and_is_valid(fuzz_app):
    operations = [op.ok() for op in schema.get_all_operations()]
    assert operations, "the document describes no operation"
    with fuzz_app.test_client() as client:
        served = client.get(DOCUMENT)
    assert served.status_code == 200
    assert served.get_json() == document()
    assert served.get_json()["openapi"].startswith("3.")


def _openapi_path(rule: str) -> str:
    """``/api/v1/matches/<int:match_id>`` -> ``/api/v1/matches/{match_id}``."""
    return re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule)


def _api_rules(app):
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith(PREFIX + "/") and rule.rule != DOCUMENT:
            for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
                yield _openapi_path(rule.rule), method.lower()


def test_document_describes_every_api_route(fuzz_app):
    paths = document()["paths"]
    routes = set(_api_rules(fuzz_app))
    assert len(routes) >= 10
    missing = sorted(f"{m.upper()} {p}" for p, m in routes if m not in paths.get(p, {}))
    assert missing == [], "routed but not in the OpenAPI document"


def test_document_describes_only_routes_that_exist(fuzz_app):
    routed = set(_api_rules(fuzz_app))
    methods = {"get", "put", "post", "delete", "patch"}
    for path, item in document()["paths"].items():
        for method in set(item) & methods:
            assert (path, method) in routed, f"{method.upper()} {path} has no route"


def test_openapi_path():
    assert _openapi_path("/api/v1/matches/<int:match_id>/hands/<number>") == (
        "/api/v1/matches/{match_id}/hands/{number}")
