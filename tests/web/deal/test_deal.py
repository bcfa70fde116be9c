"""The deal helper page (/deal) and GET /api/v1/deal, including a schemathesis run."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

from scorekeeper import create_app
from scorekeeper.api import document
from scorekeeper.core.sheets import GAMES
from tests.support.parsed import Page, text

# Pages and endpoints that read no table: SQLite alone (conftest checks no SQL is sent).
pytestmark = pytest.mark.no_database


def page(client, url: str, status: int = 200) -> Page:
    response = client.get(url)
    assert response.status_code == status, response.data[:500]
    return Page(response)


def answer(client, url: str) -> tuple[Page, str, dict[str, str]]:
    """The deal's page, what its answer (the region "The deal") says, and its facts
    (each term with its value)."""
    shown = page(client, url)
    region = shown.get("region", "The deal")
    facts = dict(zip([text(t) for t in region.select("dt")],
                     [text(d) for d in region.select("dd")], strict=True))
    return shown, text(region), facts


# ---- /deal ----

def test_the_empty_form(client):
    shown = page(client, "/deal")
    assert "Pick the game and how many are playing." in shown.text()
    assert shown.by_role("region", "The deal") == []
    assert set(shown.names("radio")) >= {game.name for game in GAMES.values()}
    seats = [name for name in shown.names("radio") if name.endswith(" players")]
    assert seats == [f"{n} players" for n in range(2, 7)]  # Last One, picked first: 2 to 6


@pytest.mark.parametrize(
    ("game", "players"),
    [(g.key, n) for g in GAMES.values() for n in range(g.min_players, g.max_players + 1)],
)
def test_every_game_and_table_size(client, game, players):
    shown, said, _ = answer(client, f"/deal?game={game}&players={players}")
    each = {"last-one": 7, "crazy-eights": 7 if players == 2 else 5, "countdown": 8}[game]
    assert shown.text(".deal-big") == f"{each} cards each"
    assert shown.text(".deal-big strong") == str(each)  # the figure stands out
    assert shown.text(".deal-seats") == "Seat 1 deals; Seat 2, on the dealer’s left, plays first."
    assert shown.texts(".deal-seats strong") == ["Seat 1", "Seat 2"]
    assert said.startswith(f"{each} cards each Players {players} ")


def test_six_players_of_last_one(client):
    shown, _, facts = answer(client, "/deal?game=last-one&players=6&hand_size=7&dealer=6")
    assert shown.text(".deal-big") == "7 cards each"
    assert facts == {"Players": "6", "Deck": "one deck (52) and 2 jokers",
                     "Cards dealt": "42, then turn 1 up", "Left in the stock": "11"}
    assert shown.text(".deal-seats").startswith("Seat 6 deals; Seat 1, on the dealer’s left")


def test_a_deal_that_barely_works_is_flagged(client):
    _, said, _ = answer(client, "/deal?game=last-one&players=6&hand_size=8")
    assert "Only 5 cards stay in the stock for 6 players" in said


def test_countdown_counts_per_seat(client):
    shown, _, facts = answer(client, "/deal?game=countdown&players=3&count=8&count=7&count=5")
    assert shown.texts(".deal-counts li") == ["Seat 1 8", "Seat 2 7", "Seat 3 5"]
    assert facts["Cards dealt"] == "20, then turn 1 up"
    # One count box per seat; a seat the form did not show yet starts at 8.
    shown = page(client, "/deal?game=countdown&players=4&count=8&count=7&count=5")
    assert len(shown.all('select[name="count"]')) == 4
    assert shown.texts(".deal-counts li")[3] == "Seat 4 8"


def test_a_dealer_beyond_the_table_is_explained(client):
    shown, _, _ = answer(client, "/deal?game=crazy-eights&players=3&dealer=6")
    assert "There is no seat 6 at a table of 3, so seat 1 deals." in shown.text("main")
    assert shown.text(".deal-seats").startswith("Seat 1 deals;")


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("game=last-one&players=7", "Last One is for 2 to 6 players; 7 is too many"),
        ("game=crazy-eights&players=1", "Crazy Eights needs at least 2 players"),
        ("game=countdown&players=12", "2 to 7 players; 12 is too many"),
        ("game=last-one&players=6&hand_size=9", "no card is left to turn up"),
        ("game=last-one&players=4&hand_size=3", "use 4 to 9"),
        ("game=last-one&players=lots", "players must be a whole number, not 'lots'"),
        ("game=countdown&players=3&count=0", "already won"),
        ("game=countdown&players=3&count=x", "counts must be a whole number"),
        ("game=snap&players=3", "There is no game called 'snap' here."),
    ],
)
def test_bad_input_is_explained(client, query, words):
    shown = page(client, f"/deal?{query}", 400)
    alert = shown.get("alert")
    assert alert.find("h2") is not None and text(alert.find("h2")) == "That deal doesn’t work"
    assert words in text(alert)
    assert shown.by_role("region", "The deal") == []  # no answer beside the error


# ---- GET /api/v1/deal ----

def test_api_deal(client):
    response = client.get("/api/v1/deal?game=countdown&players=3&counts=8,7,5&dealer=2")
    assert response.status_code == 200
    assert response.json == {
        "game": "countdown", "players": 3, "cards_each": [8, 7, 5], "decks": 1, "jokers": 0,
        "deck_size": 52, "cards_dealt": 20, "stock_after_upcard": 31, "dealer": 2,
        "first_player": 0, "warnings": [],
    }


def test_api_deal_warnings(client):
    data = client.get("/api/v1/deal?game=last-one&players=6&hand_size=8").json
    assert data["stock_after_upcard"] == 5
    assert data["dealer"] is None and data["first_player"] is None
    assert data["warnings"] == ["Only 5 cards stay in the stock for 6 players: it will run "
                                "out in the first round of draws."]


@pytest.mark.parametrize(
    ("query", "field", "words"),
    [
        ("", "game", "game is required"),
        ("game=last-one", "players", "players is required"),
        ("game=uno&players=3", "game", "unknown game 'uno'"),
        ("game=last-one&players=7", "players", "2 to 6 players"),
        ("game=last-one&players=-1", "players", "whole number"),
        ("game=last-one&players=99999999999", "players", "whole number from 0 to 999"),
        ("game=last-one&players=6&hand_size=9", "hand_size", "no card is left"),
        ("game=crazy-eights&players=3&hand_size=5", "hand_size", "only applies to Last One"),
        ("game=countdown&players=3&counts=8,7", "counts", "2 counts for 3 players"),
        ("game=countdown&players=3&counts=8,,7", "counts", "separated by commas"),
        ("game=countdown&players=2&counts=8,9", "counts", "use 1 to 8"),
        ("game=last-one&players=3&counts=8,8,8", "counts", "only apply to Countdown"),
        ("game=last-one&players=3&dealer=3", "dealer", "0 to 2"),
        ("game=last-one&players=3&dealer=x", "dealer", "whole number"),
        ("game=last-one&players=3&hand-size=5", "hand-size", "unknown parameter 'hand-size'"),
    ],
)
def test_api_deal_errors_name_the_parameter(client, query, field, words):
    response = client.get(f"/api/v1/deal?{query}")
    assert response.status_code == 400
    error = response.json["error"]
    assert error["status"] == 400 and error["field"] == field
    assert words in error["message"]


def test_api_deal_is_in_the_openapi_document(client):
    doc = client.get("/api/v1/openapi.json").json
    operation = doc["paths"]["/api/v1/deal"]["get"]
    assert {p["name"] for p in operation["parameters"]} == {
        "game", "players", "hand_size", "counts", "dealer"}
    assert set(operation["responses"]) == {"200", "400", "503"}
    assert "DealPlan" in doc["components"]["schemas"]


# ---- fuzzing the endpoint against its document ----

REQUIRED = {"game", "players"}
# Built from the API modules alone: collecting starts no app (the fixture below does).
schema = schemathesis.openapi.from_dict(document()).include(path="/api/v1/deal")


@pytest.fixture(scope="module")
def deal_app():
    """The app the fuzzer calls; the deal endpoint needs no tables."""
    return create_app({"TESTING": True, "SECRET_KEY": "fuzz",
                       "SQLALCHEMY_DATABASE_URI": "sqlite://"})


@schema.parametrize()
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_deal_fuzz(case, deal_app):
    # Parameters depend on each other (hand_size only for Last One, counts only for
    # Countdown, the seat range per game), which a query-parameter schema cannot say;
    # such combinations are schema-valid yet refused with a documented 400. So instead
    # of "schema-valid means accepted": a 400 names a parameter the request sent, or a
    # required one it left out; a 200 is a plan for exactly the players asked for.
    response = case.call_and_validate(app=deal_app, excluded_checks=[positive_data_acceptance])
    query = case.query or {}
    if response.status_code == 400:
        field = response.json()["error"]["field"]
        assert field in query or (field in REQUIRED and not str(query.get(field, "")).strip())
    elif case.method.upper() != "GET":  # schemathesis also tries methods the path lacks
        assert response.status_code == 405 or case.method.upper() == "OPTIONS"
    else:
        assert response.status_code == 200
        plan = response.json()
        assert plan["game"] == query["game"] and plan["players"] == int(query["players"])
        assert len(plan["cards_each"]) == plan["players"]


def test_api_deal_405_lists_allowed_methods(client):
    response = client.post("/api/v1/deal?game=last-one&players=3")
    assert response.status_code == 405
    assert response.json["error"]["status"] == 405
    assert "GET" in response.headers.get("Allow", "")
