"""The live poll's cheap answer: an unchanged version is a bare 304 with its ETag, found
from the version alone and answered in front of Flask; a stale one gets the new board
(compressed as the browser asked, the same bytes for every spectator); a link that no
longer opens the match, a phone that is no member, or a match that is gone is a 404
whatever ETag comes with it."""

from __future__ import annotations

import gzip
import json
import re

import pytest
from flask import request, request_finished
from sqlalchemy import delete

from scorekeeper.store.extensions import db
from scorekeeper.store.models import Match
from tests.support.parsed import Page, body_rows, introduced, text
from tests.support.web import add_players, record, start_group, start_match

CHROMIUM = {"Accept-Encoding": "gzip, deflate, br, zstd", "Accept": "*/*"}
DOCUMENT_HEADERS = ("Content-Security-Policy", "X-Frame-Options", "Referrer-Policy",
                    "Cross-Origin-Opener-Policy")


def _refusal(response) -> str:
    """What a 404 page says: the paragraph under its "404 · ..." title."""
    return text(introduced(Page(response), re.compile(r"^404 · ")))


def _watched(app, client) -> dict[str, str]:
    """A member's phone with a Last One match of Ann, Bo and Cy; its poll paths and the
    ETag the pages show."""
    gid = start_group(client)
    mid = start_match(client, gid, add_players(client, gid, "Ann", "Bo", "Cy"))
    with app.app_context():
        token = db.session.get(Match, mid).view_token
    shown = Page(client.get(f"/view/{token}")).one("#board")["data-live-etag"]
    return {"gid": str(gid), "mid": str(mid), "token": token, "shown": f'"{shown}"',
            "member": f"/groups/{gid}/matches/{mid}/live", "spectator": f"/view/{token}/live"}


@pytest.mark.parametrize("who", ["member", "spectator"])
@pytest.mark.parametrize("scheme", ["http", "https"])
def test_an_unchanged_poll_is_a_bare_304_with_its_etag(app, client, who, scheme):
    paths = _watched(app, client)
    answer = client.get(paths[who], headers={**CHROMIUM, "If-None-Match": paths["shown"]},
                        base_url=f"{scheme}://localhost")
    assert answer.status_code == 304 and answer.data == b""
    assert answer.headers["ETag"] == "W/" + paths["shown"]
    assert answer.headers["Cache-Control"] == "no-cache, private"
    assert answer.headers["Vary"] == "Accept-Encoding"  # as its 200 says
    assert answer.headers["X-Content-Type-Options"] == "nosniff"
    assert ("Strict-Transport-Security" in answer.headers) == (scheme == "https")
    assert not [name for name in DOCUMENT_HEADERS if name in answer.headers]
    again = client.get(paths[who], headers={"If-None-Match": answer.headers["ETag"]})
    assert again.status_code == 304


def test_an_unchanged_poll_is_answered_before_flask_makes_a_request(app, client):
    """No request of Flask's is made for a 304, so none of the app's hooks runs (the
    rate limiter's, the body limit's, CSRF's, the compressor's): the poll is answered in
    front of Flask. Every other answer of
    the live URLs goes through Flask as any request does."""
    paths = _watched(app, client)
    seen: list[tuple[str, int]] = []

    def finished(_app, response, **_extra) -> None:
        seen.append((request.path, response.status_code))

    held = {**CHROMIUM, "If-None-Match": paths["shown"]}
    with request_finished.connected_to(finished, app):
        assert [client.get(paths[who], headers=held).status_code
                for who in ("member", "spectator")] == [304, 304]
        assert seen == []
        stranger = app.test_client().get(paths["member"], headers=held)
        record(client, int(paths["gid"]), int(paths["mid"]), 1, 0, "", "8s kh", "5c")
        news = client.get(paths["spectator"], headers=held)
    assert (stranger.status_code, news.status_code) == (404, 200)
    assert seen[0] == (paths["member"], 404) and seen[-1] == (paths["spectator"], 200)


def test_a_poll_from_an_untrusted_host_is_refused_whatever_its_etag(app, client):
    paths = _watched(app, client)
    app.config["TRUSTED_HOSTS"] = ["cards.example.org"]
    held = {"If-None-Match": paths["shown"]}
    assert client.get(paths["spectator"], headers=held,
                      base_url="http://elsewhere.example").status_code == 400
    assert client.get(paths["spectator"], headers=held,
                      base_url="http://cards.example.org").status_code == 304


@pytest.mark.parametrize("who", ["member", "spectator"])
def test_a_stale_version_gets_the_new_board_and_then_304s(app, client, who):
    paths = _watched(app, client)
    record(client, int(paths["gid"]), int(paths["mid"]), 1, 0, "", "8s kh", "5c")
    stale = {"Accept-Encoding": "gzip", "If-None-Match": paths["shown"]}
    answer = client.get(paths[who], headers=stale)
    assert answer.status_code == 200 and answer.headers["Content-Encoding"] == "gzip"
    news = json.loads(gzip.decompress(answer.data))
    assert news["version"] == 2 and news["hands"] == 1 and news["next_hand"] == 2
    (table,) = Page(news["board"]).by_role("table")
    assert len(body_rows(table)) == 1  # the hand just recorded
    held = answer.headers["ETag"]  # what the page's script sends next: the same version
    assert held.startswith('W/"') and ":gzip" not in held
    assert client.get(paths[who], headers={**CHROMIUM, "If-None-Match": held}).status_code == 304


def test_every_spectator_gets_the_same_compressed_answer(app, client):
    paths = _watched(app, client)
    record(client, int(paths["gid"]), int(paths["mid"]), 1, 0, "", "8s kh", "5c")
    asked = {**CHROMIUM, "If-None-Match": paths["shown"]}
    first, second = (app.test_client().get(paths["spectator"], headers=asked) for _ in "12")
    assert first.status_code == second.status_code == 200
    assert first.headers["Content-Encoding"] == second.headers["Content-Encoding"]
    assert first.data == second.data and first.headers["ETag"] == second.headers["ETag"]
    plain = app.test_client().get(paths["spectator"], headers={"If-None-Match": paths["shown"]})
    assert "Content-Encoding" not in plain.headers and plain.json["version"] == 2


def test_a_rotated_or_wrong_view_link_is_404(app, client):
    paths = _watched(app, client)
    client.post(f"/groups/{paths['gid']}/matches/{paths['mid']}/view-link",
                data={"confirm": "yes"})
    held = {"If-None-Match": paths["shown"]}
    old = client.get(paths["spectator"], headers=held)
    assert old.status_code == 404 and "no longer works" in _refusal(old)
    with app.app_context():
        token = db.session.get(Match, int(paths["mid"])).view_token
    assert client.get(f"/view/{token}/live", headers=held).status_code == 304
    for wrong in ("not-a-token", "x" * 65):
        assert client.get(f"/view/{wrong}/live", headers=held).status_code == 404


def test_a_stranger_or_a_match_of_another_group_is_404(app, client):
    paths = _watched(app, client)
    held = {"If-None-Match": paths["shown"]}
    stranger = app.test_client().get(paths["member"], headers=held)
    assert stranger.status_code == 404 and "No such group here" in _refusal(stranger)
    other = start_group(client, "Friday")
    elsewhere = client.get(f"/groups/{other}/matches/{paths['mid']}/live", headers=held)
    assert elsewhere.status_code == 404
    assert "No such match in this group" in _refusal(elsewhere)


@pytest.mark.corrupts_derived  # deleted behind the app's back, its derived rows too
def test_a_deleted_match_is_404(app, client):
    paths = _watched(app, client)
    with app.app_context():  # no page deletes a match: every row naming it, then its own
        for table in reversed(db.metadata.sorted_tables):
            if "match_id" in table.c:
                db.session.execute(delete(table).where(table.c.match_id == int(paths["mid"])))
        db.session.execute(delete(Match).where(Match.id == int(paths["mid"])))
        db.session.commit()
    held = {"If-None-Match": paths["shown"]}
    assert client.get(paths["spectator"], headers=held).status_code == 404
    gone = client.get(paths["member"], headers=held)
    assert gone.status_code == 404 and "No such match in this group" in _refusal(gone)
