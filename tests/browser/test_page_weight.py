"""Page weight on the wire: the first load of hand entry stays within 15 KB,
and a repeat visit fetches only the page itself (and the form's live poll, a few
hundred bytes), its static files coming from the phone. Bytes are counted where they
leave the server (status line, headers, body), so whatever the service worker fetches
counts too. On SQLite only: the bytes do not
depend on the database."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page
from werkzeug.serving import make_server

from scorekeeper.store.extensions import db
from scorekeeper.store.models import Group
from tests.support.browser import require_chromium, wait_until
from tests.support.wire import Wire, to_load

pytestmark = [pytest.mark.browser,
              pytest.mark.parametrize("backend", ["sqlite"], indirect=True)]

FIRST_LOAD_LIMIT = 15 * 1024
LOADED_AT = ("(performance.timeOrigin"
             " + performance.getEntriesByType('navigation')[0].loadEventStart) / 1000")


@pytest.fixture
def wire(app) -> Iterator[tuple[Wire, str]]:
    """The app behind a byte-counting wrapper on a free local port; (wrapper, base URL)."""
    require_chromium()
    counted = Wire(app)
    server = make_server("127.0.0.1", 0, counted, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield counted, f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(timeout=5)


def hand_entry(app, base: str, page: Page) -> str:
    """A group (joined by this page's browser) with a three-player match; the path of
    its hand-entry page."""
    client = app.test_client()
    assert client.post("/groups", data={"name": "Weight table"}).status_code == 302
    with app.app_context():
        group_id, token = db.session.execute(db.select(Group.id, Group.invite_token)).one()
    auth = {"Authorization": f"Bearer {token}"}
    for name in ("Ann", "Bo", "Cy"):
        assert client.post("/api/v1/players", json={"name": name}, headers=auth).status_code == 201
    match = client.post("/api/v1/matches", headers=auth, json={
        "sheet": {"game": "crazy-eights", "options": {}}, "players": ["Ann", "Bo", "Cy"]}).json
    page.request.get(f"{base}/join/{token}")
    return f"/groups/{group_id}/matches/{match['id']}/hands/new"


def test_hand_entry_first_load_is_light_and_a_repeat_visit_fetches_only_the_page(
        app, wire, page: Page):
    counted, base = wire
    path = hand_entry(app, base, page)

    start = time.time()
    page.goto(base + path)
    loaded = page.evaluate(LOADED_AT)
    # A locator, not wait_for_function: when the script is not there at the first look,
    # that polls with eval, which the page's CSP refuses (the failure seen now and then).
    page.locator('script[src*="/static/offline."]').wait_for(state="attached")
    counted.quiet(0.2)  # the favicon comes around the load event; offline.js after it
    first = to_load(counted.since(start), loaded)
    assert [a.path for a in first if a.kind == "document"] == [path]
    size = sum(a.size for a in first)
    assert size <= FIRST_LOAD_LIMIT, [(a.path, a.size) for a in first]

    # After the load event the worker takes over and keeps this page and its files.
    wait_until(page, """async (path) => {
        const ready = await navigator.serviceWorker.ready;
        return ready.active !== null && navigator.serviceWorker.controller !== null
            && (await caches.match(path)) !== undefined; }""", path)
    counted.quiet(0.3)

    start = time.time()
    page.goto(base + path)
    counted.quiet(0.3)
    again = counted.since(start)
    # Besides the page, only the form's live poll (is its hand number still free?) and
    # the browser's own check for a new worker, which a navigation may start (answered
    # 304 with no body while nothing changed): a few hundred bytes each, never a file.
    live = path.removesuffix("/hands/new") + "/live"
    small = (live, "/sw.js")
    assert [(a.method, a.path, a.kind) for a in again if a.path not in small] == [
        ("GET", path, "document")]
    assert all(a.size < 1024 for a in again if a.path in small)
    assert page.locator("form.hand-form").is_visible()
