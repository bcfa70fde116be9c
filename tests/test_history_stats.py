"""The player page's figures counted in SQL (:mod:`stats_data`) equal the reference
definitions of :mod:`stats` replayed over every stored hand, on both databases."""

from __future__ import annotations

import json
import random

import pytest

from scorekeeper.cli.history import random_document
from scorekeeper.core.sheets import Sheet
from scorekeeper.store.extensions import db
from scorekeeper.store.models import Group, Player
from scorekeeper.store.statistics import player_figures
from scorekeeper.store.transfer import FORMAT, VERSION, import_document, load_matches
from tests.stats_oracle import HandRow, MatchRow, head_to_head, player_stats


@pytest.fixture(autouse=True)
def ctx(app):
    with app.app_context():
        yield


def reference_rows(group: Group) -> list[MatchRow]:
    """Every match as full :class:`MatchRow` data, by id (the order stats tie-break on)."""
    rows = []
    for m in sorted(load_matches(group), key=lambda m: m.id):
        options = json.loads(m.sheet_json)["options"]
        rows.append(MatchRow(
            m.id, m.game, tuple(s.player_id for s in m.seats),
            m.winners, m.status == "finished",
            tuple(HandRow(h.out_seat, tuple(e.cards for e in h.entries),
                          tuple(e.points for e in h.entries)) for h in m.hands),
            start=options.get("start_count", 0), threshold=options.get("threshold")))
    return rows


def assert_same_figures(group: Group) -> None:
    rows = reference_rows(group)
    for player in group.players:
        stats, rivals = player_figures(group, player)
        assert stats == player_stats(player.id, rows), player.name
        assert rivals == head_to_head(player.id, rows), player.name


def match(game: str, seats: list[str], hands: list[tuple[int | None, list[str]]],
          **options) -> dict:
    return {"sheet": Sheet.make(game, options).to_dict(), "seats": seats, "first_dealer": 0,
            "hands": [{"out": out, "held": held} for out, held in hands]}


# The hand-built matches of test_stats.py, recorded for real.
TABLE = {"format": FORMAT, "version": VERSION, "matches": [
    match("last-one", ["Ann", "Bob", "Cat"], [
        (0, ["", "8S KH", "JK 2C"]), (1, ["5H 6H", "", "9C 9D"]), (0, ["", "8H AC", ""])],
        threshold=50),
    match("crazy-eights", ["Ann", "Bob"], [(1, ["8S KH 7D AC", ""]), (0, ["", "8H 8D"])]),
    match("countdown", ["Bob", "Cat"], [(1, ["7C", ""]), (0, ["", "8C"]), (0, ["", "KD"])],
          start_count=2),
    match("crazy-eights", ["Bob", "Ann"], [(0, ["", "8C 2D"])]),
    # Everyone reaches 50 together: Bob (lowest) wins, Ann falls in hand 1.
    match("last-one", ["Ann", "Bob"], [(None, ["JK JK", "8S 8H 8D"])], threshold=50),
]}


def test_the_worked_examples_counted_in_sql(app):
    group = Group(name="Table")
    db.session.add(group)
    db.session.commit()
    import_document(group, TABLE)
    assert_same_figures(group)
    by_name = {p.name: p for p in group.players}
    ann, _ = player_figures(group, by_name["Ann"])
    bob, rivals = player_figures(group, by_name["Bob"])
    lo = bob.games["last-one"]
    assert (lo.hands, lo.went_out, lo.points, lo.caught_eight, lo.falls) == (4, 1, 150, 3, [3])
    assert ann.games["last-one"].falls == [1] and ann.games["last-one"].caught_joker == 1
    best = ann.games["crazy-eights"].best_comeback
    assert (best.deficit, best.hand) == (68, 1)
    assert [(r.together, r.wins, r.their_wins) for r in rivals] == [(3, 1, 2), (2, 1, 0)]


@pytest.mark.parametrize("seed", [1, 2])
def test_random_matches_counted_in_sql_equal_the_replay(app, seed):
    group = Group(name="Random")
    db.session.add(group)
    db.session.commit()
    import_document(group, random_document(random.Random(seed), 60))
    assert_same_figures(group)


def test_a_player_without_matches(app):
    group = Group(name="Empty")
    db.session.add(group)
    db.session.commit()
    player = Player(group_id=group.id, name="Zed")
    db.session.add(player)
    db.session.commit()
    stats, rivals = player_figures(group, player)
    assert stats == player_stats(player.id, []) and rivals == []
