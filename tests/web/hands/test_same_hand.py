"""The hand form's same-hand question (DESIGN.md, "A hand goes in once"): a posted hand
that looks like one recorded is answered with a page showing both hands, nothing
stored; "discard mine" is the first and biggest thing on it, and a second form with
the confirmation records it. Works without JavaScript."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import func

from scorekeeper.store.extensions import db
from scorekeeper.store.models import Hand
from tests.support.parsed import Page, in_order, rows, sent
from tests.support.web import add_players, record, start_group, start_match

HELD = ("", "5c 9h", "kd")  # Ann went out; Bo holds 5♣ 9♥, Cy K♦


@pytest.fixture
def lo(client):
    """A Last One match, threshold 250: Ann, Bo, Cy."""
    gid = start_group(client)
    pids = add_players(client, gid, "Ann", "Bo", "Cy")
    return gid, start_match(client, gid, pids, threshold="250")


def count(app) -> int:
    with app.app_context():
        return db.session.scalar(db.select(func.count()).select_from(Hand))


ANYWAY = re.compile(r"^It's another hand — record it as hand \d+$")


def anyway_form(page: Page) -> dict[str, str]:
    """What the question's "record it anyway" form sends: the form of its button."""
    return sent(page.get("button", ANYWAY).find_parent("form"))


def news(client, response) -> list[str]:
    """The status lines of the page a redirect leads to (the flash that says what
    happened among them)."""
    assert response.status_code == 302, response.text
    return Page(client.get(response.location)).names("status")


@pytest.mark.parametrize(("second", "status", "stored"), [
    (("", "9h 5c", "KD"), 409, 1),   # the same cards, typed otherwise: asked
    (("", "5c 9h", "kh"), 302, 2),   # one card different: recorded
])
def test_a_next_hand_like_the_last_is_asked_about(app, client, lo, second, status, stored):
    gid, mid = lo
    assert record(client, gid, mid, 1, 0, *HELD).status_code == 302
    answer = record(client, gid, mid, 2, 0, *second)
    assert answer.status_code == status
    assert count(app) == stored


def test_the_question_shows_both_hands_and_discard_comes_first(app, client, lo):
    gid, mid = lo
    record(client, gid, mid, 1, 0, *HELD)
    page = Page(record(client, gid, mid, 2, 0, *HELD))
    assert page.heading() == "Hand 1 again?"
    [alert] = page.names("alert")
    assert alert.startswith("Nothing was saved. These are the cards of hand 1, already recorded")
    discard = page.get("link", "It's the same hand — discard mine")
    table = page.get("table")
    anyway = page.get("button", "It's another hand — record it as hand 2")
    assert in_order(discard, table, anyway)
    assert discard["href"] == f"/groups/{gid}/matches/{mid}"  # back to the board, unchanged
    assert "primary-action" in discard["class"]  # the biggest button
    assert rows(table) == [["Player", "Hand 1, recorded", "Yours, as hand 2"],
                           ["Ann", "went out", "went out"],
                           ["Bo", "5♣ 9♥", "5♣ 9♥"],
                           ["Cy", "K♦", "K♦"]]


def test_recording_it_anyway_is_a_second_deliberate_post(app, client, lo):
    gid, mid = lo
    record(client, gid, mid, 1, 0, *HELD, idempotency_key="first")
    page = Page(record(client, gid, mid, 2, 0, *HELD, idempotency_key="second"))
    fields = anyway_form(page)
    assert fields["number"] == "2" and fields["same_as_confirmed"] == "yes"
    assert fields["seat-1"] == "9h 5c" or fields["seat-1"] == "5c 9h"
    assert fields["idempotency_key"] == "second"
    url = f"/groups/{gid}/matches/{mid}/hands/new"
    saved = client.post(url, data=fields)
    assert count(app) == 2
    assert "Hand 2 saved. Cy deals hand 3." in news(client, saved)
    again = client.post(url, data=fields)  # a double tap on it: the same answer
    assert again.status_code == 302 and count(app) == 2


def test_the_clash_asks_about_the_hand_that_took_the_number(app, client, lo):
    """Another phone recorded hand 1 with these cards; this phone sends its hand 1."""
    gid, mid = lo
    record(client, gid, mid, 1, 0, *HELD)
    page = record(client, gid, mid, 1, 0, *HELD)
    assert page.status_code == 409
    question = Page(page)
    assert question.heading() == "Hand 1 again?"
    [alert] = question.names("alert")
    assert "hand 1, already recorded (from another phone)" in alert
    assert anyway_form(question)["number"] == "2"
    assert count(app) == 1


def test_a_clash_with_other_cards_goes_to_the_board_as_before(app, client, lo):
    gid, mid = lo
    record(client, gid, mid, 1, 0, *HELD)
    stale = record(client, gid, mid, 1, 1, "9d", "", "7d")
    assert ("Not saved: hand 1 was already recorded, probably from another phone. Here is the "
            "current score. What you entered: Ann: 9♦; Cy: 7♦.") in news(client, stale)


def test_countdown_the_same_player_out_again_is_recorded(app, client):
    gid = start_group(client)
    pids = add_players(client, gid, "Ann", "Bo", "Cy")
    mid = start_match(client, gid, pids, game="countdown")
    assert record(client, gid, mid, 1, 1).status_code == 302
    assert record(client, gid, mid, 2, 1).status_code == 302
    assert count(app) == 2


def test_an_edit_to_the_same_cards_is_not_questioned(app, client, lo):
    gid, mid = lo
    record(client, gid, mid, 1, 0, *HELD)
    record(client, gid, mid, 2, 0, "", "5c 9h", "kh")
    version = Page(client.get(f"/groups/{gid}/matches/{mid}/hands/2")).value("version")
    saved = client.post(f"/groups/{gid}/matches/{mid}/hands/2", data={
        "number": "2", "version": version, "out": "0", "seat-1": "5c 9h", "seat-2": "kd"})
    assert "Hand 2 updated; totals recomputed." in news(client, saved)


def test_a_hand_recorded_during_the_post_is_the_one_shown(app, client, lo, monkeypatch):
    """This phone's post has read the match when another phone records hand 2 with the
    very cards posted as hand 2: the question shows that hand, and offers hand 3."""
    import scorekeeper.web.hands.views as hand_views

    gid, mid = lo
    record(client, gid, mid, 1, 0, *HELD)
    record_hand = hand_views.record_hand
    twin = ("5c 9h", "", "kd")  # Bo went out

    def other_phone_first(*args, **kwargs):
        monkeypatch.setattr(hand_views, "record_hand", record_hand)  # the other's is plain
        assert record(client, gid, mid, 2, 1, *twin).status_code == 302
        return record_hand(*args, **kwargs)

    monkeypatch.setattr(hand_views, "record_hand", other_phone_first)
    page = record(client, gid, mid, 2, 1, *twin)
    assert page.status_code == 409, page.text
    question = Page(page)
    assert question.heading() == "Hand 2 again?"
    question.get("button", "It's another hand — record it as hand 3")
    assert count(app) == 2
