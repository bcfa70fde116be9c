"""Each seat's figures in a match (:mod:`scorekeeper.core.stats`): the one step a save
takes for its new hand, the replay that folds it, and the one order of records (the
best comeback), on hand-built matches whose answers are worked out by hand."""

from __future__ import annotations

from functools import partial

import pytest

from scorekeeper.core.scoring import stored_hand
from scorekeeper.core.stats import (
    Comeback,
    SeatFigures,
    advance_figures,
    beats_comeback,
    best_comeback,
    record_rank,
    seat_figures,
    start_figures,
)

# A hand as stored (who went out, each seat's cards, each seat's points), per game.
lo, c8, cd = (partial(stored_hand, game) for game in ("last-one", "crazy-eights", "countdown"))

# Last One to 50, three seats: Cat reaches 60 in hand 2 and falls, Bob 75 in hand 3;
# Ann (seat 0) wins. Totals after each hand: (0, 35, 42), (11, 35, 60), (11, 75, 60).
LAST_ONE = (lo(0, ("", "8S KH", "JK 2C"), (0, 35, 42)),
            lo(1, ("5H 6H", "", "9C 9D"), (11, 0, 18)),
            lo(0, ("", "8H AC", ""), (0, 40, 0)))


def test_a_last_one_match_seat_by_seat():
    ann, bob, cat = seat_figures("last-one", 3, LAST_ONE, winners=(0,), threshold=50)
    assert ann == SeatFigures(0, hands=3, points=11, went_out=2)  # never behind the lowest
    # Bob played all three hands (the third is the one he fell in), caught with 8s twice.
    assert bob == SeatFigures(1, hands=3, points=75, went_out=1, caught_eight=2, fell=3,
                              deficit=64, deficit_hand=3)
    # Cat fell in hand 2: hand 3 is not hers; 49 behind Ann's 11 in the hand she fell.
    assert cat == SeatFigures(2, hands=2, points=60, caught_joker=1, fell=2, deficit=49,
                              deficit_hand=2)


def test_the_leader_is_among_the_seats_still_in():
    """Cat leads at 0 after hand 1 and falls in hand 2: Ann's deficit is 18, from hand 1,
    not her distance from a fallen Cat afterwards."""
    hands = (lo(1, ("9H 9S", ""), (18, 0)),
             lo(0, ("", "KH KS KD KC JK"), (0, 80)))
    ann, cat = seat_figures("last-one", 2, hands, winners=(0,), threshold=50)
    assert (ann.deficit, ann.deficit_hand, cat.fell) == (18, 1, 2)


def test_a_winner_never_falls():
    hands = (lo(None, ("JK JK", "8S 8H 8D"), (80, 75)),)
    ann, bob = seat_figures("last-one", 2, hands, winners=(1,), threshold=50)
    assert (ann.fell, bob.fell) == (1, None)


def test_crazy_eights_keeps_the_first_hand_at_the_largest_deficit():
    hands = (c8(1, ("8S KH 7D AC", ""), (0, 68)), c8(0, ("", "2C"), (2, 0)),
             c8(1, ("", ""), (0, 0)))
    ann, bob = seat_figures("crazy-eights", 2, hands, winners=(0,))
    assert (ann.deficit, ann.deficit_hand, ann.caught_eight, bob.deficit) == (68, 1, 1, 0)


def test_countdown_counts_down_from_the_start():
    hands = (cd(1, ("7C", ""), (0, 0)), cd(0, ("", "8C"), (0, 0)),
             cd(0, ("", "KD"), (0, 0)))
    bob, cat = seat_figures("countdown", 2, hands, winners=(0,), start=2)
    assert (bob.deficit, bob.deficit_hand, bob.went_out, cat.caught_eight) == (1, 1, 2, 1)


@pytest.mark.parametrize("played", range(len(LAST_ONE) + 1))
def test_a_save_takes_one_step_from_the_figures_it_keeps(played):
    """What a save does with the figures kept after hand ``played``: one step with the
    next hand's totals gives the figures of the match one hand longer."""
    kept = tuple(seat_figures("last-one", 3, LAST_ONE[:played], threshold=50))
    if played == 0:
        assert kept == start_figures(3)
    if played == len(LAST_ONE):
        return
    totals = [sum(hand.points[seat] for hand in LAST_ONE[:played + 1]) for seat in range(3)]
    winners = (0,) if played + 1 == len(LAST_ONE) else ()
    after = advance_figures("last-one", kept, played + 1, LAST_ONE[played], totals, winners,
                            threshold=50)
    assert after == tuple(seat_figures("last-one", 3, LAST_ONE[:played + 1], winners,
                                       threshold=50))


def test_a_fallen_seat_stops_counting_hands():
    fallen = (SeatFigures(0, hands=2, points=55, fell=2), SeatFigures(1, hands=2))
    after = advance_figures("last-one", fallen, 3, lo(1, ("8S", ""), (8, 0)), (63, 0),
                            (), threshold=50)
    # Hands and points stay; its deficit is still measured against the leader still in.
    assert after[0] == SeatFigures(0, hands=2, points=55, fell=2, deficit=63, deficit_hand=3)
    assert after[1] == SeatFigures(1, hands=3, went_out=1)


def test_records_rank_the_highest_figure_then_the_earlier_match():
    assert record_rank(30, 9) < record_rank(20, 3) < record_rank(20, 5)


def test_only_a_won_match_is_a_comeback_and_the_earlier_wins_a_tie():
    assert beats_comeback(True, 5, 8, None, None)
    assert not beats_comeback(False, 90, 1, None, None)
    assert not beats_comeback(True, 20, 9, 20, 3)
    assert beats_comeback(True, 20, 2, 20, 3)
    assert best_comeback([Comeback(20, 9, 4), Comeback(30, 12, 1), Comeback(30, 11, 7)]
                         ) == Comeback(30, 11, 7)
    assert best_comeback([]) is None
