"""The play checker agrees with the rules page: going out on a wild needs no suit.

An 8 (Crazy Eights, Last One), a joker standing for an 8 and a Countdown wild played
as the last card, with no suit named: the verdict is legal and says so in the
engine's words ("Ann goes out on the 8♥: no suit is needed").
"""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

from tests.support.parsed import Page, squeeze, text
from tests.support.web import add_players, start_group, start_match


def answer_text(client, url: str) -> str:
    """What the checker's answer (the status region "The answer") says."""
    response = client.get(url)
    assert response.status_code == 200, response.text
    return text(Page(response).get("status", "The answer"))


@pytest.mark.parametrize(("params", "words"), [
    ({"game": "crazy-eights", "up": "4h", "card": "8h", "held": "1"},
     "Seat 1 goes out on the 8♥: no suit is needed"),
    ({"game": "crazy-eights", "up": "4h", "card": "8h", "csuit": "S", "held": "1"},
     "no suit is needed"),
    ({"game": "last-one", "up": "4h", "card": "8h", "held": "1", "melee": "no"},
     "Seat 1 goes out on the 8♥: no suit is needed"),
    ({"game": "last-one", "up": "4h", "card": "jk", "cas": "8c", "held": "1", "melee": "no"},
     "goes out on the joker as the 8♣: no suit is needed"),
])
def test_going_out_on_a_wild_needs_no_suit(client, params, words):
    text = answer_text(client, "/check?" + urlencode(params))
    assert text.startswith("✓ Legal ") and words in text, text


def test_with_more_cards_the_suit_is_still_needed(client):
    """Said not to be the last card (the count for everyone is only a default, so the
    form asks about the last card on its own)."""
    text = answer_text(client, "/check?" + urlencode(
        {"game": "crazy-eights", "up": "4h", "card": "8h", "held": "3", "last": "no"}))
    assert text.startswith("✓ Legal ") and "She names the suit" in text, text


def test_in_a_match_the_verdict_names_the_player(client):
    gid = start_group(client)
    pids = add_players(client, gid, "Ann", "Bob", "Cy")
    mid = start_match(client, gid, pids, game="crazy-eights")
    text = answer_text(client, f"/groups/{gid}/matches/{mid}/check?" + urlencode(
        {"up": "4h", "card": "8h", "held": "1"}))
    assert "Ann goes out on the 8♥: no suit is needed" in text, text


@pytest.mark.parametrize(("game", "words"), [
    ("crazy-eights", "Going out on\nan 8 is legal and needs no named suit"),
    ("last-one", "You may go out on an 8 without naming a suit"),
    ("countdown", "going\nout on your wild card needs no named suit"),
])
def test_the_rules_reference_says_the_same(client, game, words):
    rules = Page(client.get(f"/rules/{game}"))
    said = squeeze(words)
    assert [para for para in rules.texts("main p, main li") if said in para], said
