"""What the readers answer of a stored match: here the hands the writer compares a new
hand with, as scoring input, in one statement (both databases)."""

from __future__ import annotations

import pytest
from sqlalchemy import event

from scorekeeper.core.cards import parse_cards
from scorekeeper.core.scoring import HandResult
from scorekeeper.core.sheets import Sheet
from scorekeeper.store.extensions import db
from scorekeeper.store.reading import stored_results
from scorekeeper.store.records import build_match
from tests.support.web import seated_group

HANDS = [(0, ("", "8S KH", "3D")), (1, ("2C", "", "")), (None, ("4H", "5H", "6H"))]


@pytest.fixture
def match(ctx):
    group, players = seated_group("Readers", 3)
    view = build_match(group, Sheet.make("crazy-eights", {}), players, 0, [
        HandResult.of(out, [parse_cards(text) for text in held]) for out, held in HANDS])
    db.session.commit()
    return view


def result(number: int) -> tuple[int, HandResult]:
    out, held = HANDS[number - 1]
    return number, HandResult.of(out, [parse_cards(text) for text in held])


def statements(run) -> tuple[object, int]:
    """What ``run()`` answers, and how many statements it sent."""
    seen = []

    def listener(*_args: object) -> None:
        seen.append(1)

    event.listen(db.engine, "before_cursor_execute", listener)
    try:
        return run(), len(seen)
    finally:
        event.remove(db.engine, "before_cursor_execute", listener)


@pytest.mark.parametrize(("numbers", "answered"), [
    ((3, 1), [3, 1]),  # in the order asked
    ((2, 2, 0, 9), [2]),  # once each; none below 1 nor past the last
    ((), []),
])
def test_the_stored_hands_asked_are_read_as_scoring_input(match, numbers, answered):
    found, sent = statements(lambda: stored_results(match, numbers))
    assert found == [result(n) for n in answered]
    assert sent == (1 if numbers else 0)
