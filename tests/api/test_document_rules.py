"""The OpenAPI document states the rules the server enforces, where a schema can say
them: each request below is refused by the document exactly when the server refuses
it (the server's answer is checked too). What no schema can say is listed, with why,
in ``test_fuzz.py``'s ``REFUSED``: the only refusals of schema-valid requests the
fuzzer lets pass."""

from __future__ import annotations

import jsonschema_rs
import pytest

from scorekeeper.api import document
from scorekeeper.core.sheets import GAMES, OPTIONS, Option, Sheet, SheetError
from scorekeeper.store.transfer import FORMAT, VERSION

SHEET = {"game": "crazy-eights", "options": {}}
FILE = {"format": FORMAT, "version": VERSION}
SCORE = {"sheet": SHEET, "out": "Ann", "remaining": {"Ann": "", "Bob": "9c"}}
BLOCKED = {"sheet": SHEET, "seats": ["Ann", "Bob"], "remaining": {"Ann": "2c", "Bob": "9c"}}
REPLAY = {"sheet": SHEET, "players": 2, "hands": [["8S", "KH"], 3], "upcard": "KD"}


def valid(schema: str, body: object) -> bool:
    """Whether the document's component ``schema`` accepts ``body``."""
    components = document()["components"]
    return jsonschema_rs.validator_for(
        {"$ref": f"#/components/schemas/{schema}", "components": components}).is_valid(body)


# (component, path, body, the document and the server accept it)
CASES = [
    ("NewMatch", "/matches", {"sheet": SHEET, "players": ["Ann", "Bob"]}, True),
    ("NewMatch", "/matches", {"sheet": SHEET, "players": ["Ann", "Ann"]}, False),
    ("ScoreRequest", "/score", {**SCORE, "seats": ["Ann", "Bob"]}, True),
    ("ScoreRequest", "/score", {**SCORE, "seats": ["Ann", "Ann"]}, False),
    ("NewPlayer", "/players", {"name": "Dee"}, True),
    ("NewPlayer", "/players", {"name": "De\u007fe"}, False),
    ("NewPlayer", "/players", {"name": "De\u0000e"}, False),
    ("NewPlayer", "/players", {"name": "x" * 41}, False),
    ("Import", "/import", {**FILE, "matches": []}, True),  # a new group's backup
    ("Import", "/import", {**FILE, "matches": [{"sheet": SHEET, "seats": ["Ann", "Bob"],
                                                "first_dealer": 1.0, "hands": []}]}, True),
    # a sheet: its game's options only, each within its range; game, options, version
    ("NewMatch", "/matches", {"sheet": {**SHEET, "version": 2}, "players": ["Ann", "Bob"]},
     True),
    ("NewMatch", "/matches", {"sheet": {**SHEET, "version": 3}, "players": ["Ann", "Bob"]},
     False),
    ("NewMatch", "/matches", {"sheet": {"game": "crazy-eights", "option": {"target": 5}},
                              "players": ["Ann", "Bob"]}, False),
    ("ScoreRequest", "/score", {**SCORE, "seats": ["Ann", "Bob"], "sheet": {
        "game": "crazy-eights", "options": {"match_end": "one-hand", "draw_limit": None}}},
     True),
    ("ScoreRequest", "/score", {**SCORE, "seats": ["Ann", "Bob"], "sheet": {
        "game": "last-one", "options": {"match_end": "one-hand"}}}, False),
    ("ScoreRequest", "/score", {**SCORE, "seats": ["Ann", "Bob"], "sheet": {
        "game": "crazy-eights", "options": {"target": 0}}}, False),
    # out and blocked agree: somebody went out, or nobody did
    ("ScoreRequest", "/score", {**BLOCKED, "blocked": True}, True),
    ("ScoreRequest", "/score", {**BLOCKED, "blocked": True, "out": None}, True),
    ("ScoreRequest", "/score", {**BLOCKED, "blocked": True, "out": "Ann"}, False),
    ("ScoreRequest", "/score", {**BLOCKED, "blocked": False}, False),
    ("ScoreRequest", "/score", BLOCKED, False),
    # a replay's event does one thing; only a play or a naming says a suit
    ("ReplayRequest", "/replay", {**REPLAY, "events": [{"player": 1, "play": "QD"}]}, True),
    ("ReplayRequest", "/replay", {**REPLAY, "events": [{"player": 1, "play": "QD",
                                                        "draw": None}]}, False),
    ("ReplayRequest", "/replay", {**REPLAY, "events": [{"player": 1}]}, False),
    ("ReplayRequest", "/replay", {**REPLAY, "events": [{"player": 1, "draw": None,
                                                        "suit": None}]}, False),
    # an import reads a name as the API does: a vertical tab is white space
    ("Import", "/import", {**FILE, "matches": [{"sheet": SHEET, "seats": ["A\u000bnn", "Bob"],
                                                "hands": []}]}, True),
    ("Import", "/import", {**FILE, "matches": [{"sheet": SHEET, "seats": ["A\u0000nn", "Bob"],
                                                "hands": []}]}, False),
]


@pytest.mark.parametrize(("schema", "path", "body", "accepted"), CASES,
                         ids=[f"{c[0]}-{n}" for n, c in enumerate(CASES)])
def test_the_document_refuses_what_the_server_refuses(api, schema, path, body, accepted):
    assert valid(schema, body) is accepted
    answer = api("POST", path, body)
    assert (answer.status_code < 400) is accepted, answer.json


def _probes(option: Option) -> list[object]:
    """Values on and around an option's range, of its kind and of the others."""
    edges = [b + d for b in (option.minimum, option.maximum) if b is not None for d in (-1, 0, 1)]
    return [*edges, *option.choices, "none", True, False, None, 0, 1, "1", 1.5, [], {}]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_sheet_schema_takes_exactly_what_a_sheet_takes(game):
    """Every option of every game, probed: the document accepts a value exactly when the
    core does, and an option of another game never."""
    for option in OPTIONS.values():
        for value in _probes(option):
            data = {"game": game, "options": {option.key: value}}
            try:
                Sheet.from_dict(data)
                taken = True
            except SheetError:
                taken = False
            assert valid("Sheet", data) is taken, (option.key, value)
    assert valid("Sheet", Sheet.make(game).to_dict())


def test_a_whole_number_with_a_fraction_is_that_integer(api):
    """JSON Schema's integer is any number without a fraction (1.0, 1e2), and the
    fuzzer sends such numbers; the server reads them so too."""
    body = {"sheet": {"game": "last-one", "options": {"threshold": 1e2}},
            "players": ["Ann", "Bob"], "first_dealer": 1.0}
    assert valid("NewMatch", body)
    answer = api("POST", "/matches", body)
    assert answer.status_code == 201, answer.json
    assert answer.json["first_dealer"] == 1
    assert answer.json["sheet"]["options"]["threshold"] == 100
    assert api("POST", "/matches", {**body, "first_dealer": 1.5}).status_code == 400


def test_an_export_of_a_group_without_matches_is_still_a_valid_answer():
    assert valid("Export", {**FILE, "matches": []})
