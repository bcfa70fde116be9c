"""The pages at the table say what is so: a saved ruling shows as saved, a rematch waits
for the end, seats stop at the game's maximum, statistics show only what the game has, the
hand form takes its deck from the core, and no page carries inline style or script."""

from __future__ import annotations

import re

import pytest

from tests.support.web import add_players, record, start_group, start_match


@pytest.fixture
def table(client):
    gid = start_group(client)
    return gid, add_players(client, gid, "Ann", "Bob", "Cy", "Dee", "Eve", "Fay")


def test_a_saved_ruling_shows_as_saved(client, table):
    gid, pids = table
    mid = start_match(client, gid, pids[:3])
    url = f"/groups/{gid}/matches/{mid}/check"
    form = {"up": "4h", "card": "5c", "turn": "1", "melee": "no"}
    assert "Save this ruling to the match" in client.get(url, query_string=form).text
    saved = client.get(client.post(url, data=form).location).text
    assert "Saved to the match record" in saved
    assert "Save this ruling to the match" not in saved
    other = client.get(url, query_string={**form, "card": "4c"}).text  # a new question
    assert "Save this ruling to the match" in other


def test_rematch_only_once_the_match_is_finished(app, client, table):
    gid, pids = table
    mid = start_match(client, gid, pids[:2], threshold="30")
    assert "/rematch" not in client.get(f"/groups/{gid}/matches/{mid}").text
    refused = client.post(f"/groups/{gid}/matches/{mid}/rematch", follow_redirects=True)
    assert "A rematch starts once this match is finished." in refused.text
    assert client.get(f"/groups/{gid}").text.count("Last One ·") == 1  # no second match
    record(client, gid, mid, 1, 0, "", "8s 8h")
    assert "/rematch" in client.get(f"/groups/{gid}/matches/{mid}").text


@pytest.mark.parametrize(("game", "most"), [("last-one", 6), ("crazy-eights", 7),
                                            ("countdown", 7)])
def test_seats_stop_at_the_games_maximum(client, table, game, most):
    gid, _ = table
    page = client.get(f"/groups/{gid}/matches/new?game={game}").text
    assert f">Seat {most}<" in page and f">Seat {most + 1}<" not in page
    assert f'data-max="{most}"' in page


def test_crazy_eights_statistics_have_no_jokers(client, table):
    gid, pids = table
    mid = start_match(client, gid, pids[:2], game="crazy-eights")
    record(client, gid, mid, 1, 0, "", "8s 4c")
    countdown = start_match(client, gid, pids[:2], game="countdown")
    record(client, gid, countdown, 1, 0)
    stats = client.get(f"/groups/{gid}/players/{pids[1]}/stats").text
    assert "Caught holding an 8" in stats and "joker" not in stats.lower()
    lo = start_match(client, gid, pids[:2])
    record(client, gid, lo, 1, 0, "", "jk 4c")
    stats = client.get(f"/groups/{gid}/players/{pids[1]}/stats").text
    assert "Caught holding a joker" in stats


@pytest.mark.parametrize(("game", "players", "copies", "jokers"), [
    ("crazy-eights", 5, 1, 0), ("crazy-eights", 6, 2, 0), ("last-one", 6, 1, 2)])
def test_hand_form_takes_the_deck_from_the_core(client, table, game, players, copies,
                                                 jokers):
    gid, pids = table
    mid = start_match(client, gid, pids[:players], game=game)
    page = client.get(f"/groups/{gid}/matches/{mid}/hands/new").text
    assert f'data-copies="{copies}" data-jokers="{jokers}"' in page


def test_no_inline_style_or_script_on_the_table_pages(client, table):
    gid, pids = table
    mid = start_match(client, gid, pids[:3])
    record(client, gid, mid, 1, 0, "", "8s", "9c")
    for path in (f"/groups/{gid}/matches/new", f"/groups/{gid}/matches/{mid}",
                 f"/groups/{gid}/matches/{mid}/hands/new", f"/groups/{gid}/matches/{mid}/hands/1",
                 f"/groups/{gid}/matches/{mid}/record", f"/groups/{gid}/players/{pids[0]}/stats"):
        page = client.get(path).text
        assert not re.search(r"\sstyle=|\son[a-z]+=|<script>", page), path
