"""The rules reference and the deal helper in a real browser, at phone size."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.support.browser import SCREENSHOTS, screenshot

pytestmark = pytest.mark.browser


def test_search_for_melee_lands_on_the_section(page: Page, live_server: str):
    page.goto(f"{live_server}/rules")
    search = page.get_by_role("searchbox")
    search.fill("melee")
    # Live filtering (JavaScript) leaves only the sections that mention it.
    expect(page.get_by_role("link", name="Jokers: name a card")).to_be_visible()
    expect(page.get_by_role("link", name="Eights: name a suit").first).to_be_hidden()
    search.press("Enter")
    expect(page).to_have_url(re.compile(r"/rules\?q=melee$"))
    results = page.locator("[data-search-results]")
    results.get_by_role("link", name=re.compile("Fours: the melee")).click()
    expect(page).to_have_url(re.compile(r"/rules/last-one#lo-melee$"))
    section = page.locator("#lo-melee")
    expect(section).to_be_in_viewport()
    expect(section.get_by_role("heading", name="Fours: the melee")).to_be_visible()
    expect(section).to_contain_text("Melee wraps round")  # its house rules


def test_live_filter_on_a_game_page(page: Page, live_server: str):
    page.goto(f"{live_server}/rules/crazy-eights")
    page.get_by_role("searchbox").fill("jammed")
    expect(page.locator("#c8-jammed")).to_be_visible()
    expect(page.locator("#c8-eights")).to_be_hidden()
    expect(page.locator("[data-search-status]")).to_contain_text("of 13 sections match")


def test_deal_helper_for_six_players(page: Page, live_server: str):
    page.goto(f"{live_server}/deal")
    page.get_by_role("radio", name="Last One").check()
    page.get_by_role("radio", name="6 players").check()  # answers at once (autosubmit)
    answer = page.locator("[data-deal-answer]")
    expect(answer).to_contain_text("7 cards each")
    expect(answer).to_contain_text("11")  # left in the stock
    expect(answer).to_contain_text("Seat 1 deals")
    expect(page).to_have_url(re.compile(r"players=6"))  # the answer page has loaded
    page.wait_for_load_state()
    # The tap target is the label around the radio button.
    target = page.locator("label.pick").filter(has=page.get_by_role("radio", name="6 players"))
    box = target.bounding_box()
    assert box and box["width"] >= 44 and box["height"] >= 44


def test_deal_helper_explains_a_bad_deal(page: Page, live_server: str):
    page.goto(f"{live_server}/deal?game=last-one&players=6&hand_size=9")
    expect(page.get_by_role("alert")).to_contain_text("no card is left to turn up")


def test_screenshots_for_the_readme(page: Page, live_server: str):
    """Phone screenshots; kept in static/screenshots when SCOREKEEPER_SCREENSHOTS=1."""
    page.goto(f"{live_server}/rules/last-one")
    screenshot(page, SCREENSHOTS / "rules.png")
    page.goto(f"{live_server}/deal?game=last-one&players=6&hand_size=7&dealer=2")
    expect(page.locator("[data-deal-answer]")).to_contain_text("7 cards each")
    screenshot(page, SCREENSHOTS / "deal.png")


@pytest.mark.parametrize(("width", "scheme"), [(320, "light"), (360, "dark"), (390, "light"),
                                               (430, "dark")])
def test_places_in_a_shared_elimination_are_explained(
        page: Page, live_server: str, width: int, scheme: str):
    """"Everyone who reaches it in the same hand goes out together" — and then? The
    elimination section says how they are placed (RULES.md, Places): by total."""
    page.set_viewport_size({"width": width, "height": 800})
    page.emulate_media(color_scheme=scheme)
    page.goto(f"{live_server}/rules/last-one")
    page.get_by_role("searchbox").fill("places")
    section = page.locator("#lo-elimination")
    expect(section).to_be_visible()
    places = section.locator("#shared-elimination")
    expect(places).to_contain_text("Places when several go out in one hand")
    expect(places).to_contain_text("the smaller total ahead")
    expect(places).to_contain_text("both 2nd and the next player is 4th")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
