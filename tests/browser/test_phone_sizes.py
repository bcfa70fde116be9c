"""Table-ready on every phone: every page at 320, 360, 390 and 430 px wide (and at 200%
text) stays inside the screen, every picker key lies wholly on the screen and can be
tapped where it sits, a whole hand goes in with "Next player" and no scrolling, four
players are seated by tapping, and axe-core finds nothing on any page in the light and
the dark theme.

The page sweeps judge presentation, not storage, so they run on SQLite only; the hand
and seating walk-throughs run on both databases.
"""

from __future__ import annotations

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from tests.support.browser import SCREEN_WIDTH, SCREENSHOTS, at_size, phone, screenshot, sideways
from tests.support.pages import pages, seed

pytestmark = pytest.mark.browser

PHONES = [(320, 568), (360, 640), (390, 844), (430, 932)]
SQLITE_ONLY = pytest.mark.parametrize("backend", ["sqlite"], indirect=True)


@pytest.fixture
def seeded(app, live_server: str) -> tuple[str, dict[str, object]]:
    return live_server, seed(app)


# The shown picker keys cut by the screen's edge or covered where a finger lands.
KEYS_HIT = f"""() => Array.from(document.querySelectorAll('[data-picker] .cp-key'))
  .filter((key) => !key.hidden).filter((key) => {{
    const r = key.getBoundingClientRect();
    const inside = r.left >= 0 && r.right <= {SCREEN_WIDTH} && r.top >= 0
      && r.bottom <= window.innerHeight;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !inside || !(hit && key.contains(hit));
  }}).map((key) => key.textContent.trim() || key.getAttribute('aria-label'))"""


@SQLITE_ONLY
def test_no_page_scrolls_sideways_and_every_key_is_tappable(browser: Browser, seeded):
    """Each page opened once and checked at every size in turn (the viewport resized,
    as a phone turned or a window narrowed), and at each size again at 200% text."""
    base, ids = seeded
    with phone(browser, base, ids["invite"], *PHONES[0]) as page:
        wide, hidden = {}, {}
        for path in pages(ids):
            page.goto(base + path)
            for width, height in PHONES:
                at = f"{path} at {width}×{height}"
                at_size(page, width, height)
                if found := sideways(page):
                    wide[at] = found
                if page.locator("[data-picker]:visible").count() and (
                        missed := page.evaluate(KEYS_HIT)):
                    hidden[at] = missed
                page.evaluate("document.documentElement.style.fontSize = '200%'")
                if found := sideways(page):
                    wide[at + " at 200% text"] = found
                page.evaluate("document.documentElement.style.fontSize = ''")
        assert not wide, f"pages wider than the screen: {wide}"
        assert not hidden, f"picker keys covered or off-screen: {hidden}"


@SQLITE_ONLY
def test_the_sideways_check_fails_on_a_page_made_too_wide(browser: Browser, live_server: str):
    """The measure the sweeps trust, caught out on purpose: at each width a box 20 px wider
    than the screen is put on the page and must be reported (a phone zooms such a page out
    to fit, which a check against the zoomed width never notices); taken away, the page
    fits again."""
    with phone(browser, live_server, None, *PHONES[0]) as page:
        page.goto(live_server + "/rules")
        for width, height in PHONES:
            at_size(page, width, height)
            assert sideways(page) == [], width
            page.evaluate("""(w) => { const box = document.createElement('div');
                box.id = 'too-wide'; box.style.width = `${w}px`; box.style.height = '1px';
                document.querySelector('main').append(box); }""", width + 20)
            found = sideways(page)
            assert found and 'id="too-wide"' in found[0] and found[-1].endswith("px too wide"), (
                width, found)
            page.evaluate("document.getElementById('too-wide').remove()")
            assert sideways(page) == [], width


@SQLITE_ONLY
def test_axe_finds_nothing_on_any_page(browser: Browser, seeded):
    """Each page opened once at 390 px and checked in the light theme, then in the
    dark one (the phone's setting switched under the open page)."""
    base, ids = seeded
    axe = Axe()
    with phone(browser, base, ids["invite"], 390, 844) as page:
        found = {}
        for path in pages(ids):
            page.goto(base + path)
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                assert page.evaluate(f"matchMedia('(prefers-color-scheme: {scheme})').matches")
                if scheme == "dark" and path == pages(ids)[6]:  # the README's dark screenshot
                    screenshot(page, SCREENSHOTS / "scoreboard-dark.png")
                results = axe.run(page)
                if results.violations_count:
                    found[f"{path} ({scheme})"] = [
                        (v["id"], [n["target"] for n in v["nodes"]][:3],
                         v["nodes"][0].get("failureSummary", "")[:160])
                        for v in results.response["violations"]]
            page.emulate_media(color_scheme="light")
        assert not found, "\n".join(f"{path}: {v}" for path, v in found.items())


def test_a_whole_hand_tapped_in_with_next_player_and_no_scrolling(browser: Browser, seeded):
    base, ids = seeded
    with phone(browser, base, ids["invite"], 390, 844) as page:
        page.goto(f"{base}/groups/{ids['gid']}/matches/{ids['lo']}/hands/new")
        expect(page.locator("[data-picker-name]")).to_have_text("Ann")  # first to fill
        expect(page.locator("#seat-0")).to_have_attribute("inputmode", "none")
        taps = 0

        def tap(locator, page: Page = page) -> None:
            """A finger on the middle of what is on screen now (no scrolling into view)."""
            nonlocal taps
            box = locator.bounding_box()
            assert box and box["y"] >= 0 and box["y"] + box["height"] <= 844, locator
            page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            taps += 1

        keys = page.locator("[data-picker]")
        tap(page.locator(".went-out label.choice", has_text="Ben"))
        expect(page.locator("[data-picker-name]")).to_have_text("Ann")
        for who, cards in (("Ann", "4h kc 2d"), ("Cy", "9d 9s 3c")):  # 3 players × 3 cards
            expect(page.locator("[data-picker-name]")).to_have_text(who)
            for card in cards.split():
                tap(keys.locator(f'[data-rank="{card[:-1].upper()}"]'))
                tap(keys.locator(f'[data-suit="{card[-1].upper()}"]'))
            if who == "Ann":
                tap(keys.get_by_role("button", name="Next player ›"))
        expect(page.locator("#seat-0")).to_have_value("4H KC 2D")
        expect(page.locator("#seat-2")).to_have_value("9D 9S 3C")
        tap(keys.get_by_role("button", name="Record hand", exact=True))  # Next, on the last seat
        expect(page.locator(".flash").first).to_contain_text("Hand 3 saved")
        assert page.evaluate("window.scrollY") == 0
        assert taps == 15  # the README's count: who went out, 6 + Next + 6, Record


def test_seating_four_players_by_tapping(browser: Browser, seeded):
    base, ids = seeded
    with phone(browser, base, ids["invite"], 390, 844) as page:
        page.goto(f"{base}/groups/{ids['gid']}/matches/new")
        seat = page.locator(".seat-tap")
        expect(page.locator("select[name^=order-p]").first).to_be_hidden()
        for name in ("Cy", "Ann", "Dee", "Ben"):
            seat.filter(has_text=name).tap()
        seat.filter(has_text="Ann").tap()  # unseat Ann: Dee and Ben move up
        seat.filter(has_text="Ann").tap()  # and seat her again, last
        numbers = {name: seat.filter(has_text=name).locator("[data-seat-no]").inner_text()
                   for name in ("Cy", "Dee", "Ben", "Ann")}
        assert numbers == {"Cy": "1", "Dee": "2", "Ben": "3", "Ann": "4"}
        expect(page.locator("#first_dealer option").first).to_have_text("Seat 1: Cy")
        page.get_by_role("button", name="Start the match").tap()
        expect(page.locator(".standing .who")).to_have_text(["Cy", "Dee", "Ben", "Ann"])


def test_seating_stops_at_the_games_maximum(browser: Browser, seeded):
    base, ids = seeded
    with phone(browser, base, ids["invite"], 390, 844) as page:
        page.goto(f"{base}/groups/{ids['gid']}/matches/new?game=last-one")
        assert "Seat 7" not in page.content()  # Last One seats 2 to 6
        expect(page.locator(".seat-tap").first).to_be_enabled()


def test_picker_is_one_tab_stop_with_arrow_keys(browser: Browser, seeded):
    base, ids = seeded
    with phone(browser, base, ids["invite"], 390, 844) as page:
        page.goto(f"{base}/groups/{ids['gid']}/matches/{ids['lo']}/hands/new")
        stops = page.locator("[data-picker] .cp-key[tabindex='0']")
        expect(stops).to_have_count(1)
        stops.first.focus()
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowDown")  # from 2 down to 9
        assert page.evaluate("document.activeElement.dataset.rank") == "9"
        page.keyboard.press("Enter")
        page.keyboard.press("ArrowDown")  # to the suits row
        page.keyboard.press("Enter")
        expect(page.locator("input[data-cards]").first).to_have_value(re.compile(r"^9[SHDC]$"))
        expect(stops).to_have_count(1)


def test_wake_lock_toggle_is_remembered(browser: Browser, seeded):
    base, ids = seeded
    with phone(browser, base, ids["invite"], 390, 844) as page:
        page.goto(f"{base}/groups/{ids['gid']}/matches/{ids['lo']}")
        toggle = page.locator("[data-wake-lock]")
        if not page.evaluate("'wakeLock' in navigator"):
            expect(toggle).to_be_hidden()
            return
        expect(toggle).to_have_attribute("aria-pressed", "false")
        toggle.tap()
        expect(toggle).to_have_attribute("aria-pressed", "true")
        page.reload()
        expect(page.locator("[data-wake-lock]")).to_have_attribute("aria-pressed", "true")
