"""Two phones at one table: the co-scorer's board and an open hand form learn of a new
hand within five seconds (a poll every three, answered 304 while nothing changed), no
refreshed button names a hand that is gone, and a form whose number was just taken
says so before it is sent."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from scorekeeper.store.extensions import db
from scorekeeper.store.models import Hand
from tests.support.browser import PHONE, phone_match

pytestmark = pytest.mark.browser

PLAYERS = ("Ann", "Bo", "Cy")
SOON = 5000  # ms: what "learns of it at once" means at a table


@pytest.fixture
def second_phone(browser: Browser) -> Iterator[Page]:
    """Another phone at the same table (its own cookies, storage and service worker)."""
    context = browser.new_context(**PHONE)
    yield context.new_page()
    context.close()


def table(app, live_server: str, page: Page, other: Page) -> dict:
    """A Crazy Eights match for Ann, Bo and Cy that both phones have joined."""
    match = phone_match(app, live_server, page, "crazy-eights", PLAYERS)
    other.request.get(f"{live_server}/join/{match['token']}")
    return match


def record_on(page: Page, board: str, number: int, out: int, held: dict[int, str]) -> None:
    """Record hand ``number`` from this phone's hand form, typed in."""
    page.goto(board + "/hands/new")
    expect(page.get_by_role("heading", name=re.compile(f"Record hand {number}"))).to_be_visible()
    page.locator(f'.went-out input[name=out][value="{out}"]').check()
    for seat, cards in held.items():
        page.locator(f"#seat-{seat}").fill(cards)
    page.get_by_role("button", name=f"Record hand {number}").tap()
    page.wait_for_url(board)


def stored(app, match_id: int) -> list[int]:
    with app.app_context():
        return list(db.session.scalars(db.select(Hand.number).where(Hand.match_id == match_id)
                                       .order_by(Hand.number)))


def test_the_co_scorers_board_shows_a_new_hand_within_five_seconds(
        page: Page, second_phone: Page, live_server: str, app):
    match = table(app, live_server, page, second_phone)
    second_phone.goto(match["board"])
    expect(second_phone.locator("[data-live-status]")).to_contain_text("live · updated")
    rows = second_phone.locator(".hands-table tbody tr")
    for number in (1, 2):
        record_on(page, match["board"], number, 0, {1: "3c", 2: f"{number + 4}c"})
        recorded = time.monotonic()
        expect(rows).to_have_count(number, timeout=SOON)
        assert time.monotonic() - recorded < SOON / 1000
        # The buttons were refreshed with the board: none names a hand that is not last.
        delete = second_phone.locator("#undo").get_by_role(
            "button", name=re.compile("Delete hand"))
        expect(delete).to_have_text(f"Delete hand {number}")
        expect(second_phone.locator("#board")).to_contain_text(f"Record hand {number + 1}")
    # A refreshed delete button still asks first.
    second_phone.once("dialog", lambda dialog: dialog.dismiss())
    second_phone.get_by_role("button", name="Delete hand 2").tap()
    assert stored(app, match["match"]) == [1, 2]


def test_an_open_hand_form_says_its_number_was_taken_before_it_is_sent(
        page: Page, second_phone: Page, live_server: str, app):
    match = table(app, live_server, page, second_phone)
    second_phone.goto(match["board"] + "/hands/new")
    second_phone.locator('.went-out input[name=out][value="1"]').check()
    second_phone.locator("#seat-0").fill("7d")
    second_phone.locator("#seat-2").fill("qs 2h")
    record_on(page, match["board"], 1, 0, {1: "8s kh", 2: "5c"})
    recorded = time.monotonic()
    taken = second_phone.get_by_role("alert")
    expect(taken).to_contain_text("Hand 1 was just recorded on another phone", timeout=SOON)
    assert time.monotonic() - recorded < SOON / 1000
    second_phone.get_by_role("button", name="Record hand 1").tap()  # not sent: it says why
    expect(taken).to_be_visible()
    assert stored(app, match["match"]) == [1]
    second_phone.get_by_role("button", name="It's another hand — make it hand 2").tap()
    assert stored(app, match["match"]) == [1]  # renumbered, not sent
    second_phone.get_by_role("button", name="Record hand 2").tap()
    second_phone.wait_for_url(match["board"])
    assert stored(app, match["match"]) == [1, 2]
    expect(second_phone.locator(".hands-table tbody tr")).to_have_count(2)


def test_a_spectator_sees_a_new_hand_from_the_polls_answer_not_a_reload(
        page: Page, live_server: str, app):
    match = phone_match(app, live_server, page, "crazy-eights", PLAYERS)
    view = live_server + page.request.get(
        f"{live_server}/api/v1/matches/{match['match']}", headers=match["auth"]).json()["view_path"]
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    # A first visit loads offline.js once the browser is idle: wait for it, so what is
    # asked after the hand is the poll's doing alone.
    with page.expect_request(lambda request: "/static/offline." in request.url):
        page.goto(view)
    expect(page.locator("[data-live-status]")).to_contain_text("live · updated")
    page.evaluate("window.sameDocument = 'still here'")
    asked.clear()
    added = app.test_client().post(f"/api/v1/matches/{match['match']}/hands",
                                   headers=match["auth"],
                                   json={"number": 1, "out": 0, "held": {"1": "9d", "2": "4c"}})
    assert added.status_code == 201
    expect(page.locator(".hands-table tbody tr")).to_have_count(1, timeout=SOON)
    expect(page.locator(".standings .total")).to_have_text(["13", "0", "0"])
    assert page.evaluate("window.sameDocument") == "still here"
    assert set(asked) == {view + "/live"}  # the poll alone: neither the page nor a fragment
