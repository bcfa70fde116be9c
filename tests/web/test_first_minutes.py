"""A table's first minutes without the page script: destructive buttons ask on a page
of their own and change nothing until a yes; a finished match lists its places on the
scoreboard and the match record; the links to share carry a QR code; the deal helper
offers only the game's table sizes; every page has a meta description."""

from __future__ import annotations

import pytest

from scorekeeper.store.extensions import db
from scorekeeper.store.models import Group, Match
from scorekeeper.web.share import qr_svg
from tests.support.parsed import Page, text
from tests.support.web import add_players, record, start_group, start_match


@pytest.fixture
def table(client):
    gid = start_group(client)
    return gid, add_players(client, gid, "Ann", "Ben", "Cat", "Dan")


def places_listed(response) -> list[tuple[str, str]]:
    """(place, name) in the order the scoreboard's standings list them."""
    places = Page(response).get("list", "Places")
    return [(text(item.select_one("[data-place]")), text(item.select_one(".who")))
            for item in places.select("li")]


def controls(response) -> tuple[set[str], set[str]]:
    """The names of the page's buttons and links: outside its danger zone, and in it."""
    page = Page(response)
    zone = page.one(".danger-zone")
    everyday, careful = set(), set()
    for node in page.by_role("button") + page.by_role("link"):
        (careful if zone in node.parents else everyday).add(page.accessible_name(node))
    return everyday, careful


def test_a_finished_match_lists_places_on_the_board_and_the_record(client, table):
    gid, pids = table
    mid = start_match(client, gid, pids, threshold="50")
    record(client, gid, mid, 1, 0, "", "8s 8h", "10c 10d", "9c 9d 2c")  # Ben falls on 50
    record(client, gid, mid, 2, 3, "4c 5c", "", "jk 2d", "")           # Cat falls on 62
    assert Page(client.get(f"/groups/{gid}/matches/{mid}")).by_role("list", "Places") == []
    record(client, gid, mid, 3, 0, "", "", "", "8c 8d kh")             # Dan falls: Ann wins
    board = client.get(f"/groups/{gid}/matches/{mid}")
    assert places_listed(board) == [("1st", "Ann"), ("2nd", "Dan"), ("3rd", "Cat"),
                                    ("4th", "Ben")]
    record_page = Page(client.get(f"/groups/{gid}/matches/{mid}/record"))
    rows = [(text(row.select_one("td.num > strong")), text(row.select_one("td a .who")))
            for row in record_page.all("tr") if row.select_one("td.num > strong")]
    assert rows == [("1st", "Ann"), ("2nd", "Dan"), ("3rd", "Cat"), ("4th", "Ben")]


def test_a_one_hand_match_is_placed_by_the_cards_held(client, table):
    gid, pids = table
    mid = start_match(client, gid, pids, game="crazy-eights", match_end="one-hand")
    record(client, gid, mid, 1, 2, "8s kh", "9c 9h", "", "ac")
    board = client.get(f"/groups/{gid}/matches/{mid}")
    assert places_listed(board) == [("1st", "Cat"), ("2nd", "Dan"), ("3rd", "Ben"),
                                    ("4th", "Ann")]


@pytest.mark.parametrize(("path", "question", "count"), [
    ("/hands/last/delete?number=1", "Delete hand 1?", lambda m, g: m.hand_count),
    ("/view-link", "Make a new view link?", lambda m, g: m.view_token),
    ("", "Make a new invite link?", lambda m, g: g.invite_token),
    ("", "Leave ", lambda m, g: None),
], ids=["delete-hand", "view-link", "invite-link", "leave"])
def test_without_script_a_destructive_button_asks_on_a_page_first(app, client, table, path,
                                                                   question, count):
    gid, pids = table
    mid = start_match(client, gid, pids[:2])
    record(client, gid, mid, 1, 0, "", "8s 8h")
    url = f"/groups/{gid}/matches/{mid}{path}" if path else (
        f"/groups/{gid}/invite" if "invite" in question else f"/groups/{gid}/leave")

    def state():
        with app.app_context():
            return count(db.session.get(Match, mid), db.session.get(Group, gid))

    before = state()
    asked = client.post(url)
    assert asked.status_code == 200
    page = Page(asked)
    assert question in page.text()
    yes = page.one('[name="confirm"][value="yes"]')
    assert state() == before and client.get(f"/groups/{gid}").status_code == 200
    form = yes.find_parent("form")
    assert str(form["method"]).lower() == "post"
    assert client.post(str(form["action"]), data={"confirm": "yes"}).status_code == 302
    if path or "invite" in question:
        assert state() != before
    else:
        assert client.get(f"/groups/{gid}").status_code == 404  # this phone left


def test_the_board_keeps_everyday_buttons_apart_from_undo(client, table):
    gid, pids = table
    mid = start_match(client, gid, pids[:2], threshold="30")
    record(client, gid, mid, 1, 0, "", "8s 8h")
    everyday, careful = controls(client.get(f"/groups/{gid}/matches/{mid}"))
    assert "Rematch" in everyday and not any(n.startswith("Delete hand") for n in everyday)
    assert "Delete hand 1" in careful and "Rematch" not in careful
    everyday, careful = controls(client.get(f"/groups/{gid}"))
    assert "Leave on this phone" in careful and "Leave on this phone" not in everyday


def test_shared_links_carry_a_qr_code_drawn_on_the_server(app, client, table):
    gid, pids = table
    mid = start_match(client, gid, pids[:2])
    with app.app_context():
        invite = db.session.get(Group, gid).invite_token
        view = db.session.get(Match, mid).view_token
    for page, link in ((f"/groups/{gid}", f"/join/{invite}"),
                       (f"/groups/{gid}/matches/{mid}", f"/view/{view}")):
        shown = Page(client.get(page))
        assert shown.all("[data-copy]") and shown.all("[data-share-url]")
        qr = shown.one("img.qr")
        assert qr["loading"] == "lazy" and qr["alt"]
        src = str(qr["src"])
        image = client.get(src)
        assert image.status_code == 200 and image.mimetype == "image/svg+xml"
        assert image.data == qr_svg(f"http://localhost{link}")
        assert app.test_client().get(src).status_code == 404  # not for strangers


@pytest.mark.parametrize(("game", "sizes"), [("last-one", range(2, 7)),
                                             ("crazy-eights", range(2, 8))])
def test_the_deal_helper_offers_only_the_games_table_sizes(client, game, sizes):
    page = Page(client.get(f"/deal?game={game}"))
    offered = [int(str(n["value"])) for n in page.all('input[name="players"]')]
    assert offered == list(sizes)


@pytest.mark.parametrize("path", ["/", "/rules", "/deal", "/check"])
def test_pages_carry_a_meta_description(client, path):
    assert len(str(Page(client.get(path)).one('meta[name="description"]')["content"])) >= 40
