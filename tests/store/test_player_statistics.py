"""The player page's figures counted in SQL (:mod:`stats_data`) equal the reference
definitions of :mod:`stats` replayed over every stored hand, on both databases."""

from __future__ import annotations

import random

import pytest

from scorekeeper.store.extensions import db
from scorekeeper.store.models import Group, Player
from scorekeeper.store.statistics import player_figures
from scorekeeper.store.transfer import import_document
from tests.support.documents import random_document
from tests.support.figures import TABLE, assert_same_figures
from tests.support.stats_oracle import player_stats

pytestmark = pytest.mark.usefixtures("ctx")


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
