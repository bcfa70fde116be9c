"""The history pages in headless Chromium at phone size: the list, a match record with
its score chart (screenshot saved to static/screenshots/match-record.png), a player."""

from __future__ import annotations

import random

import pytest

from scorekeeper.store.extensions import db
from scorekeeper.store.models import Group, Match, Ruling
from scorekeeper.store.transfer import import_document
from tests.support.browser import SCREENSHOTS, screenshot
from tests.support.documents import random_document


@pytest.fixture
def history(app):
    """A group with a dozen matches; the longest Last One match has a saved ruling."""
    with app.app_context():
        group = Group(name="Kitchen table")
        db.session.add(group)
        db.session.commit()
        import_document(group, random_document(random.Random(21), 12))
        match = db.session.scalar(db.select(Match).where(Match.game == "last-one")
                                  .order_by(Match.hand_count.desc()).limit(1))
        db.session.add(Ruling(match_id=match.id, hand_number=1, legal=False,
                              question="Play 5♥ out of turn on the 4♥?",
                              reason="Only the next card up of a melee may be played out of "
                                     "turn; the 4♥ started no melee here.", rule="lo-melee"))
        db.session.commit()
        return group.id, group.invite_token, match.id


@pytest.mark.browser
def test_history_record_and_player_on_a_phone(live_server, page, history, backend):
    gid, token, mid = history
    page.goto(f"{live_server}/join/{token}")
    page.goto(f"{live_server}/groups/{gid}/history")
    items = page.locator(".history-item")
    assert items.count() == 12
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    page.goto(f"{live_server}/groups/{gid}/matches/{mid}/record")
    chart = page.locator("figure.chart > svg")
    chart.wait_for()
    box = chart.bounding_box()
    assert box is not None and 300 <= box["width"] <= 390
    seats = page.locator(".record-totals tbody tr").count()
    assert page.locator("figure.chart polyline").count() == seats
    assert page.locator("figure.chart line.goal").count() == 1
    assert page.locator(".record-hand").first.locator(".pc").count() >= 1
    red = page.locator(".record-hand .pc.red")
    assert red.count() >= 1, "the longest match holds no heart or diamond"
    assert red.first.evaluate("e => getComputedStyle(e).color") == "rgb(185, 28, 28)"
    assert "Not allowed" in page.locator(".rulings").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    if backend == "sqlite":
        screenshot(page, SCREENSHOTS / "match-record.png", full_page=False)

    page.locator(".record-totals a").first.click()
    page.wait_for_url("**/stats")
    assert page.locator("h2", has_text="Head to head").is_visible()
    assert page.locator(".by-game").is_visible()

    page.goto(f"{live_server}/groups/{gid}/history")
    page.select_option("select[name=game]", "countdown")
    page.click("form.history-filter button")
    # The URL changes when the answer starts to arrive; the list is read
    # only once the filtered page has loaded (CI read an empty list once).
    page.wait_for_url("**/history?game=countdown*")
    games = page.locator(".history-item strong").all_inner_texts()
    assert games and all(g == "Crazy Eights Countdown" for g in games)
