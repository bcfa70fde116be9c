"""Player statistics on hand-built matches whose answers are worked out by hand."""

from __future__ import annotations

from functools import partial

import pytest

from scorekeeper.core.scoring import stored_hand
from tests.support.stats_oracle import (
    Comeback,
    GameStats,
    HeadToHead,
    MatchRow,
    comeback,
    eliminations,
    head_to_head,
    player_stats,
    progress,
)

ANN, BOB, CAT = 10, 20, 30
# A hand as stored (who went out, each seat's cards, each seat's points), per game.
lo, c8, cd = (partial(stored_hand, game) for game in ("last-one", "crazy-eights", "countdown"))

# Last One to 50: Cat falls in hand 2 (60), Bob in hand 3 (75); Ann wins.
LAST_ONE = MatchRow(1, "last-one", (ANN, BOB, CAT), (0,), True, (
    lo(0, ("", "8S KH", "JK 2C"), (0, 35, 42)),
    lo(1, ("5H 6H", "", "9C 9D"), (11, 0, 18)),
    lo(0, ("", "8H AC", ""), (0, 40, 0)),
), threshold=50)

# Crazy Eights to 100: Ann is 68 behind after hand 1, then goes out for 100.
CRAZY = MatchRow(2, "crazy-eights", (ANN, BOB), (0,), True, (
    c8(1, ("8S KH 7D AC", ""), (0, 68)),
    c8(0, ("", "8H 8D"), (100, 0)),
))

# Countdown from 2: Cat goes out first, Bob twice after.
COUNTDOWN = MatchRow(3, "countdown", (BOB, CAT), (0,), True, (
    cd(1, ("7C", ""), (0, 0)),
    cd(0, ("", "8C"), (0, 0)),
    cd(0, ("", "KD"), (0, 0)),
), start=2)

# Unfinished Crazy Eights: one hand, Ann caught with an 8.
ACTIVE = MatchRow(4, "crazy-eights", (BOB, ANN), (), False, (
    c8(0, ("", "8C 2D"), (60, 0)),
))

ALL = [LAST_ONE, CRAZY, COUNTDOWN, ACTIVE]


def test_progress_sums_points_and_counts_down():
    assert progress(LAST_ONE) == [(0, 35, 42), (11, 35, 60), (11, 75, 60)]
    assert progress(COUNTDOWN) == [(2, 1), (1, 1), (0, 1)]


def test_eliminations_in_the_hand_the_threshold_is_reached():
    assert eliminations(LAST_ONE) == {2: 2, 1: 3}
    assert eliminations(CRAZY) == {}


def test_everyone_reaching_the_threshold_together_spares_the_lowest():
    both = MatchRow(5, "last-one", (ANN, BOB), (1,), True,
                    (lo(None, ("JK JK", "8S 8H 8D"), (80, 75)),), threshold=50)
    assert eliminations(both) == {0: 1}


def test_ann_overall():
    stats = player_stats(ANN, ALL)
    assert (stats.played, stats.won, stats.unfinished) == (2, 2, 1)
    assert stats.win_rate == 1.0
    assert list(stats.games) == ["crazy-eights", "last-one", "all"]


def test_ann_in_last_one():
    lo = player_stats(ANN, ALL).games["last-one"]
    assert (lo.played, lo.won, lo.hands, lo.went_out, lo.points) == (1, 1, 3, 2, 11)
    assert lo.average_points == pytest.approx(11 / 3)
    assert (lo.caught_eight, lo.caught_joker, lo.eliminated) == (0, 0, 0)
    assert lo.best_comeback == Comeback(0, 1, 0)  # never behind


def test_ann_in_crazy_eights_counts_the_unfinished_match_hands_only():
    c8 = player_stats(ANN, ALL).games["crazy-eights"]
    assert (c8.played, c8.won, c8.hands, c8.went_out) == (1, 1, 3, 1)
    assert c8.points == 100
    assert c8.caught_eight == 2  # 8S in match 2, 8C in the unfinished match
    assert c8.best_comeback == Comeback(68, 2, 1)


def test_bob_falls_and_is_caught_with_eights():
    stats = player_stats(BOB, ALL)
    lo = stats.games["last-one"]
    assert (lo.hands, lo.went_out, lo.points, lo.caught_eight) == (3, 1, 75, 2)
    assert (lo.eliminated, lo.usual_fall) == (1, 3)
    assert lo.best_comeback is None  # did not win at Last One
    assert (stats.played, stats.won) == (3, 1)
    assert stats.win_rate == pytest.approx(1 / 3)


def test_cat_holds_the_joker_and_falls_early():
    lo = player_stats(CAT, ALL).games["last-one"]
    assert (lo.hands, lo.points, lo.caught_joker, lo.caught_eight, lo.usual_fall) == (
        2, 60, 1, 0, 2)


def test_countdown_comeback_and_no_points_average():
    cd = player_stats(BOB, ALL).games["countdown"]
    assert cd.best_comeback == Comeback(1, 3, 1)
    assert cd.average_points is None
    assert (cd.hands, cd.went_out) == (3, 2)


def test_comeback_ignores_eliminated_players():
    # Cat leads with 0 after hand 1, then falls in hand 2: Ann was 18 behind once.
    match = MatchRow(6, "last-one", (ANN, CAT), (0,), True, (
        lo(1, ("9H 9S", ""), (18, 0)),
        lo(0, ("", "KH KS KD KC JK"), (0, 80)),
    ), threshold=50)
    assert comeback(match, 0) == Comeback(18, 6, 1)


@pytest.mark.parametrize(("falls", "usual"), [([], None), ([4], 4), ([2, 9], 2),
                                               ([9, 3, 5], 5), ([2, 5, 9, 3], 3)])
def test_usual_fall_is_the_lower_median(falls, usual):
    assert GameStats("last-one", falls=falls).usual_fall == usual


def test_head_to_head():
    assert head_to_head(ANN, ALL) == [HeadToHead(BOB, 2, 2, 0), HeadToHead(CAT, 1, 1, 0)]
    assert head_to_head(BOB, ALL) == [HeadToHead(ANN, 2, 0, 2), HeadToHead(CAT, 2, 1, 0)]


def test_a_player_who_never_played():
    stats = player_stats(99, ALL)
    assert (stats.played, stats.win_rate, stats.games["all"].average_points) == (0, None, None)
    assert head_to_head(99, ALL) == []
