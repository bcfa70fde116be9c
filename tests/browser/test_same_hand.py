"""A hand goes in once, on a 390 × 844 touch phone (DESIGN.md): the hand form online
and the co-scorer's notice (its first choice the hand already recorded) show the
server's same-hand question (the
offline queue's: tests/browser/test_offline.py). In each, a tap on the biggest button
stores no second copy; the person sees both hands before a deliberate second tap
records it anyway. The questions are photographed into the test's own folder
(``tmp_path``), not the README gallery."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from scorekeeper.store.extensions import db
from scorekeeper.store.models import Hand
from tests.support.browser import (
    DISCARD,
    PHONE,
    biggest_first,
    both_hands_shown,
    phone_match,
    screenshot,
)

pytestmark = pytest.mark.browser

SOON = 5000  # ms


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


# ---- online: the hand form ---------------------------------------------------------

def test_the_same_cards_online_ask_with_both_hands_and_discard_comes_first(
        page: Page, live_server: str, app, tmp_path: Path):
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
    screenshot(page, tmp_path / "online-same-cards.png")

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


# ---- two phones: the co-scorer's notice -------------------------------------------

def test_the_other_phones_hand_comes_first_and_the_next_number_sends_nothing(
        page: Page, second_phone: Page, live_server: str, app, tmp_path: Path):
    """Another phone recorded the hand this one is tapping in: the first and biggest
    choice drops this form for the hand recorded; "another hand" only renumbers the
    form (nothing sent); "Record hand 2" then meets the server's same-hand question."""
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
    discard = notice.get_by_role("link", name=DISCARD)
    another = notice.get_by_role("button", name="It's another hand — make it hand 2")
    biggest_first(second_phone, discard, another)
    screenshot(second_phone, tmp_path / "co-scorer-notice.png")
    another.tap()  # renumbers the form: nothing is sent
    expect(second_phone.get_by_role("heading", name="Record hand 2")).to_be_visible()
    expect(second_phone.get_by_role("status")).to_contain_text("This form is now hand 2")
    assert numbers(app, match["match"]) == [1]
    second_phone.get_by_role("button", name="Record hand 2").tap()
    expect(second_phone.get_by_role("heading", name="Hand 1 again?")).to_be_visible()
    assert numbers(app, match["match"]) == [1]
    discard = second_phone.get_by_role("link", name=DISCARD)
    anyway = second_phone.get_by_role("button", name="It's another hand — record it as hand 2")
    biggest_first(second_phone, discard, anyway)
    both_hands_shown(second_phone.locator("[data-same-hand]"),
                     [("Ben", "went out"), ("Ann", "9♥ 6♦ 2♣"), ("Dan", "6♠ 10♠ 7♥")])
    screenshot(second_phone, tmp_path / "co-scorer-record-as-next.png")
    anyway.tap()  # the deliberate second tap, having seen both hands
    second_phone.wait_for_url(board)
    assert numbers(app, match["match"]) == [1, 2]


def test_the_co_scorers_first_choice_drops_the_form_for_the_board(
        page: Page, second_phone: Page, live_server: str, app):
    match = phone_match(app, live_server, page, "crazy-eights", ("Ann", "Bo", "Cy"))
    second_phone.request.get(f"{live_server}/join/{match['token']}")
    board, form = match["board"], match["board"] + "/hands/new"
    second_phone.goto(form)
    fill_hand(second_phone, 0, {1: "8s kh", 2: "5c"})
    page.goto(form)
    fill_hand(page, 0, {1: "8s kh", 2: "5c"})
    page.get_by_role("button", name="Record hand 1").tap()
    page.wait_for_url(board)
    notice = second_phone.get_by_role("alert").filter(has_text="just recorded on another phone")
    notice.get_by_role("link", name=DISCARD).tap(timeout=SOON * 2)
    second_phone.wait_for_url(board)
    expect(second_phone.locator(".hands-table tbody tr")).to_have_count(1)
    assert numbers(app, match["match"]) == [1]
