"""Scoring one hand (the rules reference "Scoring" for each game), with the worked checks."""

from __future__ import annotations

import pytest

from scorekeeper.core.cards import parse_card, parse_cards
from scorekeeper.core.scoring import (
    HandResult,
    ScoringError,
    card_points,
    check_hand,
    score_hand,
)
from scorekeeper.core.sheets import Sheet

LO, C8, CD = "last-one", "crazy-eights", "countdown"

# card -> points in Last One, points in Crazy Eights (Countdown scores no points)
POINTS = [
    ("jk", 40, None),
    ("8s", 25, 50),
    ("8h", 25, 50),
    ("ac", 15, 1),
    ("kh", 10, 10),
    ("qd", 10, 10),
    ("js", 10, 10),
    ("10c", 10, 10),
    ("9h", 9, 9),
    ("7d", 7, 7),
    ("6s", 6, 6),
    ("5c", 5, 5),
    ("4h", 4, 4),
    ("3d", 3, 3),
    ("2s", 2, 2),
]


@pytest.mark.parametrize(("card", "last_one", "crazy_eights"), POINTS)
def test_card_points(card, last_one, crazy_eights):
    c = parse_card(card)
    assert card_points(LO, c) == last_one
    if crazy_eights is None:
        with pytest.raises(ScoringError, match="without jokers"):
            card_points(C8, c)
    else:
        assert card_points(C8, c) == crazy_eights
        assert card_points(CD, c) == crazy_eights


def score(game: str, held: list[str], out: int | None, options=None, in_play=None) -> HandResult:
    sheet = Sheet.make(game, options or {})
    return score_hand(sheet, [parse_cards(h) for h in held], out, in_play)


def total(game: str, cards: str) -> int:
    return sum(card_points(game, c) for c in parse_cards(cards))


# Crazy Eights' worked checks (the rules reference)
@pytest.mark.parametrize(("cards", "points"), [("8♠ K♥ 7♦ A♣", 68), ("9♣ 9♥", 18),
                                               ("8s kh", 60), ("5d", 5), ("", 0)])
def test_crazy_eights_hand_totals(cards, points):
    assert total(C8, cards) == points


# game, what each seat holds, who went out -> points per seat
HANDS = [
    # Crazy Eights: the winner scores both opponents' cards
    (C8, ["8♠ K♥ 7♦ A♣", "9♣ 9♥", ""], 2, (0, 0, 86)),
    (C8, ["", "8s kh", "5c"], 0, (65, 0, 0)),
    (C8, ["8s", ""], 1, (0, 50)),
    # Countdown: no points, whatever is held
    (CD, ["8♠ K♥ 7♦ A♣", "9♣ 9♥", ""], 2, (0, 0, 0)),
    (CD, ["8s", "kh"], None, (0, 0)),
    # Last One: own cards, added to your own total
    (LO, ["8s kh 7d ac", "9c 9h", ""], 2, (57, 18, 0)),
    (LO, ["jk jk", "8s 8h", ""], 2, (80, 50, 0)),
    (LO, ["ac kh qd js 10c", "2s 3d", ""], 2, (55, 5, 0)),
    # Last One: exactly one card scores 0, whatever it is; the one who went out scores 0
    (LO, ["jk", "8s", "", "ac 2c"], 2, (0, 0, 0, 17)),
    (LO, ["jk", "kh", "2s 3s"], None, (0, 0, 5)),
    (LO, ["", "jk"], 0, (0, 0)),
    # Last One: a blocked hand, everyone adds their cards
    (LO, ["8s 8h", "jk 2c"], None, (50, 42)),
]


@pytest.mark.parametrize(("game", "held", "out", "points"), HANDS)
def test_score_hand(game, held, out, points):
    assert score(game, held, out).points == points


def test_breakdown_and_notes():
    scored = score(LO, ["8s kh", "jk", ""], 2)
    assert scored.breakdown[0] == ((parse_card("8s"), 25), (parse_card("kh"), 10))
    assert scored.breakdown[1] == ((parse_card("jk"), 40),)
    assert scored.breakdown[2] == ()
    assert scored.notes == ("", "held one card: scores 0", "went out")


def test_crazy_eights_notes():
    scored = score(C8, ["8♠ K♥ 7♦ A♣", "9♣ 9♥", ""], 2)
    assert scored.notes[2].startswith("went out")
    assert scored.notes[:2] == ("", "")


def test_countdown_note():
    assert score(CD, ["5c", ""], 1).notes == ("", "went out: count down by one")


# Crazy Eights jammed hands: what each seat holds, the jam option -> points
JAMMED = [
    # difference rule: lowest (5) scores (60-5) + (18-5)
    (["8s kh", "5c", "9c 9h"], "difference", (0, 68, 0)),
    # full option: lowest scores the others' full totals
    (["8s kh", "5c", "9c 9h"], "full", (0, 78, 0)),
    # a tie for lowest: each lowest holder scores the differences from the others
    (["5c", "8s kh", "5d", "9c 9h"], "difference", (68, 0, 68, 0)),
    (["5c", "8s kh", "5d", "9c 9h"], "full", (78, 0, 78, 0)),
    (["2c 3c", "ac 4c", "7h 8h"], "difference", (52, 52, 0)),  # 5 and 5 tie, 57 - 5
    # everyone level: nobody scores
    (["kh", "qh", "jh"], "difference", (0, 0, 0)),
    (["kh", "qh"], "full", (0, 0)),
    # the lowest holder may hold nothing at all
    (["", "8s", "2c"], "difference", (52, 0, 0)),
]


@pytest.mark.parametrize(("held", "jam", "points"), JAMMED)
def test_crazy_eights_jammed(held, jam, points):
    sheet_points = score(C8, held, None, {"jam_scoring": jam}).points
    totals = [total(C8, h) for h in held]
    low = min(totals)
    expected = tuple(
        sum((t if jam == "full" else t - low) for t in totals if t != low) if v == low else 0
        for v in totals
    )
    assert sheet_points == expected
    assert sheet_points == points


def test_jammed_notes_mark_the_lowest():
    scored = score(C8, ["5c", "8s kh", "5d"], None)
    assert scored.notes == ("lowest in a jammed hand", "", "lowest in a jammed hand")


def test_seats_out_of_the_match_score_nothing():
    # Last One: a seat no longer in the match holds nothing and scores nothing
    assert score(LO, ["8s 8h", "", ""], 2, in_play=[True, False, True]).points == (50, 0, 0)


# an entered hand the deck cannot have dealt -> the seat blamed: the later seat in seat
# order holding the extra copy, or the seat holding a joker the game has none of
DECK_CLASHES = [
    (C8, ["8s kh", "", "8s"], 1, "held.2", r"8♠ is entered 2 times \(Ann and Cy\)"),
    (C8, ["", "8s", "8s 5c"], 0, "held.2", "8♠ is entered 2 times"),
    (C8, ["8s 8s", "", "2c"], 1, "held.0", "8♠ is entered 2 times"),
    (LO, ["jk", "jk", "jk 5c"], None, "held.2", "Joker is entered 3 times"),
    (CD, ["5c", "", "jk"], 1, "held.2", "without jokers"),
]


@pytest.mark.parametrize(("game", "held", "out", "field", "message"), DECK_CLASHES)
def test_check_hand_blames_the_seat_past_the_deck(game, held, out, field, message):
    result = HandResult.of(out, [parse_cards(h) for h in held])
    with pytest.raises(ScoringError, match=message) as info:
        check_hand(Sheet.make(game), ["Ann", "Bo", "Cy"], result)
    assert info.value.field == field


def test_check_hand_too_many_cards_is_nobody_in_particular():
    every = [f"{r}{s}" for s in "cdhs" for r in ["a", *range(2, 11), "j", "q", "k"]]
    held = [parse_cards(every[:26]), [], parse_cards(every[26:])]
    with pytest.raises(ScoringError, match="52 cards entered") as info:
        check_hand(Sheet.make(C8), ["Ann", "Bo", "Cy"], HandResult.of(1, held))
    assert info.value.field == "held"
