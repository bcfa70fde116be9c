"""Groups and access: start, join by invite, switch, rotate, and every way to be refused."""

from __future__ import annotations

import pytest

from scorekeeper import create_app
from scorekeeper.store.extensions import db
from scorekeeper.store.models import Group, Player
from tests.support.parsed import Page
from tests.support.web import add_players, start_group, start_match


def invite_of(app, gid: int) -> str:
    with app.app_context():
        return db.session.get(Group, gid).invite_token


def test_first_visit_shows_the_start_form(client):
    response = client.get("/")
    assert response.status_code == 200
    page = Page(response)
    assert "Start a group" in page.names("heading")
    form = page.get("button", "Start the group").find_parent("form")
    assert form.select_one('input[name="csrf_token"]') is not None
    assert page.get("textbox", "Group name")["name"] == "name"


def test_start_group_makes_this_phone_a_member(client):
    gid = start_group(client, "Thursday cards")
    assert "Thursday cards" in Page(client.get("/")).names("link")
    assert client.get(f"/groups/{gid}").status_code == 200


@pytest.mark.parametrize("name", ["", "   ", "x" * 81])
def test_group_name_is_required_and_short(client, name):
    page = client.post("/groups", data={"name": name})
    assert page.status_code == 400
    assert Page(page).errors()["name"]


def test_stranger_gets_404_everywhere(app, client):
    gid = start_group(client)
    pids = add_players(client, gid, "Ann", "Bo")
    mid = start_match(client, gid, pids)
    stranger = app.test_client()
    for url in (f"/groups/{gid}", f"/groups/{gid}/players", f"/groups/{gid}/matches/new",
                f"/groups/{gid}/matches/{mid}", f"/groups/{gid}/matches/{mid}/hands/new"):
        assert stranger.get(url).status_code == 404, url
    assert stranger.post(f"/groups/{gid}/players", data={"name": "Eve"}).status_code == 404
    with app.app_context():
        assert db.session.scalar(db.select(Player).where(Player.name == "Eve")) is None


def test_invite_link_joins_and_phone_can_switch_groups(app, client):
    first = start_group(client, "Home")
    other_phone = app.test_client()
    second = start_group(other_phone, "Cabin")
    assert client.get(f"/groups/{second}").status_code == 404
    joined = client.get(f"/join/{invite_of(app, second)}")
    assert joined.status_code == 302 and joined.location.endswith(f"/groups/{second}")
    assert {"Home", "Cabin"} <= set(Page(client.get("/")).names("link"))
    assert client.get(f"/groups/{first}").status_code == 200
    assert client.get(f"/groups/{second}").status_code == 200


def test_wrong_invite_token_is_404(client):
    start_group(client)
    assert client.get("/join/not-the-token").status_code == 404
    assert client.get("/join/" + "x" * 200).status_code == 404


def test_rotating_the_invite_locks_out_phones_until_they_rejoin(app, client):
    gid = start_group(client)
    old = invite_of(app, gid)
    friend = app.test_client()
    friend.get(f"/join/{old}")
    assert friend.get(f"/groups/{gid}").status_code == 200
    assert client.post(f"/groups/{gid}/invite", data={"confirm": "yes"}).status_code == 302
    new = invite_of(app, gid)
    assert new != old
    assert client.get(f"/groups/{gid}").status_code == 200  # the rotating phone stays in
    assert friend.get(f"/groups/{gid}").status_code == 404
    assert friend.get(f"/join/{old}").status_code == 404
    friend.get(f"/join/{new}")
    assert friend.get(f"/groups/{gid}").status_code == 200


def test_another_groups_match_is_404(app, client):
    gid = start_group(client, "Mine")
    other = app.test_client()
    ogid = start_group(other, "Theirs")
    omid = start_match(other, ogid, add_players(other, ogid, "X", "Y"))
    assert client.get(f"/groups/{gid}/matches/{omid}").status_code == 404
    assert client.get(f"/groups/{ogid}/matches/{omid}").status_code == 404
    assert client.post(f"/groups/{gid}/matches/{omid}/hands/new",
                       data={"number": "1", "out": "0", "seat-1": "5c 6c"}).status_code == 404


def test_forged_membership_cookie_is_ignored(app, client):
    gid = start_group(client)
    stranger = app.test_client()
    stranger.set_cookie(app.config["MEMBERSHIP_COOKIE"], '{"1": "guess"}')
    assert stranger.get(f"/groups/{gid}").status_code == 404


def test_huge_ids_are_404_not_500(client):
    gid = start_group(client)
    assert client.get(f"/groups/{2**40}").status_code == 404
    assert client.get(f"/groups/{gid}/matches/{2**40}").status_code == 404
    assert client.get(f"/groups/{gid}/players/{2**40}").status_code == 404


def test_leave_forgets_the_group_on_this_phone(client):
    gid = start_group(client)
    client.post(f"/groups/{gid}/leave", data={"confirm": "yes"})
    assert client.get(f"/groups/{gid}").status_code == 404


def test_invite_token_lookup_finds_the_group(app, client):
    from scorekeeper.store.groups import group_by_invite

    gid = start_group(client)
    token = invite_of(app, gid)
    with app.app_context():
        assert group_by_invite(token).id == gid
        assert group_by_invite("wrong") is None
        assert group_by_invite("") is None
        assert group_by_invite("x" * 65) is None


@pytest.fixture
def csrf_app(app, tmp_path, monkeypatch):
    """The same database, with CSRF protection on as in production."""
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path / "csrf-instance"))
    return create_app({"TESTING": True, "SECRET_KEY": "test-secret-key", "WTF_CSRF_ENABLED": True,
                       "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"]})


def test_csrf_is_enforced(csrf_app):
    phone = csrf_app.test_client()
    refused = phone.post("/groups", data={"name": "No token"})
    assert refused.status_code == 400
    with csrf_app.app_context():
        assert db.session.scalar(db.select(db.func.count(Group.id))) == 0
        db.engine.dispose()


def test_every_page_of_a_session_carries_a_token_its_phone_may_post_with(csrf_app):
    """Flask-WTF signs the session's token for each page that shows a form; any of
    them is accepted for that session, while another phone's token is refused."""
    def token(phone) -> str:
        return Page(phone.get("/")).value("csrf_token")

    phone, other = csrf_app.test_client(), csrf_app.test_client()
    first, later = token(phone), token(phone)
    assert phone.post("/groups", data={"name": "Later", "csrf_token": later}).status_code == 302
    assert phone.post("/groups", data={"name": "First", "csrf_token": first}).status_code == 302
    assert phone.post("/groups", data={"name": "Other", "csrf_token": token(other)}
                      ).status_code == 400
    with csrf_app.app_context():
        assert sorted(db.session.scalars(db.select(Group.name)).all()) == ["First", "Later"]
        db.engine.dispose()


def test_csrf_token_from_the_form_is_accepted(csrf_app):
    phone = csrf_app.test_client()
    token = Page(phone.get("/")).value("csrf_token")
    made = phone.post("/groups", data={"name": "With token", "csrf_token": token})
    assert made.status_code == 302
    gid = int(made.location.rsplit("/", 2)[1])
    refused = phone.post(f"/groups/{gid}/players", data={"name": "Ann"})
    assert refused.status_code == 400
    with csrf_app.app_context():
        assert db.session.scalar(db.select(db.func.count(Player.id))) == 0
        db.engine.dispose()
