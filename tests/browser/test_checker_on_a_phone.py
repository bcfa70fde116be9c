"""The play checker fits the phone: the card keys sit inside the screen at every width,
give way to the rest of the form once the cards are in, Check is on the screen without
scrolling, and after Check the answer is in view with the keys closed. The Last One
melee dispute goes from the scoreboard to its answer in 8 taps and no scroll, each
tap on what is on the screen at that moment."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.support.browser import SCREEN_WIDTH, SCREENSHOTS, phone_match, screenshot, sideways

pytestmark = pytest.mark.browser

SUITS = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}
WIDTHS = [(320, "light"), (360, "dark"), (390, "light"), (390, "dark"), (430, "dark")]
DOCK = ".picker.is-docked"

# How many keys (and the keys' label) are shown, and those not wholly on the screen.
KEYS_OUTSIDE = f"""() => {{
  const shown = Array.from(
    document.querySelectorAll('[data-picker] .cp-key, [data-picker] .picker-for'))
    .filter((el) => el.getClientRects().length);
  return [shown.length, shown.filter((el) => {{
    const r = el.getBoundingClientRect();
    return r.left < 0 || r.right > {SCREEN_WIDTH} || r.top < 0 || r.bottom > window.innerHeight;
  }}).map((el) => el.textContent.trim() || el.getAttribute('aria-label'))]; }}"""

# Where the docked keys begin (the screen's foot when they are closed).
DOCK_TOP = f"""() => {{ const d = document.querySelector('{DOCK}');
  return d && !d.hidden ? d.getBoundingClientRect().top : window.innerHeight; }}"""


class Finger:
    """Taps the middle of what is on the screen now, above the docked keys, without
    scrolling anything into view; counts the taps."""

    def __init__(self, page: Page) -> None:
        self.page, self.taps = page, 0

    def tap(self, target: Locator) -> None:
        box = target.bounding_box()
        on_keys = target.evaluate("el => Boolean(el.closest('[data-picker]'))")
        bottom = self.page.viewport_size["height"] if on_keys else self.page.evaluate(DOCK_TOP)
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= bottom, (
            f"{target} is not on the screen above the keys (they begin at {bottom}): {box}")
        self.page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        self.taps += 1

    def card(self, text: str) -> None:
        keys = self.page.locator(".picker")
        self.tap(keys.locator(f'[data-rank="{text[:-1].upper()}"]'))
        self.tap(keys.get_by_role("button", name=SUITS[text[-1]], exact=True))


def keys_outside(page: Page) -> list[str]:
    """The shown keys not wholly on the screen; the keys must be there to be measured."""
    shown, outside = page.evaluate(KEYS_OUTSIDE)
    assert shown >= 17, f"only {shown} keys shown to measure (13 ranks, 4 suits at least)"
    return outside


def scrolled(page: Page) -> float:
    return page.evaluate("window.scrollY")


def answer_in_view_and_keys_closed(page: Page) -> None:
    box = page.locator("[data-check-answer] .check-big").bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= page.evaluate(DOCK_TOP), box
    expect(page.locator("[data-picker]")).to_be_hidden()


@pytest.mark.parametrize(("width", "scheme"), [(390, "light"), (390, "dark")])
def test_the_melee_dispute_from_the_scoreboard_in_eight_taps_and_no_scroll(
        page: Page, live_server: str, app, backend: str, width: int, scheme: str):
    page.set_viewport_size({"width": width, "height": 844})
    page.emulate_media(color_scheme=scheme)
    finger = Finger(page)
    page.goto(phone_match(app, live_server, page)["board"])
    finger.tap(page.get_by_role("link", name="Check a play"))
    expect(page.locator("[data-picker-name]")).to_have_text("Upcard")
    finger.card("4h")
    finger.card("5h")
    # The cards are in: the keys give way to the situation and to Check.
    expect(page.locator("[data-picker]")).to_be_hidden()
    finger.tap(page.get_by_role("radio", name="Who plays: Cat"))
    finger.tap(page.get_by_role("radio", name="A melee is on (the upcard is its last card)? Yes"))
    assert scrolled(page) == 0
    if backend == "sqlite" and scheme == "light":
        screenshot(page, SCREENSHOTS / "check-before.png")
    finger.tap(page.get_by_role("button", name="Check"))
    expect(page.locator("[data-check-answer]")).to_contain_text("✓ Legal")
    expect(page.locator("[data-check-answer]")).to_contain_text("a melee is on")
    assert finger.taps == 8
    answer_in_view_and_keys_closed(page)
    if backend == "sqlite":
        screenshot(page, SCREENSHOTS / f"check-melee-settled-{scheme}.png")


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
@pytest.mark.parametrize("where", ["/check", "match"])
def test_the_keys_sit_inside_the_screen_and_give_way(
        page: Page, live_server: str, app, where: str):
    """On one phone set to each width and theme in turn, the checker opened afresh."""
    path = (live_server + "/check?game=last-one" if where == "/check"
            else phone_match(app, live_server, page)["board"] + "/check")
    for width, scheme in WIDTHS:
        size = f"{width} px, {scheme}"
        page.set_viewport_size({"width": width, "height": 844})
        page.emulate_media(color_scheme=scheme)
        page.goto(path)
        expect(page.locator("[data-picker]"), size).to_be_visible()
        assert keys_outside(page) == [], size
        assert sideways(page) == [], size
        page.evaluate("document.documentElement.style.fontSize = '200%'")
        assert sideways(page) == [], f"{size}, 200% text"
        page.evaluate("document.documentElement.style.fontSize = ''")
        # Another question tapped: the keys close; the card field opens them again.
        page.get_by_role("radio", name="Is it the player’s last card? No").check()
        expect(page.locator("[data-picker]"), size).to_be_hidden()
        page.locator("label[for=card]").tap()
        expect(page.locator("[data-picker-name]"), size).to_have_text("Card played")
        assert keys_outside(page) == [], size
        page.locator(".picker").get_by_role("button", name="Done").tap()
        expect(page.locator("[data-picker]"), size).to_be_hidden()
        # Check is on the screen without scrolling, whatever the form holds below it.
        check = page.get_by_role("button", name="Check").bounding_box()
        assert check and check["y"] >= 0 and check["y"] + check["height"] <= 844, (size, check)


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_after_check_the_answer_is_in_view_and_the_keys_closed(page: Page, live_server: str):
    """On one phone set to each width and theme in turn, the checker opened afresh."""
    for width, scheme in WIDTHS:
        size = f"{width} px, {scheme}"
        page.set_viewport_size({"width": width, "height": 844})
        page.emulate_media(color_scheme=scheme)
        page.goto(live_server + "/check?game=crazy-eights")
        finger = Finger(page)
        finger.card("5c")
        finger.card("7c")
        # Both cards in: the keys close, and Check settles where they were (tap it there).
        expect(page.locator("[data-picker]"), size).to_be_hidden()
        finger.tap(page.get_by_role("button", name="Check"))
        expect(page.locator("[data-check-answer]"), size).to_contain_text("Legal")
        answer_in_view_and_keys_closed(page)
        # Another card: tapping the field brings the keys back, inside the screen.
        page.locator("label[for=card]").tap()
        expect(page.locator("[data-picker]"), size).to_be_visible()
        assert keys_outside(page) == [], size


# ---- four players: the two disputes a table brings most, with no scroll -------------

# Where the sticky Check bar begins (what lies under it cannot be tapped).
CHECK_TOP = """() => { const bar = document.querySelector('.check-action');
  return bar ? bar.getBoundingClientRect().top : window.innerHeight; }"""


class Thumb(Finger):
    """A finger that also keeps clear of the sticky Check bar: whatever it taps (but
    the bar's own button) is on the screen above both the keys and the bar."""

    def tap(self, target: Locator) -> None:
        in_bar = target.evaluate("el => Boolean(el.closest('.check-action'))")
        on_keys = target.evaluate("el => Boolean(el.closest('[data-picker]'))")
        if not (in_bar or on_keys):
            box = target.bounding_box()
            top = min(self.page.evaluate(CHECK_TOP), self.page.evaluate(DOCK_TOP))
            assert box and box["y"] + box["height"] <= top, (
                f"{target} is under the Check bar or the keys (they begin at {top}): {box}")
        super().tap(target)


FOUR_SIZES = [(320, 640, "light"), (360, 740, "dark"), (390, 844, "light"), (430, 932, "dark")]


def dispute(page: Page, base: str, app, size: tuple[int, int, str], up: str, card: str,
            said: list[str], shot: Path) -> Thumb:
    """From a four-player Last One scoreboard: Check a play, the two cards on the keys,
    then each radio ``said`` and Check, all on the first screen (photographed before
    Check into ``shot``). The thumb that did it, with its taps."""
    width, height, scheme = size
    page.set_viewport_size({"width": width, "height": height})
    page.emulate_media(color_scheme=scheme)
    thumb = Thumb(page)
    page.goto(phone_match(app, base, page)["board"])
    thumb.tap(page.get_by_role("link", name="Check a play"))
    thumb.card(up)
    thumb.card(card)
    expect(page.locator("[data-picker]")).to_be_hidden()
    for name in said:
        thumb.tap(page.get_by_role("radio", name=name))
    assert scrolled(page) == 0
    screenshot(page, shot)
    thumb.tap(page.get_by_role("button", name="Check"))
    return thumb


@pytest.mark.parametrize("size", FOUR_SIZES)
def test_four_players_melee_on_dans_turn_with_no_scroll_said_back_as_entered(
        page: Page, live_server: str, app, size: tuple[int, int, str], tmp_path: Path):
    """Ben's 4♥ started a melee, Cat answers 5♥ while the table says it is Dan's turn:
    the answer says back what was entered (no attacker the table did not name)."""
    thumb = dispute(page, live_server, app, size, "4h", "5h", [
        "Who plays: Cat", "A melee is on (the upcard is its last card)? Yes",
        "Whose turn: Dan"], tmp_path / "check-four-melee.png")
    answer = page.locator("[data-check-answer]")
    expect(answer).to_contain_text("✓ Legal")
    expect(answer).to_contain_text("Upcard 4♥; a melee is on; Dan's turn. May Cat play 5♥?")
    expect(answer).not_to_contain_text("attacks")
    assert thumb.taps == 9
    answer_in_view_and_keys_closed(page)


@pytest.mark.parametrize("size", FOUR_SIZES)
def test_four_players_six_of_hearts_after_an_eight_naming_diamonds_with_no_scroll(
        page: Page, live_server: str, app, size: tuple[int, int, str], tmp_path: Path):
    thumb = dispute(page, live_server, app, size, "8c", "6h",
                    ["Suit named (after an 8): ♦"], tmp_path / "check-four-suit.png")
    expect(page.locator("[data-check-answer]")).to_contain_text("✗ Not legal")
    assert thumb.taps == 7
    answer_in_view_and_keys_closed(page)
