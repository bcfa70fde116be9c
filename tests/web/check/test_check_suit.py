"""The checker answers the table's question "may she play this card?": a card that is
legal once its player names a suit (an 8, a Countdown wild, a joker standing for an 8)
is legal, and the suit keys say which; a suit named where none may be is refused.

The page reads the verdict's ``needs_suit`` field, never its reason.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest

from scorekeeper.core.engine import run
from tests.support.parsed import Page, part

NEEDS_SUIT = [
    # the dispute, the rule the answer cites
    pytest.param({"game": "crazy-eights", "up": "5c", "card": "8h"},
                 "/rules/crazy-eights#c8-eights", id="plain-8"),
    pytest.param({"game": "crazy-eights", "up": "5c", "card": "8h", "last": "no"},
                 "/rules/crazy-eights#c8-eights", id="plain-8-not-the-last-card"),
    pytest.param({"game": "countdown", "up": "5c", "card": "3h", "opt-start_count": "3"},
                 "/rules/countdown#cd-wild", id="countdown-wild"),
    pytest.param({"game": "last-one", "up": "5c", "card": "jk", "cas": "8h", "melee": "no"},
                 "/rules/last-one#lo-jokers", id="joker-as-8"),
]


def answer(client, params: dict[str, str]) -> Page:
    """The checker's answer (the status region "The answer") read on its own."""
    response = client.get("/check?" + urlencode(params))
    assert response.status_code == 200, response.text
    return part(Page(response).get("status", "The answer"))


@pytest.mark.parametrize(("params", "rule"), NEEDS_SUIT)
def test_a_card_that_names_a_suit_is_legal_and_asks_which(client, params, rule):
    box = answer(client, params)
    text = box.text()
    assert text.startswith("✓ Legal She names the suit:"), text
    assert "Not legal" not in text and "It depends" not in text
    assert box.href(re.compile(r"^Rule: ")) == rule
    keys = box.by_role("link", re.compile(r"^She names "))
    assert [box.accessible_name(key) for key in keys] == [
        "She names clubs", "She names diamonds", "She names hearts", "She names spades"]
    # One tap on a key asks the same question with that suit named: legal, no question.
    named = answer(client, dict(params, csuit="D")).text()
    assert named.startswith("✓ Legal ") and "She names the suit" not in named, named
    asked = [parse_qs(urlsplit(str(key["href"])).query) for key in keys]
    assert [query["csuit"] for query in asked] == [["C"], ["D"], ["H"], ["S"]]
    assert all(query["card"] == [params["card"]] for query in asked)


@pytest.mark.parametrize(("params", "words"), [
    ({"game": "crazy-eights", "up": "5c", "card": "5h", "csuit": "S"}, "names no suit"),
    ({"game": "countdown", "up": "5c", "card": "8h", "csuit": "S", "opt-start_count": "3"},
     "does not follow"),
    ({"game": "last-one", "up": "5c", "card": "jk", "cas": "9h", "csuit": "S", "melee": "no"},
     "cannot stand for 9♥"),
])
def test_a_suit_named_where_none_may_be_is_still_refused(client, params, words):
    text = answer(client, params).text()
    assert text.startswith("✗ Not legal ") and words in text, text
    assert "She names the suit" not in text


@pytest.mark.parametrize(("event", "needs_suit"), [
    ({"player": 1, "play": "8H"}, True),
    ({"player": 1, "play": "8H", "suit": "D"}, False),
    ({"player": 1, "play": "5H", "suit": "D"}, False),
])
def test_the_replay_step_says_needs_suit_as_a_field(event, needs_suit):
    step = run({"sheet": {"game": "crazy-eights"}, "players": 2,
                "hands": [5, ["8H", "5H", "KD"]], "upcard": "5C",
                "situation": {"turn": 1}, "events": [event]})["steps"][0]
    assert step["needs_suit"] is needs_suit and step["legal"] is (not needs_suit
                                                                   and "5H" not in str(event))
