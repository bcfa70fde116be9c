"""The play checker page: the common case, melee disputes, sequences, saving rulings."""

from __future__ import annotations

import re
from urllib.parse import urlencode, urlsplit

import pytest

from scorekeeper.store.extensions import db
from scorekeeper.store.models import Ruling
from tests.support.parsed import Page, in_order, part
from tests.support.web import add_players, field_errors, start_group, start_match

SAVE = "Save this ruling to the match"


def answer(client, url):
    """What the answer (the status region "The answer") says, where its rule link goes
    (None where it has none), and the answer read on its own."""
    response = client.get(url)
    assert response.status_code == 200, response.text
    box = part(Page(response).get("status", "The answer"))
    rule = box.by_role("link", re.compile(r"^Rule: "))
    return box.text(), str(rule[0]["href"]) if rule else None, box


def check(**params):
    return "/check?" + urlencode(params)


@pytest.mark.parametrize(("params", "verdict", "rule"), [
    ({"game": "crazy-eights", "up": "4h", "card": "5h"}, "✓ Legal", "/rules/crazy-eights#c8-turn"),
    ({"game": "crazy-eights", "up": "4h", "card": "4s"}, "✓ Legal", "/rules/crazy-eights#c8-turn"),
    ({"game": "crazy-eights", "up": "4h", "card": "5s"}, "✗ Not legal",
     "/rules/crazy-eights#c8-turn"),
    ({"game": "crazy-eights", "up": "8s", "suit": "D", "card": "5h"}, "✗ Not legal",
     "/rules/crazy-eights#c8-eights"),
    ({"game": "crazy-eights", "up": "8s", "suit": "D", "card": "5d"}, "✓ Legal",
     "/rules/crazy-eights#c8-turn"),
    ({"game": "crazy-eights", "up": "4h", "card": "8c", "csuit": "S"}, "✓ Legal",
     "/rules/crazy-eights#c8-eights"),
    ({"game": "crazy-eights", "up": "4h", "card": "8c", "last": "no"}, "✓ Legal",
     "/rules/crazy-eights#c8-eights"),
    ({"game": "last-one", "up": "2h", "owed": "2", "card": "5h"}, "✗ Not legal",
     "/rules/last-one#lo-twos"),
    ({"game": "last-one", "up": "2h", "owed": "2", "card": "2s", "opt-twos_stack": "true"},
     "✓ Legal", "/rules/last-one#lo-twos"),
    ({"game": "last-one", "up": "4h", "card": "5h", "who": "3", "melee": "no"}, "✗ Not legal",
     "/rules/last-one#lo-turn"),
    ({"game": "last-one", "up": "4h", "card": "jk", "cas": "4c", "melee": "no"}, "✓ Legal",
     "/rules/last-one#lo-jokers"),
])
def test_common_case(client, params, verdict, rule):
    text, link, _ = answer(client, check(**params))
    assert text.startswith(verdict + " ")
    assert link == rule


def test_melee_dispute_out_of_turn(client):
    melee = {"game": "last-one", "players": "4", "up": "4h", "melee": "1", "ma": "1",
             "md": "2", "who": "3"}
    text, link, _ = answer(client, check(**melee, card="5h"))
    assert text.startswith("✓ Legal") and "continues the melee" in text
    assert "Seat 3 is the aggressor" in text
    assert link == "/rules/last-one#lo-melee"
    text, link, _ = answer(client, check(**melee, card="5c"))
    assert text.startswith("✗ Not legal") and "Only 5♥ continues the melee" in text
    assert link == "/rules/last-one#lo-melee"
    text, _, _ = answer(client, check(**melee | {"who": "1"}, card="5h"))
    assert text.startswith("✗ Not legal") and "aggressor" in text  # not the aggressor


def test_a_sequence(client):
    lines = "2 plays 4S\n3 draws\n3 passes\n1 plays 8C names D\n2 plays 5H"
    text, link, _ = answer(client, check(game="crazy-eights", players="3", up="4h", turn="2",
                                         events=lines))
    assert text.startswith("✗ Not legal") and "Line 5: 2 plays 5H" in text
    assert link == "/rules/crazy-eights#c8-eights"
    ok, _, _ = answer(client, check(game="last-one", up="5h", turn="2",
                                    events="2 plays 5S\n3 plays jk as 5c"))
    assert ok.startswith("✓ Legal")


def test_cannot_tell(client):
    # Crazy Eights: drawing while holding a playable card is refused, but nobody saw
    # seat 1's cards.
    text, link, _ = answer(client, check(game="crazy-eights", up="4h", events="1 draws"))
    assert text.startswith("? Cannot tell") and link == "/rules/crazy-eights#c8-drawing"


@pytest.mark.parametrize(("params", "field", "words"), [
    ({"up": "zz", "card": "5h"}, "up", "'zz' is not a card"),
    ({"up": "4h", "card": "5x"}, "card", "is not a card"),
    ({"game": "crazy-eights", "up": "4h", "card": "jk"}, "card", "without jokers"),
    ({"up": "4h", "card": "4h", "game": "crazy-eights"}, "card", "appears 2 times"),
    ({"up": "4h", "events": "2 flies"}, "events", "Line 1"),
    ({"up": "4h", "events": "2 plays 4S\n9 plays 5S"}, "events", "Line 2"),
    ({"up": "4h", "card": "5h", "who": "12"}, "who", "from 1 to 4"),
    ({"up": "4h", "card": "5h", "opt-threshold": "lots"}, "opt-threshold", "whole number"),
    ({"up": "4h", "card": "5h", "game": "snap"}, "game", "no game called"),
    ({"up": "4h", "card": "5h", "melee": "1", "ma": "2", "md": "2"}, "melee", "defender"),
    ({"up": "4h", "card": "5h", "game": "crazy-eights", "melee": "1"}, "melee", "Last One"),
])
def test_bad_input_is_explained_on_the_form(client, params, field, words):
    response = client.get(check(**params))
    assert response.status_code == 400
    errors = field_errors(response.text)
    assert field in errors and words in errors[field], errors


def test_the_page_without_a_question(client):
    response = client.get("/check")
    assert response.status_code == 200
    page = Page(response)
    assert page.by_role("status", "The answer") == []
    page.get("textbox", "Upcard")
    page.get("textbox", "Plays since the last undisputed moment, one per line")


def _match(client):
    gid = start_group(client)
    pids = add_players(client, gid, "Ann", "Bob", "Cy")
    mid = start_match(client, gid, pids, game="last-one", twos_stack="yes")
    return gid, mid


def test_in_a_match_uses_its_sheet_and_names(client):
    gid, mid = _match(client)
    url = f"/groups/{gid}/matches/{mid}/check?" + urlencode(
        {"up": "2h", "owed": "2", "card": "2s", "turn": "2"})
    text, link, box = answer(client, url)
    assert text.startswith("✓ Legal")  # the match stacks 2s
    assert "Bob" in text and link == "/rules/last-one#lo-twos"
    box.get("button", SAVE)
    seq = f"/groups/{gid}/matches/{mid}/check?" + urlencode(
        {"up": "4h", "turn": "2", "events": "Bob plays 4s\ncy plays 5s"})
    text, _, _ = answer(client, seq)
    assert text.startswith("✓ Legal")


def test_save_a_ruling(app, client):
    gid, mid = _match(client)
    form = {"up": "4h", "card": "5c", "turn": "1"}
    response = client.post(f"/groups/{gid}/matches/{mid}/check", data=form)
    assert response.status_code == 302 and "card=5c" in response.location
    follow = Page(client.get(response.location))
    assert "Ruling saved to the match record." in follow.names("status")
    with app.app_context():
        [ruling] = db.session.scalars(db.select(Ruling)).all()
        assert ruling.match_id == mid and ruling.legal is False
        assert ruling.rule == "lo-turn" and ruling.hand_number == 1
        assert "Ann" in ruling.question and "5♣" in ruling.question
        assert '"play": "5C"' in ruling.request_json


def test_only_members_may_save(app, client):
    gid, mid = _match(client)
    stranger = app.test_client()
    form = {"up": "4h", "card": "5c"}
    assert stranger.post(f"/groups/{gid}/matches/{mid}/check", data=form).status_code == 404
    assert stranger.get(f"/groups/{gid}/matches/{mid}/check").status_code == 404
    other = start_group(stranger, "Elsewhere")
    assert stranger.post(f"/groups/{other}/matches/{mid}/check", data=form).status_code == 404
    assert client.post(f"/groups/{gid}/matches/{mid + 1}/check", data=form).status_code == 404
    assert client.post(f"/groups/{gid}/matches/99999999999/check", data=form).status_code == 404
    # A spectator's view link shows the scoreboard but no way to save rulings.
    board = Page(client.get(f"/groups/{gid}/matches/{mid}"))
    shared = urlsplit(board.get("textbox", "View link")["value"]).path
    spectator = app.test_client()
    view = Page(spectator.get(shared))
    assert view.by_role("link", "Check a play") == []
    to_checker = [str(node.get("href") or node.get("action"))
                  for node in view.all("a[href], form[action]")]
    assert [place for place in to_checker if "/check" in place] == ["/check"]  # the menu's
    with app.app_context():
        assert db.session.scalars(db.select(Ruling)).all() == []


def test_nothing_to_save_without_a_question(app, client):
    gid, mid = _match(client)
    response = client.post(f"/groups/{gid}/matches/{mid}/check", data={"up": "zz", "card": "5c"})
    assert response.status_code == 302
    with app.app_context():
        assert db.session.scalars(db.select(Ruling)).all() == []


# ---- seat names in reasons, per-seat hands, the dealer

def test_reasons_name_the_seats_from_one(client):
    text, _, _ = answer(client, check(game="crazy-eights", up="4h", card="5h", who="2"))
    assert "It is Seat 1's turn, not Seat 2's." in text
    text, _, _ = answer(client, check(game="last-one", up="2h", owed="2", card="5h", turn="3"))
    assert "Seat 3 owes 2 cards" in text and "seat 2" not in text


def test_in_a_match_reasons_use_the_players_names(client):
    gid, mid = _match(client)
    base = f"/groups/{gid}/matches/{mid}/check?"
    text, _, _ = answer(client, base + urlencode({"up": "4h", "card": "5h", "who": "3",
                                                  "melee": "no"}))
    assert "It is Ann's turn, not Cy's." in text
    melee = {"up": "4h", "melee": "1", "ma": "1", "md": "2", "who": "3", "card": "5h"}
    text, _, _ = answer(client, base + urlencode(melee))
    assert "continues the melee; Cy is the aggressor" in text


def test_saved_ruling_reason_names_the_player(app, client):
    gid, mid = _match(client)
    client.post(f"/groups/{gid}/matches/{mid}/check", data={"up": "4h", "card": "5h", "who": "2"})
    with app.app_context():
        [ruling] = db.session.scalars(db.select(Ruling)).all()
        assert ruling.reason == "it is Ann's turn, not Bob's"


@pytest.mark.parametrize(("holds", "events", "verdict", "words"), [
    ({"hold-2": "4s 5c"}, "2 plays 4S", "✓ Legal", "4♠ follows the upcard"),
    ({"hold-2": "4s 5c"}, "2 plays 4D", "✗ Not legal", "Seat 2 does not hold 4♦"),
    ({"hold-2": "4s, 5c +2"}, "2 plays 4D", "✓ Legal", ""),  # 4♦ may be among the unseen
    ({"hold-2": "9c 5c"}, "2 draws", "✓ Legal", "Seat 2 draws"),
    ({"hold-2": "9c 4s"}, "2 draws", "✗ Not legal", "Seat 2 holds a playable card"),
    ({}, "2 draws", "? Cannot tell", "whether Seat 2 could play"),
])
def test_per_seat_hands_in_a_sequence(client, holds, events, verdict, words):
    text, _, _ = answer(client, check(game="crazy-eights", players="3", up="4h", turn="2",
                                      events=events, **holds))
    assert text.startswith(verdict), text
    assert words in text


def test_per_seat_hand_in_the_common_case_holds_the_card_played(client):
    text, _, _ = answer(client, check(game="crazy-eights", up="4h", card="5h", **{"hold-1": "9c"}))
    assert text.startswith("✓ Legal")
    # A count is a hand nobody saw; the one-count shortcut stays the default.
    text, _, _ = answer(client, check(game="crazy-eights", up="4h", card="5h", held="3",
                                      **{"hold-1": "1"}))
    assert text.startswith("✓ Legal")


@pytest.mark.parametrize(("params", "field", "words"), [
    ({"hold-2": "zz"}, "hold-2", "'zz' is not a card"),
    ({"hold-2": "4s 3 +2"}, "hold-2", "a count (6)"),
    ({"hold-2": "0"}, "hold-2", "at least one card"),
    ({"hold-2": "99"}, "hold-2", "a count (6)"),
    ({"players": "3", "hold-5": "4s"}, "hold-5", "only 3 players"),
    ({"dealer": "9"}, "dealer", "from 1 to 4"),
    ({"dealer": "1", "suit": "D"}, "dealer", "clear the suit named"),
    ({"dealer": "1", "owed": "2", "melee": "1"}, "dealer", "the melee and the cards to draw"),
])
def test_bad_hands_and_dealer_are_explained_on_their_field(client, params, field, words):
    response = client.get(check(game="last-one", up="4h", card="5h", **params))
    assert response.status_code == 400
    errors = field_errors(response.text)
    assert field in errors and words in errors[field], errors


def test_from_the_deal_the_upcard_is_the_starter(client):
    # Last One: a starting 2 is the dealer's play, so the first player draws two.
    text, link, _ = answer(client, check(game="last-one", up="2h", dealer="1", card="5h"))
    assert text.startswith("✗ Not legal") and "Seat 2 owes 2 cards" in text
    assert "Seat 1 dealt" in text and link == "/rules/last-one#lo-twos"
    # A starting 8: the dealer names its suit first, then the suit must be followed.
    text, _, _ = answer(client, check(game="last-one", up="8h", dealer="4",
                                      events="4 names D\n1 plays 5D"))
    assert text.startswith("✓ Legal")
    text, _, _ = answer(client, check(game="last-one", up="8h", dealer="4",
                                      events="1 plays 5H"))
    assert "The dealer (Seat 4) first names the starter" in text
    # Crazy Eights: the player after the dealer may play anything on a starting 8.
    text, _, _ = answer(client, check(game="crazy-eights", players="3", up="8h", dealer="2",
                                      events="3 plays 5C\n1 plays 6C"))
    assert text.startswith("✓ Legal")


def test_page_offers_seat_hands_dealer_and_the_picker(client):
    page = Page(client.get(check(game="crazy-eights", players="3")))
    page.get("textbox", "Seat 3 holds")
    page.get("combobox", "Start from the deal: who dealt")
    # Seats past the table are in the page for the script, hidden until it grows.
    assert page.by_role("textbox", "Seat 4 holds") == []
    assert len(page.by_role("textbox", "Seat 4 holds", include_hidden=True)) == 1
    # The card keys (shown by the script) tap one card into the upcard's field.
    assert len(page.by_role("toolbar", "Card keys: rank, then suit", include_hidden=True)) == 1
    assert page.get("textbox", "Upcard")["data-cards"] == "one"
    [joker] = page.by_role("button", "Joker", include_hidden=True)
    assert joker.has_attr("hidden")  # no jokers in Crazy Eights
    symbols = [pick.find_next_sibling("span") for pick in
               page.by_role("radio", re.compile(r"^Suit named \(after an 8\): \W$"))]
    shown = {symbol.get_text(): symbol["class"] for symbol in symbols}
    assert shown == {"♣": ["suit", "black"], "♦": ["suit", "red"], "♥": ["suit", "red"],
                     "♠": ["suit", "black"]}
    page = Page(client.get(check(game="last-one")))
    [joker] = page.by_role("button", "Joker", include_hidden=True)
    assert not joker.has_attr("hidden")


def test_form_field_for_a_seat_hand():
    from scorekeeper.web.check.forms import form_field
    assert form_field("hands[1]", True, {1}) == "hold-2"
    assert form_field("hands[1]", True, set()) == "held"
    assert form_field("hands[1]", False) == "card"
    assert form_field("dealer", False) == "dealer"


# ---- "drew this turn", the headline on the last line, articles ----

@pytest.mark.parametrize(("params", "verdict", "words"), [
    # the card drawn, or any other card that fits, may be played (Crazy Eights)
    ({"game": "crazy-eights", "up": "5h", "drew": "1", "drawn": "7h", "card": "7h"},
     "✓ Legal", "drew 1 card (7♥) this turn"),
    ({"game": "crazy-eights", "up": "5h", "drew": "1", "drawn": "kc", "card": "9h",
      "hold-1": "kc 9h 2d"}, "✓ Legal", "9♥ follows the upcard"),
    # Last One: a player who drew may not also play
    ({"game": "last-one", "up": "5h", "drew": "1", "drawn": "7h", "card": "7h"},
     "✗ Not legal", "may not also play"),
    ({"game": "last-one", "up": "5h", "drew": "1", "drawn": "7h", "card": "7h",
      "opt-play_after_draw": "true"}, "✓ Legal", "7♥ follows the upcard"),
])
def test_drew_this_turn_in_the_simple_form(client, params, verdict, words):
    text, _link, _box = answer(client, check(**params))
    assert text.startswith(verdict), text
    assert words in text


@pytest.mark.parametrize(("params", "field"), [
    ({"game": "crazy-eights", "up": "5h", "drew": "1", "card": "7h", "who": "2"}, "drew"),
    ({"game": "crazy-eights", "up": "5h", "drew": "1", "card": "7h", "owed": "2"}, "drew"),
    ({"game": "crazy-eights", "up": "5h", "drew": "x", "card": "7h"}, "drew"),
    ({"game": "crazy-eights", "up": "5h", "drawn": "zz", "card": "7h"}, "drawn"),
    ({"game": "crazy-eights", "up": "5h", "drew": "1", "card": "7h", "dealer": "2"},
     "dealer"),
])
def test_drew_this_turn_errors_go_to_their_field(client, params, field):
    response = client.get(check(**params))
    assert response.status_code == 400 and field in field_errors(response.text)


def test_the_headline_is_about_the_last_line(client):
    """The evidence screenshot: line 1 (a draw from an unseen hand) cannot be told; the
    headline is line 2, the play in dispute, with line 1 as an assumption."""
    text, link, _box = answer(client, check(game="crazy-eights", up="5h",
                                             events="1 draws 7H\n1 plays 7H"))
    assert text.startswith("✓ Legal") and "Line 2: 1 plays 7H" in text
    assert "Line 1 (1 draws 7H): assuming Seat 1 could not play" in text
    assert link == "/rules/crazy-eights#c8-turn"


def test_an_earlier_illegal_line_is_still_the_answer(client):
    text, _link, _box = answer(client, check(game="crazy-eights", up="5h",
                                              events="2 plays 7H\n1 plays 7H"))
    assert text.startswith("✗ Not legal") and "Line 1" in text


def test_a_pass_that_was_all_a_seat_had_left_is_noted(client):
    text, _link, _box = answer(client, check(
        game="last-one", up="5h", **{"hold-1": "kc 9d"}, **{"hold-2": "7h qs"},
        events="1 draws 2c\n2 plays 7H"))
    assert text.startswith("✓ Legal")
    assert "nothing else was left, so the pass by Seat 1 was taken and the turn moved on" in text


def test_several_cards_drawn_in_one_line(client):
    text, _link, _box = answer(client, check(
        game="last-one", up="5h", turn="1", events="1 plays 2H\n2 draws 2\n3 plays 9H",
        players="3", **{"hold-1": "2h kc 9c"}))
    assert "Line 3" in text and text.startswith(("✓ Legal", "? Cannot tell"))


@pytest.mark.parametrize(("up", "phrase"), [("8h", "a heart or an 8"),
                                            ("ah", "a heart or an A")])
def test_reasons_say_an_8(client, up, phrase):
    text, _link, _box = answer(client, check(game="last-one", up=up, card="5c"))
    assert phrase in text and " a 8" not in text and " a A" not in text


# ---- what the table left unsaid: a melee, the player's last card

DISPUTE = {"game": "last-one", "players": "4", "up": "4h", "card": "5h", "who": "3", "turn": "4"}


def test_an_unsaid_melee_gives_both_answers_and_one_link_each(client):
    text, _, box = answer(client, check(**DISPUTE))
    assert text.startswith("It depends ✓ Legal if the 4♥ was just played into a melee")
    assert "✗ Otherwise not legal: it is Seat 4's turn, not Seat 3's." in text
    said = {words: box.href(words) for words in ("A melee is on", "No melee")}
    assert said["A melee is on"].endswith("&melee=1#answer")
    assert said["No melee"].endswith("&melee=no#answer")
    text, _, _ = answer(client, "/check" + said["A melee is on"].removesuffix("#answer"))
    assert text.startswith("✓ Legal 5♥ continues the melee")
    # Said back as entered: a melee, Seat 4's turn; no attacker the table did not name.
    assert "Upcard 4♥; a melee is on; Seat 4's turn. May Seat 3 play 5♥?" in text
    assert "attacks" not in text
    text, _, _ = answer(client, "/check" + said["No melee"].removesuffix("#answer"))
    assert text.startswith("✗ Not legal It is Seat 4's turn")


@pytest.mark.parametrize(("params", "depends"), [
    ({"up": "5h", "card": "6h", "who": "3"}, True),  # the 6♥ may go on with a run
    ({"up": "5h", "card": "6s", "who": "3"}, False),  # it could not: no melee to ask about
    ({"up": "3h", "card": "4h", "who": "3"}, False),  # a 3 never ends a melee
    ({"up": "4h", "card": "5h", "who": "3", "owed": "2"}, False),  # cards owed: no melee
    ({"up": "4h", "card": "5h", "who": "3", "melee": "no"}, False),  # said
    ({"up": "4h", "card": "5h", "who": "3", "game": "crazy-eights"}, False),  # no melees
    # Which cards a run stands on is the game's: past the K only where the run wraps.
    ({"up": "ah", "card": "2h", "who": "3", "opt-melee_wrap": "true"}, True),
    ({"up": "ah", "card": "2h", "who": "3"}, False),
    ({"up": "kh", "card": "ah", "who": "3", "opt-melee_wrap": "true"}, True),
    ({"up": "kh", "card": "ah", "who": "3"}, False),
])
def test_the_melee_is_asked_about_only_where_it_could_change_the_answer(client, params, depends):
    text, _, _ = answer(client, check(**{"game": "last-one", **params}))
    assert text.startswith("It depends") is depends, text


def test_the_last_card_question(client):
    text, _, _ = answer(client, check(game="crazy-eights", up="4h", card="5h", last="yes"))
    assert text.startswith("✓ Legal") and "it is Seat 1's last card" in text
    response = client.get(check(game="crazy-eights", up="4h", card="5h", last="maybe"))
    assert response.status_code == 400
    assert "yes or no" in field_errors(response.text)["last"]


def test_the_answer_comes_first_and_the_form_returns_to_it(client):
    page = Page(client.get(check(**DISPUTE)))
    box = page.get("status", "The answer")
    form = page.get("button", "Check").find_parent("form")
    assert in_order(box, form)
    assert box["aria-live"] == "polite"  # read out when it comes
    assert form["action"] == "/check#" + box["id"]


def test_an_answer_that_depends_is_not_offered_for_saving(client):
    gid, mid = _match(client)
    base = f"/groups/{gid}/matches/{mid}/check?"
    page = Page(client.get(base + urlencode({"up": "4h", "card": "5h", "who": "3"})))
    assert part(page.get("status", "The answer")).text().startswith("It depends")
    assert page.by_role("button", SAVE, include_hidden=True) == []
    page = Page(client.get(base + urlencode({"up": "4h", "card": "5h", "who": "3", "melee": "1"})))
    page.get("button", SAVE)
