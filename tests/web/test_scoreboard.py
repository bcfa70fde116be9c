"""The scoreboard's hands table and the shortcuts that make the page cheap to render.

The table's cells are worked out in ``scoreboard.py``; these tests pin what a phone
(and a screen reader) gets: classes, the star, the dash of a player already out,
Countdown's −1, the blocked/jammed note and the edit links (members only). The URL and
rules-card shortcuts must give exactly what ``url_for`` and the macro give.
"""

from __future__ import annotations

import re

import pytest
from flask import render_template_string, url_for

from scorekeeper.core.sheets import Sheet
from scorekeeper.store.extensions import db
from scorekeeper.store.models import Match
from scorekeeper.web.links import static_url, url_for_ids, url_pattern
from scorekeeper.web.rules.rules_card import rules_card_html
from tests.support.parsed import Page, headed, on_screen, text
from tests.support.web import add_players, record, start_group, start_match

# A cell's words as a screen reader says them and as the screen shows them.
DASH = ("– out of the match", "–")  # a player already out
SAME = ("· no change", "·")  # Countdown's count unchanged

Head = tuple[str, str | None, str | None]
Cell = tuple[str, str, str]


def hand_rows(page: str) -> list[tuple[Head, list[Cell]]]:
    """Each hand row of the scoreboard's table: its header (what it says, where its edit
    link goes and what that link is called, None without one) and each seat's cell (its
    classes, which mark it on screen, what a screen reader says and what the screen shows).
    Every star on the table is the "went out" mark."""
    board = Page(page)
    table = headed(board, re.compile(r"^(Hands|Last \d+ hands)$")).find("table")
    assert {(str(mark.get("title")), text(mark)) for mark in table.select(".mark")} <= {
        ("went out", "★")}
    rows = []
    for row in table.find("tbody").find_all("tr"):
        head = row.find("th")
        link = head.find("a", href=True)
        rows.append(((text(head), None if link is None else str(link["href"]),
                      None if link is None else board.accessible_name(link)),
                     [(" ".join(cell["class"]), text(cell), on_screen(cell))
                      for cell in row.find_all("td")]))
    return rows


def pages(app, client, gid: int, mid: int) -> tuple[str, str]:
    """The member's scoreboard and the spectators' view of the same match."""
    with app.app_context():
        token = db.session.get_one(Match, mid).view_token
    return (client.get(f"/groups/{gid}/matches/{mid}").text,
            app.test_client().get(f"/view/{token}").text)


def test_last_one_rows_mark_who_went_out_who_dealt_and_who_is_gone(app, client):
    gid = start_group(client)
    ann, bo, cy = add_players(client, gid, "Ann", "Bo", "Cy")
    mid = start_match(client, gid, [ann, bo, cy], threshold="50")  # Ann deals first
    record(client, gid, mid, 1, 0, "", "8s 8h 2c", "5d 6d")  # Bo 52: out in hand 1
    record(client, gid, mid, 2, 2, "4c 5c", "", "")  # Cy deals (Bo is out) and goes out
    record(client, gid, mid, 3, "none", "3c", "", "2d 4d")  # Ann deals; blocked (one card: 0)
    member, spectator = pages(app, client, gid, mid)
    cells = [
        [("num went-out dealt", "0★", "0★"), ("num", "52", "52"), ("num", "11", "11")],
        [("num", "9", "9"), ("num gone", *DASH), ("num went-out dealt", "0★", "0★")],
        [("num dealt", "0", "0"), ("num gone", *DASH), ("num", "6", "6")],
    ]
    edit = f"/groups/{gid}/matches/{mid}/hands"
    assert hand_rows(member) == [
        (("1", f"{edit}/1", "Edit hand 1"), cells[0]),
        (("2", f"{edit}/2", "Edit hand 2"), cells[1]),
        (("3 blocked", f"{edit}/3", "Edit hand 3"), cells[2]),
    ]
    assert hand_rows(spectator) == [(("1", None, None), cells[0]), (("2", None, None), cells[1]),
                                    (("3 blocked", None, None), cells[2])]
    assert not [link for link in Page(spectator).all("a[href]")
                if str(link["href"]).startswith(edit)]


def test_countdown_rows_count_one_down_for_who_went_out(app, client):
    gid = start_group(client)
    ann, bo = add_players(client, gid, "Ann", "Bo")
    mid = start_match(client, gid, [ann, bo], game="countdown", start_count="2")
    record(client, gid, mid, 1, 1)
    record(client, gid, mid, 2, "none")
    member, _ = pages(app, client, gid, mid)
    rows = hand_rows(member)
    assert [cells for _, cells in rows] == [
        [("num dealt", *SAME), ("num went-out", "−1★", "−1★")],
        [("num", *SAME), ("num dealt", *SAME)],
    ]
    assert rows[1][0][0] == "2 jammed"


@pytest.mark.no_database
@pytest.mark.parametrize("root", ["", "/scores"])
@pytest.mark.parametrize(("endpoint", "values"), [
    ("hands.edit", {"group_id": 3, "match_id": 1000000007, "number": 12}),
    ("matches.show", {"group_id": 0, "match_id": 77}),
    ("groups.show", {"group_id": 41}),
    ("offline.worker", {}),
    ("matches.view", {"token": "ab_C-9"}),
    ("live.spectator", {"token": "a b/é?"}),  # text a URL must quote: url_for itself
    ("rules.game_page", {"game_key": "last-one"}),
])
def test_url_shortcuts_give_what_url_for_gives(app, root, endpoint, values):
    with app.test_request_context("/", base_url=f"http://phone.test{root}"):
        for _ in range(2):  # built, then remembered
            assert url_for_ids(endpoint, **values) == url_for(endpoint, **values)
        assert url_for("static", filename="style.css").startswith(f"{root}/static/style.")
        assert static_url("style.css") == url_for("static", filename="style.css")
        if all(isinstance(v, int) for v in values.values()):
            pattern = url_pattern(endpoint, *values)
            assert pattern.format(**values) == url_for(endpoint, **values)


@pytest.mark.no_database
def test_rules_card_is_the_macro_once_per_sheet_and_table_size(app):
    macro = '{% from "rules/_card.html" import rules_card %}{{ rules_card(sheet, players) }}'
    sheets = [Sheet.make("last-one"), Sheet.make("last-one", {"threshold": 100}),
              Sheet.make("crazy-eights", {"match_end": "first-to-50-per-player"})]
    with app.test_request_context("/"):
        seen = set()
        for sheet in sheets:
            for players in (2, 4, None):
                card = rules_card_html(sheet, players)
                assert card == render_template_string(macro, sheet=sheet, players=players)
                assert rules_card_html(sheet, players) is card  # remembered
                seen.add(str(card))
        assert len(seen) == len(sheets) * 3


@pytest.mark.corrupts_derived  # writes a derived value as an older release kept it
def test_the_last_hands_come_from_the_state_and_equal_the_stored_hands(app, client):
    """The table lists the last ten hands from the match's running state; a state
    stored before it kept them (no ``recent``) shows the same rows, read from the hands."""
    import json

    gid = start_group(client)
    ann, bo = add_players(client, gid, "Ann", "Bo")
    mid = start_match(client, gid, [ann, bo], threshold="500")
    for number in range(1, 13):
        record(client, gid, mid, number, number % 2, "" if number % 2 == 0 else "5c",
               "" if number % 2 else "9d 2c")
    kept, _ = pages(app, client, gid, mid)
    rows = hand_rows(kept)
    assert [name for (_, _, name), _ in rows] == [f"Edit hand {n}" for n in range(3, 13)]
    with app.app_context():
        match = db.session.get_one(Match, mid)
        state = json.loads(match.running_json)
        assert [hand[0] for hand in state.pop("recent")] == list(range(3, 13))
        match.running_json = json.dumps(state, separators=(",", ":"), sort_keys=True)
        db.session.commit()
    read, _ = pages(app, client, gid, mid)
    assert hand_rows(read) == rows
