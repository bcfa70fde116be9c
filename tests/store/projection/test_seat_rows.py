"""The per-seat figures kept by the records equal the figures recomputed from the
hands by the reference definitions (:mod:`tests.support.stats_oracle`) after every kind of
write — record, edit, delete, import — and the migration backfills them (both databases)."""

from __future__ import annotations

import random

import pytest

from scorekeeper.core.cards import parse_cards
from scorekeeper.store.match_views import match_hands
from scorekeeper.store.records import delete_last_hand, edit_hand, record_hand
from tests.support.figures import (
    assert_figures_match,
    blocked,
    imported,
    low_cards,
    match_views,
)

pytestmark = pytest.mark.usefixtures("ctx")


@pytest.mark.parametrize("seed", [None, 3])
def test_import_writes_the_figures(app, seed):
    assert_figures_match(imported(seed))


def test_record_edit_and_delete_keep_the_figures(app):
    group = imported()
    (match,) = [m for m in match_views(group) if m.status == "active"]
    match = record_hand(match, match.hand_count + 1, 0, [[], parse_cards("8D")]).match
    assert_figures_match(group)
    match = edit_hand(match, 1, 1, [parse_cards("4C 8H"), []]).match
    assert_figures_match(group)
    match = delete_last_hand(match).match
    assert_figures_match(group)


def test_a_finished_match_reopened(app):
    group = imported()
    match = next(m for m in match_views(group) if m.status == "finished" and m.hand_count)
    match = delete_last_hand(match).match  # the hand that decided it
    assert match.status == "active"
    assert_figures_match(group)
    finished = next(m for m in match_views(group) if m.status == "finished" and m.hand_count)
    last = finished.hand_count
    out = match_hands(finished)[-1].out_seat
    finished = edit_hand(finished, last, out, low_cards(len(finished.seats), out)).match
    assert_figures_match(group)


def test_random_writes_keep_the_figures(app):
    group = imported(7)
    rng = random.Random(7)
    for match in match_views(group)[:8]:
        if match.hand_count:
            match = delete_last_hand(match).match
    assert_figures_match(group)
    for match in match_views(group)[8:14]:
        if match.hand_count and rng.random() < 0.5:
            number = rng.randint(1, match.hand_count)
            match = edit_hand(match, number, None, blocked(match, number)).match
    assert_figures_match(group)
