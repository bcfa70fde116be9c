"""The server side of offline use: the hand form's idempotency key, the cheap live
endpoint (ETag on the match version, 304 with no body), and the service worker route."""

from __future__ import annotations

import re

from sqlalchemy import func

from scorekeeper.store.extensions import db
from scorekeeper.store.models import Hand, Match
from tests.support.parsed import Page
from tests.support.web import add_players, record, start_group, start_match


def _match(client) -> tuple[int, int]:
    gid = start_group(client)
    return gid, start_match(client, gid, add_players(client, gid, "Ann", "Bo", "Cy"),
                            threshold="50")


def _statuses(client, url: str) -> list[str]:
    """What the page at ``url`` says in its status lines (the messages after a POST)."""
    return Page(client.get(url)).names("status")


def _hooks(client, url: str, selector: str) -> dict[str, str]:
    """The data the page's scripts read off the one element ``selector`` names."""
    found = Page(client.get(url)).all(selector)
    assert len(found) <= 1, f"{len(found)} elements match {selector!r}"
    return {k: str(v) for k, v in found[0].attrs.items() if k.startswith("data-")} if found else {}


def _count(app) -> int:
    with app.app_context():
        return db.session.scalar(db.select(func.count()).select_from(Hand))


def test_the_form_carries_a_fresh_key_each_time(client):
    gid, mid = _match(client)
    keys = [Page(client.get(f"/groups/{gid}/matches/{mid}/hands/new")).value("idempotency_key")
            for _ in range(2)]
    assert keys[0] != keys[1] and len(keys[0]) == 36


def test_the_same_form_sent_twice_stores_one_hand_and_says_saved(app, client):
    gid, mid = _match(client)
    first = record(client, gid, mid, 1, 1, "8s", "", "9c", idempotency_key="k-1")
    again = record(client, gid, mid, 1, 1, "8s", "", "9c", idempotency_key="k-1",
                   csrf_token="a-newer-token")
    assert first.status_code == again.status_code == 302
    assert again.location == first.location
    assert [line for line in _statuses(client, again.location) if line.startswith("Hand 1 saved.")]
    assert _count(app) == 1


def test_a_key_reused_for_another_hand_saves_nothing_and_says_why(app, client):
    gid, mid = _match(client)
    record(client, gid, mid, 1, 1, "8s", "", "9c", idempotency_key="k-1")
    reused = record(client, gid, mid, 2, 0, "", "kh", "4d", idempotency_key="k-1")
    assert reused.status_code == 302
    said = [line for line in _statuses(client, reused.location) if line.startswith("Not saved")]
    assert len(said) == 1
    assert said[0].startswith("Not saved: this form was already used to record a hand")
    assert said[0].endswith("What you entered: Bo: K♥; Cy: 4♦.")
    assert _count(app) == 1


def test_a_malformed_key_is_shown_on_the_form(app, client):
    gid, mid = _match(client)
    sent = record(client, gid, mid, 1, 1, "8s", "", "9c", idempotency_key="x" * 81)
    assert sent.status_code == 400
    alerts = Page(sent).names("alert")
    assert [line for line in alerts if "idempotency_key is damaged" in line], alerts
    assert _count(app) == 0


def test_an_unchanged_poll_is_a_304_with_no_body(app, client):
    gid, mid = _match(client)
    url = f"/groups/{gid}/matches/{mid}/live"
    fresh = client.get(url)
    assert fresh.status_code == 200 and fresh.json == {
        "version": 1, "hands": 0, "next_hand": 1, "status": "active"}
    assert len(fresh.data) < 300
    etag = fresh.headers["ETag"]
    same = client.get(url, headers={"If-None-Match": etag})
    assert same.status_code == 304 and same.data == b""
    assert same.headers["ETag"] == etag
    record(client, gid, mid, 1, 1, "8s", "", "9c")
    moved = client.get(url, headers={"If-None-Match": etag})
    assert moved.status_code == 200 and moved.json["hands"] == 1
    assert moved.headers["ETag"] != etag


def test_spectators_poll_by_view_token_and_strangers_get_404(app, client):
    gid, mid = _match(client)
    with app.app_context():
        token = db.session.get(Match, mid).view_token
    seen = client.get(f"/view/{token}/live")
    assert seen.status_code == 200 and seen.json["version"] == 1
    assert client.get(f"/view/{token}/live",
                      headers={"If-None-Match": seen.headers["ETag"]}).status_code == 304
    assert client.get("/view/not-a-token/live").status_code == 404
    stranger = app.test_client()
    assert stranger.get(f"/groups/{gid}/matches/{mid}/live").status_code == 404


def test_the_scoreboard_offers_the_hooks_and_no_token_to_spectators(app, client):
    gid, mid = _match(client)
    board = f"/groups/{gid}/matches/{mid}"
    assert _hooks(client, board, "#board")["data-live-url"] == f"{board}/live"
    assert _hooks(client, board, "[data-offline-queue]")["data-offline-queue"] == str(mid)
    form = _hooks(client, f"{board}/hands/new", "form[data-hand-form]")
    assert form["data-token"] and form["data-api"] == f"/api/v1/matches/{mid}/hands"
    with app.app_context():
        token = db.session.get(Match, mid).view_token
    view = Page(client.get(f"/view/{token}"))
    assert not view.all("[data-token]") and not view.all("[data-offline-queue]")


def test_the_new_hand_form_carries_no_hand_to_compare_the_server_asks(client):
    """No script compares cards: a hand like a recorded one is the server's question
    (tests/web/hands/test_same_hand.py), so the form carries no stored hand."""
    gid, mid = _match(client)
    record(client, gid, mid, 1, 1, "8s 10h", "", "♣9")
    form = Page(client.get(f"/groups/{gid}/matches/{mid}/hands/new"))
    assert not form.all("[data-last-hand]")
    assert form.one("form[data-hand-form]")["data-offline-match"] == str(mid)
    edit = client.get(f"/groups/{gid}/matches/{mid}/hands/1")
    assert edit.status_code == 200
    editing = Page(edit)
    assert editing.get("button", "Save hand 1")
    assert not editing.all("[data-live-url]")


def test_the_new_hand_form_and_the_board_poll_every_three_seconds(client):
    gid, mid = _match(client)
    board = f"/groups/{gid}/matches/{mid}"
    form = _hooks(client, f"{board}/hands/new", "form[data-hand-form]")
    assert form["data-live-url"] == f"{board}/live" and form["data-live"] == "3000"
    assert re.fullmatch(r"/static/live\.[0-9a-f]{12}\.js", form["data-after-load"])
    page = Page(client.get(board))
    assert page.one("#board")["data-live"] == "3000"
    swapped = [part for part in page.all("[data-live-swap]") if part.get("id") == "undo"]
    assert [page.accessible_name(part) for part in swapped] == ["Undo or replace"]
    parts = page.all("[data-offline-queue], #board")  # in document order: the list on top
    assert [part.get("id") for part in parts] == [None, "board"]


def test_the_service_worker_covers_the_whole_app(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert response.headers["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response.headers["Cache-Control"]
    assert "__VERSION__" not in response.text
    assert re.search(r'VERSION ?= ?"[0-9a-f]{12}"', response.text)  # served minified


def test_the_worker_script_is_compressed_and_revalidated_with_a_304(client):
    """The browser checks the worker for updates: while nothing changed, no body."""
    first = client.get("/sw.js", headers={"Accept-Encoding": "gzip"})
    assert first.headers["Content-Encoding"] == "gzip"
    again = client.get("/sw.js", headers={"Accept-Encoding": "gzip",
                                          "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""


def test_the_worker_version_follows_the_static_files(tmp_path):
    """Any change to a static file makes a new worker script (and so new caches);
    the README's screenshots do not count."""
    from scorekeeper.web.offline.views import _version

    def folder(name: str, css: str, shot: bytes) -> str:
        root = tmp_path / name
        (root / "screenshots").mkdir(parents=True)
        (root / "sw.js").write_text('const VERSION = "__VERSION__";')
        (root / "style.css").write_text(css)
        (root / "screenshots" / "a.png").write_bytes(shot)
        return str(root)

    first = _version(folder("a", "body {}", b"1"))
    assert _version(folder("b", "body {}", b"2")) == first
    assert _version(folder("c", "body { color: red }", b"1")) != first


def test_the_workers_background_copy_leaves_the_persons_message_alone(client):
    """The worker keeps a copy of the page being looked at while the next name is added:
    that copy must neither take "Added Ben." nor answer with a session cookie."""
    gid = start_group(client)
    client.get(f"/groups/{gid}/players")  # the page the person is on (its form's token)
    assert client.post(f"/groups/{gid}/players", data={"name": "Ben"}).status_code == 302
    copy = client.get(f"/groups/{gid}/players", headers={"Scorekeeper-Copy": "keep"})
    assert copy.status_code == 200
    assert not [line for line in Page(copy).names("status") if "Added Ben" in line]
    assert "Set-Cookie" not in copy.headers
    assert "Added Ben." in _statuses(client, f"/groups/{gid}/players")
