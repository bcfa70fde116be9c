"""A finished Last One match on a 390 × 844 phone offers "Log in BG Stats" on the first
screen beside Rematch; the play in its link is the board's places, and nothing of the
group's tokens is in it."""

from __future__ import annotations

import json
from urllib.parse import unquote

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.core.cards import parse_cards
from scorekeeper.core.sheets import Sheet
from scorekeeper.store.extensions import db
from scorekeeper.store.models import Group, Player
from scorekeeper.store.records import create_match, record_hand
from tests.support.browser import SCREENSHOTS, screenshot
from tests.support.views import match_view

pytestmark = pytest.mark.browser

NAMES = ("Ann", "Ben", "Cat", "Dan")


def finished_last_one(app) -> dict:
    """A group of four and its finished Last One match to 100: Ben and Cat fall
    together on 100 in hand 1 (both 3rd), Ann in hand 2, and Dan wins."""
    with app.app_context():
        group = Group(name="Kitchen table")
        group.players = [Player(name=n) for n in NAMES]
        db.session.add(group)
        db.session.commit()
        match = create_match(group, Sheet.make("last-one", {"threshold": 100}),
                             list(group.players), 0)
        match = record_hand(match, 1, 0, [[], parse_cards("8s 8h 8d 8c"),
                                          parse_cards("jk jk kh qh"), parse_cards("2c 3c")]).match
        record_hand(match, 2, 3, [parse_cards("8s 8h 8d 8c"), [], [], []])
        view = match_view(match.id)
        assert view.status == "finished"
        return {"board": f"/groups/{group.id}/matches/{match.id}",
                "invite": group.invite_token, "view": view.view_token}


def on_screen(page: Page, locator) -> dict:
    """The element's box, which must lie wholly inside the 390 × 844 screen now."""
    box = locator.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844, box
    return box


def test_the_link_sits_beside_rematch_and_hands_over_the_boards_places(page: Page, app,
                                                                       live_server):
    ids = finished_last_one(app)
    page.goto(f"{live_server}/join/{ids['invite']}")
    page.goto(live_server + ids["board"])
    rematch = page.get_by_role("button", name="Rematch")
    bg_link = page.get_by_role("link", name="Log in BG Stats")
    expect(bg_link).to_be_visible()
    # In Rematch's block, on the same line, so wherever Rematch is, the link is too.
    page.locator("#match-actions").scroll_into_view_if_needed()
    beside, box = on_screen(page, rematch), on_screen(page, bg_link)
    assert abs(box["y"] - beside["y"]) < beside["height"] and box["x"] > beside["x"]
    expect(page.locator("#match-actions")).to_contain_text("BG Stats app")

    href = bg_link.get_attribute("href")
    assert href.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    play = json.loads(unquote(href.split("?data=", 1)[1]))
    places = page.get_by_role("list", name="Places")
    shown = dict(zip(places.locator(".who").all_inner_texts(),
                     places.locator(".place").all_inner_texts(), strict=True))
    assert shown == {"Dan": "1st", "Ann": "2nd", "Ben": "3rd", "Cat": "3rd"}
    ordinals = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}
    assert {p["name"]: ordinals[p["rank"]] for p in play["players"]} == shown
    assert [p["name"] for p in play["players"] if p["winner"]] == ["Dan"]
    assert play["game"] == {"name": "Last One", "sourceGameId": "last-one",
                            "highestWins": False, "noPoints": False}
    assert play["board"] == "Elimination threshold: 100"
    # Nothing in the link opens the group: no token, no address of this app.
    for secret in (ids["invite"], ids["view"]):
        assert secret not in href and secret not in unquote(href)
    assert live_server.split("//")[1] not in unquote(href)


def test_a_finished_board_shows_the_link_on_the_first_screen(page: Page, app, live_server):
    ids = finished_last_one(app)
    page.goto(f"{live_server}/join/{ids['invite']}")
    page.goto(live_server + ids["board"])
    assert page.viewport_size == {"width": 390, "height": 844}
    assert page.evaluate("window.scrollY") == 0
    on_screen(page, page.get_by_role("button", name="Rematch"))
    on_screen(page, page.get_by_role("link", name="Log in BG Stats"))
    screenshot(page, SCREENSHOTS / "bg-stats.png")  # the README's: this screen


def test_the_match_record_offers_it_beside_the_exports(page: Page, app, live_server):
    ids = finished_last_one(app)
    page.goto(f"{live_server}/join/{ids['invite']}")
    page.goto(f"{live_server}{ids['board']}/record")
    exports = page.get_by_role("link", name="Download CSV")
    bg_link = page.get_by_role("link", name="Log in BG Stats")
    expect(bg_link).to_be_visible()
    assert bg_link.evaluate("(a, csv) => a.parentElement === csv.parentElement",
                            exports.element_handle())
    page.goto(live_server + ids["board"])
    assert page.get_by_role("link", name="Log in BG Stats").get_attribute("href") == (
        bg_link.get_attribute("href"))
