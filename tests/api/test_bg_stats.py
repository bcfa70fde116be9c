"""The API's finished match carries its play for BG Stats and the link that logs it:
the same play the pages link to, null while the match is being played, and nothing in
it that opens the group."""

from __future__ import annotations

import json
from urllib.parse import unquote

import jsonschema_rs
import pytest

from scorekeeper.api import document
from scorekeeper.store.extensions import db
from scorekeeper.store.models import Group, Match
from tests.support.api import hand, start

# The finished match against the OpenAPI document's own schema (the fuzzer seldom
# finishes a match, so it seldom sees one).
MATCH_SCHEMA = jsonschema_rs.Draft202012Validator(
    {"$ref": "#/components/schemas/Match", "components": document()["components"]})

FINISHES = [
    # game, options, hands -> ranks, scores (None: Countdown has no points)
    pytest.param("last-one", {"threshold": 50},
                 [hand(1, 0, s1="8s 8h", s2="8c 8d")], [1, 2, 2], [0, 50, 50],
                 id="last-one-two-fall-together"),
    pytest.param("crazy-eights", {"match_end": "one-hand"},
                 [hand(1, 1, s0="8s kh", s2="9c")], [3, 1, 2], [0, 69, 0],
                 id="crazy-eights-one-hand"),
    pytest.param("countdown", {"start_count": 1},
                 [hand(1, 2)], [2, 2, 1], None, id="countdown"),
]


@pytest.mark.parametrize(("game", "options", "hands", "ranks", "scores"), FINISHES)
def test_a_finished_match_carries_its_play(api, app, game, options, hands, ranks, scores):
    match = start(api, game, options)
    assert match["bg_stats"] is None
    MATCH_SCHEMA.validate(match)
    for body in hands:
        assert api("POST", f"/matches/{match['id']}/hands", body).status_code == 201
    shown = api("GET", f"/matches/{match['id']}").json
    assert shown["status"] == "finished"
    MATCH_SCHEMA.validate(shown)
    bg = shown["bg_stats"]
    assert json.loads(unquote(bg["link"].split("?data=", 1)[1])) == bg["play"]
    players = bg["play"]["players"]
    assert [p["name"] for p in players] == [s["name"] for s in shown["seats"]]
    assert [p["rank"] for p in players] == ranks
    assert [p["winner"] for p in players] == [s in shown["standings"]["winners"]
                                              for s in range(3)]
    assert [p.get("score") for p in players] == (scores or [None] * 3)
    with app.app_context():
        row = db.session.get(Match, match["id"])
        assert bg["play"]["sourcePlayId"] == row.uid
        secrets = (row.view_token, db.session.get(Group, row.group_id).invite_token)
    for secret in secrets:
        assert secret not in json.dumps(bg)
