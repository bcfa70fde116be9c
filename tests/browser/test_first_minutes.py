"""A new table's first minutes on a phone, every step on the first screen: a match for
four set up from the group page, a hand of four recorded without scrolling, two jokers
tapped in and out one by one, a card entered twice named at once, players added with
the keyboard left open, and the invite link copied and shown as a QR code.

Taps are counted by :class:`Finger`, which only touches what is on screen now: a
target outside the viewport fails the test instead of being scrolled to.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from scorekeeper.core.cards import parse_cards
from scorekeeper.core.sheets import Sheet
from scorekeeper.store.extensions import db
from scorekeeper.store.models import Group, Player
from scorekeeper.store.records import create_match, record_hand
from scorekeeper.web.share import qr_svg
from tests.support.browser import SCREENSHOTS, at_size, phone, screenshot
from tests.support.views import match_view

pytestmark = pytest.mark.browser

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve")


class Finger:
    """Taps the middle of what is on screen now (no scrolling into view), and counts."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.taps = 0

    def tap(self, target: Locator) -> None:
        box = target.bounding_box()
        height = self.page.viewport_size["height"]
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= height, (
            f"{target} is off the screen: {box}")
        self.page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        self.taps += 1


def seed(app) -> dict[str, object]:
    """A group of five and a Last One match of the first four."""
    with app.app_context():
        group = Group(name="Kitchen table")
        group.players = [Player(name=n, colour=c) for n, c in zip(NAMES, (
            "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b"), strict=True)]
        db.session.add(group)
        db.session.commit()
        match = create_match(group, Sheet.make("last-one"), group.players[:4], 0)
        return {"gid": group.id, "invite": group.invite_token, "mid": match.id}


@pytest.fixture
def table(app, live_server: str) -> tuple[str, dict[str, object]]:
    return live_server, seed(app)


def no_scroll(page: Page) -> None:
    assert page.evaluate("window.scrollY") == 0


@pytest.mark.parametrize(("width", "height", "dark", "seated"), [
    (390, 844, False, ("Dan", "Ann", "Ben", "Cat")), (390, 844, True, ("Dan", "Ann", "Ben", "Cat")),
    (430, 932, False, ("Dan", "Ann", "Ben", "Cat")), (390, 844, False, ("Eve", "Cat", "Ann")),
    (360, 640, False, ("Dan", "Ann", "Ben", "Cat")),
    (320, 568, True, ("Dan", "Ann", "Ben", "Cat"))],
    ids=["390-four", "390-dark-four", "430-four", "390-three", "360x640-four",
         "320x568-dark-four"])
def test_a_match_from_the_group_page_in_at_most_seven_taps(browser: Browser, table, width,
                                                             height, dark, seated):
    base, ids = table
    with phone(browser, base, ids["invite"], width, height, dark) as page:
        page.goto(f"{base}/groups/{ids['gid']}")
        finger = Finger(page)
        finger.tap(page.get_by_role("link", name="New match"))
        expect(page.get_by_role("heading", name="New match")).to_be_visible()
        expect(page.locator(".house-rules summary")).to_have_text("House rules: standard rules")
        expect(page.locator(".seat-tap .who")).to_have_text(list(NAMES))
        for name in seated:
            finger.tap(page.locator(".seat-tap", has_text=name))
        if width == 390 and not dark and len(seated) == 4:
            screenshot(page, SCREENSHOTS / "new-match.png")
        finger.tap(page.get_by_role("button", name="Start the match"))
        expect(page.locator(".standing .who")).to_have_text(list(seated))
        # The README's count: New match, one tap per player, Start (6 for four players).
        assert finger.taps == len(seated) + 2 <= 7
        # The next match lists the last table first, in its seat order.
        page.goto(f"{base}/groups/{ids['gid']}/matches/new")
        rest = [name for name in NAMES if name not in seated]
        expect(page.locator(".seat-tap .who")).to_have_text([*seated, *rest])


def test_house_rules_fold_behind_a_line_that_says_what_differs(browser: Browser, table):
    base, ids = table
    with phone(browser, base, ids["invite"], 390, 844) as page:
        page.goto(f"{base}/groups/{ids['gid']}/matches/new")
        threshold = page.get_by_label("Elimination threshold")
        expect(threshold).to_be_hidden()
        page.locator(".house-rules summary").tap()
        threshold.fill("100")
        expect(page.locator("[data-rules-differ]")).to_have_text("Elimination threshold changed")
        for name in ("Ann", "Ben"):
            page.locator(".seat-tap", has_text=name).tap()
        threshold.fill("0")
        page.evaluate("document.querySelector('form[data-seating]').noValidate = true")
        page.get_by_role("button", name="Start the match").tap()
        # Refused: the rules open at the field at fault, the line names it.
        expect(page.locator("#opt-threshold-error")).to_be_visible()
        expect(page.locator(".house-rules")).to_have_attribute("open", "")
        expect(page.locator("[data-rules-differ]")).to_have_text("Elimination threshold: to fix")


def record_four(page: Page, finger: Finger) -> None:
    """Ann goes out; Ben, Cat and Dan hold three cards each, tapped in with the picker."""
    keys = page.locator("[data-picker]")
    finger.tap(page.locator(".went-out label.choice", has_text="Ann"))
    hands = {"Ben": "4h kc 2d", "Cat": "9d 9s 3c", "Dan": "5s 6s 7h"}
    for who, cards in hands.items():
        expect(page.locator("[data-picker-name]")).to_have_text(who)
        for card in cards.split():
            finger.tap(keys.locator(f'[data-rank="{card[:-1].upper()}"]'))
            finger.tap(keys.locator(f'[data-suit="{card[-1].upper()}"]'))
        if who != "Dan":
            finger.tap(keys.get_by_role("button", name="Next player ›"))
    # On the last seat that needs cards, the picker's own key records the hand.
    done = keys.get_by_role("button", name="Record hand", exact=True)
    expect(done).to_be_visible()
    finger.tap(done)


@pytest.mark.parametrize(("width", "height", "dark"), [
    (390, 844, False), (390, 844, True), (360, 800, False), (430, 932, False)],
    ids=["390", "390-dark", "360", "430"])
def test_a_hand_of_four_recorded_with_no_scroll(browser: Browser, table, width, height, dark):
    base, ids = table
    with phone(browser, base, ids["invite"], width, height, dark) as page:
        page.goto(f"{base}/groups/{ids['gid']}/matches/{ids['mid']}/hands/new")
        finger = Finger(page)
        record_four(page, finger)
        expect(page.locator(".flash").first).to_contain_text("Hand 1 saved")
        no_scroll(page)
        assert finger.taps == 22  # the README's count: who went out, 3 × 6 cards, 2 Next, Record
        totals = page.locator(".standing .total")
        expect(totals).to_have_text(["0", "16", "21", "18"])


def test_the_form_button_stays_above_the_docked_picker(browser: Browser, table):
    base, ids = table
    with phone(browser, base, ids["invite"], 390, 844) as page:
        page.goto(f"{base}/groups/{ids['gid']}/matches/{ids['mid']}/hands/new")
        page.locator(".went-out label.choice", has_text="Ann").tap()
        screenshot(page, SCREENSHOTS / "hand-entry-four.png")
        page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        save = page.locator("form .form-action button")
        dock = page.locator("[data-picker]").bounding_box()
        box = save.bounding_box()
        assert box["y"] + box["height"] <= dock["y"], (box, dock)  # scrolled to, never under


def ann_went_out(page: Page, base: str, ids: dict[str, object]) -> Locator:
    """Open hand 1's form, tap Ann as the one who went out; the docked picker."""
    page.goto(f"{base}/groups/{ids['gid']}/matches/{ids['mid']}/hands/new")
    page.locator(".went-out label.choice", has_text="Ann").tap()
    return page.locator("[data-picker]")


def test_both_jokers_tapped_in_and_taken_out_one_by_one(browser: Browser, table):
    base, ids = table
    with phone(browser, base, ids["invite"], 390, 844) as page:
        keys = ann_went_out(page, base, ids)
        expect(page.locator("[data-picker-name]")).to_have_text("Ben")
        keys.locator("[data-joker]").tap()
        keys.locator("[data-joker]").tap()
        ben = page.locator('.held[data-seat="1"]')
        expect(ben.locator("input")).to_have_value("JK JK")
        expect(ben.locator(".preview")).to_contain_text("80 points")
        expect(page.locator("[data-duplicates]")).to_be_empty()
        ben.get_by_role("button", name="remove Joker").first.tap()
        expect(ben.locator("input")).to_have_value("JK")
        keys.locator("[data-joker]").tap()
        expect(ben.locator("input")).to_have_value("JK JK")
        keys.locator("[data-undo]").tap()
        expect(ben.locator("input")).to_have_value("JK")


def test_a_card_entered_twice_is_named_as_it_is_tapped(browser: Browser, table):
    base, ids = table
    with phone(browser, base, ids["invite"], 390, 844) as page:
        keys = ann_went_out(page, base, ids)
        for key in ('[data-rank="8"]', '[data-suit="S"]'):
            keys.locator(key).tap()
        keys.get_by_role("button", name="Next player ›").tap()
        for key in ('[data-rank="8"]', '[data-suit="S"]'):
            keys.locator(key).tap()
        warning = page.locator("[data-duplicates]")
        expect(warning).to_have_text("8♠ is entered 2 times (Ben and Cat); the deck holds it once.")
        keys.locator("[data-undo]").tap()
        expect(warning).to_be_empty()


def test_adding_players_keeps_the_name_field_and_enter_adds(browser: Browser, table):
    base, ids = table
    with phone(browser, base, ids["invite"], 390, 844) as page:
        page.goto(base + "/")
        page.get_by_label("Group name").fill("New table")
        page.get_by_role("button", name="Start the group").tap()
        name = page.get_by_label("Name")
        name.focus()
        for who in ("Ann", "Ben", "Cat"):
            page.keyboard.type(who)
            page.keyboard.press("Enter")
            expect(page.locator(".flash")).to_contain_text(f"Added {who}")
            expect(name).to_be_focused()
            expect(name).to_have_value("")
        page.keyboard.type("Dan")
        page.get_by_role("button", name="Add player").tap()
        expect(page.locator(".flash")).to_contain_text("Added Dan")
        expect(name).to_be_focused()
        page.keyboard.type("ann")
        page.keyboard.press("Enter")  # taken: the error lands on the field, still focused
        expect(page.locator("#name-error")).to_be_visible()
        expect(name).to_be_focused()
        expect(page.locator("[data-player-list] .who")).to_have_text(["Ann", "Ben", "Cat", "Dan"])


SHARE_SHEET = """navigator.share = (data) => { window.shared = data; return Promise.resolve(); };"""


def test_the_view_link_shares_through_the_phones_share_sheet(browser: Browser, table):
    base, ids = table
    board = f"{base}/groups/{ids['gid']}/matches/{ids['mid']}"
    with phone(browser, base, ids["invite"], 390, 844) as page:
        page.goto(board)  # this Chromium has no share sheet: Copy only
        share = page.locator("#share")
        assert not page.evaluate("'share' in navigator")
        expect(share.get_by_role("button", name="Copy")).to_be_visible()
        expect(share.locator("[data-share-url]")).to_be_hidden()
        page.add_init_script(SHARE_SHEET)  # now a phone with the Web Share API
        page.goto(board)
        share.get_by_role("button", name="Share").tap()
        link = share.get_by_label("View link").input_value()
        assert page.evaluate("window.shared.url") == link and "/view/" in link


def test_the_invite_link_copies_and_shows_a_qr_code(browser: Browser, table):
    base, ids = table
    with phone(browser, base, ids["invite"], 390, 844) as page:
        page.context.grant_permissions(["clipboard-read", "clipboard-write"])
        page.goto(f"{base}/groups/{ids['gid']}")
        invite = page.locator("#invite")
        link = invite.get_by_label("Invite link").input_value()
        assert link.endswith(f"/join/{ids['invite']}")
        invite.get_by_role("button", name="Copy").tap()
        expect(invite.locator("[data-copy-status]")).to_have_text("Copied.")
        assert page.evaluate("navigator.clipboard.readText()") == link
        qr = invite.get_by_role("img", name="QR code of the invite link")
        expect(qr).to_be_visible()
        # The code drawn is the link shown, as the camera of a second phone reads it.
        drawn = page.request.get(base + qr.get_attribute("src")).body()
        assert drawn == qr_svg(link)
        assert page.evaluate("(img) => img.complete && img.naturalWidth > 20", qr.element_handle())
        box = qr.bounding_box()
        assert box["width"] >= 150 and box["height"] >= 150
        invite.scroll_into_view_if_needed()
        screenshot(page, SCREENSHOTS / "invite-link.png")


def test_a_finished_match_lists_its_places(browser: Browser, app, table):
    base, ids = table
    with app.app_context():
        match = match_view(ids["mid"])
        match = record_hand(match, 1, 0, [
            [], parse_cards("jk jk 8s 8h 8d 8c kh qh jh 10h"),
            parse_cards("kd qd jd 10d 9c 9d 9s 9h ac ad ah as 7c 7d 7h 7s"),
            parse_cards("ks qs js 10s 10c jc qc kc")]).match
        match = record_hand(match, 2, 1, [
            parse_cards("2c 3c"), [],
            parse_cards("kd qd jd 10d 9c 9d 9s 9h ac"),  # Cat falls
            parse_cards("4h")]).match
        record_hand(match, 3, 0, [  # Ben and Dan fall: Ann wins
            [], parse_cards("8c 8d"), [],
            parse_cards("8h 8s 9h 9d 9c kh qh jh 10h 10d 10c jk jk")])
    with phone(browser, base, ids["invite"], 390, 844) as page:
        page.goto(f"{base}/groups/{ids['gid']}/matches/{ids['mid']}")
        places = page.get_by_role("list", name="Places")
        expect(places.locator(".place")).to_have_text(["1st", "2nd", "3rd", "4th"])
        expect(places.locator(".who")).to_have_text(["Ann", "Ben", "Dan", "Cat"])
        rematch = page.get_by_role("button", name="Rematch")
        expect(rematch).to_be_in_viewport(ratio=1)  # the README's picture: in the first screen
        assert page.evaluate("window.scrollY") == 0
        screenshot(page, SCREENSHOTS / "scoreboard-finished.png")


SMALL_TARGETS = """() => Array.from(document.querySelectorAll('a, button, summary'))
  .filter((el) => el.getClientRects().length && !el.closest('[hidden]'))
  .filter((el) => el.getBoundingClientRect().height < 44)
  .map((el) => `${el.tagName} ${(el.textContent || el.getAttribute('aria-label')).trim()}`
    + ` ${Math.round(el.getBoundingClientRect().height)}px`)"""


def test_every_link_and_button_is_a_thumb_tall(browser: Browser, app, table):
    """Each page opened once and measured at 320 and at 390 px (the viewport resized)."""
    base, ids = table
    with app.app_context():
        match = match_view(ids["mid"])
        match = record_hand(match, 1, 0, [[], parse_cards("8s 8h"), parse_cards("9c"),
                                  parse_cards("kh qh jk")]).match
    g, m = f"/groups/{ids['gid']}", f"/groups/{ids['gid']}/matches/{ids['mid']}"
    paths = ["/", g, f"{g}/players", f"{g}/matches/new", m, f"{m}/record", f"{m}/hands/1",
             f"{g}/history", "/deal?game=last-one&players=4", "/check"]
    with phone(browser, base, ids["invite"], 320, 844) as page:
        small = {}
        for path in paths:
            page.goto(base + path)
            for width in (320, 390):
                at_size(page, width, 844)
                if found := page.evaluate(SMALL_TARGETS):
                    small[f"{path} at {width} px"] = found
        assert not small, "\n".join(f"{p}: {found}" for p, found in small.items())
