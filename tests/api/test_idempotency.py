"""Idempotency keys on new hands: the API's ``Idempotency-Key`` header and the hand
form's hidden field. A hand sent twice (a phone resending its offline queue) is stored
once and answered the same; a key reused for another hand is refused."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import func

from scorekeeper.store.extensions import db
from scorekeeper.store.models import Hand
from tests.support.api import hand, start

KEY = "3f0c8f0e-6a4e-4f7e-9a1f-0d6c2b9e2a11"


def post(api, match_id: int, body: dict, key: str | None = KEY):
    headers = {"Authorization": f"Bearer {api.token}"}
    if key is not None:
        headers["Idempotency-Key"] = key
    return api.client.post(f"/api/v1/matches/{match_id}/hands", json=body, headers=headers)


def rows(app) -> int:
    with app.app_context():
        return db.session.scalar(db.select(func.count()).select_from(Hand))


def test_same_key_same_body_answers_the_same_and_stores_once(app, api):
    match = start(api)
    body = hand(1, 0, s1="8s kh", s2="5c")
    first = post(api, match["id"], body)
    again = post(api, match["id"], body)
    assert first.status_code == again.status_code == 201
    assert again.get_data() == first.get_data()
    assert again.json["hand"]["number"] == 1 and again.json["version"] == first.json["version"]
    assert rows(app) == 1
    with app.app_context():
        assert db.session.scalar(db.select(Hand.idempotency_key)) == KEY


def test_replay_after_more_hands_still_gives_the_first_answer(app, api):
    match = start(api)
    first = post(api, match["id"], hand(1, 0, s1="8s", s2="5c"))
    assert post(api, match["id"], hand(2, 1, s0="kh", s2="4d"), key="second").status_code == 201
    again = post(api, match["id"], hand(1, 0, s1="8s", s2="5c"))
    assert again.status_code == 201
    assert again.get_data() == first.get_data()
    assert rows(app) == 2


def test_a_used_key_with_another_body_is_refused(app, api):
    match = start(api)
    assert post(api, match["id"], hand(1, 0, s1="8s", s2="5c")).status_code == 201
    other = post(api, match["id"], hand(2, 1, s0="kh", s2="4d"))
    assert other.status_code == 422
    assert other.json["error"]["field"] == "idempotency_key"
    assert "already used for hand 1" in other.json["error"]["message"]
    assert rows(app) == 1


def test_without_a_key_a_second_send_is_still_a_conflict(app, api):
    match = start(api)
    body = hand(1, 0, s1="8s", s2="5c")
    assert post(api, match["id"], body, key=None).status_code == 201
    again = post(api, match["id"], body, key=None)
    assert again.status_code == 409
    assert again.json["error"]["next_hand"] == 2
    assert rows(app) == 1


def test_a_new_key_for_a_number_already_recorded_is_a_conflict(app, api):
    match = start(api)
    assert post(api, match["id"], hand(1, 0, s1="8s", s2="5c"), key="phone-a").status_code == 201
    clash = post(api, match["id"], hand(1, 1, s0="9d", s2="5c"), key="phone-b")
    assert clash.status_code == 409
    assert "already recorded" in clash.json["error"]["message"]
    assert rows(app) == 1


def test_a_number_past_the_next_hand_is_a_conflict_that_says_which_is_next(app, api):
    match = start(api)
    ahead = post(api, match["id"], hand(3, 0, s1="8s", s2="5c"), key="phone-a")
    assert ahead.status_code == 409
    assert ahead.json["error"]["message"] == (
        "hand 3 is not next: the match has 0 hands, so the next hand is 1")
    assert rows(app) == 0


def test_keys_are_per_match(app, api):
    one, two = start(api), start(api)
    assert post(api, one["id"], hand(1, 0, s1="8s", s2="5c")).status_code == 201
    assert post(api, two["id"], hand(1, 0, s1="8s", s2="5c")).status_code == 201
    assert rows(app) == 2


@pytest.mark.parametrize("bad", ["x" * 81, "has space", "caf\u00e9"])
def test_a_malformed_key_is_a_400_naming_the_header(app, api, bad):
    match = start(api)
    response = api.client.post(f"/api/v1/matches/{match['id']}/hands",
                               json=hand(1, 0, s1="8s", s2="5c"),
                               headers={"Authorization": f"Bearer {api.token}",
                                        "Idempotency-Key": bad.encode().decode("latin-1")})
    assert response.status_code == 400
    assert response.json["error"]["field"] == "Idempotency-Key"
    assert rows(app) == 0


def test_a_quoted_key_is_the_same_key(app, api):
    match = start(api)
    body = hand(1, 0, s1="8s", s2="5c")
    assert post(api, match["id"], body, key=f'"{KEY}"').status_code == 201
    assert post(api, match["id"], body, key=KEY).status_code == 201
    assert rows(app) == 1


def test_a_deleted_hand_frees_its_key(app, api):
    match = start(api)
    body = hand(1, 0, s1="8s", s2="5c")
    assert post(api, match["id"], body).status_code == 201
    assert api("DELETE", f"/matches/{match['id']}/hands/1").status_code == 200
    assert post(api, match["id"], body).status_code == 201
    assert rows(app) == 1


# The second send waits on the first's lock until its commit, which on a loaded machine
# can outlast the app's 2 s lock timeout (a 503, not what this is about).
@pytest.mark.app_config(DATABASE_LOCK_TIMEOUT=120_000)
def test_the_same_keyed_hand_sent_twice_at_once_is_stored_once(app, phones):
    """A phone resending its queue while the first send is still in flight: both
    requests carry one key; both get the same 201, and one row is stored."""
    clients, headers, match_id = phones
    for number in range(1, 6):
        start = threading.Barrier(2, timeout=10)
        # Each hand unlike the last (a hand like it would be asked about, not stored).
        body = {"number": number, "out": 0, "held": {"1": "5h 6h", "2": ("7c", "7d")[number % 2]}}

        def post(phone: int, body=body, start=start, number=number):
            start.wait()
            return clients[phone].post(f"/api/v1/matches/{match_id}/hands", json=body,
                                       headers={**headers, "Idempotency-Key": f"k{number}"})

        with ThreadPoolExecutor(max_workers=2) as pool:
            answers = [f.result(timeout=30) for f in (pool.submit(post, 0), pool.submit(post, 1))]
        assert [a.status_code for a in answers] == [201, 201], [a.json for a in answers]
        assert answers[0].get_data() == answers[1].get_data()
    assert rows(app) == 5
