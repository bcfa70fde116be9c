"""What a live page gets after a hand instead of the whole page: the poll's answer
brings the board, the page's own (the same partials), to a client that said which
older version it holds; the parts that name a hand on a member's phone only; current
after every change a spectator's board is rendered from; and as private as the page."""

from __future__ import annotations

import pytest

from scorekeeper.store.extensions import db
from scorekeeper.store.models import Match
from tests.support.parsed import Page, body_rows
from tests.support.web import add_players, record, start_group, start_match


def _table(app, client) -> dict[str, str]:
    """A member's phone with a Last One match of Ann, Bo and Cy: the page and poll
    paths of the member and of the spectators."""
    gid = start_group(client)
    pids = add_players(client, gid, "Ann", "Bo", "Cy")
    mid = start_match(client, gid, pids)
    with app.app_context():
        token = db.session.get(Match, mid).view_token
    board = f"/groups/{gid}/matches/{mid}"
    return {"gid": str(gid), "mid": str(mid), "ann": str(pids[0]),
            "member": board, "member poll": board + "/live",
            "spectator": f"/view/{token}", "spectator poll": f"/view/{token}/live"}


def _board(html: str) -> str:
    """The page's or the answer's ``#board`` as parsed, without the moment it was
    rendered: the same elements, attributes and text give the same string."""
    board = Page(html).one("#board")
    del board["data-rendered"]
    return str(board)


def _shown_etag(page: str) -> str:
    """The ETag of the version the page shows (its first poll sends it)."""
    return f'"{Page(page).one("#board")["data-live-etag"]}"'


@pytest.mark.parametrize("who", ["member", "spectator"])
def test_a_poll_after_a_change_brings_the_pages_board(app, client, who):
    paths = _table(app, client)
    gid, mid = int(paths["gid"]), int(paths["mid"])
    first = {"If-None-Match": _shown_etag(client.get(paths[who]).text)}
    unchanged = client.get(paths[f"{who} poll"], headers=first)
    assert unchanged.status_code == 304 and unchanged.data == b""
    changes = [
        lambda: record(client, gid, mid, 1, 0, "", "8s kh", "5c"),
        lambda: record(client, gid, mid, 2, 1, "7d", "", "qs 2h"),
        lambda: client.post(f"/groups/{gid}/players/{paths['ann']}",
                            data={"name": "Anna", "colour": "#00ff00"}),
    ]
    for change in changes:  # asked by a page still showing the first version
        change()
        answer = client.get(paths[f"{who} poll"], headers=first)
        page = client.get(paths[who]).text
        assert answer.status_code == 200 and _board(answer.json["board"]) == _board(page)
    board = Page(answer.json["board"])
    assert "Anna" in board.names("columnheader")  # the renamed player heads her column
    (table,) = board.by_role("table")
    assert [row[0] for row in body_rows(table)] == ["1", "2"]


@pytest.mark.parametrize(("who", "parts"), [
    ("member", ["undo"]),
    ("spectator", []),
])
def test_the_board_comes_with_the_parts_that_name_a_hand_for_members_only(
        app, client, who, parts):
    paths = _table(app, client)
    before = _shown_etag(client.get(paths[who]).text)
    record(client, int(paths["gid"]), int(paths["mid"]), 1, 0, "", "8s kh", "5c")
    board = Page(client.get(paths[f"{who} poll"], headers={"If-None-Match": before})
                 .json["board"])
    assert [str(part["id"]) for part in board.all("section[data-live-swap]")] == parts
    assert bool(board.by_role("button", "Delete hand 1")) == bool(parts)
    assert board.soup.find(["html", "head", "body"]) is None  # not the whole page


def test_a_poll_that_names_no_version_gets_the_summary_alone(app, client):
    """An open hand form asks without a version at first: a few bytes, no board."""
    paths = _table(app, client)
    for who in ("member", "spectator"):
        answer = client.get(paths[f"{who} poll"])
        assert answer.status_code == 200 and "board" not in answer.json
        assert len(answer.data) < 300


def test_a_board_is_as_private_as_its_page(app, client):
    paths = _table(app, client)
    stranger = app.test_client()
    stale = {"If-None-Match": '"m1v0"'}
    assert stranger.get(paths["member poll"], headers=stale).status_code == 404
    assert "board" in stranger.get(paths["spectator poll"], headers=stale).json
    client.post(f"{paths['member']}/view-link", data={"confirm": "yes"})  # a new view link
    assert stranger.get(paths["spectator poll"], headers=stale).status_code == 404
