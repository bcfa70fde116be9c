"""Each request runs a fixed number of SQL statements, however many hands the match
has, players it seats or matches the group has played (both databases).

Statements are counted with a ``before_cursor_execute`` listener on the app's engine.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import event

from scorekeeper.store.extensions import db
from scorekeeper.store.models import Group, Match, Player
from scorekeeper.store.transfer import import_document
from tests.support.documents import random_document
from tests.support.figures import TABLE
from tests.support.web import joined_match


@contextmanager
def counting(app) -> Iterator[list[int]]:
    """Count the statements run inside the block: ``[n]``."""
    seen = [0]
    with app.app_context():
        engine = db.engine

    def listener(*_args: object) -> None:
        seen[0] += 1

    event.listen(engine, "before_cursor_execute", listener)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", listener)


def queries(app, request: Callable[[], object]) -> int:
    with counting(app) as seen:
        request()
    return seen[0]


def held(players: int) -> dict[str, str]:
    """Seat 0 went out; every other seat holds a card or two (a hand must be complete)."""
    cards = ("", "3C 4D", "5H", "6S", "7C", "9D")
    return {str(s): cards[s] for s in range(players)}


SIZES = [(2, 1), (6, 30)]  # (players, hands already recorded)
# A save inserts one entry per seat. PostgreSQL takes them in one statement; on SQLite
# SQLAlchemy sends one INSERT per row (it cannot match RETURNING rows to objects in a
# batch there without an extra "sentinel" column), so there the count is fixed for a
# number of players, whatever the number of hands.
SAVE_SIZES = [(4, 1), (4, 30)]


def save_sizes(backend: str) -> list[tuple[int, int]]:
    return SIZES if backend == "postgresql" else SAVE_SIZES


def test_a_save_through_the_api_runs_a_fixed_number_of_queries(app, client, backend):
    counts = []
    for players, hands in save_sizes(backend):
        _, mid, token = joined_match(app, client, players, hands)
        body = {"number": hands + 1, "out": 0, "held": held(players)}
        auth = {"Authorization": f"Bearer {token}"}

        def save(mid=mid, body=body, auth=auth):
            assert client.post(f"/api/v1/matches/{mid}/hands", json=body,
                               headers=auth).status_code == 201

        counts.append(queries(app, save))
    assert counts[0] == counts[1] <= 12, counts


def test_a_save_through_the_form_and_the_scoreboard_run_fixed_queries(app, client, backend):
    saves, boards = [], []
    for players, hands in save_sizes(backend):
        gid, mid, _ = joined_match(app, client, players, hands)
        url = f"/groups/{gid}/matches/{mid}"
        form = {"number": str(hands + 1), "out": "0"} | {
            f"seat-{s}": cards for s, cards in held(players).items()}
        saves.append(queries(app, lambda url=url, form=form: client.post(
            url + "/hands/new", data=form).status_code == 302))
        boards.append(queries(app, lambda url=url: client.get(url)))
        assert client.get(url).status_code == 200
    assert saves[0] == saves[1] <= 12, saves
    assert boards[0] == boards[1] <= 6, boards


def test_the_scoreboard_runs_fixed_queries_whatever_the_players(app, client):
    boards = []
    for players, hands in SIZES:
        gid, mid, _ = joined_match(app, client, players, hands)
        boards.append(queries(app, lambda gid=gid, mid=mid: client.get(
            f"/groups/{gid}/matches/{mid}")))
    assert boards[0] == boards[1] <= 6, boards


def test_an_edit_and_a_delete_run_fixed_queries(app, client, backend):
    # An edit updates the changed entries with one UPDATE per set of changed columns:
    # with three or more seats, some entries change cards and points, others (scoring 0
    # here) cards alone, so both sizes seat at least three players.
    counts = []
    sizes = [(3, 1), (6, 30)] if backend == "postgresql" else SAVE_SIZES
    for players, hands in sizes:
        _, mid, token = joined_match(app, client, players, hands)
        auth = {"Authorization": f"Bearer {token}"}
        body = {"out": 0, "held": held(players)}
        edit = queries(app, lambda mid=mid, auth=auth, body=body: client.put(
            f"/api/v1/matches/{mid}/hands/1", json=body, headers=auth))
        delete = queries(app, lambda mid=mid, auth=auth, hands=hands: client.delete(
            f"/api/v1/matches/{mid}/hands/{hands}", headers=auth))
        counts.append((edit, delete))
    assert counts[0] == counts[1], counts
    assert max(counts[0]) <= 12, counts


def joined_group(client, name: str, document: dict) -> int:
    """A group holding the document's matches, joined by the client (app context open)."""
    group = Group(name=name)
    db.session.add(group)
    db.session.commit()
    import_document(group, document)
    assert client.get(f"/join/{group.invite_token}").status_code == 302
    return group.id


# The most statements each page may run (the group's page listed its matches' seats
# one match at a time before they came as views: 50 statements at 40 matches).
# A group's JSON export is its backup: it reads the group's players and seasons too,
# and on SQLite its match reads begin one snapshot (a BEGIN, counted here).
MOST = {"history": 3, "record": 5, "player": 8, "season": 8, "group": 2, "export": 5,
        "match-export": 6, "api-export": 7}


@pytest.mark.parametrize("kind", list(MOST))
def test_the_pages_that_read_many_matches_run_fixed_queries(app, client, kind):
    counts = []
    for n in (3, 40):
        with app.app_context():
            gid = joined_group(client, f"G{n}", random_document(random.Random(n), n))
            pid = db.session.scalar(db.select(Player.id).where(Player.group_id == gid)
                                    .order_by(Player.id))
            mid = db.session.scalar(db.select(Match.id).where(Match.group_id == gid)
                                    .order_by(Match.hand_count.desc()))
            token = db.session.get_one(Group, gid).invite_token
        url = {"history": f"/groups/{gid}/history",
               "record": f"/groups/{gid}/matches/{mid}/record",
               "player": f"/groups/{gid}/players/{pid}/stats",
               # a season's figures are counted from its matches' seat rows
               "season": f"/groups/{gid}/players/{pid}/stats?season=year",
               "group": f"/groups/{gid}", "export": f"/groups/{gid}/export.csv",
               "match-export": f"/groups/{gid}/matches/{mid}/export.json",
               "api-export": "/api/v1/export"}[kind]
        headers = {"Authorization": f"Bearer {token}"} if kind.startswith("api") else {}
        assert client.get(url, headers=headers).status_code == 200
        counts.append(queries(app, lambda url=url, headers=headers: client.get(
            url, headers=headers)))
    assert counts[0] == counts[1] <= MOST[kind], counts


def test_saving_hand_500_runs_the_queries_of_hand_1(app, client):
    """The API save reads the match's running state, not its hands."""
    counts = []
    for hands in (0, 499):
        _, mid, token = joined_match(app, client, 4, hands)
        body = {"number": hands + 1, "out": 0, "held": held(4)}
        auth = {"Authorization": f"Bearer {token}"}

        def save(mid=mid, body=body, auth=auth):
            response = client.post(f"/api/v1/matches/{mid}/hands", json=body, headers=auth)
            assert response.status_code == 201 and "hands" not in response.json

        counts.append(queries(app, save))
    assert counts[0] == counts[1] <= 12, counts


def test_the_scoreboard_at_500_hands_runs_the_queries_of_10(app, client):
    boards = []
    for players, hands in ((2, 10), (6, 500)):
        gid, mid, _ = joined_match(app, client, players, hands)
        boards.append(queries(app, lambda gid=gid, mid=mid: client.get(
            f"/groups/{gid}/matches/{mid}")))
    assert boards[0] == boards[1] <= 6, boards


@pytest.mark.parametrize("season", ["", "?season=month"])
def test_the_player_page_runs_the_same_queries_at_10_and_1000_matches(app, client, season):
    """The page reads the player's totals and ratings: the same statements at 10 and 1,000 matches
    (the worked examples of test_history_stats repeated: one quick import each). In a
    season other than all time the figures are three GROUP BY statements over the
    season's seat rows instead of three reads of the totals."""
    counts = []
    for n in (10, 1000):
        with app.app_context():
            gid = joined_group(client, f"P{n}",
                               {**TABLE, "matches": (TABLE["matches"] * n)[:n]})
            pid = db.session.scalar(db.select(Player.id).where(Player.group_id == gid,
                                                               Player.name == "Ann"))
        url = f"/groups/{gid}/players/{pid}/stats{season}"
        assert client.get(url).status_code == 200
        counts.append(queries(app, lambda url=url: client.get(url)))
    # The ratings part adds two: the group's seasons (the picker) and the rating steps.
    assert counts[0] == counts[1] <= 8, counts
