"""A finished board offers the rematch in its first screen (Last One and Crazy Eights,
phones 320 to 430 px, light and dark), and a rematch can be taken back: it asks first,
and "Cancel" starts nothing."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Dialog, expect

from scorekeeper.core.cards import parse_cards
from scorekeeper.core.sheets import Sheet
from scorekeeper.store.extensions import db
from scorekeeper.store.models import Group, Match, Player
from scorekeeper.store.records import create_match, record_hand
from tests.support.browser import SCREENSHOTS, phone, screenshot
from tests.support.views import match_view

pytestmark = pytest.mark.browser

LAST_ONE = [  # Ann wins after three hands (Cat, then Ben and Dan fall)
    (0, ["", "jk jk 8s 8h 8d 8c kh qh jh 10h",
         "kd qd jd 10d 9c 9d 9s 9h ac ad ah as 7c 7d 7h 7s", "ks qs js 10s 10c jc qc kc"]),
    (1, ["2c 3c", "", "kd qd jd 10d 9c 9d 9s 9h ac", "4h"]),
    (0, ["", "8c 8d", "", "8h 8s 9h 9d 9c kh qh jh 10h 10d 10c jk jk"]),
]
CRAZY_EIGHTS = [(1, ["8c ac 8d", "", "8h kd", "9s"])]  # Ben reaches the target of 50


def finished(app, game: str) -> dict[str, object]:
    """A group of four with one finished match of ``game``."""
    with app.app_context():
        group = Group(name="Kitchen table")
        group.players = [Player(name=n, colour=c) for n, c in zip(
            ("Ann", "Ben", "Cat", "Dan"), ("#1f77b4", "#d62728", "#2ca02c", "#9467bd"),
            strict=True)]
        db.session.add(group)
        db.session.commit()
        sheet = Sheet.make(game, {"target": 50} if game == "crazy-eights" else {})
        mid = create_match(group, sheet, group.players, 0).id
        match = match_view(mid)
        for number, (out, held) in enumerate(
                LAST_ONE if game == "last-one" else CRAZY_EIGHTS, start=1):
            match = record_hand(match, number, out, [parse_cards(h) for h in held]).match
        return {"gid": group.id, "invite": group.invite_token, "mid": mid}


def matches(app) -> int:
    with app.app_context():
        return db.session.query(Match).count()


PHONES = [(320, 568, False), (360, 640, True), (390, 844, False), (390, 844, True),
          (430, 932, False)]


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
@pytest.mark.parametrize("game", ["last-one", "crazy-eights"])
def test_rematch_is_in_the_first_screen_and_asks_first(
        browser: Browser, app, live_server: str, game: str):
    """On each phone in turn, a group's match of ``game`` just finished (a new group
    each time, on one server)."""
    for width, height, dark in PHONES:
        size = f"{width}×{height}{' dark' if dark else ''}"
        ids = finished(app, game)
        before = matches(app)
        with phone(browser, live_server, ids["invite"], width, height, dark) as page:
            page.goto(f"{live_server}/groups/{ids['gid']}/matches/{ids['mid']}")
            expect(page.locator(".winner-banner"), size).to_be_visible()
            rematch = page.get_by_role("button", name="Rematch")
            box = rematch.bounding_box()
            assert page.evaluate("window.scrollY") == 0, size
            assert box and box["y"] >= 0 and box["y"] + box["height"] <= height, (size, box)
            if (width, dark) == (390, True):
                screenshot(page, SCREENSHOTS / f"rematch-first-screen-{game}-dark.png")
            asked: list[str] = []

            def cancel(dialog: Dialog, asked: list[str] = asked) -> None:
                asked.append(dialog.message)
                dialog.dismiss()
            page.once("dialog", cancel)
            rematch.tap()
            expect(page.locator(".winner-banner"), size).to_be_visible()
            assert asked == ["Start a rematch? Same players and rules; Ben deals first."], size
            assert matches(app) == before, size  # taken back: nothing started
            page.once("dialog", lambda dialog: dialog.accept())
            rematch.tap()
            expect(page.locator(".flash").first, size).to_contain_text(
                "Rematch! Ben deals first.")
            assert matches(app) == before + 1, size
