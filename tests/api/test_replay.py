"""``POST /api/v1/replay``: verdicts per event, the first illegal one, malformed input."""

from __future__ import annotations

import copy

import pytest

# Pages and endpoints that read no table: SQLite alone (conftest checks no SQL is sent).
pytestmark = pytest.mark.no_database

URL = "/api/v1/replay"

EXAMPLE = {
    "sheet": {"game": "last-one", "options": {}},
    "players": 3, "dealer": 0,
    "hands": [["8S", "KH", "7D", "AC", "2C"], 5, ["4S"]],
    "upcard": "4H",
    "stock": 30,
    "situation": {"turn": 2, "direction": -1, "active_suit": "D", "upcard_as": "4H",
                  "pending_draw": 2, "melee": {"aggressor": 0, "defender": 1}},
    "events": [{"player": 1, "play": "4S"},
               {"player": 2, "draw": "6D"}, {"player": 2, "draw": None},
               {"player": 0, "play": "8C", "suit": "D"},
               {"player": 1, "play": "JK", "as": "4H"},
               {"player": 1, "pass": True},
               {"player": 0, "call": True}],
    "include_legal_moves": True,
}


def c8(hands, upcard, events=(), players=None, **extra):
    """A fresh Crazy Eights request (dealer 0, so seat 1 plays first)."""
    return {"sheet": {"game": "crazy-eights"}, "players": players or len(hands),
            "dealer": 0, "hands": hands, "upcard": upcard, "events": list(events), **extra}


def post(client, body):
    response = client.post(URL, json=body)
    assert response.status_code == 200, response.json
    return response.json


def test_a_defender_who_breaks_the_melee_is_judged_illegal(client):
    body = post(client, EXAMPLE)
    # The melee is on: 1 (the defender) may only continue with 5♥, not play 4♠.
    assert body["ok"] is False and body["first_illegal"] == 0
    [step] = body["steps"]
    assert step["legal"] is False and step["rule"] == "lo-melee"
    assert step["rule_url"] == "/rules/last-one#lo-melee"
    assert set(step["legal_moves"]) == {"1"}
    assert body["state"]["melee"]["next"] == "5H"


def test_a_melee_outside_last_one_is_refused_with_the_field(client):
    body = copy.deepcopy(EXAMPLE) | {"sheet": {"game": "crazy-eights", "options": {}}}
    response = client.post(URL, json=body)
    assert response.status_code == 400
    assert response.json["error"]["field"] == "situation.melee"
    del body["situation"]["melee"]
    out = post(client, body)  # seat 2 owes two and must draw first
    assert out["first_illegal"] == 0 and out["steps"][0]["rule"] == "c8-addons"


def test_fresh_start_whole_sequence(client):
    body = post(client, c8([["8S", "KH", "3C"], ["KD", "QD", "5C"]], "KS", [
        {"player": 1, "play": "KD"},
        {"player": 0, "play": "KH"},
        {"player": 1, "draw": None},
        {"player": 1, "pass": True},
        {"player": 0, "play": "8S", "suit": "C"},
        {"player": 1, "play": "QD"},
    ]))
    assert [s["legal"] for s in body["steps"]] == [True, True, True, True, True, False]
    assert body["first_illegal"] == 5 and body["ok"] is False
    assert "club" in body["steps"][5]["reason"]
    assert body["steps"][5]["rule"] == "c8-eights"
    state = body["state"]
    assert state["upcard"] == "8S" and state["active_suit"] == "C"
    assert state["current_player"] == 1 and state["hand_sizes"] == [1, 3]


def test_starter_effects_apply_on_a_fresh_hand(client):
    lo = {"sheet": {"game": "last-one"}, "players": 3, "dealer": 0,
          "hands": [7, 7, 7], "upcard": "2H",
          "events": [{"player": 1, "draw": None}, {"player": 1, "draw": None},
                     {"player": 2, "draw": None}]}
    body = post(client, lo)
    assert body["ok"] is True
    assert body["state"]["hand_sizes"] == [7, 9, 8]


def test_cannot_tell_continues_the_replay(client):
    # Seat 1's cards are unseen: drawing instead of playing may or may not be allowed.
    body = post(client, c8([["8S", "KH"], 5], "4S", [
        {"player": 1, "draw": None},
        {"player": 1, "pass": True},
        {"player": 0, "play": "KH"},
    ]))
    assert post(client, c8([["8S", "KH"], 5], "4S", [{"player": 1, "draw": None}]))["ok"]
    steps = body["steps"]
    assert steps[0]["legal"] is None and "cannot tell" in steps[0]["reason"]
    assert steps[0]["rule"] == "c8-drawing"
    assert body["uncertain"] == [0]
    assert len(steps) == 3 and steps[2]["legal"] is False  # KH on 4S
    assert body["ok"] is False and body["first_illegal"] == 2


def test_first_illegal_stops_the_replay(client):
    body = post(client, c8([["8S", "KH", "3C"], ["KD", "QD", "5H"]], "KS", [
        {"player": 1, "play": "KD"},
        {"player": 1, "play": "QD"},       # not seat 1's turn any more
        {"player": 0, "play": "KH"},
    ]))
    assert body["first_illegal"] == 1 and len(body["steps"]) == 2
    assert body["steps"][1]["cause"] == "turn" and body["steps"][1]["legal"] is False
    assert body["state"]["upcard"] == "KD"  # the refused move changed nothing


def test_include_legal_moves_shape(client):
    body = post(client, c8([["8S", "KC", "3C"], ["8D", "KD", "5H"]], "KS",
                           [{"player": 1, "play": "8D", "suit": "H"}],
                           include_legal_moves=True))
    before = body["steps"][0]["legal_moves"]
    assert before == {"1": {"play": ["8D", "KD"], "draw": False, "pass": False,
                            "call": False, "name": False}}
    after = body["state"]["legal_moves"]
    assert after["0"]["play"] == ["8S"]  # listed once, not once per suit
    plain = post(client, c8([["8S"], ["KD"]], "KS"))
    assert "legal_moves" not in plain["state"] and plain["steps"] == []


def test_melee_out_of_turn(client):
    lo = {"sheet": {"game": "last-one"}, "players": 4, "dealer": 0,
          "hands": [5, 5, ["5H", "9C"], 5], "upcard": "4H",
          "situation": {"melee": {"aggressor": 0, "defender": 1}},
          "events": [{"player": 2, "play": "5H"}, {"player": 3, "play": "6C"}]}
    body = post(client, lo)
    assert body["steps"][0]["legal"] is True
    assert body["steps"][1]["legal"] is False and body["first_illegal"] == 1
    assert "6♥" in body["steps"][1]["reason"]


def _set(body, path, value):
    """Set a dotted/indexed path (``events.3.play``) in a copy of ``body``."""
    out = copy.deepcopy(body)
    *head, last = path.split(".")
    node = out
    for key in head:
        node = node[int(key)] if isinstance(node, list) else node[key]
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value
    return out


BASE = c8([["8S", "KH", "7D", "AC", "2C"], 5, ["4S"]], "4H",
          [{"player": 1, "play": "4S"}, {"player": 2, "draw": None},
           {"player": 0, "play": "8C", "suit": "D"}, {"player": 1, "play": "5D"}])


@pytest.mark.parametrize(("path", "value", "field"), [
    ("events.3.play", "ZZ", "events[3].play"),
    ("events.3.play", 7, "events[3].play"),
    ("events.2.suit", "purple", "events[2].suit"),
    ("events.1.draw", "11X", "events[1].draw"),
    ("events.1", {"player": 2, "draw": None, "pass": True}, "events[1]"),
    ("events.1", {"player": 2}, "events[1]"),
    ("events.1", {"player": 2, "pass": False}, "events[1].pass"),
    ("events.1", {"player": 2, "pass": True, "suit": "D"}, "events[1].suit"),
    ("events.1", {"player": 9, "pass": True}, "events[1].player"),
    ("events.1", {"player": True, "pass": True}, "events[1].player"),
    ("events.1", {"player": 2, "shout": True}, "events[1].shout"),
    ("events.1", "2:draw", "events[1]"),
    ("events", {"0": 1}, "events"),
    ("hands.1", "ZZ", "hands[1]"),
    ("hands.1", -3, "hands[1]"),
    ("hands.1", 10**40, "hands[1]"),
    ("hands.1", [], "hands[1]"),
    ("hands.1", ["4S", 3], "hands[1]"),
    ("hands.1", {"cards": ["4C"], "unknown": -1}, "hands[1]"),
    ("hands", [1, 2], "hands"),
    ("hands", [["4H"], 5, 5], "hands"),           # the upcard twice
    ("sheet.options", {"twos_stack": "yes"}, "sheet.options.twos_stack"),
    ("sheet.options", {"bogus": 1}, "sheet.options.bogus"),
    ("sheet.game", "snap", "sheet.game"),
    ("sheet", "c8", "sheet"),
    ("players", 99, "players"),
    ("players", 10**40, "players"),
    ("players", 3.5, "players"),                  # 3.0 is the whole number 3
    ("dealer", 3, "dealer"),
    ("dealer", -1, "dealer"),
    ("upcard", "XX", "upcard"),
    ("upcard", None, "upcard"),
    ("stock", 999, "stock"),
    ("stock", -1, "stock"),
    ("stock", ["4H"], "stock"),                   # the upcard again
    ("stock", {"n": 3}, "stock"),
    ("counts", [8, 8, 8], "counts"),              # Countdown only
    ("situation", {"turn": 9}, "situation.turn"),
    ("situation", {"turn": 10**30}, "situation.turn"),
    ("situation", {"direction": 0}, "situation.direction"),
    ("situation", {"active_suit": "Q"}, "situation.active_suit"),
    ("situation", {"pending_draw": 10**20}, "situation.pending_draw"),
    ("situation", {"pending_draw": -2}, "situation.pending_draw"),
    ("situation", {"melee": {"aggressor": 0}}, "situation.melee"),
    ("situation", {"upcard_as": "5C"}, "situation.upcard_as"),
    ("situation", {"free_play": "no"}, "situation.free_play"),
    ("situation", {"weather": "rain"}, "situation.weather"),
    ("situation", [], "situation"),
    ("include_legal_moves", "yes", "include_legal_moves"),
    ("colour", "red", "colour"),
])
def test_malformed_field_is_a_400_naming_it(client, path, value, field):
    response = client.post(URL, json=_set(BASE, path, value))
    assert response.status_code == 400, response.json
    error = response.json["error"]
    assert error["field"] == field, error
    assert error["message"]


def test_the_400_field_is_the_engines_structured_field(client, monkeypatch):
    """The API passes SetupError.field on; it never reads the message for it."""
    from scorekeeper.core.engine import SetupError
    from scorekeeper.core.engine import replay as api_replay

    def refuse(*args, **kwargs):
        raise SetupError("somebody said something about the stock and hands[2]", "counts")

    monkeypatch.setattr(api_replay.HandInPlay, "start", refuse)
    response = client.post(URL, json=BASE)
    assert response.status_code == 400
    error = response.json["error"]
    assert error["field"] == "counts"
    assert error["message"] == "somebody said something about the stock and hands[2]"


@pytest.mark.parametrize(("situation", "field"), [
    ({"melee": {"aggressor": 0, "defender": 0}}, "situation.melee"),
    ({"melee": {"aggressor": 0, "defender": 5}}, "situation.melee.defender"),
    ({"uncalled": 7}, "situation.uncalled"),
])
def test_situation_errors_name_the_exact_field(client, situation, field):
    body = {**BASE, "sheet": {"game": "last-one"}, "situation": situation}
    response = client.post(URL, json=body)
    assert response.status_code == 400
    assert response.json["error"]["field"] == field


def test_reasons_say_seat_numbers_unless_names_are_given(client):
    body = c8([["8S", "KH"], ["9S", "5C"]], "4H", [{"player": 0, "play": "KH"}])
    [step] = post(client, body)["steps"]
    assert step["reason"] == "it is seat 1's turn, not seat 0's: seat 1 cannot play and must draw"
    [step] = post(client, body | {"names": ["Ann", "Bo"]})["steps"]
    assert step["reason"] == "it is Bo's turn, not Ann's: Bo cannot play and must draw"
    for bad in (["Ann"], ["Ann", ""], ["Ann", 3], "Ann Bo", ["Ann", "x" * 61]):
        response = client.post(URL, json=body | {"names": bad})
        assert response.status_code == 400 and response.json["error"]["field"] == "names"


@pytest.mark.parametrize("body", [
    None, [], "replay", 12, {"players": 3},
    {"sheet": {"game": "last-one"}, "players": 2, "hands": [10**6, 10**6], "upcard": "4H"},
    {**BASE, "events": [{"player": 0, "draw": None}] * 5001},
    {**BASE, "upcard": "8S" * 5000},
    {**BASE, "hands": ["8s " * 5000, 5, 5]},
])
def test_garbage_is_a_400_not_a_500(client, body):
    response = client.post(URL, json=body)
    assert response.status_code == 400
    assert "error" in response.json


def test_not_json_is_a_400(client):
    response = client.post(URL, data="{{{", content_type="application/json")
    assert response.status_code == 400 and response.json["error"]["field"] == "body"


def test_documented_in_openapi(client):
    doc = client.get("/api/v1/openapi.json").json
    op = doc["paths"]["/api/v1/replay"]["post"]
    assert set(op["responses"]) == {"200", "400", "413", "503"}  # 413: over the body limit
    assert "null step is replayed as if allowed" in op["description"]
    step = doc["components"]["schemas"]["ReplayStep"]["properties"]
    for seats in ("implied_seats", "moved_on_seats"):
        assert step[seats]["items"] == {"type": "integer"} and "seats" in step[seats][
            "description"]


# ------------------------------------------ drawing, unsaid passes, the pile, owed cards

def test_the_turn_moves_on_when_only_the_pass_is_left(client):
    """Seat 1 draws 2♣ and can neither play it nor draw again: the engine takes its
    pass (the step says so) and the turn moves on; the pass written out is still
    accepted, and both replays end in the same position."""
    said = c8([["8S", "KH"], ["9S", "5C"], 5], "4H",
              [{"player": 1, "draw": "2C"}, {"player": 1, "pass": True},
               {"player": 2, "play": "7H"}], stock=["2C"])
    unsaid = said | {"events": [said["events"][0], said["events"][2]]}
    written = post(client, said)
    assert [s["legal"] for s in written["steps"]] == [True, True, True]
    assert written["steps"][0]["moved_on"] == ["pass by seat 1"]
    assert written["steps"][0]["moved_on_seats"] == [1]
    assert "implied" not in written["steps"][2] and "implied_seats" not in written["steps"][2]
    result = post(client, unsaid)
    assert result["ok"] and result["steps"][0]["moved_on"] == ["pass by seat 1"]
    assert result["steps"][0]["moved_on_seats"] == [1]
    assert "implied" not in result["steps"][1] and "moved_on" not in result["steps"][1]
    assert result["state"] == written["state"]


@pytest.mark.parametrize(("card", "legal"), [("7D", False), ("4D", True)])
def test_an_unsaid_pass_after_a_draw_is_judged_as_the_written_one(client, card, legal):
    """Seat 1 draws 7♥, which it may play or decline; seat 2's play takes the pass as
    said (as written out it is legal) and is judged after it."""
    body = c8([["8S", "KH"], ["9S", "5C"], 5], "4H",
              [{"player": 1, "draw": "7H"}, {"player": 2, "play": card}], stock=["7H"])
    step = post(client, body)["steps"][1]
    assert step["legal"] is legal and step["implied"] == ["pass by seat 1"]
    assert step["implied_seats"] == [1] and "moved_on_seats" not in step
    assert step["cause"] == "play" and step["assumed"] == [] and not step["needs_suit"]


def test_a_declined_free_play_is_taken_as_said(client):
    body = {"sheet": {"game": "last-one"}, "players": 3, "dealer": 0,
            "hands": [5, ["3H", "9C", "KS"], ["7H", "2D"]], "upcard": "4H",
            "situation": {"turn": 1},
            "events": [{"player": 1, "play": "3H"}, {"player": 2, "play": "7H"}]}
    result = post(client, body)
    assert result["ok"] and result["steps"][1]["implied"] == ["pass by seat 1"]
    assert result["steps"][1]["implied_seats"] == [1]


@pytest.mark.parametrize(("pile", "stock", "field"), [
    (3, None, None), (0, None, None), (["7C", "KD"], None, None), ("7C KD", 45, None),
    (5, 0, "pile"), (-1, None, "pile"), (99, None, "pile"), (True, None, "pile"),
    (["ZZ"], None, "pile"), (["4H"], None, "pile"),
])
def test_the_pile_says_what_lies_under_the_upcard(client, pile, stock, field):
    body = c8([["8S", "KH"], ["9S", "5C"]], "4H", pile=pile)
    if stock is not None:
        body["stock"] = stock
    response = client.post(URL, json=body)
    if field is None:
        assert response.status_code == 200, response.json
    else:
        assert response.status_code == 400 and response.json["error"]["field"] == field


def test_with_stock_and_pile_empty_nobody_draws(client):
    body = c8([49, ["9S", "5C"]], "4H", [{"player": 1, "draw": None}], stock=0, pile=0)
    step = post(client, body)["steps"][0]
    assert step["legal"] is False and "nothing is left to draw" in step["reason"]
    # with cards unaccounted for and no pile given, they lie under the upcard
    fewer = body | {"hands": [45, ["9S", "5C"]], "pile": None}
    assert post(client, fewer)["steps"][0]["legal"] is True
    response = client.post(URL, json=fewer | {"pile": 0})
    assert response.status_code == 400 and response.json["error"]["field"] == "pile"


def test_unseen_cards_must_hold_a_playable_one_when_nothing_can_be_drawn(client):
    """Two players, stock 0, the pile just the upcard 4♥, seat 0's 49 cards unseen and
    seat 1 holding K♣ 3♦: seat 1 may pass; seat 0 must hold a heart, 4 or 8."""
    body = c8([49, ["KC", "3D"]], "4H",
              [{"player": 1, "pass": True}, {"player": 0, "pass": True}], stock=0, pile=0)
    result = post(client, body)
    assert result["steps"][0]["legal"] is True
    assert result["steps"][1]["legal"] is False and result["first_illegal"] == 1
    assert result["steps"][1]["rule"] == "c8-drawing"


@pytest.mark.parametrize("draw", [["2C", "9D"], 2])
def test_owed_cards_in_one_event(client, draw):
    body = {"sheet": {"game": "last-one"}, "players": 3, "dealer": 0,
            "hands": [5, ["2H", "9C", "KS"], 5], "upcard": "4H", "stock": ["2C", "9D", "5S"],
            "situation": {"turn": 1},
            "events": [{"player": 1, "play": "2H"}, {"player": 2, "draw": draw}]}
    result = post(client, body)
    assert result["ok"] and len(result["steps"]) == 2
    assert result["steps"][1]["reason"] == "seat 2 owes 2 cards and draws 2"
    assert result["state"]["current_player"] == 0 and result["state"]["hand_sizes"][2] == 7


@pytest.mark.parametrize(("draw", "field"), [
    ([], "events[0].draw"), (0, "events[0].draw"), (109, "events[0].draw"),
    (["7C", "ZZ"], "events[0].draw[1]"), (True, "events[0].draw"),
])
def test_bad_multi_card_draws_name_the_field(client, draw, field):
    body = c8([["8S", "KH"], ["9S", "5C"]], "4H", [{"player": 1, "draw": draw}])
    response = client.post(URL, json=body)
    assert response.status_code == 400 and response.json["error"]["field"] == field


def test_a_multi_card_draw_stops_at_the_card_that_is_refused(client):
    body = c8([["8S", "KH"], ["9S", "5C"]], "4H", [{"player": 1, "draw": ["2C", "9D"]}],
              stock=["2C", "9D"])
    step = post(client, body)["steps"][0]
    assert step["legal"] is False and "may draw no more" not in step["reason"]


def post_score(client, body):
    response = client.post("/api/v1/score", json=body)
    assert response.status_code == 200, response.json
    return response.json


def test_the_outcome_carries_points_when_every_card_is_known(client):
    body = c8([["8S", "KH", "7D"], ["9H"]], "4H", [{"player": 1, "play": "9H"}])
    outcome = post(client, body)["state"]["outcome"]
    assert outcome["result"] == "out" and outcome["winner"] == 1
    score = post_score(client, {"sheet": {"game": "crazy-eights", "options": {}},
                                "seats": ["A", "B"], "out": "B", "blocked": False,
                                "remaining": {"A": "8s kh 7d", "B": ""}})
    assert outcome["points"] == [0, 67] == [score["points"]["A"], score["points"]["B"]]
    unseen = c8([3, ["9H"]], "4H", [{"player": 1, "play": "9H"}])
    assert post(client, unseen)["state"]["outcome"]["points"] is None


def test_five_thousand_events_are_accepted(client):
    events = [{"player": 1, "draw": None}, {"player": 1, "pass": True},
              {"player": 0, "draw": None}, {"player": 0, "pass": True}] * 1250
    body = {"sheet": {"game": "last-one", "options": {"draw_with_playable": True}},
            "players": 2, "dealer": 0, "hands": [5, 5], "upcard": "4H", "events": events}
    response = client.post(URL, json=body)
    assert response.status_code == 200 and response.json["steps"]  # judged, not refused


def test_a_body_over_the_limit_is_a_413(client):
    body = c8([["8S", "KH"], ["9S", "5C"]], "4H", names=["x" * 300_000, "y" * 300_000])
    response = client.post(URL, json=body)
    assert response.status_code == 413


def test_the_engines_documented_examples_are_answered_by_the_api(client):
    """The replay format is documented once, in the core's reader; every request its
    examples show is one the API answers (200), with the same result."""
    import ast
    import doctest

    from scorekeeper.core.engine import replay as reader

    examples = [e for e in doctest.DocTestParser().get_examples(reader.run.__doc__ or "")
                if e.source.startswith("run(")]
    assert examples, "run() documents no example"
    for example in examples:
        call = ast.parse(example.source.strip(), mode="eval").body
        request = ast.literal_eval(call.value.args[0])  # run({...})["ok"]
        response = client.post(URL, json=request)
        assert response.status_code == 200, response.json
        assert response.json == reader.run(request)
