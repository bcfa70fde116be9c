"""One table of card spellings for both readers: the core's (Python) and the browser's
one (``CardText`` in static/cards.js, which the picker, the hand preview and the offline
queue all use), run in Chromium. A spelling one accepts and the other refuses would
show a preview that the server then refuses."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorekeeper.core.cards import CardError, parse_card, parse_cards

TABLE = json.loads((Path(__file__).resolve().parents[1] / "support" / "card_spellings.json")
                   .read_text("utf-8"))
STATIC = Path(__file__).resolve().parents[2] / "static"
CARDS_JS = STATIC / "cards.js"
SCRIPTS = ("app.js", "hand.js", "wake.js", "pages.js", "offline.js", "live.js")


@pytest.mark.parametrize(("text", "expected"), TABLE["cards"])
def test_python_reads_each_spelling(text, expected):
    if expected is None:
        with pytest.raises(CardError):
            parse_card(text)
    else:
        assert str(parse_card(text)) == expected


@pytest.mark.parametrize(("text", "expected"), TABLE["hands"])
def test_python_reads_each_hand(text, expected):
    assert [str(c) for c in parse_cards(text)] == expected


@pytest.mark.browser
def test_card_text_in_cards_js_reads_the_same(page):
    """cards.js on a blank page (no server needed): CardText on every row of the table."""
    page.set_content("<!doctype html><title>CardText</title>")
    page.add_script_tag(path=str(CARDS_JS))
    got = page.evaluate("""(table) => {
        const read = (text) => { const c = CardText.parse(text); return c ? c.text : null; };
        return {
          cards: table.cards.map(([text]) => read(text)),
          hands: table.hands.map(([text]) => CardText.tokens(text).map(read)),
        };
    }""", TABLE)
    assert dict(zip([t for t, _ in TABLE["cards"]], got["cards"], strict=True)) == dict(
        TABLE["cards"])
    assert got["hands"] == [cards for _, cards in TABLE["hands"]]


@pytest.mark.parametrize("name", SCRIPTS)
def test_no_other_script_reads_card_text_itself(name):
    """The other scripts use CardText; none carries its own table of suits or jokers."""
    text = (STATIC / name).read_text("utf-8")
    assert "const CardText" not in text
    assert not any(spelling in text for spelling in ('"jkr"', "♧", "jk|joker"))
