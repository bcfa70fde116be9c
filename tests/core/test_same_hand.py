"""A hand goes in once: when a new hand looks like one already recorded (DESIGN.md,
"The server decides, the clients render"), as a table of cases."""

from __future__ import annotations

import pytest

from scorekeeper.core.cards import parse_cards
from scorekeeper.core.same_hand import looks_like, same_as
from scorekeeper.core.scoring import HandResult
from scorekeeper.core.sheets import Sheet

BLOCKED = None
LAST_ONE, COUNTDOWN = Sheet.make("last-one"), Sheet.make("countdown")


def hand(out: int | None, *held: str) -> HandResult:
    """A hand of four seats: who went out and each seat's cards as typed."""
    return HandResult.of(out, [parse_cards(text) for text in held])


STORED = hand(1, "9h 6d 2c", "", "9s 3d kc", "6s 10s 7h")

LOOKS_LIKE = [
    ("same out, same cards", hand(1, "9h 6d 2c", "", "9s 3d kc", "6s 10s 7h"), True),
    ("same cards typed in another order", hand(1, "2c 9h 6d", "", "kc 3d 9s", "7h 6s 10s"),
     True),
    ("same cards in other spellings", hand(1, "9♥ 6♦ 2♣", "", "9S 3D KC", "6s ts 7h"), True),
    ("one card different", hand(1, "9h 6d 2c", "", "9s 3d kc", "6s 10s 8h"), False),
    ("one card fewer", hand(1, "9h 6d 2c", "", "9s 3d kc", "6s 10s"), False),
    ("a card moved to another seat", hand(1, "9h 6d 2c 7h", "", "9s 3d kc", "6s 10s"), False),
    ("another player went out", hand(0, "", "9h 6d 2c", "9s 3d kc", "6s 10s 7h"), False),
    ("blocked where someone went out", hand(BLOCKED, "9h 6d 2c", "", "9s 3d kc",
                                            "6s 10s 7h"), False),
]


@pytest.mark.parametrize(("case", "new", "same"), LOOKS_LIKE, ids=[c[0] for c in LOOKS_LIKE])
def test_a_new_hand_looks_like_a_stored_one_when_out_and_every_seats_cards_agree(
        case: str, new: HandResult, same: bool) -> None:
    assert looks_like(LAST_ONE, new, STORED) is same


OTHER_CASES = [
    ("blocked hand, same cards", LAST_ONE, hand(BLOCKED, "9h", "3c", "kd", "jk"),
     hand(BLOCKED, "9h", "3c", "kd", "jk"), True),
    ("blocked hand, one card different", LAST_ONE, hand(BLOCKED, "9h", "3c", "kd", "jk"),
     hand(BLOCKED, "9h", "3c", "kd", "qd"), False),
    ("two-deck duplicates counted", LAST_ONE, hand(0, "", "8s 8s", "3c", "4d"),
     hand(0, "", "8s", "3c", "4d"), False),
    ("Countdown: the same player out, no cards", COUNTDOWN, hand(2, "", "", "", ""),
     hand(2, "", "", "", ""), False),
    ("Countdown: never, whatever a client sent as cards", COUNTDOWN, hand(2, "4h", "", "", ""),
     hand(2, "4h", "", "", ""), False),
    ("empty held everywhere, blocked", LAST_ONE, hand(BLOCKED, "", "", "", ""),
     hand(BLOCKED, "", "", "", ""), False),
]


@pytest.mark.parametrize(("case", "sheet", "new", "old", "same"), OTHER_CASES,
                         ids=[c[0] for c in OTHER_CASES])
def test_only_a_hand_with_cards_entered_can_look_like_another(
        case: str, sheet: Sheet, new: HandResult, old: HandResult, same: bool) -> None:
    assert looks_like(sheet, new, old) is same


OTHER = hand(0, "", "5c", "kd", "jk")

SAME_AS = [
    ("like the last hand", [(3, STORED)], 3),
    ("like nothing stored", [(3, OTHER)], None),
    ("no hand stored yet", [], None),
    # The clash: another phone recorded hand 2 with these cards, then hand 3 came in;
    # the request asked for number 2, so hand 2 is named first.
    ("the clash: the hand that took the number", [(2, STORED), (3, OTHER)], 2),
    ("the clash: another hand took the number, the last is like it",
     [(2, OTHER), (3, STORED)], 3),
]


@pytest.mark.parametrize(("case", "stored", "number"), SAME_AS, ids=[c[0] for c in SAME_AS])
def test_same_as_names_the_first_stored_hand_it_looks_like(
        case: str, stored: list[tuple[int, HandResult]], number: int | None) -> None:
    assert same_as(LAST_ONE, STORED, stored) == number
