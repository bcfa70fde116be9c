"""The player page's figures counted in SQL (:mod:`stats_data`) equal the reference
definitions of :mod:`stats` replayed over every stored hand, on both databases; a
season's equal them replayed over only the matches that finished in it."""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, timedelta

import pytest

from scorekeeper.core.ratings import order_key
from scorekeeper.store.extensions import db
from scorekeeper.store.models import Group, Match, Player
from scorekeeper.store.seasons import add_season, pick_period
from scorekeeper.store.statistics import player_figures
from scorekeeper.store.transfer import import_document
from tests.support.documents import random_document
from tests.support.figures import TABLE, assert_same_figures, reference_rows
from tests.support.stats_oracle import head_to_head, player_stats

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


def _dated(document: dict, first: datetime) -> dict:
    """The document with each match finished a day and a few hours after the last, so
    the matches spread over months and some finish late in a day, some early."""
    for i, item in enumerate(document["matches"]):
        finished = first + timedelta(days=i * 2, hours=(i * 7) % 24, minutes=i % 60)
        item["created_at"] = (finished - timedelta(minutes=30)).isoformat()
        item["finished_at"] = finished.isoformat()
    return document


def _finished_between(group: Group, first: date, last: date) -> set[int]:
    """The group's matches that finished on a UTC day from ``first`` to ``last``."""
    rows = db.session.execute(db.select(Match.id, Match.finished_at)
                              .where(Match.group_id == group.id,
                                     Match.finished_at.is_not(None))).all()
    return {match_id for match_id, moment in rows
            if first <= order_key(moment, match_id)[0].date() <= last}


@pytest.mark.parametrize("seed", [3, 4])
def test_a_named_season_counts_only_the_matches_that_finished_in_it(app, seed):
    group = Group(name="Seasons")
    db.session.add(group)
    db.session.commit()
    document = _dated(random_document(random.Random(seed), 60), datetime(2025, 1, 1, tzinfo=UTC))
    import_document(group, document)
    first, last = date(2025, 2, 10), date(2025, 3, 20)
    season = add_season(group, "Late winter", first, last)
    period, _ = pick_period(group, str(season.id), date(2025, 6, 1))
    assert period is not None and period.first == first
    inside = _finished_between(group, first, last)
    assert 5 < len(inside) < 60
    only_these = [row for row in reference_rows(group) if row.id in inside]
    for player in group.players:
        stats, rivals = player_figures(group, player, period)
        assert stats == player_stats(player.id, only_these), player.name
        assert rivals == head_to_head(player.id, only_these), player.name
    assert_same_figures(group)  # all time still reads the stored totals, unchanged
    everything, _ = pick_period(group, "all", date(2025, 6, 1))
    for player in group.players:
        assert player_figures(group, player, everything) == player_figures(group, player)


def test_a_season_without_matches_has_empty_figures(app):
    group = Group(name="Quiet")
    db.session.add(group)
    db.session.commit()
    import_document(group, _dated(random_document(random.Random(5), 6),
                                  datetime(2025, 1, 1, tzinfo=UTC)))
    season = add_season(group, "Summer", date(2025, 7, 1), date(2025, 8, 31))
    period, _ = pick_period(group, str(season.id), date(2025, 9, 1))
    for player in group.players:
        stats, rivals = player_figures(group, player, period)
        assert stats == player_stats(player.id, []) and rivals == []
