"""The play checker in a real browser at phone size: the common case and a melee."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .browser_support import *  # noqa: F403
from .browser_support import SCREENSHOTS

pytestmark = pytest.mark.browser


def test_card_on_a_named_suit(page: Page, live_server: str):
    page.goto(f"{live_server}/check")
    page.get_by_role("radio", name="Game: Crazy Eights", exact=True).check()
    page.get_by_label("Upcard", exact=True).fill("8s")
    page.get_by_role("radio", name="Suit named (after an 8): ♦").check()
    page.get_by_label("Card played", exact=True).fill("5h")
    page.get_by_role("button", name="Check").click()
    answer = page.locator("[data-check-answer]")
    expect(answer).to_contain_text("Not legal")
    expect(answer).to_contain_text("play a diamond")
    link = answer.get_by_role("link", name="Rule: Eights: name a suit →")
    expect(link).to_have_attribute("href", "/rules/crazy-eights#c8-eights")
    box = page.get_by_role("radio", name="Suit named (after an 8): ♦").bounding_box()
    assert box and box["width"] >= 44 and box["height"] >= 44
    page.get_by_label("Card played", exact=True).fill("5d")
    page.get_by_role("button", name="Check").click()
    expect(page.locator("[data-check-answer]")).to_contain_text("Legal")


def test_melee_dispute(page: Page, live_server: str):
    page.goto(f"{live_server}/check?game=last-one&players=4")
    page.get_by_label("Upcard", exact=True).fill("4h")
    page.get_by_text("A melee is on (Last One)").click()
    page.get_by_label("Melee in progress").check()
    page.get_by_label("Aggressor", exact=True).select_option("1")
    page.get_by_label("Defender", exact=True).select_option("2")
    page.get_by_label("Who plays", exact=True).select_option("3")
    page.get_by_label("Card played", exact=True).fill("5h")
    page.get_by_role("button", name="Check").click()
    answer = page.locator("[data-check-answer]")
    expect(answer).to_contain_text("✓ Legal")
    expect(answer).to_contain_text("continues the melee")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "check.png"))
    page.get_by_label("Card played", exact=True).fill("5c")
    page.get_by_role("button", name="Check").click()
    expect(page.locator("[data-check-answer]")).to_contain_text("Not legal")
