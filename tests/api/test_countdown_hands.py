"""A Countdown hand through the API needs no cards, as on the hand page.

Countdown scores who went out alone, so its hands carry no cards: the page has no
card fields, and the API takes the same rule from the core
(:func:`~scorekeeper.core.scoring.hands_carry_cards`): ``held`` may be left out,
empty, or name only some seats. Other games still need every seat's cards.
"""

from __future__ import annotations

import pytest

from scorekeeper.store.extensions import db
from scorekeeper.store.models import Hand
from scorekeeper.store.reading import current_standings
from tests.support.api import error, start
from tests.support.views import match_view
from tests.support.web import add_players, record, start_group, start_match


@pytest.mark.parametrize("held", ["left out", {}, [], {"0": ""}, {"1": "4h"}])
def test_a_countdown_hand_without_cards_is_recorded(api, held):
    match = start(api, "countdown", {"start_count": 2}, players=("Ann", "Bob", "Cy"))
    body = {"number": 1, "out": 0}
    if held != "left out":
        body["held"] = held
    response = api("POST", f"/matches/{match['id']}/hands", body)
    assert response.status_code == 201, response.json
    assert response.json["standings"]["totals"] == [1, 2, 2]


def test_a_countdown_hand_is_edited_without_cards(api, app):
    match = start(api, "countdown", {"start_count": 3}, players=("Ann", "Bob"))
    path = f"/matches/{match['id']}/hands"
    assert api("POST", path, {"number": 1, "out": 0}).status_code == 201
    response = api("PUT", f"{path}/1", {"out": 1})
    assert response.status_code == 200, response.json
    assert response.json["standings"]["totals"] == [3, 2]
    with app.app_context():
        assert db.session.scalars(db.select(Hand.out_seat)).all() == [1]


def test_the_api_and_the_page_record_the_same_countdown_hand(api, client, app):
    """The hand page records a Countdown hand from who went out alone; the API
    accepts the very same hand, and both matches stand the same after it."""
    gid = start_group(client)
    pids = add_players(client, gid, "Dee", "Eve")
    on_page = start_match(client, gid, pids, game="countdown", first_dealer=1)
    assert record(client, gid, on_page, 1, 0).status_code == 302
    through_api = start(api, "countdown", players=("Ann", "Bob"))["id"]
    response = api("POST", f"/matches/{through_api}/hands", {"number": 1, "out": 0})
    assert response.status_code == 201, response.json
    with app.app_context():
        page_totals = current_standings(match_view(on_page)).totals
        api_totals = current_standings(match_view(through_api)).totals
    assert list(page_totals) == list(api_totals) == [7, 8]


@pytest.mark.parametrize("game", ["crazy-eights", "last-one"])
def test_other_games_still_need_the_cards(api, app, game):
    match = start(api, game)
    response = api("POST", f"/matches/{match['id']}/hands", {"number": 1, "out": 0})
    body = error(response, 400, "held")
    assert "held" in body["message"]
    missing = api("POST", f"/matches/{match['id']}/hands",
                  {"number": 1, "out": 0, "held": {"1": "4h"}})
    assert "the cards Cy holds are missing" in error(missing, 400, "held.2")["message"]
    with app.app_context():
        assert db.session.scalars(db.select(Hand)).all() == []
