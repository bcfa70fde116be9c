"""The play checker in a real browser at phone size: the common case tapped in with the
card picker, and the melee dispute settled from the scoreboard in counted taps, the
answer in view (above the docked picker) after Check."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from playwright.sync_api import Page, expect

from tests.support.browser import SCREENSHOTS, Taps, in_view, phone_match, screenshot

pytestmark = pytest.mark.browser

SUITS = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}


def tap_card(page: Page, text: str) -> None:
    """Tap one card into the field the picker serves: its rank, then its suit."""
    if text == "jk":
        page.locator(".picker [data-joker]").tap()
        return
    page.locator(f'.picker [data-rank="{text[:-1].upper()}"]').tap()
    page.locator(".picker").get_by_role("button", name=SUITS[text[-1]], exact=True).tap()


def wide_enough(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the checker is {width}px wide on a 390px phone"


def test_card_on_a_named_suit(page: Page, live_server: str, backend: str):
    page.goto(f"{live_server}/check")
    page.get_by_role("radio", name="Game: Crazy Eights", exact=True).check()
    # The picker starts on the upcard and moves on to the card played by itself.
    expect(page.locator("[data-picker-name]")).to_have_text("Upcard")
    expect(page.locator(".picker [data-joker]")).to_be_hidden()  # no jokers in Crazy Eights
    tap_card(page, "8s")
    expect(page.get_by_label("Upcard", exact=True)).to_have_value("8S")
    expect(page.locator("[data-picker-name]")).to_have_text("Card played")
    page.get_by_role("radio", name="Suit named (after an 8): ♦").check()
    expect(page.locator("[data-picker]")).to_be_hidden()  # the keys give way to the question
    page.locator("label[for=card]").tap()  # and come back on the card's field
    for key in ('[data-rank="10"]', '[data-suit="H"]'):
        box = page.locator(f".picker {key}").bounding_box()
        assert box and box["width"] >= 44 and box["height"] >= 44
    tap_card(page, "5h")
    expect(page.get_by_label("Card played", exact=True)).to_have_value("5H")
    box = page.get_by_role("radio", name="Suit named (after an 8): ♦").bounding_box()
    assert box and box["width"] >= 44 and box["height"] >= 44
    red = page.locator('.check-picks .pick span.suit.red').first
    assert red.evaluate("el => getComputedStyle(el).backgroundColor") == "rgb(185, 28, 28)"
    page.get_by_role("button", name="Check").tap()
    answer = page.locator("[data-check-answer]")
    expect(answer).to_contain_text("Not legal")
    expect(answer).to_contain_text("play a diamond")
    link = answer.get_by_role("link", name="Rule: Eights: name a suit →")
    expect(link).to_have_attribute("href", "/rules/crazy-eights#c8-eights")
    wide_enough(page)
    if backend == "sqlite":  # the README's screenshot: the answer, then the form
        page.evaluate("window.scrollTo(0, 0)")
        screenshot(page, SCREENSHOTS / "check.png")
    # Checked again with another card: the keys, closed under the answer, open on the
    # card played.
    expect(page.locator("[data-picker]")).to_be_hidden()
    page.locator("label[for=card]").tap()
    expect(page.locator("[data-picker-name]")).to_have_text("Card played")
    page.locator(".picker [data-undo]").tap()
    expect(page.get_by_label("Card played", exact=True)).to_have_value("")
    tap_card(page, "5d")
    page.get_by_role("button", name="Check").tap()
    expect(page.locator("[data-check-answer]")).to_contain_text("Legal")


def test_a_joker_and_typing_still_work(page: Page, live_server: str):
    page.goto(f"{live_server}/check?game=last-one")
    tap_card(page, "4h")
    tap_card(page, "jk")
    expect(page.get_by_label("Card played", exact=True)).to_have_value("JK")
    expect(page.locator("[data-picker-name]")).to_have_text("A joker stands for")
    expect(page.locator(".picker [data-joker]")).to_be_hidden()
    tap_card(page, "4c")
    expect(page.get_by_label("A joker stands for", exact=True)).to_have_value("4C")
    page.get_by_role("radio", name="A melee is on (the upcard is its last card)? No").check()
    page.get_by_role("button", name="Check").tap()
    expect(page.locator("[data-check-answer]")).to_contain_text("The joker stands for 4♣")
    page.get_by_label("Card played", exact=True).fill("5s")
    page.get_by_label("A joker stands for", exact=True).fill("")
    page.get_by_role("button", name="Check").tap()
    expect(page.locator("[data-check-answer]")).to_contain_text("Not legal")


def tap_card_counted(page: Page, taps: Taps, text: str) -> None:
    """Tap one card with the picker, each key counted."""
    taps.tap(page.locator(f'.picker [data-rank="{text[:-1].upper()}"]'))
    taps.tap(page.locator(".picker").get_by_role("button", name=SUITS[text[-1]], exact=True))


ANSWER = "[data-check-answer]"
HEADLINE = "[data-check-answer] .check-big"


def check_and_see(page: Page, taps: Taps, *words: str) -> None:
    """Tap Check (counted): the answer says each of ``words``, its headline in view
    above the docked picker."""
    taps.tap(page.get_by_role("button", name="Check"))
    for text in words:
        expect(page.locator(ANSWER)).to_contain_text(text)
    assert in_view(page, HEADLINE, covered_below=".picker.is-docked")


def dispute_from_the_board(page: Page, live_server: str, app, said: str, *words: str) -> int:
    """Ben played 4♥, Cat answers 5♥: from the scoreboard, the cards and Cat tapped in,
    then the radio ``said`` and Check; the answer says ``words``. The taps it took."""
    taps = Taps()
    page.goto(phone_match(app, live_server, page)["board"])
    taps.tap(page.get_by_role("link", name="Check a play"))
    tap_card_counted(page, taps, "4h")
    tap_card_counted(page, taps, "5h")
    taps.tap(page.get_by_role("radio", name="Who plays: Cat"))
    taps.tap(page.get_by_role("radio", name=said))
    check_and_see(page, taps, *words)
    return taps.count


def test_the_melee_dispute_is_settled_from_the_scoreboard_in_eight_taps(
        page: Page, live_server: str, app, backend: str):
    taps = dispute_from_the_board(
        page, live_server, app, "A melee is on (the upcard is its last card)? Yes",
        "✓ Legal", "5♥ continues the melee; Cat is the aggressor", "a melee is on")
    assert taps == 8
    answer = page.locator(ANSWER)
    assert page.evaluate("document.activeElement.id") == "answer"  # read out first
    expect(answer).to_have_attribute("role", "status")
    wide_enough(page)
    if backend == "sqlite":
        screenshot(page, SCREENSHOTS / "check-melee-settled.png")
    # Checked again with a card that does not go on: the page opens at the new answer.
    page.get_by_label("Card played", exact=True).fill("5c")
    check_and_see(page, Taps(), "Not legal")


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
@pytest.mark.parametrize(("width", "scheme"), [(320, "light"), (360, "dark"), (390, "dark"),
                                               (430, "light")])
def test_left_unsaid_the_answer_says_which_way_each_goes(
        page: Page, live_server: str, app, width: int, scheme: str):
    page.set_viewport_size({"width": width, "height": 844})
    page.emulate_media(color_scheme=scheme)
    taps = dispute_from_the_board(
        page, live_server, app, "Whose turn: Dan", "It depends",
        "✓ Legal if the 4♥ was just played into a melee", "it is Dan's turn, not Cat's")
    assert taps == 8
    answer = page.locator(ANSWER)
    width_now = page.evaluate("document.documentElement.scrollWidth")
    assert width_now <= width, f"the checker is {width_now}px wide on a {width}px phone"
    screenshot(page, SCREENSHOTS / f"check-depends-{width}-{scheme}.png")
    answer.get_by_role("link", name="A melee is on").tap()  # the ninth tap settles it
    expect(answer).to_contain_text("✓ Legal")
    expect(answer).not_to_contain_text("It depends")
    assert in_view(page, HEADLINE, covered_below=".picker.is-docked")


def test_melee_seats_said_in_full(page: Page, live_server: str):
    page.goto(f"{live_server}/check?game=last-one&players=4")
    tap_card(page, "4h")
    page.get_by_role("radio", name="A melee is on (the upcard is its last card)? Yes").check()
    page.get_by_text("Who attacks whom in the melee").tap()
    page.get_by_label("Aggressor (played the upcard)", exact=True).select_option("1")
    page.get_by_label("Defender", exact=True).select_option("2")
    page.get_by_role("radio", name="Who plays: Seat 3").check()
    page.locator("label[for=card]").tap()
    tap_card(page, "5h")
    page.get_by_role("button", name="Check").tap()
    answer = page.locator(ANSWER)
    expect(answer).to_contain_text("✓ Legal")
    expect(answer).to_contain_text("5♥ continues the melee; Seat 3 is the aggressor")
    page.get_by_label("Card played", exact=True).fill("5c")
    page.get_by_role("button", name="Check").tap()
    expect(page.locator(ANSWER)).to_contain_text("Not legal")


def test_more_players_show_more_seats(page: Page, live_server: str):
    page.goto(f"{live_server}/check?game=crazy-eights&players=3")
    page.get_by_text("Advanced: a sequence of plays").tap()
    expect(page.get_by_label("Seat 3 holds")).to_be_visible()
    expect(page.get_by_label("Seat 4 holds")).to_be_hidden()
    page.get_by_label("Players", exact=True).select_option("5")
    expect(page.get_by_label("Seat 5 holds")).to_be_visible()
    page.get_by_label("Seat 5 holds").fill("8s kh")
    page.get_by_label("Start from the deal: who dealt").select_option("4")
    page.locator("label[for=up]").tap()  # moves the picker back, no phone keyboard
    expect(page.locator("[data-picker-name]")).to_have_text("Upcard")
    assert page.evaluate("document.activeElement.id") != "up"
    tap_card(page, "4h")
    expect(page.get_by_label("Seat 5 holds")).to_have_value("8s kh")
    page.get_by_label("Plays since the last undisputed moment, one per line").fill(
        "5 plays 8S names D\n1 plays 5D")
    page.get_by_role("button", name="Check").tap()
    answer = page.locator("[data-check-answer]")
    expect(answer).to_contain_text("✓ Legal")
    expect(answer).to_contain_text("Seat 4 dealt")
    wide_enough(page)


# "May she play the 8?" Upcard 5♣ and a card legal once its player names a suit: a plain
# 8, a Countdown wild (a count of 3 makes 3s wild) and a joker standing for an 8.
NAMES_A_SUIT = [
    pytest.param("/check?game=crazy-eights", "8h", None, id="plain-8"),
    pytest.param("/check?game=countdown&opt-start_count=3", "3h", None, id="countdown-wild"),
    pytest.param("/check?game=last-one", "jk", "8h", id="joker-as-8"),
]


def ask_about_a_wild(page: Page, live_server: str, path: str, card: str,
                     stands_for: str | None) -> None:
    """Tap in the upcard 5♣ and the card (and what a joker stands for), say it is not
    the player's last card (and no melee), and Check."""
    page.goto(live_server + path)
    tap_card(page, "5c")
    tap_card(page, card)
    if stands_for:
        tap_card(page, stands_for)
        page.get_by_role("radio", name="A melee is on (the upcard is its last card)? No").check()
    page.get_by_role("radio", name="Is it the player’s last card? No").check()
    page.get_by_role("button", name="Check").tap()


@pytest.mark.parametrize(("path", "card", "stands_for"), NAMES_A_SUIT)
def test_a_card_that_names_a_suit_is_legal_and_asks_which(
        page: Page, live_server: str, path: str, card: str, stands_for: str | None):
    ask_about_a_wild(page, live_server, path, card, stands_for)
    answer = page.locator(ANSWER)
    expect(answer.locator(".check-big")).to_have_text("✓ Legal")
    expect(answer).to_contain_text("She names the suit")
    expect(answer).not_to_contain_text("Not legal")
    keys = answer.locator(".check-suit-keys a")
    expect(keys).to_have_count(4)
    for i in range(4):
        box = keys.nth(i).bounding_box()
        assert box and box["width"] >= 44 and box["height"] >= 44
    assert in_view(page, HEADLINE, covered_below=".picker.is-docked")
    keys.get_by_text("♦").tap()  # one tap says which suit: the same question, answered
    expect(page.locator(ANSWER).locator(".check-big")).to_have_text("✓ Legal")
    expect(page.locator(ANSWER)).not_to_contain_text("She names the suit")
    expect(page.get_by_role("radio", name="It names (an 8): ♦")).to_be_checked()


def open_the_answer(page: Page, live_server: str, path: str, card: str,
                    stands_for: str | None) -> None:
    """Open the page Check opens for the question :func:`ask_about_a_wild` taps in (the
    form's GET, at #answer): the sweep over phones is about the answer, and one load a
    dispute keeps it quick."""
    asked = {"up": "5c", "card": card, "last": "no"}
    if stands_for:
        asked |= {"cas": stands_for, "melee": "no"}
    page.goto(f"{live_server}{path}&{urlencode(asked)}#answer")


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_suit_question_fits_every_phone(page: Page, live_server: str, scheme: str):
    """Each of the three disputes, one after another on one phone in this theme, the
    phone at each width in turn (every dispute opened afresh at that width): legal, the
    suit question, its four keys inside the screen."""
    page.emulate_media(color_scheme=scheme)
    for width in (320, 360, 390, 430):
        page.set_viewport_size({"width": width, "height": 844})
        for dispute in NAMES_A_SUIT:
            open_the_answer(page, live_server, *dispute.values)
            where = f"{dispute.id} at {width} px"
            answer = page.locator(ANSWER)
            expect(answer.locator(".check-big"), where).to_have_text("✓ Legal")
            expect(answer, where).to_contain_text("She names the suit")
            assert in_view(page, HEADLINE, covered_below=".picker.is-docked"), where
            width_now = page.evaluate("document.documentElement.scrollWidth")
            assert width_now <= width, f"{where}: {width_now}px wide"
            keys = answer.locator(".check-suit-keys a")
            expect(keys).to_have_count(4)
            for i in range(4):
                box = keys.nth(i).bounding_box()
                assert box and box["x"] >= 0 and box["x"] + box["width"] <= width, where
                assert box["y"] >= 0 and box["y"] + box["height"] <= 844, (where, box)
            if (dispute.id, width, scheme) == ("plain-8", 390, "light"):  # the README's
                page.evaluate("window.scrollTo(0, 0)")
                screenshot(page, SCREENSHOTS / "check-suit-question.png")
