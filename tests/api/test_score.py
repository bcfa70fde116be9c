"""``POST /api/v1/score``: points per seat, and 400s that name the field at fault.

Scoring reads no table, so these run on SQLite alone (marked ``no_database``)."""

from __future__ import annotations

import pytest

# Pages and endpoints that read no table: SQLite alone (conftest checks no SQL is sent).
pytestmark = pytest.mark.no_database

URL = "/api/v1/score"
C8 = {"game": "crazy-eights"}
LO = {"game": "last-one"}


def body(sheet=None, seats=("Ann", "Bob", "Cy"), out="Cy", **extra):
    data = {"sheet": sheet or C8, "seats": seats if isinstance(seats, str) else list(seats),
            "out": out,
            "remaining": {"Ann": "8♠ K♥ 7♦ A♣", "Bob": "9♣ 9♥"}}
    data.update(extra)
    return data


def test_the_worked_example_scores_86(client):
    response = client.post(URL, json=body())
    assert response.status_code == 200
    data = response.get_json()
    assert data["points"] == {"Ann": 0, "Bob": 0, "Cy": 86}
    assert data["breakdown"]["Ann"] == [
        {"card": "8S", "points": 50}, {"card": "KH", "points": 10},
        {"card": "7D", "points": 7}, {"card": "AC", "points": 1},
    ]
    assert data["breakdown"]["Cy"] == []
    assert data["notes"] == {"Cy": "went out: scores the others' cards"}


@pytest.mark.parametrize(
    ("data", "points"),
    [
        (body(remaining={"Ann": "", "Bob": "8s, kh", "Cy": "5c"}, out="Ann"),
         {"Ann": 65, "Bob": 0, "Cy": 0}),
        (body(LO), {"Ann": 57, "Bob": 18, "Cy": 0}),
        (body(LO, remaining={"Ann": "jk", "Bob": "9c 9h"}), {"Ann": 0, "Bob": 18, "Cy": 0}),
        (body({"game": "countdown"}), {"Ann": 0, "Bob": 0, "Cy": 0}),
        (body(out=None, blocked=True, remaining={"Ann": "8s kh", "Bob": "5c", "Cy": "9c 9h"}),
         {"Ann": 0, "Bob": 68, "Cy": 0}),
        (body({"game": "crazy-eights", "options": {"jam_scoring": "full"}}, out=None,
              blocked=True, remaining={"Ann": "8s kh", "Bob": "5c", "Cy": "9c 9h"}),
         {"Ann": 0, "Bob": 78, "Cy": 0}),
        (body(seats=[" Ann ", "Bob", "Cy"], out=" Cy"), {"Ann": 0, "Bob": 0, "Cy": 86}),
        (body(seats=["A", "B", "C", "D", "E", "F", "G"], out="G",
              remaining={"A": "8s 8s", "B": "kh", "C": "", "D": "", "E": "", "F": ""}),
         {"A": 0, "B": 0, "C": 0, "D": 0, "E": 0, "F": 0, "G": 110}),  # two decks
    ],
)
def test_scores(client, data, points):
    response = client.post(URL, json=data)
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["points"] == points


# what is wrong -> the field the error names, words in its message
BAD = [
    (body({"game": "poker"}), "sheet.game", "unknown game"),
    (body({"game": "crazy-eights", "options": {"colour": 1}}), "sheet.options.colour",
     "unknown option"),
    (body({"game": "crazy-eights", "options": {"hand_size": 7}}), "sheet.options.hand_size",
     "does not apply"),
    (body({"game": "last-one", "options": {"threshold": 0}}), "sheet.options.threshold",
     "at least 1"),
    (body({"game": "crazy-eights", "options": {"match_end": "never"}}),
     "sheet.options.match_end", "must be one of"),
    (body({"game": "crazy-eights", "options": []}), "sheet.options", "must be an object"),
    (body("last-one"), "sheet", "must be an object"),
    (body(remaining={"Ann": "8s zz", "Bob": ""}), "remaining.Ann", "'zz' is not a card"),
    (body(remaining={"Ann": "8s kh", "Bob": "8♠"}), "remaining.Bob", "entered 2 times"),
    (body(out="Bob", remaining={"Ann": "8s", "Bob": "", "Cy": "8s 8s"}), "remaining.Cy",
     "8♠ is entered 3"),
    (body(remaining={"Ann": "jk", "Bob": ""}), "remaining.Ann", "without jokers"),
    (body(LO, remaining={"Ann": "jk jk", "Bob": "jk"}), "remaining.Bob", "Joker is entered 3"),
    (body(remaining={"Ann": "", "Bob": "", "Cy": "5c"}), "remaining.Cy",
     "Cy went out, so holds no cards"),
    (body(remaining={"Ann": "", "Bob": "", "Dee": "5c"}), "remaining.Dee",
     "'Dee' is not one of the seats"),
    (body(remaining={"Ann": "5c"}), "remaining.Bob", "the cards Bob holds are missing"),
    (body(remaining={"Ann": "5c", "Bob": 5}), "remaining.Bob", "cards must be text"),
    (body(remaining="5c"), "remaining", "remaining must map"),
    (body(out="Dee"), "out", "out must be one of the seats"),
    (body(out=2), "out", "out must be one of the seats"),
    (body(out=None), "out", "say who went out"),
    (body(blocked=True), "blocked", "a blocked hand has nobody"),
    (body(blocked="yes"), "blocked", "true or false"),
    (body(seats=["Ann"]), "seats", "needs at least 2 players; 1 is too few"),
    (body(LO, seats=list("ABCDEFG")), "seats", "2 to 6 players; 7 is too many"),
    (body(seats=["Ann", "Ann", "Cy"]), "seats", "must be different"),
    (body(seats=["Ann", " ", "Cy"]), "seats", "needs a name"),
    (body(seats=["Ann", "B" * 41, "Cy"]), "seats", "1 to 40 characters"),
    (body(seats="Ann Bob Cy"), "seats", "list of player names"),
    (body(seats=["Ann", 2, "Cy"]), "seats", "list of player names"),
    ([1, 2], "body", "must be a JSON object"),
    ("text", "body", "must be a JSON object"),
]


@pytest.mark.parametrize(("data", "field", "message"), BAD)
def test_bad_input_is_a_400_naming_the_field(client, data, field, message):
    response = client.post(URL, json=data)
    assert response.status_code == 400
    assert response.is_json
    error = response.get_json()["error"]
    assert error["status"] == 400
    assert error["field"] == field
    assert message in error["message"]


@pytest.mark.parametrize(
    ("raw", "content_type"),
    [
        (b"{not json", "application/json"),
        (b"", "application/json"),
        (b"sheet=crazy-eights", "application/x-www-form-urlencoded"),
        (b'{"sheet": {"game": "crazy-eights"}}', "text/plain"),
    ],
)
def test_non_json_body(client, raw, content_type):
    response = client.post(URL, data=raw, content_type=content_type)
    assert response.status_code == 400
    assert response.get_json()["error"]["field"] == "body"


def test_get_is_a_json_405(client):
    response = client.get(URL)
    assert response.status_code == 405
    assert response.get_json()["error"]["status"] == 405


def test_no_csrf_token_needed(app):
    app.config["WTF_CSRF_ENABLED"] = True
    response = app.test_client().post(URL, json=body())
    assert response.status_code == 200
