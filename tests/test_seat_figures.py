"""The per-seat figures kept by the records equal the figures recomputed from the
hands by the reference definitions (:mod:`tests.stats_oracle`) after every kind of
write — record, edit, delete, import — and the migration backfills them (both databases)."""

from __future__ import annotations

import random

import pytest

from scorekeeper.cli.history import random_document
from scorekeeper.core.cards import parse_cards
from scorekeeper.store.extensions import db
from scorekeeper.store.models import Group, Match, SeatFigures
from scorekeeper.store.records import (
    delete_last_hand,
    edit_hand,
    match_standings,
    record_hand,
)
from scorekeeper.store.transfer import import_document, load_matches

from .stats_oracle import player_stats
from .test_history_stats import TABLE, assert_same_figures, reference_rows

COLUMNS = ("hands", "points", "went_out", "caught_eight", "caught_joker", "fell", "deficit",
           "deficit_hand", "finished", "won", "game")


@pytest.fixture(autouse=True)
def ctx(app):
    with app.app_context():
        yield


def stored(group: Group) -> dict[tuple[int, int], tuple]:
    rows = db.session.scalars(db.select(SeatFigures).join(Match)
                              .where(Match.group_id == group.id))
    return {(r.match_id, r.seat): tuple(getattr(r, c) for c in COLUMNS) for r in rows}


def recomputed(group: Group) -> dict[tuple[int, int], tuple]:
    """Each seat's figures from the oracle, run over that one match."""
    figures = {}
    for row in reference_rows(group):
        for seat, player in enumerate(row.players):
            stats = player_stats(player, [row]).games[row.game]
            won = row.finished and seat in row.winners
            best = stats.best_comeback
            figures[row.id, seat] = (
                stats.hands, stats.points, stats.went_out, stats.caught_eight,
                stats.caught_joker, stats.falls[0] if stats.falls else None,
                best.deficit if won else None, best.hand if won else None,
                row.finished, won, row.game)
    return figures


def assert_figures_match(group: Group) -> None:
    kept, expected = stored(group), recomputed(group)
    assert kept.keys() == expected.keys()
    for key, values in expected.items():
        # A deficit is only defined (by the oracle) for a match the seat won.
        ours = kept[key] if values[9] else (*kept[key][:6], None, None, *kept[key][8:])
        assert ours == values, key
    assert_same_figures(group)


def imported(seed: int | None = None) -> Group:
    group = Group(name="Figures")
    db.session.add(group)
    db.session.commit()
    import_document(group, TABLE if seed is None else random_document(random.Random(seed), 25))
    return group


@pytest.mark.parametrize("seed", [None, 3])
def test_import_writes_the_figures(app, seed):
    assert_figures_match(imported(seed))


def test_record_edit_and_delete_keep_the_figures(app):
    group = imported()
    (match,) = [m for m in load_matches(group) if m.status == "active"]
    record_hand(match, len(match.hands) + 1, 0, [[], parse_cards("8D")])
    assert_figures_match(group)
    edit_hand(match, 1, 1, [parse_cards("4C 8H"), []])
    assert_figures_match(group)
    delete_last_hand(match)
    assert_figures_match(group)


def low_cards(seats: int, out: int | None) -> list[list]:
    """One low card for every seat but the one who went out (a hand must be complete)."""
    cards = ["2C", "2D", "2H", "2S", "3C", "3D", "3H"]
    return [[] if seat == out else parse_cards(cards[seat]) for seat in range(seats)]


def blocked(match, number: int) -> list[list]:
    """Hand ``number`` made blocked: every seat still in the match then holds cards (an
    empty one gets a card nobody holds); seats already out of the match hold nothing."""
    fallen = match_standings(match).eliminated
    hand = match.hands[number - 1]
    held = [[] for _ in match.seats]
    for entry in hand.entries:
        held[entry.seat] = parse_cards(entry.cards)
    spare = iter(c for c in parse_cards("2C 2D 2H 2S 3C 3D 3H 3S 4C 4D")
                 if c not in {c for cards in held for c in cards})
    for seat, cards in enumerate(held):
        if not cards and fallen.get(seat, number) >= number:
            held[seat] = [next(spare)]
    return held


def test_a_finished_match_reopened(app):
    group = imported()
    match = next(m for m in load_matches(group) if m.status == "finished" and m.hands)
    delete_last_hand(match)  # the hand that decided it
    assert match.status == "active"
    assert_figures_match(group)
    finished = next(m for m in load_matches(group) if m.status == "finished" and m.hands)
    last = len(finished.hands)
    out = finished.hands[-1].out_seat
    edit_hand(finished, last, out, low_cards(len(finished.seats), out))
    assert_figures_match(group)


def test_random_writes_keep_the_figures(app):
    group = imported(7)
    rng = random.Random(7)
    for match in load_matches(group)[:8]:
        if match.hands:
            delete_last_hand(match)
    assert_figures_match(group)
    for match in load_matches(group)[8:14]:
        if match.hands and rng.random() < 0.5:
            number = rng.randint(1, len(match.hands))
            edit_hand(match, number, None, blocked(match, number))
    assert_figures_match(group)
