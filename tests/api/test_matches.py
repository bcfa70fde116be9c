"""The match API: group access by bearer token, matches, and hands recorded from cards."""

from __future__ import annotations

import pytest

from scorekeeper.store.extensions import db
from scorekeeper.store.models import Hand, HandEntry, Match
from tests.support.api import Api, error, hand, start

HUGE = 2**31  # one past PostgreSQL's integer


# --- access -------------------------------------------------------------------------


def test_group_and_players(api):
    response = api("GET", "/group")
    assert response.status_code == 200
    assert response.json["name"] == "home"
    assert [p["name"] for p in response.json["players"]] == ["Ann", "Bob", "Cy"]
    created = api("POST", "/players", {"name": "  Dee  ", "colour": "#AABBCC"})
    assert created.status_code == 201
    assert created.json["name"] == "Dee" and created.json["colour"] == "#aabbcc"
    assert created.json["hidden"] is False
    assert "Dee" in [p["name"] for p in api("GET", "/group").json["players"]]
    default = api("POST", "/players", {"name": "Eve", "colour": None})
    assert default.status_code == 201 and default.json["colour"].startswith("#")


@pytest.mark.parametrize(("body", "status", "field"), [
    ({"name": "ann"}, 409, "name"),
    ({"name": "   "}, 400, "name"),
    ({"name": "x" * 41}, 400, "name"),
    ({"name": 7}, 400, "name"),
    ({"name": "Eve", "colour": "red"}, 400, "colour"),
    ({"name": "Eve", "colour": ""}, 400, "colour"),
    ({"name": "Eve", "colour": 5}, 400, "colour"),
    ({}, 400, "name"),
])
def test_bad_player(api, body, status, field):
    error(api("POST", "/players", body), status, field)


@pytest.mark.parametrize("header", [None, "", "Basic abc", "Bearer", "Bearer   "])
def test_no_token_is_401(client, groups, header):
    headers = {"Authorization": header} if header is not None else {}
    for method, path in (("GET", "/group"), ("GET", "/matches/1"), ("POST", "/players")):
        response = client.open("/api/v1" + path, method=method, json={}, headers=headers)
        error(response, 401, "authorization")


@pytest.mark.parametrize("token", ["wrong", "x" * 65, "ünïcode"])
def test_wrong_token_is_404(client, groups, token):
    api = Api(client, token)
    error(api("GET", "/group"), 404)
    error(api("POST", "/matches", {}), 404)


def test_another_groups_match_is_404(client, groups, api):
    match = start(api)
    away = Api(client, groups["away"])
    error(away("GET", f"/matches/{match['id']}"), 404, "match")
    error(away("POST", f"/matches/{match['id']}/hands", hand(1, 0, s1="5h", s2="6h")), 404)
    error(away("PUT", f"/matches/{match['id']}/hands/1", hand(1, 0, s1="5h", s2="6h")), 404)
    error(away("DELETE", f"/matches/{match['id']}/hands/1"), 404)
    # nor may the away group seat the home group's players
    error(away("POST", "/matches", {"sheet": {"game": "crazy-eights"},
                                    "players": [p["id"] for p in api("GET", "/group").json[
                                        "players"]][:2]}), 400, "players")


@pytest.mark.parametrize("path", [f"/matches/{HUGE}", "/matches/99", "/matches/0",
                                  "/matches/-1", f"/matches/{10**30}"])
def test_missing_or_huge_match_is_404(api, path):
    error(api("GET", path), 404)
    error(api("POST", path + "/hands", hand(1, 0)), 404)


# --- matches ------------------------------------------------------------------------


def test_create_and_get_match(api, app, client):
    ids = {p["name"]: p["id"] for p in api("GET", "/group").json["players"]}
    response = api("POST", "/matches", {"sheet": {"game": "last-one",
                                                  "options": {"threshold": 200}},
                                        "players": [ids["Cy"], "ann", "Bob"], "first_dealer": 2})
    assert response.status_code == 201
    match = response.json
    assert response.headers["Location"] == f"/api/v1/matches/{match['id']}"
    assert [s["name"] for s in match["seats"]] == ["Cy", "Ann", "Bob"]
    assert match["sheet"]["options"]["threshold"] == 200
    assert match["sheet"]["options"]["hand_size"] == 7
    assert match["status"] == "active" and match["hands"] == []
    table = match["standings"]
    assert table["totals"] == [0, 0, 0] and table["next_dealer"] == 2
    assert table["next_first"] == 0 and table["next_hand"] == 1
    assert table["next_deal"] == {"0": 7, "1": 7, "2": 7}
    assert table["goal"] == 200 and table["goal_kind"] == "threshold"
    assert api("GET", f"/matches/{match['id']}").json == match
    # The spectators' page: its path carries the match's view token and opens for anyone.
    with app.app_context():
        token = db.session.get(Match, match["id"]).view_token
    assert match["view_path"] == f"/view/{token}"
    assert client.get(match["view_path"]).status_code == 200


@pytest.mark.parametrize(("body", "field"), [
    ({"sheet": {"game": "poker"}, "players": ["Ann", "Bob"]}, "sheet.game"),
    ({"sheet": {"game": "last-one", "options": {"threshold": 0}}, "players": ["Ann", "Bob"]},
     "sheet.options.threshold"),
    ({"sheet": {"game": "crazy-eights", "options": {"melee_wrap": True}},
      "players": ["Ann", "Bob"]}, "sheet.options.melee_wrap"),
    ({"sheet": "crazy-eights", "players": ["Ann", "Bob"]}, "sheet"),
    ({"sheet": {"game": "crazy-eights"}, "players": ["Ann"]}, "players"),
    ({"sheet": {"game": "crazy-eights"}, "players": ["Ann", "Ann"]}, "players"),
    ({"sheet": {"game": "crazy-eights"}, "players": ["Ann", "Zed"]}, "players"),
    ({"sheet": {"game": "crazy-eights"}, "players": ["Ann", HUGE]}, "players"),
    ({"sheet": {"game": "crazy-eights"}, "players": ["Ann", -1]}, "players"),
    ({"sheet": {"game": "crazy-eights"}, "players": ["Ann", True]}, "players"),
    ({"sheet": {"game": "crazy-eights"}, "players": "Ann Bob"}, "players"),
    ({"sheet": {"game": "crazy-eights"}, "players": ["Ann", "Bob"], "first_dealer": 2},
     "first_dealer"),
    ({"sheet": {"game": "crazy-eights"}, "players": ["Ann", "Bob"], "first_dealer": "0"},
     "first_dealer"),
    ({"sheet": {"game": "last-one", "options": {"hand_size": 9}}, "players": ["Ann", "Bob"]},
     "agree_nine"),
    ({"sheet": {"game": "crazy-eights"}, "players": ["Ann", "Bob"], "agree_nine": "yes"},
     "agree_nine"),
])
def test_bad_match(api, body, field):
    error(api("POST", "/matches", body), 400, field)


def test_nine_cards_needs_agreement_and_room(api):
    sheet = {"game": "last-one", "options": {"hand_size": 9}}
    ok = api("POST", "/matches", {"sheet": sheet, "players": ["Ann", "Bob"], "agree_nine": True})
    assert ok.status_code == 201
    for name in ("Dee", "Eve", "Fay"):
        api("POST", "/players", {"name": name})
    six = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]  # 6 x 9 = 54 leaves no upcard
    response = api("POST", "/matches", {"sheet": sheet, "players": six, "agree_nine": True})
    error(response, 400, "sheet.options.hand_size")


def test_body_must_be_json_object(api):
    error(api("POST", "/matches", [1, 2]), 400, "body")
    match = start(api)
    error(api("POST", f"/matches/{match['id']}/hands", "8s"), 400, "body")


# --- hands --------------------------------------------------------------------------


def test_record_hand(api):
    match = start(api)
    response = api("POST", f"/matches/{match['id']}/hands",
                   hand(1, 2, s0="8♠ kh 7d ac", s1="9c, 9h"))
    assert response.status_code == 201
    assert set(response.json) == {"id", "status", "version", "hand", "standings"}
    recorded = response.json["hand"]
    assert recorded == {"number": 1, "dealer": 0, "out": 2, "blocked": False,
                        "hand_size": None, "cards": ["8S KH 7D AC", "9C 9H", ""],
                        "points": [0, 0, 86]}
    table = response.json["standings"]
    assert table["totals"] == [0, 0, 86] and table["next_hand"] == 2
    assert table["next_dealer"] == 1 and table["goal"] == 100
    # a list per seat, with a list of tokens, works too; a jammed hand by difference
    response = api("POST", f"/matches/{match['id']}/hands",
                   {"number": 2, "out": None, "blocked": True,
                    "held": [["2c", "3c"], "kd", "9s"]})
    assert response.status_code == 201
    assert response.json["hand"]["points"] == [0 + (10 - 5) + (9 - 5), 0, 0]


@pytest.mark.parametrize(("body", "field"), [
    (hand(1, 2, s0="8s zz", s1="9c"), "held.0"),  # bad card
    (hand(1, 2, s0="8s kh", s1="kh"), "held.1"),  # the same card twice: the later seat
    (hand(1, 1, s0="8s kh", s2="3c 8s"), "held.2"),
    (hand(1, 2, s0="8s jk", s1="9c"), "held.0"),  # joker in Crazy Eights
    (hand(1, 2, s0="8s", s1="9c", s2="4d"), "held.2"),  # out, yet holding cards
    (hand(1, 2, s0="8s", s1="9c", s5="4d"), "held.5"),  # no such seat
    (hand(1, 2, s0="8s"), "held.1"),  # a seat's cards are missing
    (hand(1, 3, s0="8s", s1="9c"), "out"),
    (hand(1, -1, s0="8s", s1="9c"), "out"),
    ({**hand(1, 2, s0="8s", s1="9c"), "out": True}, "out"),
    ({**hand(1, 2, s0="8s", s1="9c"), "out": None}, "out"),  # neither out nor blocked
    ({**hand(1, 2, s0="8s", s1="9c"), "blocked": True}, "blocked"),
    ({**hand(1, 2, s0="8s", s1="9c"), "blocked": "no"}, "blocked"),
    ({**hand(1, 2, s0="8s", s1="9c"), "held": ["8s", "9c"]}, "held"),  # list of 2 for 3 seats
    ({**hand(1, 2, s0="8s", s1="9c"), "held": "8s 9c"}, "held"),
    ({**hand(1, 2, s1="9c"), "held": {"0": 8, "1": "9c"}}, "held.0"),
    ({**hand(1, 2, s0="8s", s1="9c"), "hand_size": 6}, "hand_size"),  # Last One only
    ({**hand(1, 2, s0="8s", s1="9c"), "hand_size": "6"}, "hand_size"),
    ({**hand(1, 2, s0="8s", s1="9c"), "number": HUGE}, "number"),
    ({**hand(1, 2, s0="8s", s1="9c"), "number": 0}, "number"),
    ({**hand(1, 2, s0="8s", s1="9c"), "number": "1"}, "number"),
    ({**hand(1, 2, s0="8s", s1="9c"), "number": 1.5}, "number"),
])
def test_bad_hand(api, app, body, field):
    match = start(api)
    error(api("POST", f"/matches/{match['id']}/hands", body), 400, field)
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Hand.id))) == 0


def test_stale_and_duplicate_numbers_are_409(api, app):
    match = start(api)
    path = f"/matches/{match['id']}/hands"
    body = hand(1, 2, s0="5h", s1="6h")
    assert api("POST", path, body).status_code == 201
    again = error(api("POST", path, body), 409, "number")  # the same hand posted twice
    assert again["next_hand"] == 2
    ahead = error(api("POST", path, hand(3, 2, s0="5h", s1="6h")), 409, "number")
    assert ahead["next_hand"] == 2
    with app.app_context():
        assert db.session.scalars(db.select(Hand.number)).all() == [1]
    assert len(api("GET", f"/matches/{match['id']}").json["hands"]) == 1


def test_edit_changes_standings_and_reopens(api, app):
    match = start(api)  # first to 100
    path = f"/matches/{match['id']}/hands"
    assert api("POST", path, hand(1, 0, s1="8s 8h", s2="kc")).status_code == 201
    done = api("GET", f"/matches/{match['id']}").json
    assert done["status"] == "finished" and done["standings"]["winners"] == [0]
    assert done["standings"]["next_hand"] is None
    error(api("POST", path, hand(2, 0, s1="5h", s2="6h")), 400, "number")  # over
    edited = api("PUT", f"{path}/1", {"out": 0, "held": {"1": "8s 2h", "2": "kc"}})
    assert edited.status_code == 200
    assert edited.json["status"] == "active"
    assert edited.json["hands"][0]["cards"] == ["", "8S 2H", "KC"]
    assert edited.json["standings"]["totals"] == [62, 0, 0]
    assert edited.json["standings"]["next_hand"] == 2
    with app.app_context():
        assert db.session.get(Match, match["id"]).status == "active"
    assert api("POST", path, hand(2, 1, s0="8d", s2="7c")).status_code == 201


def test_bad_edit(api):
    match = start(api)
    path = f"/matches/{match['id']}/hands"
    api("POST", path, hand(1, 0, s1="5s", s2="kc"))
    twice = error(api("PUT", f"{path}/1", {"out": 0, "held": {"1": "5s", "2": "5s"}}), 400,
                  "held.2")
    assert "5♠ is entered 2 times (Bob and Cy)" in twice["message"]
    error(api("PUT", f"{path}/1", {"out": 0, "held": {"1": "5s", "2": "jk"}}), 400, "held.2")
    error(api("PUT", f"{path}/2", {"out": 0, "held": {"1": "5s", "2": "kc"}}), 404, "number")
    error(api("PUT", f"{path}/{HUGE}", {"out": 0, "held": {"1": "5s", "2": "kc"}}), 404)
    assert api("GET", f"/matches/{match['id']}").json["hands"][0]["cards"] == ["", "5S", "KC"]


def test_edit_cannot_end_a_match_before_later_hands(api):
    match = start(api, options={"match_end": "first-to-target", "target": 50})
    path = f"/matches/{match['id']}/hands"
    assert api("POST", path, hand(1, 0, s1="5s", s2="kc")).status_code == 201
    assert api("POST", path, hand(2, 1, s0="5d", s2="4c")).status_code == 201
    error(api("PUT", f"{path}/1", {"out": 0, "held": {"1": "8s", "2": "kc"}}), 400, "number")


def test_delete_only_the_last_hand(api, app):
    match = start(api)
    path = f"/matches/{match['id']}/hands"
    for number, out in ((1, 0), (2, 1)):
        held = {str(s): "5h" for s in range(3) if s != out}
        held[str((out + 1) % 3)] = "6c"
        assert api("POST", path, {"number": number, "out": out, "held": held}).status_code == 201
    first = error(api("DELETE", f"{path}/1"), 409, "number")
    assert "only the last hand (2)" in first["message"]
    error(api("DELETE", f"{path}/3"), 404)
    error(api("DELETE", f"{path}/{HUGE}"), 404)
    deleted = api("DELETE", f"{path}/2")
    assert deleted.status_code == 200
    assert [h["number"] for h in deleted.json["hands"]] == [1]
    assert deleted.json["standings"]["next_hand"] == 2
    assert api("POST", path, hand(2, 2, s0="9h", s1="9d")).status_code == 201
    assert api("DELETE", f"{path}/2").status_code == 200
    assert api("DELETE", f"{path}/1").status_code == 200
    error(api("DELETE", f"{path}/1"), 404)
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Hand.id))) == 0
        assert db.session.scalar(db.select(db.func.count(HandEntry.id))) == 0


def test_a_stale_version_changes_nothing(api):
    """A phone sends back the version it loaded; another phone's change makes it stale."""
    match = start(api)
    path = f"/matches/{match['id']}/hands"
    assert match["version"] >= 1
    seen = api("POST", path, hand(1, 0, s1="5s", s2="kc")).json["version"]
    assert seen > match["version"]
    # Another phone records hand 2: the version moves on.
    after = api("POST", path, hand(2, 1, s0="5d", s2="4c")).json
    assert after["version"] > seen
    stale = error(api("PUT", f"{path}/1", {"out": 0, "held": {"1": "8s", "2": "kc"},
                                          "version": seen}), 409, "number")
    assert "changed on another phone" in stale["message"] and stale["next_hand"] == 3
    error(api("DELETE", f"{path}/2?version={seen}"), 409, "number")
    current = api("GET", f"/matches/{match['id']}").json
    assert current["version"] == after["version"]
    assert [h["cards"] for h in current["hands"]] == [["", "5S", "KC"], ["5D", "", "4C"]]
    # With the current version both go through.
    edited = api("PUT", f"{path}/1", {"out": 0, "held": {"1": "8s", "2": "kc"},
                                     "version": current["version"]})
    assert edited.status_code == 200
    assert api("DELETE", f"{path}/2?version={edited.json['version']}").status_code == 200


@pytest.mark.parametrize("version", ["one", -1, 0, True, 2**31, 1.5])
def test_bad_version_is_400(api, version):
    match = start(api)
    path = f"/matches/{match['id']}/hands"
    api("POST", path, hand(1, 0, s1="5s", s2="kc"))
    error(api("PUT", f"{path}/1", {"out": 0, "held": {"1": "5s", "2": "kc"},
                                  "version": version}), 400, "version")
    error(api("DELETE", f"{path}/1?version={version}"), 400, "version")


def test_last_one_played_to_the_end(api):
    match = start(api, "last-one", {"threshold": 60}, first_dealer=1)
    path = f"/matches/{match['id']}/hands"
    hands = [
        hand(1, 0, s1="8s 8h", s2="ks qs"),  # Bob 50, Cy 20
        hand(2, 2, s0="2c 3c", s1="kd qd"),  # Ann 5, Bob 70: out
        hand(3, 2, s0="8c 8d"),  # Bob may be left out now; Ann 55
        hand(4, 2, s0="jk"),  # one card scores 0
        {**hand(5, 2, s0="5c 6c"), "hand_size": 5},  # Ann 66: out, Cy wins
    ]
    dealers = []
    for body in hands:
        response = api("POST", path, body)
        assert response.status_code == 201, response.json
        dealers.append(response.json["hand"]["dealer"])
    final = response.json
    assert dealers == [1, 2, 0, 2, 0]  # Bob's seat is skipped once he is out
    assert final["status"] == "finished"
    table = final["standings"]
    assert table["totals"] == [66, 70, 20]
    assert table["eliminated"] == {"1": 2, "0": 5}
    assert table["winners"] == [2] and table["over"] is True
    assert "Cy" in table["reason"]
    assert table["next_dealer"] is None and table["next_hand"] is None
    assert final["hand"]["hand_size"] == 5
    whole = api("GET", f"/matches/{match['id']}").json
    assert whole["hands"][3]["points"] == [0, 0, 0]
    assert whole["standings"] == table
    error(api("POST", path, hand(6, 2, s0="5d")), 400, "number")


def test_a_hand_of_nine_cards_needs_everyones_word(api):
    match = start(api, "last-one")  # the sheet deals 7
    path = f"/matches/{match['id']}/hands"
    nine = {**hand(1, 0, s1="5c 6c", s2="kh"), "hand_size": 9}
    refused = error(api("POST", path, nine), 400, "hand_size")
    assert "only when everybody agrees" in refused["message"] and "agree_nine" in refused["message"]
    error(api("POST", path, {**nine, "agree_nine": "yes"}), 400, "agree_nine")
    assert api("POST", path, {**nine, "agree_nine": True}).status_code == 201
    error(api("PUT", f"{path}/1", nine), 400, "hand_size")  # editing asks again
    edited = api("PUT", f"{path}/1", {**nine, "hand_size": 8})
    assert edited.status_code == 200 and edited.json["hands"][0]["hand_size"] == 8


def test_nine_cards_already_agreed_at_setup(api):
    sheet = {"game": "last-one", "options": {"hand_size": 9}}
    match = api("POST", "/matches", {"sheet": sheet, "players": ["Ann", "Bob"],
                                     "agree_nine": True}).json
    path = f"/matches/{match['id']}/hands"
    body = {**hand(1, 0, s1="5c 6c"), "hand_size": 9}
    assert api("POST", path, body).status_code == 201


def test_six_players_cannot_be_dealt_nine_each(api, app):
    for name in ("Dee", "Eve", "Fay"):
        api("POST", "/players", {"name": name})
    match = start(api, "last-one", players=("Ann", "Bob", "Cy", "Dee", "Eve", "Fay"))
    path = f"/matches/{match['id']}/hands"
    body = {**hand(1, 0, s1="5c", s2="6c", s3="7c", s4="8c", s5="9c"), "hand_size": 9,
            "agree_nine": True}
    refused = error(api("POST", path, body), 400, "hand_size")
    assert "no card is left to turn up" in refused["message"]
    assert api("POST", path, {**body, "hand_size": 8}).status_code == 201
    with app.app_context():
        assert db.session.scalars(db.select(Hand.hand_size)).all() == [8]


def test_countdown_counts_down(api):
    match = start(api, "countdown", {"start_count": 2}, players=("Ann", "Bob"))
    path = f"/matches/{match['id']}/hands"
    for number in (1, 2):
        response = api("POST", path, hand(number, 1, s0="4h"))
        assert response.status_code == 201
    assert response.json["standings"]["totals"] == [2, 0]
    assert response.json["standings"]["winners"] == [1]


def test_openapi_documents_the_match_api(client):
    spec = client.get("/api/v1/openapi.json").json
    assert spec["components"]["securitySchemes"]["groupToken"]["scheme"] == "bearer"
    for path, methods in {"/api/v1/group": ["get"], "/api/v1/players": ["post"],
                          "/api/v1/matches": ["post"], "/api/v1/matches/{match_id}": ["get"],
                          "/api/v1/matches/{match_id}/hands": ["post"],
                          "/api/v1/matches/{match_id}/hands/{number}": ["put", "delete"]
                          }.items():
        for method in methods:
            operation = spec["paths"][path][method]
            assert operation["security"] == [{"groupToken": []}]
            assert {"401", "404"} <= set(operation["responses"])
