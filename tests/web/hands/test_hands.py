"""Recording hands, every bad input, stale and clashing forms, editing and deleting."""

from __future__ import annotations

import json
import re

import pytest
from sqlalchemy import update

from scorekeeper.core.cards import parse_cards
from scorekeeper.store.extensions import db
from scorekeeper.store.models import Hand, HandEntry, Match
from scorekeeper.store.records import delete_last_hand, edit_hand, record_hand
from scorekeeper.web.hands import views as hands
from tests.support.parsed import Page
from tests.support.views import match_view
from tests.support.web import add_players, field_errors, record, start_group, start_match


@pytest.fixture
def lo(client):
    """A Last One match, threshold 50: Ann, Bo, Cy; Ann deals first."""
    gid = start_group(client)
    pids = add_players(client, gid, "Ann", "Bo", "Cy")
    return gid, start_match(client, gid, pids, threshold="50")


def hands_of(app, mid: int) -> list[tuple[int, str]]:
    with app.app_context():
        rows = db.session.execute(
            db.select(Hand.number, HandEntry.seat, HandEntry.cards, HandEntry.points)
            .join(HandEntry).where(Hand.match_id == mid).order_by(Hand.number, HandEntry.seat))
        return [tuple(r) for r in rows]


AGREE_NINE = "Everybody agreed to nine cards each (needed only for 9)"
RECORD_NEXT = re.compile(r"^Record hand \d+$")


def after(client, response) -> Page:
    """The page a redirect leads to (the board, its status line saying what happened)."""
    assert response.status_code == 302, response.text
    return Page(client.get(response.location))


def test_hand_form_offers_picker_and_typing(client, lo):
    gid, mid = lo
    page = Page(client.get(f"/groups/{gid}/matches/{mid}/hands/new"))
    assert page.value("number") == "1"
    assert page.names("textbox") == ["Ann", "Bo", "Cy"]  # cards held, by player
    assert page.get("textbox", "Ann") is page.field("seat-0")
    # The card keys (the script shows them) offer Last One's joker.
    assert len(page.by_role("toolbar", "Card keys: rank, then suit", include_hidden=True)) == 1
    [joker] = page.by_role("button", "Joker", include_hidden=True)
    assert not joker.has_attr("hidden")
    assert page.get("radio", "Nobody: blocked")["value"] == "none"
    # The preview asks the open scorer with the match's sheet (the server scores).
    form = page.get("button", "Record hand 1").find_parent("form")
    assert json.loads(form["data-sheet"])["game"] == "last-one"
    assert form["data-score"] == "/api/v1/score"


def test_record_a_hand_then_redirect_with_the_news(app, client, lo):
    gid, mid = lo
    saved = record(client, gid, mid, 1, 1, "8s 10h jk", "", "9c")
    assert saved.location.endswith(f"/matches/{mid}")
    assert "Hand 1 saved. Ann is out. Bo deals hand 2." in after(client, saved).names("status")
    assert hands_of(app, mid) == [(1, 0, "8S 10H JK", 75), (1, 1, "", 0), (1, 2, "9C", 0)]


def test_typed_cards_in_any_spelling(app, client, lo):
    gid, mid = lo
    record(client, gid, mid, 1, 2, "Th, ♥9 joker", "q♠ 2D", "")
    assert [r[2] for r in hands_of(app, mid)] == ["10H 9H JK", "QS 2D", ""]


@pytest.mark.parametrize("out, held, field, words", [
    (0, ("", "8s zz", ""), "seat-1", "'zz' is not a card"),
    (0, ("5c", "6c", ""), "seat-0", "went out, so holds no cards"),
    (0, ("", "8s 9h", "8s"), "seat-2", "8♠ is entered 2 times (Bo and Cy)"),
    (1, ("8s 9h", "", "8s"), "seat-2", "8♠ is entered 2 times (Ann and Cy)"),
    (2, ("jk jk", "jk 4c", ""), "seat-1", "Joker is entered 3 times"),
    ("", ("", "8s", "9s"), "out", "Choose who went out"),
    (7, ("", "8s", "9s"), "out", "Choose who went out"),
])
def test_bad_hand_input_goes_back_to_its_field(app, client, lo, out, held, field, words):
    gid, mid = lo
    page = record(client, gid, mid, 1, out, *held)
    assert page.status_code == 400
    assert words in field_errors(page.text)[field]
    shown = Page(page)
    assert "Nothing was saved. Fix what is marked below." in shown.names("alert")
    assert shown.value("seat-1") == held[1]  # what was typed is kept
    assert hands_of(app, mid) == []


def test_joker_in_crazy_eights_is_refused(app, client):
    gid = start_group(client)
    mid = start_match(client, gid, add_players(client, gid, "Ann", "Bo"), game="crazy-eights")
    page = record(client, gid, mid, 1, 0, "", "5c jk")
    assert "played without jokers" in field_errors(page.text)["seat-1"]
    assert Page(page).by_role("button", "Joker", include_hidden=True) == []
    assert hands_of(app, mid) == []


def test_unknown_player_seat_in_a_hand_is_refused(app, client, lo):
    gid, mid = lo
    page = record(client, gid, mid, 1, 0, "", "5c", "6c", "7c")  # seat-3 does not exist
    assert page.status_code == 400
    assert "no player 'seat-3'" in field_errors(page.text)["cards"]
    assert hands_of(app, mid) == []


def test_stale_hand_number_is_told_and_shown_the_current_state(app, client, lo):
    gid, mid = lo
    record(client, gid, mid, 1, 0, "", "5c", "6c")
    stale = record(client, gid, mid, 1, 1, "9d", "", "7d")
    page = after(client, stale)
    assert ("Not saved: hand 1 was already recorded, probably from another phone. Here is the "
            "current score. What you entered: Ann: 9♦; Cy: 7♦.") in page.names("status")
    page.get("link", "Record hand 2")
    assert [r[2] for r in hands_of(app, mid)] == ["", "5C", "6C"]


def test_a_number_from_the_future_is_refused(app, client, lo):
    gid, mid = lo
    page = record(client, gid, mid, 3, 0, "", "5c", "6c")
    told = [line for line in after(client, page).names("status") if line.startswith("Not saved")]
    assert told == [
        "Not saved: hand 3 is not the next hand: this match has 0 hands, so the next is hand 1 "
        "(another phone may have deleted one). Here is the current score. What you entered: "
        "Bo: 5♣; Cy: 6♣."]
    assert hands_of(app, mid) == []


def test_double_tapped_submit_stores_one_hand(app, client, lo):
    gid, mid = lo
    first = record(client, gid, mid, 1, 0, "", "5c", "6c", idempotency_key="tap")
    second = record(client, gid, mid, 1, 0, "", "5c", "6c", idempotency_key="tap")
    assert first.status_code == 302
    assert "Hand 1 saved. Bo deals hand 2." in after(client, second).names("status")
    assert len({r[0] for r in hands_of(app, mid)}) == 1


def test_playing_to_the_end_then_no_more_hands(app, client, lo):
    gid, mid = lo
    record(client, gid, mid, 1, 0, "", "8s 8h", "3c")   # Bo 50: out
    done = record(client, gid, mid, 2, 2, "8d 8c", "", "")  # Cy deals; Ann 50: out
    page = after(client, done)
    assert ("Hand 2 saved. Ann is out. Cy won! Cy is the last player left."
            in page.names("status"))
    page.get("button", "Rematch")
    assert page.by_role("link", RECORD_NEXT) == []
    blocked = client.get(f"/groups/{gid}/matches/{mid}/hands/new", follow_redirects=True)
    assert "The match is over: start a rematch to play on." in Page(blocked).names("status")
    with app.app_context():
        match = db.session.get(Match, mid)
        assert match.status == "finished" and match.winners == (2,)


def test_eliminated_players_get_no_field(client, lo):
    gid, mid = lo
    record(client, gid, mid, 1, 0, "", "8s 8h", "3c")  # Bo is out
    page = Page(client.get(f"/groups/{gid}/matches/{mid}/hands/new"))
    assert page.names("textbox") == ["Ann", "Cy"]  # no field for Bo
    assert page.get("textbox", "Cy") is page.field("seat-2")
    refused = record(client, gid, mid, 2, 2, "5h 6h", "4c", "")
    assert "Seat 2 is out of the match" in field_errors(refused.text)["cards"]


def test_edit_a_past_hand_changes_the_standings(app, client, lo):
    gid, mid = lo
    record(client, gid, mid, 1, 0, "", "5c 6c", "9h 10h")
    record(client, gid, mid, 2, 1, "2d 3d", "", "4s 5s")
    form = Page(client.get(f"/groups/{gid}/matches/{mid}/hands/1"))
    assert form.value("seat-1") == "5C 6C"
    form.get("button", "Save hand 1")
    saved = client.post(f"/groups/{gid}/matches/{mid}/hands/1",
                        data={"number": "1", "version": form.value("version"), "out": "0",
                              "seat-1": "kc qc", "seat-2": "9h 10h"})
    assert "Hand 1 updated; totals recomputed." in after(client, saved).names("status")
    assert (1, 1, "KC QC", 20) in hands_of(app, mid)


def test_edit_errors_stay_on_the_form(app, client, lo):
    gid, mid = lo
    record(client, gid, mid, 1, 0, "", "5c 6c", "9h")
    page = client.post(f"/groups/{gid}/matches/{mid}/hands/1",
                       data={"number": "1", "out": "0", "seat-1": "5c 5c", "seat-2": ""})
    assert page.status_code == 400
    assert Page(page).errors()["seat-1"] == (
        "Hand 1: 5♣ is entered 2 times (Bo); the deck holds it once.")
    assert (1, 1, "5C 6C", 11) in hands_of(app, mid)
    assert client.get(f"/groups/{gid}/matches/{mid}/hands/9").status_code == 404


def test_edit_that_changes_the_outcome_reopens_the_match(app, client, lo):
    gid, mid = lo
    record(client, gid, mid, 1, 0, "", "8s 8h", "3c")
    record(client, gid, mid, 2, 2, "8d 8c", "", "")
    saved = client.post(f"/groups/{gid}/matches/{mid}/hands/2",
                        data={"number": "2", "out": "2", "seat-0": "2c 3d", "seat-2": ""})
    assert ("Hand 2 updated; totals recomputed. The match is open again."
            in after(client, saved).names("status"))
    with app.app_context():
        assert db.session.get(Match, mid).status == "active"


def test_edit_that_would_end_the_match_before_later_hands_is_refused(app, client, lo):
    gid, mid = lo
    record(client, gid, mid, 1, 0, "", "5c", "6c 7c")
    record(client, gid, mid, 2, 1, "2d 3d", "", "4s 5s")
    page = client.post(f"/groups/{gid}/matches/{mid}/hands/1",
                       data={"number": "1", "out": "0", "seat-1": "8s 8h", "seat-2": "8c 8d"})
    assert page.status_code == 400
    assert Page(page).errors()["number"] == (
        "The match was decided in hand 1, but hand 2 is recorded after it.")
    assert (1, 1, "5C", 0) in hands_of(app, mid)


def test_delete_the_last_hand(app, client, lo):
    gid, mid = lo
    record(client, gid, mid, 1, 0, "", "8s 8h", "3c")
    record(client, gid, mid, 2, 2, "8d 8c", "", "")
    done = client.post(f"/groups/{gid}/matches/{mid}/hands/last/delete", data={"confirm": "yes"})
    page = after(client, done)
    assert "Hand 2 deleted; totals recomputed." in page.names("status")
    page.get("link", "Record hand 2")
    assert {r[0] for r in hands_of(app, mid)} == {1}
    client.post(f"/groups/{gid}/matches/{mid}/hands/last/delete", data={"confirm": "yes"})
    nothing = client.post(f"/groups/{gid}/matches/{mid}/hands/last/delete", data={"confirm": "yes"},
                          follow_redirects=True)
    assert "There is no hand to delete." in Page(nothing).names("status")


def test_per_hand_deal_size_in_last_one(app, client, lo):
    gid, mid = lo
    page = record(client, gid, mid, 1, 0, "", "5c", "6c", hand_size="12")
    assert "hand_size" in field_errors(page.text)
    record(client, gid, mid, 1, 0, "", "5c", "6c", hand_size="5")
    with app.app_context():
        assert db.session.scalar(db.select(Hand.hand_size)) == 5


def test_blocked_hand(app, client, lo):
    gid, mid = lo
    saved = record(client, gid, mid, 1, "none", "2c 3c", "4c 5c", "6c 7c")
    assert saved.status_code == 302
    assert [r[3] for r in hands_of(app, mid)] == [5, 9, 13]


def test_nine_cards_this_hand_needs_everyones_word(app, client, lo):
    gid, mid = lo
    form = Page(client.get(f"/groups/{gid}/matches/{mid}/hands/new"))
    assert form.get("checkbox", AGREE_NINE)["name"] == "agree_nine"
    page = record(client, gid, mid, 1, 0, "", "5c", "6c", hand_size="9")
    assert page.status_code == 400
    assert field_errors(page.text)["hand_size"] == (
        "Nine cards each only when everybody agrees: tick the box.")
    assert hands_of(app, mid) == []
    saved = record(client, gid, mid, 1, 0, "", "5c", "6c", hand_size="9", agree_nine="yes")
    assert saved.status_code == 302
    with app.app_context():
        assert db.session.scalar(db.select(Hand.hand_size)) == 9
    edit = Page(client.get(f"/groups/{gid}/matches/{mid}/hands/1"))
    assert edit.get("checkbox", AGREE_NINE).has_attr("checked")  # agreed when recorded


def test_six_players_cannot_be_dealt_nine_each(app, client):
    gid = start_group(client)
    pids = add_players(client, gid, "Ann", "Bo", "Cy", "Di", "Ed", "Flo")
    mid = start_match(client, gid, pids)
    page = record(client, gid, mid, 1, 0, "", "5c", "6c", "7c", "8c", "9c", hand_size="9",
                  agree_nine="yes")
    assert page.status_code == 400
    assert "no card is left to turn up" in field_errors(page.text)["hand_size"]
    assert hands_of(app, mid) == []


# --- another phone changed the match between the form being shown and posted ---------


def record_elsewhere(app, mid: int, number: int, out: int, *held: str) -> None:
    """Another phone records a hand (straight through the records layer)."""
    with app.app_context():
        match = match_view(mid)
        match = record_hand(match, number, out, [parse_cards(h) for h in held]).match


def bump_version_elsewhere(app, mid: int):
    """What a second phone's commit does to the match row, from its own connection."""
    with db.engine.connect() as other:
        other.execute(update(Match).where(Match.id == mid).values(version=Match.version + 1))
        other.commit()


def test_edit_after_another_phone_recorded_a_hand_saves_nothing(app, client, lo):
    gid, mid = lo
    record(client, gid, mid, 1, 0, "", "5c 6c", "9h")
    version = Page(client.get(f"/groups/{gid}/matches/{mid}/hands/1")).value("version")
    record_elsewhere(app, mid, 2, 1, "2d 3d", "", "4s 5s")
    posted = client.post(f"/groups/{gid}/matches/{mid}/hands/1",
                         data={"number": "1", "version": version, "out": "0",
                               "seat-1": "kc qc", "seat-2": "9h"})
    assert posted.location.endswith(f"/matches/{mid}")
    page = after(client, posted)
    assert ("Not saved: another phone changed this match while you were editing hand 1. "
            "Here is the current score; open hand 1 again to make your change. "
            "What you entered: Bo: K♣ Q♣; Cy: 9♥.") in page.names("status")
    page.get("link", "Record hand 3")  # the current state, with the other phone's hand 2
    assert (1, 1, "5C 6C", 11) in hands_of(app, mid) and (2, 0, "2D 3D", 5) in hands_of(app, mid)


def test_edit_of_a_hand_deleted_on_another_phone_saves_nothing(app, client, lo):
    gid, mid = lo
    record(client, gid, mid, 1, 0, "", "5c 6c", "9h")
    record(client, gid, mid, 2, 1, "2d 3d", "", "4s 5s")
    version = Page(client.get(f"/groups/{gid}/matches/{mid}/hands/2")).value("version")
    with app.app_context():
        delete_last_hand(match_view(mid))
    posted = client.post(f"/groups/{gid}/matches/{mid}/hands/2",
                         data={"number": "2", "version": version, "out": "1",
                               "seat-0": "2d", "seat-2": "4s"})
    page = after(client, posted)
    assert ("Not saved: hand 2 was deleted on another phone. Here is the current score. "
            "What you entered: Ann: 2♦; Cy: 4♠.") in page.names("status")
    page.get("link", "Record hand 2")
    assert {r[0] for r in hands_of(app, mid)} == {1}


def test_edit_racing_another_phone_at_commit_saves_nothing(app, client, lo, monkeypatch):
    gid, mid = lo
    record(client, gid, mid, 1, 0, "", "5c 6c", "9h")
    version = Page(client.get(f"/groups/{gid}/matches/{mid}/hands/1")).value("version")

    def edit_while_another_phone_commits(match, *args):
        bump_version_elsewhere(app, mid)
        return edit_hand(match, *args)

    monkeypatch.setattr(hands, "edit_hand", edit_while_another_phone_commits)
    posted = client.post(f"/groups/{gid}/matches/{mid}/hands/1",
                         data={"number": "1", "version": version, "out": "0",
                               "seat-1": "kc", "seat-2": "9h"})
    assert ("Not saved: another phone changed this match while you were editing hand 1. "
            "Here is the current score; open hand 1 again to make your change. "
            "What you entered: Bo: K♣; Cy: 9♥.") in after(client, posted).names("status")
    assert hands_of(app, mid) == [(1, 0, "", 0), (1, 1, "5C 6C", 11), (1, 2, "9H", 0)]


def test_delete_after_another_phone_recorded_a_hand_deletes_nothing(app, client, lo):
    gid, mid = lo
    record(client, gid, mid, 1, 0, "", "5c 6c", "9h")
    board = Page(client.get(f"/groups/{gid}/matches/{mid}"))
    action = str(board.get("button", "Delete hand 1").find_parent("form")["action"])
    assert action.endswith("/hands/last/delete?number=1")
    record_elsewhere(app, mid, 2, 1, "2d 3d", "", "4s 5s")
    page = after(client, client.post(action, data={"confirm": "yes"}))
    assert ("Nothing deleted: the match changed on another phone since this page was shown, "
            "so hand 1 is not the last hand (the newest is hand 2). Here is the current "
            "score; delete again if you still mean to.") in page.names("status")
    page.get("button", "Delete hand 2")
    assert {r[0] for r in hands_of(app, mid)} == {1, 2}


def test_delete_racing_another_phone_at_commit_deletes_nothing(app, client, lo, monkeypatch):
    gid, mid = lo
    record(client, gid, mid, 1, 0, "", "5c 6c", "9h")

    def delete_while_another_phone_commits(match):
        bump_version_elsewhere(app, mid)
        return delete_last_hand(match)

    monkeypatch.setattr(hands, "delete_last_hand", delete_while_another_phone_commits)
    page = after(client, client.post(f"/groups/{gid}/matches/{mid}/hands/last/delete?number=1",
                                     data={"confirm": "yes"}))
    assert ("Nothing deleted: another phone changed this match at the same moment. Here is "
            "the current score; delete again if you still mean to.") in page.names("status")
    page.get("button", "Delete hand 1")
    assert {r[0] for r in hands_of(app, mid)} == {1}
