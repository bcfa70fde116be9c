"""Match setup, the scoreboard, rematch and the spectators' view link."""

from __future__ import annotations

import json
import re

import pytest

from scorekeeper.store.extensions import db
from scorekeeper.store.models import Match, Player
from tests.support.parsed import Page, body_rows, headed, text
from tests.support.web import (
    add_players,
    field_errors,
    joined_match,
    record,
    start_group,
    start_match,
)


@pytest.fixture
def table(client):
    """A group with four players: (group id, [Ann, Bo, Cy, Di ids])."""
    gid = start_group(client)
    return gid, add_players(client, gid, "Ann", "Bo", "Cy", "Di")


def stored(app, mid: int) -> tuple[list[str], dict, int]:
    with app.app_context():
        match = db.session.get(Match, mid)
        return ([s.player.name for s in match.seats], json.loads(match.sheet_json)["options"],
                match.first_dealer)


def post_setup(client, gid: int, **data: str):
    return client.post(f"/groups/{gid}/matches/new", data={"first_dealer": "1", **data})


def board_of(client, gid: int, mid: int) -> Page:
    return Page(client.get(f"/groups/{gid}/matches/{mid}"))


def standings(board: Page) -> dict[str, str]:
    """What the standings say of each player, by the player's name."""
    listed = board.get("list", re.compile(r"^(Places|Standings in seat order)$"))
    return {text(item.select_one(".who")): text(item) for item in listed.find_all("li")}


def hands_table(board: Page) -> list[list[str]]:
    """The scoreboard's hands, one row each: the hand's number, then each seat's cell."""
    return body_rows(headed(board, re.compile(r"^(Hands|Last \d+ hands)$")).find("table"))


def listed_matches(client, gid: int) -> list[str]:
    """The matches the group page lists, as their links read."""
    return [text(link) for link in headed(Page(client.get(f"/groups/{gid}")), "Matches")
            .find_all("a", href=True)]


def test_setup_form_lists_options_with_defaults_help_and_rule_links(client, table):
    gid, _ = table
    page = Page(client.get(f"/groups/{gid}/matches/new?game=crazy-eights"))
    match_end = page.get("combobox", "Match ends")
    assert match_end["name"] == "opt-match_end"
    assert not page.all('[name="opt-threshold"]')
    option = match_end.find_parent("div")
    assert "Usually: first to 100 points." in text(option)
    assert [str(a["href"]) for a in option.find_all("a") if text(a) == "Rule"] == [
        "/rules/crazy-eights#c8-match-end"]
    lo = Page(client.get(f"/groups/{gid}/matches/new"))
    assert lo.get("spinbutton", "Elimination threshold")["name"] == "opt-threshold"
    assert lo.value("opt-threshold") == "250"
    assert lo.get("checkbox", "Everybody agrees to nine cards each")["name"] == "agree_nine"


def test_seats_follow_the_numbers_and_first_dealer(app, client, table):
    gid, (ann, bo, cy, _) = table
    made = post_setup(client, gid, game="last-one", **{f"order-p{cy}": "1", f"order-p{ann}": "2",
                      f"order-p{bo}": "3"}, first_dealer="2", **{"opt-threshold": "100"})
    assert made.status_code == 302
    mid = int(made.location.rsplit("/", 1)[1])
    seats, options, dealer = stored(app, mid)
    assert seats == ["Cy", "Ann", "Bo"] and dealer == 1 and options["threshold"] == 100
    board = Page(client.get(made.location))
    next_hand = text(board.get("region", "Next hand"))
    assert "Hand 1: Ann deals, Bo plays first." in next_hand
    assert "7 cards each" in next_hand
    assert board.get("link", "Record hand 1")


def test_new_players_are_added_during_setup(app, client, table):
    gid, (ann, *_rest) = table
    made = post_setup(client, gid, game="crazy-eights", **{f"order-p{ann}": "2"},
                      **{"new-0": "Zed", "order-n0": "1", "new-1": "Yo"})
    assert made.status_code == 302
    seats, _, _ = stored(app, int(made.location.rsplit("/", 1)[1]))
    assert seats == ["Zed", "Ann", "Yo"]


@pytest.mark.parametrize("data, field", [
    ({"opt-threshold": "0"}, "opt-threshold"),
    ({"opt-threshold": "lots"}, "opt-threshold"),
    ({"opt-hand_size": "12"}, "opt-hand_size"),
    ({"opt-twos_stack": "maybe"}, "opt-twos_stack"),
    ({"opt-three_free_play": "whatever"}, "opt-three_free_play"),
    ({"opt-hand_size": "9"}, "agree_nine"),
    ({"first_dealer": "7"}, "first_dealer"),
    ({"order-p999999": "3"}, "players"),
    ({"order-pX": "3"}, "players"),
    ({"new-0": "Ann"}, "new-0"),
    ({"game": "snap"}, "game"),
])
def test_bad_setup_input_is_shown_on_its_field(app, client, table, data, field):
    gid, (ann, bo, *_rest) = table
    form = {"game": "last-one", f"order-p{ann}": "1", f"order-p{bo}": "2", **data}
    page = post_setup(client, gid, **form)
    assert page.status_code == 400
    assert field in field_errors(page.text), field_errors(page.text)
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Match.id))) == 0
        assert db.session.scalar(db.select(db.func.count(Player.id))) == 4


def test_nine_cards_with_agreement(client, table):
    gid, (ann, bo, *_rest) = table
    made = post_setup(client, gid, game="last-one", **{f"order-p{ann}": "1", f"order-p{bo}": "2",
                      "opt-hand_size": "9", "agree_nine": "yes"})
    assert made.status_code == 302


def test_same_seat_number_twice_and_too_few_players(client, table):
    gid, (ann, bo, *_rest) = table
    twice = post_setup(client, gid, game="last-one", **{f"order-p{ann}": "1", f"order-p{bo}": "1"})
    assert "same seat number" in field_errors(twice.text)["players"]
    alone = post_setup(client, gid, game="last-one", **{f"order-p{ann}": "1"})
    assert "needs at least 2 players; 1 is too few" in field_errors(alone.text)["players"]


def test_six_players_of_nine_cards_leave_no_upcard(client):
    gid = start_group(client)
    pids = add_players(client, gid, *"ABCDEF")
    form = {f"order-p{p}": str(i + 1) for i, p in enumerate(pids)}
    page = post_setup(client, gid, game="last-one", **form, **{"opt-hand_size": "9",
                                                               "agree_nine": "yes"})
    assert page.status_code == 400 and "no card is left" in field_errors(page.text)["opt-hand_size"]


def test_countdown_board_shows_cards_per_player(client, table):
    gid, (ann, bo, cy, _) = table
    mid = start_match(client, gid, [ann, bo, cy], game="countdown", **{"start_count": "5"})
    record(client, gid, mid, 1, 1, "5c 6c", "", "7h")
    next_hand = text(board_of(client, gid, mid).get("region", "Next hand"))
    assert "Cards dealt: Ann 5 · Bo 4 · Cy 5" in next_hand


def test_scoreboard_shows_bars_eliminations_and_hand_table(client, table):
    gid, (ann, bo, cy, _) = table
    mid = start_match(client, gid, [ann, bo, cy], threshold="50")
    record(client, gid, mid, 1, 0, "", "8s 8h 2c", "5d 6d")
    board = board_of(client, gid, mid)
    said = standings(board)
    assert "out in hand 1" in said["Bo"] and "39 until out" in said["Cy"]
    cy = board.get("img", "39 until out")  # Cy's bar: 11 of 50
    assert [str(rect["width"]) for rect in cy.find_all("rect") if rect.get("fill")] == ["22"]
    assert hands_table(board) == [["1", "0★", "52", "11"]]  # Bo: 25 + 25 + 2
    # Bo is out: the deal skips him
    assert "Hand 2: Cy deals, Ann plays first." in text(board.get("region", "Next hand"))
    # nothing inline: the pages run under a strict CSP
    assert not board.all("[style]") and not board.all("style")


def test_eliminated_players_show_a_dash_in_later_hands(client, table):
    gid, (ann, bo, cy, _) = table
    mid = start_match(client, gid, [ann, bo, cy], threshold="50")
    record(client, gid, mid, 1, 0, "", "8s 8h 2c", "5d 6d")
    record(client, gid, mid, 2, 2, "4c 5c", "", "")
    first, second = hands_table(board_of(client, gid, mid))
    assert second[2] == "– out of the match"  # Bo fell in hand 1
    assert not [cell for cell in first if "out of the match" in cell]


def test_view_link_is_read_only_and_live(app, client, table):
    gid, (ann, bo, *_rest) = table
    mid = start_match(client, gid, [ann, bo])
    with app.app_context():
        token = db.session.get(Match, mid).view_token
    spectator = app.test_client()
    page = spectator.get(f"/view/{token}")
    assert page.status_code == 200
    watched = Page(page)
    assert watched.one("#board")["data-live-url"] == f"/view/{token}/live"
    assert "Record hand" not in watched.text() and not watched.all("form")
    assert not watched.by_role("link", re.compile("^Edit hand"))
    assert spectator.get(f"/groups/{gid}/matches/{mid}").status_code == 404
    refused = record(spectator, gid, mid, 1, 0, "", "5c 6c")
    assert refused.status_code == 404
    assert spectator.post(f"/view/{token}").status_code == 405
    member = board_of(client, gid, mid)
    assert "Hands" not in member.names("heading") and not member.by_role("table")  # none yet
    assert member.one("#board")["data-live-url"] == f"/groups/{gid}/matches/{mid}/live"
    assert spectator.get("/view/wrong-token").status_code == 404


def test_rotating_the_view_link(app, client, table):
    gid, (ann, bo, *_rest) = table
    mid = start_match(client, gid, [ann, bo])
    with app.app_context():
        old = db.session.get(Match, mid).view_token
    client.post(f"/groups/{gid}/matches/{mid}/view-link", data={"confirm": "yes"})
    with app.app_context():
        new = db.session.get(Match, mid).view_token
    assert new != old
    assert client.get(f"/view/{old}").status_code == 404
    assert client.get(f"/view/{new}").status_code == 200


def test_rematch_keeps_players_and_sheet_and_moves_the_deal(app, client, table):
    gid, (ann, bo, cy, _) = table
    mid = start_match(client, gid, [ann, bo, cy], threshold="30", first_dealer=3)
    record(client, gid, mid, 1, 1, "8s 8h", "", "8c 8d")  # Ann and Cy out: Bo wins
    asked = client.post(f"/groups/{gid}/matches/{mid}/rematch")  # a stray tap: asked first
    assert asked.status_code == 200
    question = Page(asked)
    assert question.heading() == "Are you sure?"
    assert "Start a rematch? Same players and rules; Ann deals first." in question.texts("p")
    form = question.get("button", "Start the rematch").find_parent("form")
    assert form["action"] == asked.request.path
    assert len([m for m in listed_matches(client, gid) if m.startswith("Last One ·")]) == 1
    made = client.post(f"/groups/{gid}/matches/{mid}/rematch", data={"confirm": "yes"})
    new = int(made.location.rsplit("/", 1)[1])
    assert new != mid
    assert stored(app, new) == (["Ann", "Bo", "Cy"], stored(app, mid)[1], 0)


def test_group_page_lists_matches(client, table):
    gid, (ann, bo, *_rest) = table
    start_match(client, gid, [ann, bo])
    assert [m for m in listed_matches(client, gid) if m.startswith("Last One · Ann, Bo ")]


@pytest.mark.parametrize(("hands", "shown"), [(3, [1, 2, 3]), (25, list(range(16, 26)))])
def test_the_scoreboard_shows_the_last_hands_and_links_the_record(app, client, hands, shown):
    """The standings and the last ten hands; earlier ones are in the match record."""
    gid, mid, _ = joined_match(app, client, 3, hands)
    page = board_of(client, gid, mid)
    edits = page.by_role("link", re.compile(r"^Edit hand \d+$"))
    assert [int(page.accessible_name(link).rsplit(" ", 1)[1]) for link in edits] == shown
    assert [int(row[0]) for row in hands_table(page)] == shown
    said = text(headed(page, re.compile(r"^(Hands|Last \d+ hands)$")))
    if hands > 10:
        assert f"{hands - 10} earlier hands: every hand is in the match record." in said
        assert page.href("match record") == f"/groups/{gid}/matches/{mid}/record"
    else:
        assert "earlier hand" not in said
    assert page.get("button", f"Delete hand {hands}")
    assert page.get("link", f"Record hand {hands + 1}")
    with app.app_context():
        view = db.session.scalar(db.select(Match.view_token).where(Match.id == mid))
    spectator = Page(client.get(f"/view/{view}"))
    assert [int(row[0]) for row in hands_table(spectator)] == shown
    said = text(headed(spectator, re.compile(r"^(Hands|Last \d+ hands)$")))
    assert (f"{hands - 10} earlier hands not shown here." in said) == (hands > 10)
