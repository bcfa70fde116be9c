"""At home on the Wi-Fi: a typed hand leaves the phone only into the database.

Each test runs in two contexts: the page at ``127.0.0.1`` (a secure context: the
service worker, the wake lock) and at ``table.lan``, a name Chromium maps to the
loopback, so the page is plain HTTP and no secure context, as at a laptop's address on
a home network (no worker, no wake lock, no Share). The faults are real
(tests/support/live_server.py): the server stopped, the server silent (the port
accepts and never answers, as a laptop asleep), the database's write lock held by
another connection (the app answers 503 with Retry-After), every save failing with an
unexpected error (500), and the phone offline. Whatever the fault, the hand stays on
the page, shown waiting with its cards, and is stored once after the server is itself
again; a hand typed behind it keeps its place.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.store.extensions import db
from scorekeeper.store.models import Hand
from tests.support.browser import (
    SCREENSHOTS,
    TAKE_SCREENSHOTS,
    kept_for_offline,
    phone_match,
    screenshot,
    wait_until,
)
from tests.support.live_server import FAULTS, INSECURE_HOST, SECURE_HOST, Server

pytestmark = pytest.mark.browser

# A bound for the phone to catch up once the server is back: generous (the machine may
# be loaded; a 503 asks for 5 s, and a silent server costs a wait of its own).
CATCH_UP = 60.0


@pytest.fixture
def server(app) -> Iterator[Server]:
    running = Server(app).start()
    yield running
    running.stop()


@pytest.fixture(params=["secure", "insecure"])
def host(request: pytest.FixtureRequest) -> str:
    """Where the phone opens the app: the loopback, or a plain-HTTP name for it."""
    return SECURE_HOST if request.param == "secure" else INSECURE_HOST


def open_form(page: Page, app, server: Server, host: str, game: str = "crazy-eights",
              players: tuple[str, ...] = ("Ann", "Bo", "Cy")) -> dict:
    """A match on this phone, its scoreboard opened (where a worker can run, kept by it
    with the hand form, as a phone that has used the app), then the form for hand 1."""
    match = phone_match(app, server.url(), page, game, players)
    if host != SECURE_HOST:  # joined there too (Playwright's own requests cannot resolve it)
        page.goto(f"{server.url(host)}/join/{match['token']}")
        match["board"] = match["board"].replace(server.url(), server.url(host))
    page.goto(match["board"])
    secure = page.evaluate("window.isSecureContext")
    assert secure is (host == SECURE_HOST)
    path = re.sub(r"^https?://[^/]+", "", match["board"])
    if secure:
        kept_for_offline(page, path, path + "/hands/new")
        page.reload()  # now the worker controls the page
        wait_until(page, "!!navigator.serviceWorker.controller")
    else:
        assert page.evaluate("'serviceWorker' in navigator") is False
    page.goto(match["board"] + "/hands/new")
    expect(page.get_by_role("heading", name=re.compile("Record hand 1"))).to_be_visible()
    return match


def record(page: Page, number: int, out: int, held: dict[int, str]) -> None:
    """Fill in hand ``number`` and tap Record: on the form where the page is one, else
    from the scoreboard's link (a worker shows the kept scoreboard while hands wait)."""
    heading = page.get_by_role("heading", level=1)
    expect(heading).to_contain_text(f"hand {number}")
    if "Record hand" not in heading.inner_text():
        page.get_by_role("link", name=f"Record hand {number}").first.tap()
        form_heading = page.get_by_role("heading", name=re.compile(f"Record hand {number}"))
        expect(form_heading).to_be_visible()
    page.locator(f'.went-out input[name=out][value="{out}"]').check()
    for seat, cards in held.items():
        page.locator(f"#seat-{seat}").fill(cards)
    page.locator(".form-action").get_by_role("button", name=f"Record hand {number}").click()


def stored(app, match_id: int) -> list[tuple[int, str | None]]:
    with app.app_context():
        rows = db.session.execute(db.select(Hand.number, Hand.idempotency_key)
                                  .where(Hand.match_id == match_id).order_by(Hand.id))
        result = [(number, key) for number, key in rows]
        db.session.remove()
        return result


def until_stored(page: Page, app, match_id: int,
                 numbers: list[int]) -> list[tuple[int, str | None]]:
    """Let the page run until the database holds exactly hands ``numbers`` (or fail
    after :data:`CATCH_UP`); the rows."""
    deadline = time.monotonic() + CATCH_UP
    while True:
        rows = stored(app, match_id)
        if [n for n, _ in rows] == numbers:
            return rows
        assert time.monotonic() < deadline, f"stored {rows}, not hands {numbers}"
        page.wait_for_timeout(200)


@contextmanager
def trouble(page: Page, server: Server, fault: str) -> Iterator[None]:
    """The fault, inside the block: one of the server's, or the phone offline."""
    if fault != "offline":
        with server.fault(fault):
            yield
        return
    page.context.set_offline(True)
    try:
        yield
    finally:
        page.context.set_offline(False)


def no_error_page(page: Page) -> None:
    """The page is the app's own (the form or the board), not an error page."""
    expect(page.locator("[data-offline-queue]")).to_be_visible()
    assert page.title() not in {"Back in a moment", "Offline · Scorekeeper"}
    assert "Something went wrong" not in page.content()


# The write lock is the database's own (SQLite's BEGIN IMMEDIATE, PostgreSQL's LOCK TABLE):
# its PostgreSQL run proves something the SQLite one does not, so it runs every time at
# one address (the lock is the server's, the same whichever name the phone used); at the
# other, like every other fault's PostgreSQL run, it is ``slow`` (tests/browser/conftest.py).
@pytest.mark.parametrize(("fault", "host"), [
    pytest.param(fault, host, marks=pytest.mark.both_databases)
    if fault == "locked" and host == "insecure" else (fault, host)
    for fault in [*FAULTS, "offline"] for host in ("secure", "insecure")], indirect=["host"])
def test_a_hand_typed_during_a_fault_waits_on_the_phone_and_is_stored_once(
        page: Page, app, server: Server, host: str, fault: str, backend: str):
    match = open_form(page, app, server, host)
    with trouble(page, server, fault):
        record(page, 1, 0, {1: "8s kh", 2: "5c"})
        first = page.locator('[data-queued-hand="1"]')
        expect(first).to_contain_text("waiting to sync", timeout=30000)
        bo = first.locator("li", has_text="Bo")  # its points only where the server scored it
        expect(bo).to_contain_text(re.compile("(60 card points )?8♠ K♥"))
        no_error_page(page)
        expect(page.get_by_role("heading", name="Waiting to reach the server")).to_be_visible()
        assert "without a network" not in page.locator("[data-offline-queue]").inner_text()
        record(page, 2, 1, {0: "7d", 2: "qs 2h"})  # behind it, in its place
        expect(page.locator('[data-queued-hand="2"]')).to_contain_text("waiting to sync")
        no_error_page(page)
        if fault == "stopped" and host == INSECURE_HOST and backend == "sqlite":
            shoot(page, "wifi-waiting-form")
        if not (fault == "offline" and host == SECURE_HOST):
            # Playwright's offline emulation does not hold a service worker's own requests
            # every time (microsoft/playwright#2311): there a worker's send may already
            # reach the server, so only the end below (each hand once, in order) is checked.
            assert stored(app, match["match"]) == []
    rows = until_stored(page, app, match["match"], [1, 2])
    assert all(key for _, key in rows) and rows[0][1] != rows[1][1]
    expect(page.locator("#board")).to_be_visible(timeout=30000)  # the board, once both are in
    expect(page.locator("[data-offline-queue]")).to_be_hidden()
    assert page.evaluate("localStorage.getItem('scorekeeper.queue.v1')") == "[]"
    page.wait_for_timeout(500)
    assert [n for n, _ in stored(app, match["match"])] == [1, 2]  # once each


def test_a_hand_stored_whose_answer_was_lost_is_not_stored_twice(
        page: Page, app, server: Server, host: str):
    """The form's send reached the server, which stored the hand, but the answer never
    came back: the phone keeps the hand and sends it again with the same key; the server
    says the key is used, so the phone knows it is stored. Hands behind it follow."""
    match = open_form(page, app, server, host)
    server.lose_next_answer = True
    record(page, 1, 0, {1: "8s kh", 2: "5c"})
    rows = until_stored(page, app, match["match"], [1])
    expect(page.locator("#board")).to_be_visible(timeout=30000)
    expect(page.locator("[data-offline-queue]")).to_be_hidden(timeout=30000)
    assert server.lost == ["(in the form)"]
    assert page.evaluate("localStorage.getItem('scorekeeper.queue.v1')") == "[]"
    assert stored(app, match["match"]) == rows  # once


def test_a_hand_the_server_refuses_goes_back_to_the_form_as_typed(
        page: Page, app, server: Server, host: str):
    """A refusal of the hand itself is no fault: the server's page says what is wrong,
    with the cards as they were typed; nothing waits on the phone."""
    match = open_form(page, app, server, host)
    record(page, 1, 0, {1: "8s kh", 2: "8s"})  # one deck: the eight of spades twice
    expect(page.get_by_text("Nothing was saved. Fix what is marked below.")).to_be_visible()
    expect(page.locator("#seat-1")).to_have_value("8s kh")
    expect(page.locator("#seat-2")).to_have_value("8s")
    expect(page.locator("[data-offline-queue]")).to_be_hidden()
    assert stored(app, match["match"]) == []


def test_the_waiting_card_shows_the_servers_points_for_those_cards(
        page: Page, app, server: Server, host: str, backend: str):
    """Issue 42 (7): a one-card Last One hand scores 0 on the form and on the waiting
    card alike, because both show what the server said about exactly those cards."""
    match = open_form(page, app, server, host, "last-one", ("Ann", "Ben", "Cat", "Dan"))
    page.locator('.went-out input[name=out][value="0"]').check()
    page.locator("#seat-1").fill("kh")
    page.locator("#seat-2").fill("5c 4d")
    page.locator("#seat-3").fill("2s 3s")
    ben = page.locator('.held[data-seat="1"] .preview')
    expect(ben).to_contain_text("held one card: scores 0")
    expect(page.locator('.held[data-seat="2"] .preview')).to_contain_text("9 points")
    with server.fault("stopped"):
        page.locator(".form-action").get_by_role("button", name="Record hand 1").click()
        waiting = page.locator('[data-queued-hand="1"]')
        expect(waiting).to_contain_text("waiting to sync", timeout=30000)
        expect(waiting.locator("li", has_text="Ben")).to_contain_text(
            "Ben 0 points (held one card: scores 0) K♥")
        expect(waiting.locator("li", has_text="Cat")).to_contain_text("9 card points")
        expect(waiting).not_to_contain_text("Points shown once")
        if host == INSECURE_HOST and backend == "sqlite":
            shoot(page, "wifi-waiting-points")
    until_stored(page, app, match["match"], [1])


def test_keep_the_screen_on_at_either_address(page: Page, app, server: Server, host: str,
                                              backend: str):
    """The wake lock on a secure page; on plain HTTP a silent looping video the tap
    starts, said on the page. The line about HTTPS is there only on plain HTTP."""
    match = open_form(page, app, server, host)
    page.goto(match["board"])
    toggle = page.get_by_role("button", name="Keep screen on")
    expect(toggle).to_be_enabled()
    toggle.tap()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    line = page.locator("[data-plain-http]")
    video_note = page.get_by_text("a silent video keeps the phone awake")
    if host == SECURE_HOST:
        expect(line).to_be_hidden()
        expect(video_note).to_be_hidden()
        assert page.locator("[data-wake-video]").count() == 0
        return
    expect(video_note).to_be_visible()
    wait_until(page, """() => { const v = document.querySelector('[data-wake-video]');
        return v && !v.paused && v.currentTime > 0 && v.muted && v.loop; }""", timeout=30)
    expect(line).to_be_visible()
    expect(line).to_contain_text("no offline pages, no Share button")
    how = line.get_by_role("link", name="How to get HTTPS at home")
    expect(how).to_have_attribute("href", "/https")
    if backend == "sqlite":
        shoot(page, "wifi-board-line")
    page.goto(re.sub(r"/matches/.*", "", match["board"]))  # the group page says it too
    expect(page.locator("[data-plain-http]")).to_be_visible()
    expect(page.get_by_role("button", name="Share")).to_be_hidden()  # the line covers it
    expect(page.get_by_role("button", name="Copy")).to_be_visible()


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_where_nothing_can_keep_the_screen_on_the_toggle_says_why(
        page: Page, app, server: Server):
    """A plain-HTTP page in a browser that can make no video either: the toggle is
    shown, disabled, with the line saying why and what to do."""
    page.add_init_script("delete window.MediaRecorder;")
    match = open_form(page, app, server, INSECURE_HOST)
    page.goto(match["board"])
    toggle = page.get_by_role("button", name="Keep screen on")
    expect(toggle).to_be_disabled()
    why = page.get_by_text("This browser cannot keep the screen on at this address")
    expect(why).to_be_visible()
    how = why.get_by_role("link", name="open the app over HTTPS")
    expect(how).to_have_attribute("href", "/https")


def shoot(page: Page, name: str) -> None:
    """The page at 390 px, light and dark (kept in SCREENSHOTS, not asserted)."""
    if not TAKE_SCREENSHOTS:
        return
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        screenshot(page, SCREENSHOTS / f"{name}-{scheme}.png", full_page=True)
    page.emulate_media(color_scheme="light")
