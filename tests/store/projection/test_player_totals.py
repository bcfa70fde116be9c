"""The players' running totals (``player_totals``, ``player_falls``, ``player_rivals``)
equal the totals recomputed from ``seat_figures`` after every kind of write — record,
edit, delete, a new match, import, finishing and reopening a match, and random sequences
of them — and the player page built from them equals the reference definitions replayed
over every hand (:mod:`tests.support.stats_oracle`), on both databases."""

from __future__ import annotations

import contextlib
import random

import pytest

from scorekeeper.core.cards import parse_cards
from scorekeeper.core.errors import InputError
from scorekeeper.core.sheets import Sheet
from scorekeeper.store.extensions import db
from scorekeeper.store.match_views import match_hands, written_match
from scorekeeper.store.models import Group
from scorekeeper.store.reading import match_standings
from scorekeeper.store.records import create_match, delete_last_hand, edit_hand, record_hand
from scorekeeper.store.transfer import import_document
from tests.support.documents import random_document
from tests.support.figures import assert_figures_match, blocked, imported, match_views
from tests.support.totals import assert_totals, kept

pytestmark = pytest.mark.usefixtures("ctx")


def complete_hand(match, rng: random.Random) -> tuple[int, list[list]]:
    """A valid next hand: someone still in goes out, every other seat still in holds a
    card (sometimes an 8)."""
    table = match_standings(match, match_hands(match))
    alive = [s for s, playing in enumerate(table.in_play) if playing]
    out = rng.choice(alive)
    cards = iter(rng.sample(parse_cards("8C 2D 9H 3S KD 4C 8H 5S"), 8))
    return out, [[next(cards)] if s in alive and s != out else [] for s in range(len(match.seats))]


def test_import_and_a_new_match_add_to_the_totals(app):
    group = imported(11)
    assert_totals(group)
    assert kept(group)[2], "some finished matches, so some head to head"
    players = list(group.players)[:3]
    create_match(group, Sheet.make("crazy-eights", {}), players, 0)
    assert_totals(group)
    import_document(group, random_document(random.Random(12), 4))  # into the same players
    assert_totals(group)
    assert_figures_match(group)


def test_finishing_and_reopening_a_match_moves_the_totals(app):
    group = imported()
    match = next(m for m in match_views(group) if m.status == "finished" and m.hand_count)
    before = kept(group)
    number = match.hand_count
    last = match_hands(match)[-1]
    out, held = last.out_seat, [parse_cards(e.cards) for e in last.entries]
    match = delete_last_hand(match).match  # reopened: no longer played or won, no head to head
    assert match.status == "active"
    assert_totals(group)
    assert kept(group) != before
    match = record_hand(match, number, out, held).match  # finished again, exactly as before
    assert match.status == "finished"
    assert kept(group) == before
    assert_figures_match(group)


@pytest.mark.parametrize("seed", [1, pytest.param(2, marks=pytest.mark.slow)])
def test_random_sequences_of_writes_keep_the_totals(app, seed):
    rng = random.Random(seed)
    group = imported(seed)
    for _ in range(24):
        matches = match_views(group)
        match = rng.choice(matches)
        kind = rng.choice(["record", "record", "edit", "delete", "new", "import"])
        if kind == "record" and match.status == "active":
            out, held = complete_hand(match, rng)
            match = record_hand(match, match.hand_count + 1, out, held,
                                same_as_confirmed=True).match
        elif kind == "edit" and match.hand_count:
            number = rng.randint(1, match.hand_count)
            # Refused (nothing changes) when it would decide the match before a later hand.
            with contextlib.suppress(InputError):
                match = edit_hand(match, number, None, blocked(match, number)).match
        elif kind == "delete" and match.hand_count:
            match = delete_last_hand(match).match
        elif kind == "new":
            seated = rng.sample(list(group.players), 2)
            create_match(group, Sheet.make(rng.choice(["crazy-eights", "last-one"]), {}),
                         seated, 0)
        elif kind == "import":
            import_document(group, random_document(rng, 2))
        assert_totals(group)
    assert_figures_match(group)


def test_several_writes_on_one_loaded_match_keep_the_totals(app):
    """A page or the API reads the match's view once; a save takes the rows it replaces
    from the match's running state, an edit or delete reads them: either stays current
    across several writes in one session, each from the view the last one answered."""
    rng = random.Random(5)
    group = imported(5)
    match_id = next(m.id for m in match_views(group) if m.hand_count > 2)
    db.session.expunge_all()
    group = db.session.get_one(Group, group.id)
    match = written_match(group.id, match_id)
    assert match is not None
    for _ in range(6):
        if match.status == "finished" or rng.random() < 0.3:
            match = delete_last_hand(match).match
        else:
            match = record_hand(match, match.hand_count + 1, *complete_hand(match, rng),
                                same_as_confirmed=True).match
        assert_totals(group)
    match = edit_hand(match, 1, None, blocked(match, 1)).match
    assert_totals(group)
    assert_figures_match(group)
