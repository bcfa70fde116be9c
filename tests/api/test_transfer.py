"""Export and import through the JSON API (bearer token) and the command line."""

from __future__ import annotations

import json
import random

import pytest

from scorekeeper.store.extensions import db
from scorekeeper.store.models import Group, Hand, Match
from scorekeeper.store.transfer import import_document
from tests.support.documents import random_document


@pytest.fixture
def groups(app):
    """Two groups: a source with 6 random matches and an empty target; their ids/tokens."""
    with app.app_context():
        source, target = Group(name="Source"), Group(name="Target")
        db.session.add_all([source, target])
        db.session.commit()
        import_document(source, random_document(random.Random(5), 6))
        return {"source": (source.id, source.invite_token),
                "target": (target.id, target.invite_token)}


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def matches_in(app, group_id: int) -> int:
    with app.app_context():
        return db.session.scalar(db.select(db.func.count()).select_from(Match)
                                 .where(Match.group_id == group_id))


def test_api_round_trip(app, client, groups):
    _, source = groups["source"]
    _target_id, target = groups["target"]
    exported = client.get("/api/v1/export", headers=auth(source))
    assert exported.status_code == 200 and len(exported.json["matches"]) == 6
    made = client.post("/api/v1/import", json=exported.json, headers=auth(target))
    assert made.status_code == 201, made.json
    assert made.json["matches"] == 6
    again = client.get("/api/v1/export", headers=auth(target)).json
    strip = lambda doc: [{k: v for k, v in m.items() if k not in ("id", "created_at")}  # noqa: E731
                         for m in doc["matches"]]
    assert strip(again) == strip(exported.json)


def test_api_match_export_and_csv(app, client, groups):
    gid, token = groups["source"]
    with app.app_context():
        mid = db.session.scalar(db.select(Match.id).where(Match.group_id == gid))
    one = client.get(f"/api/v1/matches/{mid}/export", headers=auth(token))
    assert [m["id"] for m in one.json["matches"]] == [mid]
    csv = client.get(f"/api/v1/matches/{mid}/export?format=csv", headers=auth(token))
    assert csv.content_type.startswith("text/csv") and csv.text.startswith("match,")
    assert client.get("/api/v1/export?format=xml", headers=auth(token)).status_code == 400


def test_api_access(app, client, groups):
    source_id, _source = groups["source"]
    _, target = groups["target"]
    with app.app_context():
        mid = db.session.scalar(db.select(Match.id).where(Match.group_id == source_id))
    assert client.get("/api/v1/export").status_code == 401
    assert client.get("/api/v1/export", headers=auth("nope")).status_code == 404
    assert client.get(f"/api/v1/matches/{mid}/export", headers=auth(target)).status_code == 404
    assert client.get("/api/v1/matches/99999999999/export",
                      headers=auth(target)).status_code == 404


def test_api_import_refusal_names_every_problem_and_writes_nothing(app, client, groups):
    target_id, target = groups["target"]
    doc = random_document(random.Random(6), 3)
    doc["matches"][0]["sheet"]["game"] = "snap"
    doc["matches"][2]["hands"][0]["out"] = "Ann"
    with app.app_context():
        hands = db.session.scalar(db.select(db.func.count()).select_from(Hand))
    sent = client.post("/api/v1/import", json=doc, headers=auth(target))
    assert sent.status_code == 400
    error = sent.json["error"]
    assert error["field"].startswith("matches[0].sheet")
    assert [p["where"] for p in error["problems"]] == ["matches[0].sheet.game",
                                                      "matches[2].hands[0].out"]
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Hand)) == hands
    assert matches_in(app, target_id) == 0


@pytest.mark.parametrize("body", [b"[" * 50000, b"not json", b'{"format": 1e999999}'])
def test_api_import_junk(app, client, groups, body):
    _, target = groups["target"]
    sent = client.post("/api/v1/import", data=body, headers=auth(target),
                       content_type="application/json")
    assert sent.status_code == 400 and "error" in sent.json


def test_api_import_too_large(app, client, groups):
    _, target = groups["target"]
    app.config["IMPORT_MAX_BYTES"] = 100
    sent = client.post("/api/v1/import", data=b" " * 1000, headers=auth(target),
                       content_type="application/json")
    assert sent.status_code == 413 and sent.json["error"]["status"] == 413


def test_cli_export_import(app, runner, groups, tmp_path):
    source_id, _ = groups["source"]
    target_id, _ = groups["target"]
    out = tmp_path / "group.json"
    result = runner.invoke(args=["export", "--group", str(source_id), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["format"] == "scorekeeper-export"
    result = runner.invoke(args=["import", "--group", str(target_id), str(out)])
    assert result.exit_code == 0, result.output
    assert "Imported 6 match(es)" in result.output
    assert matches_in(app, target_id) == 6


def test_cli_csv_one_match_to_stdout(app, runner, groups):
    source_id, _ = groups["source"]
    with app.app_context():
        mid = db.session.scalar(db.select(Match.id).where(Match.group_id == source_id))
    result = runner.invoke(args=["export", "--group", str(source_id), "--match", str(mid),
                                 "--format", "csv"])
    assert result.exit_code == 0 and result.output.startswith("match,game,")
    assert runner.invoke(args=["export", "--group", "999"]).exit_code != 0


def test_cli_import_refused(app, runner, groups, tmp_path):
    target_id, _ = groups["target"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "scorekeeper-export", "version": 2, "matches": []}))
    result = runner.invoke(args=["import", "--group", str(target_id), str(bad)])
    assert result.exit_code != 0
    assert "version 2 is not supported" in result.output and "nothing was imported" in result.output
    assert matches_in(app, target_id) == 0
