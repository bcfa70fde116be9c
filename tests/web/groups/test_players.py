"""Players: add, rename, recolour, unique names, hide, and delete only without history."""

from __future__ import annotations

import pytest

from scorekeeper.store.extensions import db
from scorekeeper.store.models import Player
from tests.support.parsed import Page
from tests.support.web import add_players, field_errors, start_group, start_match


@pytest.fixture
def gid(client):
    return start_group(client)


def names(app) -> list[str]:
    with app.app_context():
        return sorted(db.session.scalars(db.select(Player.name)))


def test_add_players_with_colours(app, client, gid):
    client.post(f"/groups/{gid}/players", data={"name": "  Ann  ", "colour": "#FF0000"})
    client.post(f"/groups/{gid}/players", data={"name": "Bo"})
    page = Page(client.get(f"/groups/{gid}/players"))
    assert page.texts(".who") == ["Ann", "Bo"]  # trimmed
    with app.app_context():
        colours = dict(db.session.execute(db.select(Player.name, Player.colour)).all())
    assert colours["Ann"] == "#ff0000" and colours["Bo"].startswith("#")


@pytest.mark.parametrize("name", ["Ann", "ann", " ANN "])
def test_duplicate_name_is_a_message_not_a_500(app, client, gid, name):
    add_players(client, gid, "Ann")
    page = client.post(f"/groups/{gid}/players", data={"name": name})
    assert page.status_code == 400
    assert "already a player" in field_errors(page.text)["name"]
    assert names(app) == ["Ann"]


def test_same_name_in_another_group_is_fine(app, client, gid):
    add_players(client, gid, "Ann")
    other = start_group(client, "Other")
    add_players(client, other, "Ann")
    assert names(app) == ["Ann", "Ann"]


def test_database_constraint_backs_the_unique_name(app, gid):
    from sqlalchemy.exc import IntegrityError

    with app.app_context():
        db.session.add_all([Player(group_id=gid, name="Cy"), Player(group_id=gid, name="Cy")])
        with pytest.raises(IntegrityError):
            db.session.commit()
        db.session.rollback()


@pytest.mark.parametrize("data, field", [
    ({"name": ""}, "name"),
    ({"name": "x" * 41}, "name"),
    ({"name": "Ann", "colour": "red"}, "colour"),
])
def test_bad_player_input(client, gid, data, field):
    page = client.post(f"/groups/{gid}/players", data=data)
    assert page.status_code == 400 and field in field_errors(page.text)


def test_rename_and_recolour(app, client, gid):
    ann, _ = add_players(client, gid, "Ann", "Bo")
    done = client.post(f"/groups/{gid}/players/{ann}", data={"name": "Anna", "colour": "#00ff00"})
    assert done.status_code == 302
    assert names(app) == ["Anna", "Bo"]
    clash = client.post(f"/groups/{gid}/players/{ann}", data={"name": "bo", "colour": "#00ff00"})
    assert clash.status_code == 400 and "already a player" in field_errors(clash.text)["name"]
    same = client.post(f"/groups/{gid}/players/{ann}", data={"name": "Anna", "colour": "#000000"})
    assert same.status_code == 302


def test_player_without_history_can_be_deleted(app, client, gid):
    (ann,) = add_players(client, gid, "Ann")
    client.post(f"/groups/{gid}/players/{ann}/delete")
    assert names(app) == []


def test_player_with_history_can_only_be_hidden(app, client, gid):
    ann, bo = add_players(client, gid, "Ann", "Bo")
    start_match(client, gid, [ann, bo])
    refused = Page(client.post(f"/groups/{gid}/players/{ann}/delete", follow_redirects=True))
    assert "can only be hidden" in refused.text()
    assert names(app) == ["Ann", "Bo"]

    def seated() -> list[str]:  # the players the match setup offers a seat to
        setup = Page(client.get(f"/groups/{gid}/matches/new"))
        return [setup.accessible_name(select) for select in setup.all("select.seat-select")
                if str(select["name"]).startswith("order-p")]

    client.post(f"/groups/{gid}/players/{ann}/hide")
    assert seated() == ["Bo"]
    client.post(f"/groups/{gid}/players/{ann}/hide")  # and back
    assert sorted(seated()) == ["Ann", "Bo"]


def test_another_groups_player_is_404(app, client, gid):
    other = app.test_client()
    ogid = start_group(other)
    (eve,) = add_players(other, ogid, "Eve")
    assert client.get(f"/groups/{gid}/players/{eve}").status_code == 404
    assert client.post(f"/groups/{gid}/players/{eve}/delete").status_code == 404
    assert names(app) == ["Eve"]
