"""Fuzz the whole OpenAPI document in-process with schemathesis.

Every operation the document describes is fuzzed, so endpoints join the fuzzing as
soon as their module publishes its paths. Each run sends every operation schemathesis's
chosen cases, its documented examples and the boundaries of every field (its coverage
phase, a few thousand requests), and a few random ones; the long random run is marked
``slow`` (CI runs it, see tests/conftest.py). Responses must never be a 500, must use a
documented status, and must match the documented JSON; a request made to fit the
document is refused only where :data:`REFUSED` says why no schema can say the rule.
Runs on a SQLite app holding one group, whose token is sent so the fuzzer reaches past
the access check, and one match, which half the generated ids name so the hand
operations reach their bodies.
"""

from __future__ import annotations

import os
import re

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

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
    token the fuzzer sends (see :class:`GroupToken`), holding a match with one hand
    (see :data:`FUZZ_IDS`)."""
    instance = tmp_path_factory.mktemp("fuzz")
    monkeypatch_module.setenv("SCOREKEEPER_INSTANCE_PATH", str(instance))
    app = create_app({"TESTING": True, "SECRET_KEY": "fuzz", "WTF_CSRF_ENABLED": False,
                      "RATE_LIMITS": False,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{instance / 'fuzz.db'}"})
    with app.app_context():
        db.create_all()
        db.session.add(Group(name="Fuzzers", invite_token=TOKEN))
        db.session.commit()
    assert _match_id(app) == FUZZ_IDS["match_id"]
    return app


@pytest.fixture(scope="module")
def monkeypatch_module():
    """A monkeypatch that lasts the module (the fuzz app is built once)."""
    with pytest.MonkeyPatch.context() as patch:
        yield patch


# The fuzz group's invite token, fixed so the fuzzer can send it before the app exists.
TOKEN = "fuzz-group-invite-token-0123456789abcdef"


class GroupToken:
    """Send the fuzz group's invite token, except in the cases schemathesis generates
    to test a missing or broken Authorization header (a header passed on every call
    would turn those into valid requests)."""

    def get(self, case, context):
        return TOKEN

    def set(self, case, data, context):
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}


EXCLUDED = [
    # Replaced by the narrower check in test_api_conforms (schema-valid yet refused only
    # as REFUSED lists), which this one would fail on every listed refusal.
    schemathesis.checks.positive_data_acceptance,
    # A token that opens no group is a 404 by design, like a wrong invite link (see
    # scorekeeper/api/auth.py), where this check wants 401/403.
    schemathesis.checks.ignored_auth,
]

SCORE, MATCHES, PLAYERS, REPLAY, IMPORT = (f"POST {PREFIX}/{p}" for p in (
    "score", "matches", "players", "replay", "import"))
DEAL = f"GET {PREFIX}/deal"
RECORD = f"POST {PREFIX}/matches/{{match_id}}/hands"
EDIT, DELETE = (f"{m} {PREFIX}/matches/{{match_id}}/hands/{{number}}" for m in ("PUT", "DELETE"))

# Why, said once where several rows share it.
TABLE = ("the table size is the game's, which another field names (Last One seats 2 to 6, "
         "the others 2 to 7)")
SEAT = "a seat index below the table's size, which another field or the match sets"
CARDS = ("card text as the card parser reads it (8s, 10♥, ♥Q, joker: a grammar the "
         "document would copy), no more copies of a card than the game's deck holds "
         "(a card twice in one hand), every seat still playing but the one out holding "
         "some: all read against other fields or the match")
TEXT = ("text judged per character once trimmed and NFC-normalised: no invisible "
        "formatting character, lone surrogate or unassigned code point (Unicode-version "
        "dependent), the length counted after that; two spellings of one name clash")
CLAIMS = "what the file claims is checked against what its hands score"

# What the document cannot say, refused by design: a request the fuzzer made to fit the
# document (positive mode) and the server answers 400, 409 or 422 must name, in its
# error's field, one of these rows: (operation, status, field pattern, why). Any other
# such refusal is a finding: state the rule in the document, or fix the server.
REFUSED: list[tuple[str, int, str, str]] = [
    (SCORE, 400, r"seats", f"{TABLE}; {TEXT}"),
    (SCORE, 400, r"out", "one of `seats`, the values of another field"),
    (SCORE, 400, r"remaining(\..*)?", f"keys are `seats`' names; {CARDS}"),
    (MATCHES, 400, r"players", f"a player of this group (its data); {TABLE}; {TEXT}"),
    (MATCHES, 400, r"first_dealer", SEAT),
    (MATCHES, 400, r"agree_nine|sheet\.options\.hand_size",
     "nine cards each needs agree_nine, and the deal must fit the deck at this table"),
    (PLAYERS, 400, r"name", TEXT),
    (PLAYERS, 409, r"name", "a name the group already has (ignoring case), or a look-alike "
                            "of one: its data"),
    *((operation, 400, pattern, why) for operation in (RECORD, EDIT) for pattern, why in (
        (r"out", f"{SEAT}, and not a seat already out of the match"),
        (r"held(\.\d+)?", f"one entry per seat of the match; {CARDS}; empty only in "
                          "Countdown, the match's game"),
        (r"hand_size", "Last One only (the match's game), and the deal must leave an "
                       "upcard"))),
    (RECORD, 400, r"number", "the match is over: its hands decide it"),
    (RECORD, 409, r"number", "not the match's next hand (stale, or just recorded from "
                             "another phone), or the same as a hand recorded "
                             "(same_as_hand): a 409 by design, naming the number to use"),
    (RECORD, 422, r"idempotency_key", "the key was used before with another body: a "
                                      "422 by design"),
    (EDIT, 409, r"number", "the match changed since `version`: a 409 by design"),
    (DELETE, 409, r"number", "not the last hand, or the match changed since `version`: a "
                             "409 by design"),
    (DEAL, 400, r"players", TABLE),
    (DEAL, 400, r"dealer", SEAT),
    (DEAL, 400, r"hand_size", "Last One only, a parameter read against `game`"),
    (DEAL, 400, r"counts", "Countdown only, one per player: read against `game` and "
                           "`players`"),
    (REPLAY, 400, r"players", TABLE),
    (REPLAY, 400, r"dealer|situation\.(turn|uncalled|melee)|events\[\d+\]\.player", SEAT),
    (REPLAY, 400, r"hands(\[\d+\])?", f"one entry per seat; {CARDS}; none empty (a seat "
                                       "without cards went out: the hand is over)"),
    (REPLAY, 400, r"upcard|stock|pile|situation(\.\w+)?|events\[\d+\]\.(play|draw("
                  r"\[\d+\])?|suit|as)",
     f"{CARDS}; the stock and pile hold what the deal leaves; what the upcard allows (a "
     "joker upcard needs upcard_as)"),
    (REPLAY, 400, r"counts", "Countdown only (the sheet's game), one per seat"),
    (REPLAY, 400, r"names", "one per seat, none blank once trimmed"),
    (IMPORT, 400, r"matches\[\d+\]\.seats", f"{TABLE}; {TEXT}"),
    (IMPORT, 400, r"matches\[\d+\]\.seats\[\d+\]|players\[\d+\]\.name", TEXT),
    (IMPORT, 400, r"matches\[\d+\]\.(first_dealer|hands\[\d+\]\.out)", SEAT),
    (IMPORT, 400, r"matches\[\d+\]\.hands\[\d+\]\.number", "a hand's place in the "
                                                              "file: 1, 2, 3…"),
    (IMPORT, 400, r"matches\[\d+\]\.hands\[\d+\]\.hand_size",
     "Last One only: read against the sheet's game"),
    (IMPORT, 400, r"matches\[\d+\](\.hands(\[\d+\](\.held(\[\d+\])?)?)?)?",
     f"one entry per seat; {CARDS}; hands that can have happened (nobody out of the match "
     "holds cards, nothing after the match was decided)"),
    (IMPORT, 400, r"matches\[\d+\]\.(hands\[\d+\]\.points|result\.(totals|winners))",
     CLAIMS),
    (IMPORT, 400, r"matches\[\d+\]\.(created|finished)_at",
     "a time as Python's ISO 8601 reader reads it, which no JSON Schema format is"),
    (IMPORT, 400, r"matches\[\d+\]\.rulings\[\d+\]\.(hand_number|request|question|"
                  r"reason|rule)",
     f"the request at most 4000 characters as JSON; {TEXT}"),
    (IMPORT, 400, r"matches\[\d+\]\.uid", "a match once in a file"),
    (IMPORT, 400, r"players", "a new player's name that looks the same as a player of the "
                              "group or of the file: their data"),
    (IMPORT, 400, r"seasons(\[\d+\]\.(name|first_day|last_day))?",
     f"a season the group has by the same name runs the same days (its data); names once "
     f"in a file ignoring case; the last day 0 to 3660 days after the first; {TEXT}"),
]


def _listed(operation: str, status: int, field: str) -> bool:
    return any(op == operation and code == status and re.fullmatch(pattern, field)
               for op, code, pattern, _why in REFUSED)


# What a request that fits the document may be answered besides a refusal listed above:
# success, a server error (failed above), no token (401) or a wrong one or an id of no
# resource in the group (404), too many wrong tokens (429).
ACCEPTED = frozenset(range(200, 400)) | frozenset(range(500, 600)) | {401, 404, 429}


def _is_positive(case) -> bool:
    return case.meta is not None and case.meta.generation.mode.is_positive


# The fuzz group's match and its hand 1 (made by the fixture, so the first match: id 1).
FUZZ_IDS = {"match_id": 1, "number": 1}


def _in_fuzz_match(parameters):
    """The path's ids replaced by the fuzz match's. Negative mode's parameters (wrapped
    with what it broke, not a dict) are left as they are."""
    if not isinstance(parameters, dict):
        return parameters
    return {name: FUZZ_IDS[name] if type(value) is int else value
            for name, value in parameters.items()}


def before_generate_path_parameters(context, strategy):
    """Half the generated ids name the fuzz match, so the hand operations get past
    the lookup (a random id opens no match) to their bodies."""
    return st.one_of(strategy, strategy.map(_in_fuzz_match))


def _schema(*without: str):
    """The API's document as schemathesis tests it, without the phases named (its
    ``examples``, ``coverage``, ``fuzzing``), sending the fuzz group's token and naming
    the fuzz match. Built from the API modules alone, so collecting these tests starts
    no app and touches no disk; the fixture above does that when the tests run."""
    loaded = schemathesis.openapi.from_dict(document())
    for phase in without:
        getattr(loaded.config.phases, phase).enabled = False
    loaded.auth()(GroupToken)
    loaded.hook(before_generate_path_parameters)
    return loaded


# Every run: each operation's examples, the boundaries of each field (positive and
# negative: the cases most likely to find a rule the document does not state), and a
# few random requests. The slow run: many random requests, nothing else.
schema = _schema()
exhaustive = _schema("examples", "coverage")
QUICK_EXAMPLES, SLOW_EXAMPLES = 8, 80


# The transport asks for compressed answers (requests' default Accept-Encoding) but does
# not unpack zstd, which Flask-Compress may choose for a long one: ask for none.
PLAIN = {"Accept-Encoding": "identity"}


# Under CI the examples are derandomized, so a run is repeatable and a red CI means a
# real, reproducible finding; locally each run explores new inputs.
IN_CI = bool(os.environ.get("CI"))


@schema.parametrize()
@settings(max_examples=QUICK_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck),
          derandomize=IN_CI)
def test_api_conforms(case, fuzz_app):
    _conforms(case, fuzz_app)


@pytest.mark.slow
@exhaustive.parametrize()
@settings(max_examples=SLOW_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck),
          derandomize=IN_CI)
def test_api_conforms_at_length(case, fuzz_app):
    _conforms(case, fuzz_app)


def _conforms(case, fuzz_app) -> None:
    """Never a 500; an error in the JSON error shape; a request that fits the document
    refused only as :data:`REFUSED` lists (schemathesis checks the rest against the
    document: statuses, headers, bodies)."""
    response = case.call_and_validate(app=fuzz_app, headers=PLAIN, excluded_checks=EXCLUDED)
    assert response.status_code < 500
    if response.status_code >= 400:
        content_type = {k.lower(): v for k, v in response.headers.items()}["content-type"]
        assert str(content_type).startswith("application/json") or "application/json" in str(
            content_type), content_type
        assert "error" in response.json()
    if _is_positive(case) and response.status_code not in ACCEPTED:
        error = response.json()["error"]
        field, label = error.get("field", ""), case.operation.label
        assert _listed(label, response.status_code, field), (
            f"{label} refused a request its document accepts: {response.status_code} "
            f"{field!r}: {error['message']}")


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
