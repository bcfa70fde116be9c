"""A hand goes in once, on a 390 × 844 touch phone (DESIGN.md): the hand form online,
the co-scorer's "Record as hand N" and the offline queue's automatic sending all show
the server's same-hand question. In each, a tap on the biggest button stores no second
copy; the person sees both hands before a deliberate second tap records it anyway.
The questions are photographed into the test's own folder (not the README gallery)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from scorekeeper.store.extensions import db
from scorekeeper.store.models import Hand
from tests.browser.test_offline import (  # the offline tests' real stop-and-start server
    Server,
    go_offline,
    go_online,
    queue_hand,
    server,
    start_match,
)
from tests.support.browser import PHONE, phone_match

pytestmark = pytest.mark.browser
__all__ = ["server"]  # the fixture, imported for the offline test

DISCARD = "It's the same hand — discard mine"
SOON = 5000  # ms


@pytest.fixture(scope="session")
def shot_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("same-hand", numbered=False)


@pytest.fixture
def shots(shot_folder: Path, backend: str) -> Path:
    """Where this run keeps its photographs of the question, per database."""
    folder = shot_folder / backend
    folder.mkdir(exist_ok=True)
    return folder


@pytest.fixture
def second_phone(browser: Browser) -> Iterator[Page]:
    """Another phone at the same table (its own cookies and storage)."""
    context = browser.new_context(**PHONE)
    yield context.new_page()
    context.close()


def numbers(app, match_id: int) -> list[int]:
    with app.app_context():
        return list(db.session.scalars(db.select(Hand.number).where(Hand.match_id == match_id)
                                       .order_by(Hand.number)))


def fill_hand(page: Page, out: int, held: dict[int, str]) -> None:
    page.locator(f'.went-out input[name=out][value="{out}"]').check()
    for seat, cards in held.items():
        page.locator(f"#seat-{seat}").fill(cards)


def area(target: Locator) -> float:
    box = target.bounding_box()
    assert box is not None
    return box["width"] * box["height"]


def biggest_first(page: Page, discard: Locator, anyway: Locator) -> None:
    """"Discard mine" is in view, above the other choice and bigger than it."""
    expect(discard).to_be_in_viewport()
    top, other = discard.bounding_box(), anyway.bounding_box()
    assert top is not None and other is not None
    assert top["y"] < other["y"] and area(discard) > area(anyway)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def both_hands_shown(question: Locator, rows: list[tuple[str, str]]) -> None:
    """Each player's line shows the same thing twice, the recorded hand and the new one
    (each card, in whatever order it was entered)."""
    for name, shown in rows:
        line = question.locator("tr", has_text=name)
        expect(line).to_have_count(1)
        for cell in (line.locator("td").nth(0), line.locator("td").nth(1)):
            for part in ([shown] if shown == "went out" else shown.split()):
                expect(cell).to_contain_text(part)


# ---- online: the hand form ---------------------------------------------------------

def test_the_same_cards_online_ask_with_both_hands_and_discard_comes_first(
        page: Page, live_server: str, app, shots: Path):
    match = phone_match(app, live_server, page, "crazy-eights", ("Ann", "Bo", "Cy"))
    board, form = match["board"], match["board"] + "/hands/new"
    page.goto(form)
    fill_hand(page, 0, {1: "8s kh", 2: "5c"})
    page.get_by_role("button", name="Record hand 1").tap()
    page.wait_for_url(board)
    page.goto(form)
    fill_hand(page, 0, {1: "KH 8♠", 2: "c5"})  # the same cards, spelt otherwise
    page.get_by_role("button", name="Record hand 2").tap()
    question = page.locator("[data-same-hand]")
    expect(page.get_by_role("heading", name="Hand 1 again?")).to_be_visible()
    assert numbers(app, match["match"]) == [1]
    discard = page.get_by_role("link", name=DISCARD)
    anyway = page.get_by_role("button", name="It's another hand — record it as hand 2")
    biggest_first(page, discard, anyway)
    both_hands_shown(question, [("Ann", "went out"), ("Bo", "8♠ K♥"), ("Cy", "5♣")])
    page.screenshot(path=str(shots / "online-same-cards.png"))

    discard.tap()  # the biggest button: nothing stored, back to the board
    page.wait_for_url(board)
    assert numbers(app, match["match"]) == [1]

    page.goto(form)
    fill_hand(page, 0, {1: "8s kh", 2: "5c"})
    page.get_by_role("button", name="Record hand 2").tap()
    page.get_by_role("button", name="It's another hand — record it as hand 2").tap()
    page.wait_for_url(board)
    expect(page.locator(".flash")).to_contain_text("Hand 2 saved")
    assert numbers(app, match["match"]) == [1, 2]


# ---- two phones: the co-scorer's "Record as hand N" ---------------------------------

def test_record_as_the_next_hand_asks_when_the_other_phone_had_the_same_cards(
        page: Page, second_phone: Page, live_server: str, app, shots: Path):
    match = phone_match(app, live_server, page, "last-one", ("Ann", "Ben", "Cat", "Dan"))
    second_phone.request.get(f"{live_server}/join/{match['token']}")
    board, form = match["board"], match["board"] + "/hands/new"
    held = {0: "9h 6d 2c", 2: "9s 3d kc", 3: "6s 10s 7h"}
    second_phone.goto(form)
    fill_hand(second_phone, 1, held)  # B taps in hand 1 …
    page.goto(form)
    fill_hand(page, 1, held)  # … while A records the same hand first
    page.get_by_role("button", name="Record hand 1").tap()
    page.wait_for_url(board)
    notice = second_phone.get_by_role("alert").filter(has_text="just recorded on another phone")
    expect(notice).to_be_visible(timeout=SOON)
    second_phone.get_by_role("button", name="Record as hand 2").tap()  # the biggest button
    expect(second_phone.get_by_role("heading", name="Hand 1 again?")).to_be_visible()
    assert numbers(app, match["match"]) == [1]
    discard = second_phone.get_by_role("link", name=DISCARD)
    anyway = second_phone.get_by_role("button", name="It's another hand — record it as hand 2")
    biggest_first(second_phone, discard, anyway)
    both_hands_shown(second_phone.locator("[data-same-hand]"),
                     [("Ben", "went out"), ("Ann", "9♥ 6♦ 2♣"), ("Dan", "6♠ 10♠ 7♥")])
    second_phone.screenshot(path=str(shots / "co-scorer-record-as-next.png"))
    anyway.tap()  # the deliberate second tap, having seen both hands
    second_phone.wait_for_url(board)
    assert numbers(app, match["match"]) == [1, 2]


# ---- offline: the queue comes back to a hand recorded meanwhile ----------------------

def test_a_queued_hand_the_server_finds_the_same_waits_with_its_question(
        page: Page, context: BrowserContext, app, server: Server, shots: Path):
    board, token, match_id = start_match(page, app, server)
    go_offline(context, server)
    queue_hand(page, 1, 0, {1: "8s kh", 2: "5c"})  # A queues hand 1 offline …
    other = app.test_client().post(  # … B records the same cards as hand 1
        f"/api/v1/matches/{match_id}/hands", headers={"Authorization": f"Bearer {token}"},
        json={"number": 1, "out": 0, "held": {"1": "KH 8S", "2": "5C"}})
    assert other.status_code == 201
    go_online(context, server)  # … and A comes back: sent on its own, and asked
    queued = page.locator('[data-queued-hand="1"]')
    expect(queued).to_contain_text("these are the cards of hand 1", timeout=15000)
    discard = queued.get_by_role("button", name=DISCARD)
    anyway = queued.get_by_role("button", name=re.compile("It's another hand"))
    expect(queued.get_by_role("button", name=re.compile("Send as hand"))).to_have_count(0)
    biggest_first(page, discard, anyway)
    page.screenshot(path=str(shots / "offline-clash-question.png"))
    assert numbers(app, match_id) == [1]

    anyway.tap()  # a first step: both hands side by side, nothing sent yet
    compare = queued.locator("table")
    both_hands_shown(queued, [("Ann", "went out"), ("Bo", "8♠ K♥"), ("Cy", "5♣")])
    expect(compare).to_contain_text("Hand 1, recorded")
    page.screenshot(path=str(shots / "offline-clash-both-hands.png"))
    page.wait_for_timeout(500)
    assert numbers(app, match_id) == [1]
    queued.get_by_role("button", name="Back").tap()
    queued.get_by_role("button", name=DISCARD).tap()  # one tap: the copy is gone
    expect(page.locator("[data-offline-queue]")).to_be_hidden()
    assert page.evaluate("localStorage.getItem('scorekeeper.queue.v1')") == "[]"
    page.wait_for_timeout(500)
    assert numbers(app, match_id) == [1]
    assert board in page.url


def test_a_queued_hand_sent_anyway_after_seeing_both(
        page: Page, context: BrowserContext, app, server: Server):
    _, token, match_id = start_match(page, app, server)
    go_offline(context, server)
    queue_hand(page, 1, 0, {1: "8s kh", 2: "5c"})
    assert app.test_client().post(
        f"/api/v1/matches/{match_id}/hands", headers={"Authorization": f"Bearer {token}"},
        json={"number": 1, "out": 0, "held": {"1": "8s kh", "2": "5c"}}).status_code == 201
    go_online(context, server)
    queued = page.locator('[data-queued-hand="1"]')
    expect(queued).to_contain_text("these are the cards of hand 1", timeout=15000)
    queued.get_by_role("button", name=re.compile("It's another hand")).tap()
    queued.get_by_role("button", name="Send it as hand 2").tap()  # the deliberate second tap
    expect(page.locator("[data-offline-queue]")).to_be_hidden(timeout=15000)
    assert numbers(app, match_id) == [1, 2]
