"""Fixtures for the JSON API's tests: groups with players and their bearer tokens."""

from __future__ import annotations

import pytest

from scorekeeper.store.extensions import db
from scorekeeper.store.models import Group, Player
from tests.support.api import Api


@pytest.fixture
def groups(app):
    """Two groups with three players each: ``{"home": token, "away": token}``."""
    tokens = {}
    with app.app_context():
        for name in ("home", "away"):
            group = Group(name=name)
            group.players = [Player(name=n) for n in ("Ann", "Bob", "Cy")]
            db.session.add(group)
            db.session.commit()
            tokens[name] = group.invite_token
    return tokens


@pytest.fixture
def api(client, groups) -> Api:
    return Api(client, groups["home"])


@pytest.fixture
def phones(app):
    """Two clients with the group's token, and the id of a long Crazy Eights match."""
    with app.app_context():
        group = Group(name="table")
        group.players = [Player(name=n) for n in ("Ann", "Bob", "Cy")]
        db.session.add(group)
        db.session.commit()
        token = group.invite_token
    headers = {"Authorization": f"Bearer {token}"}
    first = app.test_client()
    response = first.post("/api/v1/matches", headers=headers, json={
        "sheet": {"game": "crazy-eights",
                  "options": {"match_end": "first-to-target", "target": 100000}},
        "players": ["Ann", "Bob", "Cy"]})
    assert response.status_code == 201
    return [first, app.test_client()], headers, response.json["id"]
