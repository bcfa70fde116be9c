"""Two phones record the same hand at the same moment: exactly one wins ("Where
it runs": concurrency is settled in the database, not in process memory).

Each phone is its own Flask test client in its own thread, so each request has its own
app context, session and database connection. A barrier starts both requests together.
The ``app`` fixture runs every test on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from scorekeeper.store import projection
from scorekeeper.store.extensions import db
from scorekeeper.store.models import Hand, HandEntry

# The race is settled by the database's constraint, the loser waiting on the winner's
# lock until its commit: on a loaded machine that commit can take longer than the
# app's 2 s lock timeout, and the loser would get the 503 of a stuck server instead of
# the 409 this is about. Here a lock is waited for as long as a loaded machine needs (as a
# statement runs in every test, tests/conftest.py); the timeouts themselves are tested in
# tests/test_faults_database.py.
pytestmark = pytest.mark.app_config(DATABASE_LOCK_TIMEOUT=120_000)
ROUNDS = 20
BODIES = (  # two phones, two slightly different entries of the same hand
    {"out": 0, "held": {"1": "5h 6h"}},
    {"out": 0, "held": {"1": "5h 9h"}},
)
STORED = ("5H 6H", "5H 9H")
# Seat 2's card changes every round: a hand like the last one would be asked about
# (tests/api/test_same_hand.py), and this race is between two different hands.
ROUND_CARD = ("7C", "7D")


def _body(phone: int, number: int) -> dict:
    body = BODIES[phone]
    return {"number": number, **body,
            "held": {**body["held"], "2": ROUND_CARD[number % 2]}}


def _race(phones, headers, match_id: int, number: int) -> list:
    """Both phones post hand ``number`` at once; their responses, in phone order."""
    start = threading.Barrier(2, timeout=10)

    def post(phone: int):
        start.wait()
        return phones[phone].post(f"/api/v1/matches/{match_id}/hands", headers=headers,
                                  json=_body(phone, number))

    with ThreadPoolExecutor(max_workers=2) as pool:
        return [f.result(timeout=30) for f in [pool.submit(post, 0), pool.submit(post, 1)]]


def _check_round(app, responses, match_id: int, number: int) -> str:
    """Exactly one 201 and one 409; the database keeps the winner's hand, once."""
    statuses = sorted(r.status_code for r in responses)
    assert statuses == [201, 409], [r.json for r in responses]
    winner = next(i for i, r in enumerate(responses) if r.status_code == 201)
    conflict = responses[1 - winner].json["error"]
    assert conflict["field"] == "number" and conflict["next_hand"] == number + 1
    with app.app_context():
        hands = db.session.scalars(db.select(Hand).where(Hand.match_id == match_id,
                                                         Hand.number == number)).all()
        assert len(hands) == 1
        assert [e.cards for e in hands[0].entries] == ["", STORED[winner],
                                                       ROUND_CARD[number % 2]]
    return conflict["message"]


def _check_match(app, phone, headers, match_id: int) -> None:
    match = phone.get(f"/api/v1/matches/{match_id}", headers=headers).json
    assert [h["number"] for h in match["hands"]] == list(range(1, ROUNDS + 1))
    assert match["standings"]["next_hand"] == ROUNDS + 1
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(HandEntry.id))) == 3 * ROUNDS


def test_same_hand_at_once_stores_it_once(app, phones):
    clients, headers, match_id = phones
    for number in range(1, ROUNDS + 1):
        _check_round(app, _race(clients, headers, match_id, number), match_id, number)
    _check_match(app, clients[0], headers, match_id)


# What the writer asks the projection before it claims the match: the change of a
# replay (edit, delete) and of a new hand's one step.
CHECKS = ("rewritten", "next_hand")


def _hold_both_after_checking(monkeypatch):
    """Make two concurrent writes wait for each other once both have validated and
    scored their change, so both go on to commit; returns the original functions."""
    originals = {name: getattr(projection, name) for name in CHECKS}
    gate = threading.Barrier(2, timeout=10)

    def held(check):
        def both_checked(*args):
            done = check(*args)
            gate.wait()
            return done
        return both_checked

    for name, check in originals.items():
        monkeypatch.setattr(projection, name, held(check))
    return originals


def test_database_settles_a_race_past_the_number_check(app, phones, monkeypatch):
    """Hold both requests after they have checked the number and scored the hand, so
    both go on to insert it: the unique (match, number) constraint must refuse one."""
    clients, headers, match_id = phones
    _hold_both_after_checking(monkeypatch)
    for number in range(1, ROUNDS + 1):
        message = _check_round(app, _race(clients, headers, match_id, number), match_id,
                               number)
        assert "just recorded from another phone" in message
    _check_match(app, clients[0], headers, match_id)


@pytest.mark.filterwarnings("ignore::sqlalchemy.exc.SAWarning")  # SQLite reuses the row id
def test_delete_racing_the_next_hand_leaves_no_gap(app, phones, monkeypatch):
    clients, headers, match_id = phones
    path = f"/api/v1/matches/{match_id}/hands"
    for number in (1, 2, 3):
        assert clients[0].post(path, headers=headers,
                               json=_body(0, number)).status_code == 201
    originals = _hold_both_after_checking(monkeypatch)
    with ThreadPoolExecutor(max_workers=2) as pool:
        deleted = pool.submit(clients[0].delete, f"{path}/3", headers=headers)
        recorded = pool.submit(clients[1].post, path, headers=headers,
                               json=_body(1, 4))
        statuses = deleted.result(timeout=30).status_code, recorded.result(timeout=30).status_code
    for name, check in originals.items():
        monkeypatch.setattr(projection, name, check)
    assert statuses in ((200, 409), (409, 201))
    numbers = [h["number"] for h in clients[0].get(f"/api/v1/matches/{match_id}",
                                                   headers=headers).json["hands"]]
    assert numbers == list(range(1, len(numbers) + 1))
