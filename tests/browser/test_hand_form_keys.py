"""The docked card keys while a hand is tapped in: the field being filled (its cards,
their chips and its points) stays on the screen above the keys as the keys grow with
the line of points, on phones 320 to 430 px wide, light and dark, three to seven
players; and a hand being edited is saved from the keys ("Save hand N" on the last
player), with no scroll to a button under them."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.support.browser import Taps, in_view, phone_match, screenshot

pytestmark = pytest.mark.browser

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus")
HELD = ("", "KH 7D 3C", "8S QH 2C", "AS 10D 9C", "4H 5S 6D", "JC 9S 7H", "QD 5C 3S")
SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
DOCK = ".picker.is-docked"


def tap_cards(page: Page, cards: str, taps: Taps | None = None) -> None:
    """Tap each card in with the keys: its rank, then its suit."""
    keys = page.locator(".picker")
    for card in cards.split():
        for key in (keys.locator(f'[data-rank="{card[:-1]}"]'),
                    keys.get_by_role("button", name=SUITS[card[-1]], exact=True)):
            if taps:
                taps.tap(key)
            else:
                key.tap()


def field_in_view(page: Page, seat: int) -> bool:
    """The seat's whole field (name, cards, chips, points) is above the docked keys."""
    return in_view(page, f'.held[data-seat="{seat}"]', DOCK)


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
@pytest.mark.parametrize(("width", "height", "scheme", "game", "players"), [
    (320, 640, "light", "last-one", 4), (320, 640, "dark", "crazy-eights", 3),
    (360, 640, "dark", "crazy-eights", 7), (390, 844, "light", "last-one", 4),
    (390, 844, "dark", "crazy-eights", 3), (430, 932, "dark", "last-one", 4)])
def test_the_last_players_field_stays_above_the_keys_while_they_are_tapped(
        page: Page, live_server: str, app, width: int, height: int, scheme: str,
        game: str, players: int, tmp_path: Path):
    page.set_viewport_size({"width": width, "height": height})
    page.emulate_media(color_scheme=scheme)
    names = NAMES[:players]
    page.goto(phone_match(app, live_server, page, game, names)["board"] + "/hands/new")
    page.locator(".went-out label.choice", has_text=names[1]).tap()
    for seat in range(players - 1):
        if seat != 1:
            page.locator(f"#seat-{seat}").fill(HELD[seat + 1 if seat == 0 else seat])
    last = players - 1
    page.locator(f".held label[for=seat-{last}]").tap()
    expect(page.locator("[data-picker-sum]")).to_be_visible()  # the keys have grown
    for card in HELD[last].split():
        tap_cards(page, card)
        expect(page.locator(f'.held[data-seat="{last}"] .pc')).not_to_have_count(0)
        assert field_in_view(page, last), f"{names[last]}'s field is under the keys"
    expect(page.locator(f'.held[data-seat="{last}"] .pc')).to_have_count(3)
    screenshot(page, tmp_path / f"hand-last-field-{width}-{players}-{scheme}.png")


@pytest.mark.parametrize(("width", "height", "scheme"), [
    (320, 640, "light"), (390, 844, "dark")])
def test_an_edited_hand_is_saved_from_the_keys(
        page: Page, live_server: str, app, width: int, height: int, scheme: str):
    page.set_viewport_size({"width": width, "height": height})
    page.emulate_media(color_scheme=scheme)
    match = phone_match(app, live_server, page, "last-one", NAMES[:4])
    added = app.test_client().post(f"/api/v1/matches/{match['match']}/hands",
                                   headers=match["auth"],
                                   json={"number": 1, "out": 1,
                                         "held": {"0": "kh 7d", "2": "8s 2h", "3": "4c"}})
    assert added.status_code == 201
    page.goto(match["board"] + "/hands/1")
    taps = Taps()
    taps.tap(page.locator(".held label[for=seat-3]"))
    key = page.locator(".picker [data-next-seat]")
    tap_cards(page, "5S", taps)  # Dan held 4♣ and 5♠
    expect(key).to_have_text("Save hand 1")
    assert field_in_view(page, 3)
    expect(page.locator("[data-picker-sum]")).to_have_text(
        "Ann\u00a017 · Ben\u00a0went\u00a0out · Cat\u00a027 · Dan\u00a09")
    taps.tap(key)
    expect(page.locator(".flash").first).to_contain_text("Hand 1 updated")
    assert taps.count == 4  # Dan's field, 5, ♠, Save hand 1: no scroll
    expect(page.locator(".standings .total")).to_have_text(["17", "0", "27", "9"])
