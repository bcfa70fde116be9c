"""The hand form shows what is sent: once the keys' last key has become "Record hand",
one line above the keys gives every seat's points (as the server scored those cards)
and who went out — on phones 320 to 430 px wide, for four to seven players, in
the light and the dark theme. The last seat's points are on the screen, not under
the keys."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.core.cards import parse_cards
from scorekeeper.core.scoring import score_hand
from scorekeeper.core.sheets import Sheet
from tests.support.browser import SCREENSHOTS, phone_match, screenshot

pytestmark = pytest.mark.browser

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus")
# Three cards for each seat but the first, who went out: no card twice in the deck.
HELD = ("", "KH 7D 3C", "8S QH 2C", "AS 10D 9C", "4H 5S 6D", "JC 9S 7H", "QD 5C 3S")
SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
@pytest.mark.parametrize(("width", "scheme", "game", "players"), [
    (320, "light", "crazy-eights", 7), (320, "dark", "last-one", 4),
    (360, "dark", "last-one", 6), (390, "light", "last-one", 4),
    (390, "dark", "crazy-eights", 7), (430, "light", "crazy-eights", 5)])
def test_record_hand_on_the_keys_shows_every_seats_points(
        page: Page, live_server: str, app, width: int, scheme: str, game: str, players: int):
    page.set_viewport_size({"width": width, "height": 844 if width > 320 else 568})
    page.emulate_media(color_scheme=scheme)
    names = NAMES[:players]
    board = phone_match(app, live_server, page, game, names)["board"]
    page.goto(board + "/hands/new")
    summary = page.locator("[data-picker-sum]")
    expect(summary).to_be_hidden()  # "Next player" is the key
    page.locator(".went-out label.choice", has_text=names[0]).tap()
    for seat in range(1, players - 1):
        page.locator(f"#seat-{seat}").fill(HELD[seat])
    last = players - 1
    page.locator(f".held label[for=seat-{last}]").tap()
    expect(page.locator("[data-picker-name]")).to_have_text(names[last])
    summary = page.locator("[data-picker-sum]")
    # On the last seat the key is "Record hand" at once; the line follows each card.
    expect(page.locator(".picker [data-next-seat]")).to_have_text("Record hand")
    expect(summary).to_contain_text(f"{names[last]}\u00a0–")
    for card in HELD[last].split():
        page.locator(f'.picker [data-rank="{card[:-1]}"]').tap()
        page.locator(".picker").get_by_role("button", name=SUITS[card[-1]], exact=True).tap()

    # The server's figures: a seat's points where a rule decided them, else what its
    # cards count; the one who went out, what they scored if anything (Crazy Eights:
    # the others' cards).
    scored = score_hand(Sheet.make(game), [parse_cards(HELD[s]) for s in range(players)], 0)
    points = [scored.points[s] if scored.notes[s] else sum(p for _, p in scored.breakdown[s])
              for s in range(players)]
    # A seat and its points never part at the end of a line (no-break spaces).
    out = f"\u00a0{scored.points[0]}" if scored.points[0] else ""
    said = "\u00a0· ".join([f"{names[0]}\u00a0went\u00a0out{out}"] + [
        f"{names[s]}\u00a0{points[s]}" for s in range(1, players)])
    expect(summary).to_have_text(said)
    # The whole line is on the screen, the last seat's points with it.
    box = summary.bounding_box()
    height = page.viewport_size["height"]
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= height, box
    assert summary.evaluate("el => el.scrollWidth <= el.clientWidth")
    screenshot(page, SCREENSHOTS / f"hand-entry-sum-{width}-{players}-{scheme}.png")
    page.locator(".picker [data-next-seat]").tap()
    expect(page.locator(".flash").first).to_contain_text("Hand 1 saved")
