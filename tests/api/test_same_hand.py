"""A hand goes in once (DESIGN.md): a new hand that looks like one already recorded is
a 409 ``same_as_hand`` and stores nothing, unless the body confirms it. Idempotent
resends, edits and Countdown hands are never questioned. SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from sqlalchemy import func

from scorekeeper.store.extensions import db
from scorekeeper.store.models import Hand
from tests.support.api import error, hand, start

HAND = hand(1, 0, s1="8s kh", s2="5c")
OTHER = hand(1, 0, s1="8s kh", s2="5d")


def rows(app) -> int:
    with app.app_context():
        return db.session.scalar(db.select(func.count()).select_from(Hand))


def post(api, match_id: int, body: dict, key: str | None = None):
    headers = {"Authorization": f"Bearer {api.token}"}
    if key is not None:
        headers["Idempotency-Key"] = key
    return api.client.post(f"/api/v1/matches/{match_id}/hands", json=body, headers=headers)


def numbered(body: dict, number: int, **more) -> dict:
    return {**body, "number": number, **more}


@pytest.mark.parametrize(("second", "confirmed", "status"), [
    ("the same cards", False, 409),
    ("the same cards", True, 201),
    ("one card different", False, 201),
], ids=["same-refused", "same-confirmed", "different"])
def test_a_next_hand_like_the_last_one_is_asked_about(app, api, second, confirmed, status):
    match = start(api)
    assert post(api, match["id"], HAND).status_code == 201
    body = numbered(HAND if second == "the same cards" else OTHER, 2)
    if confirmed:
        body["same_as_confirmed"] = True
    answer = post(api, match["id"], body)
    assert answer.status_code == status, answer.json
    assert rows(app) == (1 if status == 409 else 2)


def test_the_question_names_the_hand_and_shows_it(app, api):
    match = start(api)
    assert post(api, match["id"], HAND).status_code == 201
    question = error(post(api, match["id"], numbered(HAND, 2, held={"2": "5c", "1": "KH 8S"})),
                     409, "number")
    assert question["code"] == "same_as_hand" and question["hand"] == 1
    assert question["next_hand"] == 2
    assert question["message"].startswith("these are the cards of hand 1")
    assert question["same_hand"]["number"] == 1
    assert question["same_hand"]["cards"] == ["", "8S KH", "5C"]
    assert api("GET", f"/matches/{match['id']}").json["standings"]["next_hand"] == 2


def test_the_clash_names_the_hand_that_took_the_number(app, api):
    """Hand 1 recorded from another phone, then hand 2; this phone's hand 1 arrives."""
    match = start(api)
    assert post(api, match["id"], HAND).status_code == 201
    assert post(api, match["id"], hand(2, 1, s0="4d", s2="9c")).status_code == 201
    question = error(post(api, match["id"], HAND), 409, "number")
    assert (question["code"], question["hand"], question["next_hand"]) == ("same_as_hand", 1, 3)
    # Confirmed, the number is still taken: the plain conflict, with the next number.
    taken = error(post(api, match["id"], numbered(HAND, 1, same_as_confirmed=True)), 409)
    assert "code" not in taken and taken["next_hand"] == 3
    assert post(api, match["id"], numbered(HAND, 3, same_as_confirmed=True)).status_code == 201
    assert rows(app) == 3


def test_a_clash_with_other_cards_is_the_plain_conflict(app, api):
    match = start(api)
    assert post(api, match["id"], HAND).status_code == 201
    taken = error(post(api, match["id"], OTHER), 409, "number")
    assert "code" not in taken and taken["next_hand"] == 2


def test_a_resend_under_the_same_key_is_never_questioned(app, api):
    match = start(api)
    first = post(api, match["id"], HAND, key="phone-a-hand-1")
    again = post(api, match["id"], HAND, key="phone-a-hand-1")
    assert first.status_code == again.status_code == 201
    assert again.get_data() == first.get_data()
    assert rows(app) == 1


def test_a_refused_hand_confirmed_under_its_key_is_stored_once(app, api):
    match = start(api)
    assert post(api, match["id"], HAND).status_code == 201
    body = numbered(HAND, 2)
    assert post(api, match["id"], body, key="k2").status_code == 409
    body["same_as_confirmed"] = True
    first = post(api, match["id"], body, key="k2")
    again = post(api, match["id"], body, key="k2")
    assert first.status_code == again.status_code == 201
    assert again.get_data() == first.get_data()
    assert rows(app) == 2


def test_countdown_the_same_player_out_twice_is_two_hands(app, api):
    match = start(api, "countdown")
    body = {"number": 1, "out": 1}
    assert post(api, match["id"], body).status_code == 201
    assert post(api, match["id"], {**body, "number": 2}).status_code == 201
    assert rows(app) == 2


def test_a_blocked_hand_with_the_same_cards_is_asked_about(app, api):
    match = start(api, "last-one")
    blocked = hand(1, None, s0="3c", s1="8s kh", s2="5c")
    assert post(api, match["id"], blocked).status_code == 201
    question = error(post(api, match["id"], numbered(blocked, 2)), 409)
    assert question["code"] == "same_as_hand" and question["hand"] == 1


def test_an_edit_to_the_same_cards_is_not_questioned(app, api):
    match = start(api)
    assert post(api, match["id"], HAND).status_code == 201
    assert post(api, match["id"], numbered(OTHER, 2)).status_code == 201
    edit = api("PUT", f"/matches/{match['id']}/hands/2", {"out": 0, "held": HAND["held"]})
    assert edit.status_code == 200, edit.json
    assert [h["cards"] for h in edit.json["hands"]] == [["", "8S KH", "5C"]] * 2


@pytest.mark.parametrize("value", ["yes", 1, None, []])
def test_the_confirmation_is_a_boolean(app, api, value):
    match = start(api)
    assert post(api, match["id"], HAND).status_code == 201
    refused = error(post(api, match["id"], numbered(HAND, 2, same_as_confirmed=value)), 400,
                    "same_as_confirmed")
    assert "true or false" in refused["message"]
    assert rows(app) == 1



LOW = hand(1, 0, s1="2c 3d", s2="4h")  # few points: the match goes on


def test_a_hand_recorded_during_the_request_is_the_one_shown_with_a_free_number(
        app, api, monkeypatch):
    """Phone B's request has read the match when phone A records hand 2 with the very
    cards B sends as hand 2: B's answer shows A's hand and offers number 3, as the
    match now stands (not the match as the request first read it)."""
    import scorekeeper.api.hands as hands_api

    match = start(api)
    assert post(api, match["id"], LOW).status_code == 201
    record = hands_api.record_hand

    def phone_a_first(*args, **kwargs):
        monkeypatch.setattr(hands_api, "record_hand", record)  # phone A's is plain
        with app.test_client() as phone_a:
            answer = phone_a.post(f"/api/v1/matches/{match['id']}/hands",
                                  headers={"Authorization": f"Bearer {api.token}"},
                                  json=numbered(OTHER_LOW, 2))
            assert answer.status_code == 201, answer.json
        return record(*args, **kwargs)

    monkeypatch.setattr(hands_api, "record_hand", phone_a_first)
    question = error(post(api, match["id"], numbered(OTHER_LOW, 2)), 409, "number")
    assert question["code"] == "same_as_hand" and question["hand"] == 2
    assert question["next_hand"] == 3
    assert question["same_hand"]["number"] == 2
    assert rows(app) == 2


OTHER_LOW = hand(1, 1, s0="2c 3d", s2="4h")
