"""A whole evening at phone size: group, players, a Last One match tapped in card by card,
an elimination and a winner, then fixing an earlier hand. Saves the two screenshots."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.support.browser import SCREENSHOTS, screenshot

pytestmark = pytest.mark.browser


def tap_cards(page: Page, player: str, *cards: str) -> None:
    """Make ``player`` the picker's target, then tap each card: rank, then suit."""
    page.locator(".held label", has_text=player).tap()
    expect(page.locator("[data-picker-name]")).to_have_text(player)
    suits = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}
    for text in cards:
        if text == "jk":
            page.locator(".picker [data-joker]").tap()
            continue
        page.locator(f'.picker [data-rank="{text[:-1].upper()}"]').tap()
        page.get_by_role("button", name=suits[text[-1]], exact=True).tap()


def snap(page: Page, name: str) -> None:
    """A full-page phone screenshot, taken from the top."""
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, SCREENSHOTS / name, full_page=True)


def went_out(page: Page, player: str) -> None:
    page.locator(".went-out label.choice", has_text=player).tap()


def record_hand(page: Page, number: int, out: str, held: dict[str, tuple[str, ...]]) -> None:
    page.get_by_role("link", name=f"Record hand {number}").tap()
    expect(page.get_by_role("heading", name=re.compile(f"Record hand {number}"))).to_be_visible()
    went_out(page, out)
    for player, cards in held.items():
        tap_cards(page, player, *cards)
    page.locator(".form-action").get_by_role("button", name=f"Record hand {number}").tap()
    expect(page.locator(".flash").first).to_contain_text(f"Hand {number} saved")


def test_a_last_one_match_on_a_phone(page: Page, live_server: str, backend: str):
    shots = backend == "sqlite"  # one set of screenshots is enough
    page.goto(live_server + "/")
    page.get_by_label("Group name").fill("Kitchen table")
    page.get_by_role("button", name="Start the group").tap()
    for name in ("Ann", "Bo", "Cy"):
        page.get_by_label("Name").fill(name)
        page.get_by_role("button", name="Add player").tap()
        expect(page.locator(".flash")).to_contain_text(f"Added {name}")

    page.get_by_role("link", name="Start a match").tap()
    for name in ("Ann", "Bo", "Cy"):  # seated by tapping, clockwise
        page.locator(".seat-tap", has_text=name).tap()
    page.locator(".house-rules summary").tap()  # folded: "House rules: standard rules"
    page.get_by_label("Elimination threshold").fill("60")
    page.get_by_role("button", name="Start the match").tap()
    expect(page.locator(".next-line")).to_contain_text("Ann deals, Bo plays first")

    # Hand 1: the live preview shows each card's points and the hand's total.
    page.get_by_role("link", name="Record hand 1").tap()
    went_out(page, "Ann")
    tap_cards(page, "Bo", "8s", "kh")
    bo = page.locator('.held[data-seat="1"]')
    expect(bo.locator("input")).to_have_value("8S KH")
    expect(bo.locator(".preview")).to_contain_text("35 points")
    tap_cards(page, "Cy", "5c", "6c")
    key = page.locator('.picker [data-rank="7"]').bounding_box()
    assert key and key["width"] >= 44 and key["height"] >= 44
    if shots:  # what the phone shows while tapping: the cards so far and the docked picker
        screenshot(page, SCREENSHOTS / "hand-entry.png")
    page.locator(".form-action").get_by_role("button", name="Record hand 1").tap()
    expect(page.locator(".flash")).to_contain_text("Hand 1 saved. Bo deals hand 2.")

    # Hand 2: Bo reaches 60 and is out; the deal skips him.
    record_hand(page, 2, "Cy", {"Ann": ("2c", "3c"), "Bo": ("8h", "8d")})
    expect(page.locator(".flash")).to_contain_text("Bo is out")
    expect(page.locator(".standing", has_text="Bo")).to_contain_text("out in hand 2")
    expect(page.locator(".next-line")).to_contain_text("Cy deals, Ann plays first")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the scoreboard is {width}px wide on a 390px phone"
    if shots:
        snap(page, "scoreboard.png")

    # Hand 3: a joker and an eight put Cy out too: Ann wins.
    record_hand(page, 3, "Ann", {"Cy": ("jk", "8c")})
    expect(page.locator(".winner-banner")).to_contain_text("Ann wins!")
    expect(page.get_by_role("button", name="Rematch")).to_be_visible()

    # Fix hand 1: Bo only held the king (one card scores 0), so he never went out.
    page.get_by_role("link", name="Edit hand 1").tap()
    page.get_by_role("button", name="remove 8♠").tap()
    expect(bo.locator("input")).to_have_value("KH")
    expect(bo.locator(".preview")).to_contain_text("held one card: scores 0")
    # The docked keys' last key says "Save hand 1" as the form's own button does: the
    # phone's player taps the key, in reach above the thumb.
    action = page.locator("form[data-hand-form]").evaluate("f => f.action")
    sends: list[str] = []
    page.on("request",
            lambda r: sends.append(r.url) if r.method == "POST" and r.url == action else None)
    page.locator(".picker").get_by_role("button", name="Save hand 1").tap()
    expect(page.locator(".flash")).to_contain_text("The match is open again")
    assert sends == [action], f"the edit was sent {len(sends)} times"
    expect(page.locator(".standing", has_text="Bo").locator(".total")).to_have_text("50")
    expect(page.locator(".standing", has_text="Cy")).to_contain_text("out in hand 3")
    expect(page.get_by_role("link", name="Record hand 4")).to_be_visible()


def test_typing_works_and_errors_land_on_the_field(page: Page, live_server: str):
    page.goto(live_server + "/")
    page.get_by_label("Group name").fill("Typists")
    page.get_by_role("button", name="Start the group").tap()
    for name in ("Ann", "Bo"):
        page.get_by_label("Name").fill(name)
        page.get_by_role("button", name="Add player").tap()
    page.get_by_role("link", name="Start a match").tap()
    page.get_by_role("link", name="Crazy Eights", exact=True).tap()
    page.locator(".seat-tap", has_text="Ann").tap()
    page.locator(".seat-tap", has_text="Bo").tap()
    page.get_by_role("button", name="Start the match").tap()
    page.get_by_role("link", name="Record hand 1").tap()
    went_out(page, "Ann")
    field = page.locator("#seat-1")
    field.fill("8s kh zz")
    expect(page.locator('.held[data-seat="1"] .bad-token')).to_contain_text("zz")
    page.locator(".form-action").get_by_role("button", name="Record hand 1").tap()
    expect(page.locator("#seat-1-error")).to_contain_text("'zz' is not a card")
    expect(field).to_have_value("8s kh zz")
    field.fill("8s kh 7d ac")
    expect(page.locator('.held[data-seat="1"] .preview')).to_contain_text("68 points")
    page.locator(".form-action").get_by_role("button", name="Record hand 1").tap()
    expect(page.locator(".standing", has_text="Ann").locator(".total")).to_have_text("68")
