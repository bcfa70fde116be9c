"""A hand entered only in part is refused everywhere: never a silent 0.

Every seat still in the hand holds at least one card, except the one who went out; in a
blocked or jammed hand, everybody does. Checked once in the core and applied by the one
writer, so the hand pages and the JSON API refuse the same hands, on both databases,
and store nothing.
"""

from __future__ import annotations

import pytest

from scorekeeper.core.cards import parse_cards
from scorekeeper.core.scoring import HandResult, ScoringError, check_complete
from scorekeeper.core.sheets import Sheet
from scorekeeper.store.extensions import db
from scorekeeper.store.models import Hand, HandEntry
from tests.support.api import Api, error, hand, start
from tests.support.web import add_players, field_errors, record, start_group, start_match

NAMES = ["Ann", "Ben", "Cy"]


def held(*texts: str) -> list:
    return [parse_cards(t) for t in texts]


@pytest.mark.parametrize(("game", "out", "texts", "field", "words"), [
    ("last-one", 0, ("", "", "9c"), "held.1", "Ben's cards are missing"),
    ("last-one", 2, ("8s", "", ""), "held.1", "Ben's cards are missing"),
    ("last-one", None, ("", "5c", "9c"), "held.0", "Ann's cards are missing"),
    ("last-one", None, ("8s", "5c", ""), "held.2", "Cy's cards are missing"),
    ("crazy-eights", 1, ("", "", "9c"), "held.0", "Ann's cards are missing"),
    ("crazy-eights", None, ("3h", "", "9c"), "held.1", "Ben's cards are missing"),
])
def test_core_refuses_an_empty_seat(game, out, texts, field, words):
    with pytest.raises(ScoringError) as caught:
        check_complete(Sheet.make(game), NAMES, HandResult.of(out, held(*texts)))
    assert caught.value.field == field and str(caught.value) == words


@pytest.mark.parametrize(("game", "out", "texts", "in_play"), [
    ("last-one", 1, ("8s", "", "9c"), None),  # only the one who went out holds nothing
    ("last-one", None, ("8s", "4d", "9c"), None),  # blocked: everybody holds cards
    ("last-one", 0, ("", "4d", ""), (True, True, False)),  # Cy is out of the match
    ("countdown", 0, ("", "", ""), None),  # Countdown counts who went out, not cards
    ("countdown", None, ("", "", ""), None),
])
def test_core_accepts_a_complete_hand(game, out, texts, in_play):
    check_complete(Sheet.make(game), NAMES, HandResult.of(out, held(*texts)), in_play)


def counts(app) -> tuple[int, int]:
    """Rows in the hands and hand entries tables."""
    with app.app_context():
        return (db.session.scalar(db.select(db.func.count(Hand.id))),
                db.session.scalar(db.select(db.func.count(HandEntry.id))))


@pytest.fixture
def table(client):
    """A page-side group with Ann, Ben and Cy; returns (group id, player ids)."""
    gid = start_group(client)
    return gid, add_players(client, gid, "Ann", "Ben", "Cy")


PAGE_CASES = [
    ("last-one", 0, ("", "", "9c"), "seat-1", "Ben's cards are missing"),
    ("last-one", 1, ("8s 9h", "", "  "), "seat-2", "Cy's cards are missing"),
    ("last-one", "none", ("", "5c", "9c"), "seat-0", "Ann's cards are missing"),
    ("crazy-eights", 2, ("", "kh", ""), "seat-0", "Ann's cards are missing"),
    ("crazy-eights", "none", ("3h", "", "9c"), "seat-1", "Ben's cards are missing"),
]


@pytest.mark.parametrize(("game", "out", "texts", "field", "words"), PAGE_CASES)
def test_page_refuses_an_incomplete_hand(app, client, table, game, out, texts, field, words):
    gid, pids = table
    mid = start_match(client, gid, pids, game=game)
    before = counts(app)
    page = record(client, gid, mid, 1, out, *texts)
    assert page.status_code == 400
    assert words in field_errors(page.text)[field]
    assert "Nothing was saved" in page.text
    assert counts(app) == before == (0, 0)


@pytest.mark.parametrize(("game", "out", "texts", "field", "words"), PAGE_CASES)
def test_page_edit_refuses_an_incomplete_hand(app, client, table, game, out, texts, field,
                                              words):
    gid, pids = table
    mid = start_match(client, gid, pids, game=game)
    assert record(client, gid, mid, 1, 0, "", "4d 5d", "6h").status_code == 302
    before = counts(app)
    data = {"number": "1", "out": str(out), "version": "1"}
    data |= {f"seat-{i}": t for i, t in enumerate(texts)}
    version = client.get(f"/groups/{gid}/matches/{mid}/hands/1").text
    data["version"] = version.split('name="version" value="')[1].split('"')[0]
    page = client.post(f"/groups/{gid}/matches/{mid}/hands/1", data=data)
    assert page.status_code == 400
    assert words in field_errors(page.text)[field]
    assert counts(app) == before == (1, 3)
    assert 'value="4D 5D"' in client.get(f"/groups/{gid}/matches/{mid}/hands/1").text


def test_page_needs_no_cards_from_a_player_out_of_the_match(app, client, table):
    gid, pids = table
    mid = start_match(client, gid, pids, threshold="50")
    assert record(client, gid, mid, 1, 1, "8s 8h 8d", "", "4c 5c").status_code == 302
    # Ann fell in hand 1 (75 points): hand 2 needs cards from Cy only (Ben went out)
    assert record(client, gid, mid, 2, 1, "", "", "6c 7c").status_code == 302
    assert counts(app) == (2, 6)


def test_countdown_page_has_no_card_fields(app, client, table):
    gid, pids = table
    mid = start_match(client, gid, pids, game="countdown")
    form = client.get(f"/groups/{gid}/matches/{mid}/hands/new").text
    assert 'name="seat-0"' not in form and "data-picker" not in form
    assert record(client, gid, mid, 1, 2).status_code == 302
    assert counts(app) == (1, 3)


API_CASES = [
    ("last-one", 0, {"1": "", "2": "9c"}, "held.1", "Bob's cards are missing"),
    ("last-one", None, {"0": "5c", "1": [], "2": "9c"}, "held.1", "Bob's cards are missing"),
    ("crazy-eights", 2, {"0": "kh", "1": " "}, "held.1", "Bob's cards are missing"),
    ("crazy-eights", None, {"0": "", "1": "3h", "2": "9c"}, "held.0", "Ann's cards are missing"),
]


@pytest.mark.parametrize(("game", "out", "cards", "field", "words"), API_CASES)
def test_api_refuses_an_incomplete_hand(api, app, game, out, cards, field, words):
    match = start(api, game)
    body = {"number": 1, "out": out, "blocked": out is None, "held": cards}
    before = counts(app)
    assert words in error(api("POST", f"/matches/{match['id']}/hands", body), 400,
                          field)["message"]
    assert counts(app) == before == (0, 0)


@pytest.mark.parametrize(("game", "out", "cards", "field", "words"), API_CASES)
def test_api_edit_refuses_an_incomplete_hand(api, app, game, out, cards, field, words):
    match = start(api, game)
    path = f"/matches/{match['id']}/hands"
    assert api("POST", path, hand(1, 0, s1="4d 5d", s2="6h")).status_code == 201
    before = counts(app)
    body = {"out": out, "blocked": out is None, "held": cards}
    assert words in error(api("PUT", f"{path}/1", body), 400, field)["message"]
    assert counts(app) == before == (1, 3)
    assert api("GET", f"/matches/{match['id']}").json["hands"][0]["cards"] == [
        "", "4D 5D", "6H"]


@pytest.fixture
def api(client, groups) -> Api:
    return Api(client, groups["home"])
