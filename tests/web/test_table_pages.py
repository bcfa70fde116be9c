"""The pages at the table say what is so: a saved ruling shows as saved, a rematch waits
for the end, seats stop at the game's maximum, statistics show only what the game has, the
hand form takes its deck from the core, and no page carries inline style or script."""

from __future__ import annotations

import re

import pytest

from tests.support.parsed import Page, text
from tests.support.web import add_players, record, start_group, start_match


@pytest.fixture
def table(client):
    gid = start_group(client)
    return gid, add_players(client, gid, "Ann", "Bob", "Cy", "Dee", "Eve", "Fay")


SAVE = "Save this ruling to the match"


def test_a_saved_ruling_shows_as_saved(client, table):
    gid, pids = table
    mid = start_match(client, gid, pids[:3])
    url = f"/groups/{gid}/matches/{mid}/check"
    form = {"up": "4h", "card": "5c", "turn": "1", "melee": "no"}
    assert Page(client.get(url, query_string=form)).get("button", SAVE) is not None
    saved = Page(client.get(client.post(url, data=form).location))
    assert saved.get("status", re.compile("Saved to the match record")) is not None
    assert saved.by_role("button", SAVE) == []
    other = Page(client.get(url, query_string={**form, "card": "4c"}))  # a new question
    assert other.get("button", SAVE) is not None


def test_rematch_only_once_the_match_is_finished(app, client, table):
    gid, pids = table
    mid = start_match(client, gid, pids[:2], threshold="30")
    board = f"/groups/{gid}/matches/{mid}"
    assert Page(client.get(board)).by_role("button", "Rematch") == []
    refused = Page(client.post(f"{board}/rematch", follow_redirects=True))
    assert "A rematch starts once this match is finished." in refused.text()
    matches = [name for name in Page(client.get(f"/groups/{gid}")).names("link")
               if name.startswith("Last One ·")]
    assert len(matches) == 1, matches  # no second match
    record(client, gid, mid, 1, 0, "", "8s 8h")
    rematch = Page(client.get(board)).get("button", "Rematch")
    assert rematch.find_parent("form")["action"] == f"{board}/rematch"


@pytest.mark.parametrize(("game", "most"), [("last-one", 6), ("crazy-eights", 7),
                                            ("countdown", 7)])
def test_seats_stop_at_the_games_maximum(client, table, game, most):
    gid, _ = table
    page = Page(client.get(f"/groups/{gid}/matches/new?game={game}"))
    for seat in page.all(".seat-select"):
        offered = [text(option) for option in seat.select("option")][1:]  # after "—"/"last"
        assert offered == [f"Seat {n}" for n in range(1, most + 1)]
    assert page.one("[data-seat-taps]")["data-max"] == str(most)


def test_crazy_eights_statistics_have_no_jokers(client, table):
    gid, pids = table
    mid = start_match(client, gid, pids[:2], game="crazy-eights")
    record(client, gid, mid, 1, 0, "", "8s 4c")
    countdown = start_match(client, gid, pids[:2], game="countdown")
    record(client, gid, countdown, 1, 0)
    stats = Page(client.get(f"/groups/{gid}/players/{pids[1]}/stats"))
    assert "Caught holding an 8" in stats.texts("dt")
    assert "joker" not in stats.text().lower()
    lo = start_match(client, gid, pids[:2])
    record(client, gid, lo, 1, 0, "", "jk 4c")
    stats = Page(client.get(f"/groups/{gid}/players/{pids[1]}/stats"))
    assert "Caught holding a joker" in stats.texts("dt")


@pytest.mark.parametrize(("game", "players", "copies", "jokers"), [
    ("crazy-eights", 5, 1, 0), ("crazy-eights", 6, 2, 0), ("last-one", 6, 1, 2)])
def test_hand_form_takes_the_deck_from_the_core(client, table, game, players, copies,
                                                 jokers):
    gid, pids = table
    mid = start_match(client, gid, pids[:players], game=game)
    deck = Page(client.get(f"/groups/{gid}/matches/{mid}/hands/new")).one("[data-copies]")
    assert (deck["data-copies"], deck["data-jokers"]) == (str(copies), str(jokers))


def test_no_inline_style_or_script_on_the_table_pages(client, table):
    gid, pids = table
    mid = start_match(client, gid, pids[:3])
    record(client, gid, mid, 1, 0, "", "8s", "9c")
    for path in (f"/groups/{gid}/matches/new", f"/groups/{gid}/matches/{mid}",
                 f"/groups/{gid}/matches/{mid}/hands/new", f"/groups/{gid}/matches/{mid}/hands/1",
                 f"/groups/{gid}/matches/{mid}/record", f"/groups/{gid}/players/{pids[0]}/stats"):
        page = Page(client.get(path))
        inline = [f"<{node.name} {name}>" for node in page.all("*") for name in node.attrs
                  if name == "style" or name.startswith("on")]
        inline += ["<script> without src" for node in page.all("script") if not node.get("src")
                   and node.get("type") != "application/json"]
        assert inline == [], path
