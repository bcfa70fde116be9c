"""Each seat's best and worst single hand in a match: what the leaderboard's hand
records count, game by game, so that a table would agree.

- **Crazy Eights.** Best: the most points scored in one hand (by going out, or as the
  lowest holder of a jammed hand). Worst: the most points left holding in one hand,
  the value of the cards still held when someone else went out or the hand jammed.
- **Last One.** Best: going out while leaving the most points in the others' hands
  (the sum of what they caught that hand). Worst: the most points caught in one hand.
- **Countdown.** Best: going out from the biggest deal, the most cards that player
  was dealt that hand (their count before it). There is no worst: a hand records only
  who went out, and everyone else's count stays as it was, so no one's losing hand is
  worse than another's (see :data:`NO_WORST`).

:data:`HAND_RECORDS` names each record as the leaderboard shows it.

A figure of 0 means the seat holds no such hand in the match (it never went out, or
never held a card). Pure: it reads a match's scored hands, each a
:class:`~.scoring.HandResult` (as the replay scores them, or as the store keeps them:
:func:`~.scoring.stored_hand`).

>>> from scorekeeper.core.scoring import stored_hand
>>> hands = [stored_hand("crazy-eights", 1, ("8S KH", ""), (0, 60)),
...          stored_hand("crazy-eights", 0, ("", "3C"), (3, 0))]
>>> hand_records("crazy-eights", 2, hands, 0)
(HandMarks(best=3, worst=60), HandMarks(best=60, worst=3))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scorekeeper.core.games import GAMES
from scorekeeper.core.scoring import HandResult, held_points

__all__ = ["BEST_HAND", "HAND_RECORDS", "NO_WORST", "WORST_HAND", "HandMarks", "HandRecord",
           "hand_records"]

BEST_HAND, WORST_HAND = "best-hand", "worst-hand"


@dataclass(frozen=True)
class HandRecord:
    """A hand record as the leaderboard names it: its title, and what its figure counts
    (one, many)."""

    title: str
    unit: tuple[str, str]


# The hand records each kind of scoring (:attr:`Game.scoring`) keeps, in the page's
# words: the one list of which games have which hand records (what :func:`hand_records`
# counts); a kind without one says why in :data:`NO_WORST`.
HAND_RECORDS: dict[str, dict[str, HandRecord]] = {
    "out": {BEST_HAND: HandRecord("Best hand (most points scored in one hand)",
                                  ("point scored", "points scored")),
            WORST_HAND: HandRecord("Worst hand (most points left holding in one hand, when "
                                   "someone else went out or the hand jammed)",
                                   ("point held", "points held"))},
    "own": {BEST_HAND: HandRecord("Best hand (went out leaving the most points in the "
                                  "others' hands: the sum they caught)",
                                  ("point caught", "points caught")),
            WORST_HAND: HandRecord("Worst hand (most points caught in one hand)",
                                   ("point caught", "points caught"))},
    "count": {BEST_HAND: HandRecord("Best hand (went out from the biggest deal: the most "
                                    "cards dealt)", ("card dealt", "cards dealt"))},
}
# Why a kind of scoring gives no worst hand, in the leaderboard's words.
NO_WORST = {"count": "Counts give no worst hand: a hand records only who went out, and "
                "everyone else's count stays as it was, so no losing hand is worse than "
                "another."}


@dataclass(frozen=True, slots=True)
class HandMarks:
    """One seat's best and worst hand in a match (0: none)."""

    best: int = 0
    worst: int = 0


def _out_scores(game: str, seat: int, hands: Sequence[HandResult]) -> HandMarks:
    return HandMarks(max((hand.points[seat] for hand in hands), default=0),
                     max((held_points(game, hand.held[seat]) for hand in hands
                          if hand.out != seat), default=0))


def _own_scores(seat: int, hands: Sequence[HandResult]) -> HandMarks:
    left = [sum(hand.points) - hand.points[seat] for hand in hands if hand.out == seat]
    return HandMarks(max(left, default=0), max((hand.points[seat] for hand in hands),
                                               default=0))


def _counts(seat: int, hands: Sequence[HandResult], start: int) -> HandMarks:
    count, biggest = start, 0
    for hand in hands:
        if hand.out == seat:
            biggest = max(biggest, count)  # dealt as many cards as the count before
            count -= 1
    return HandMarks(biggest, 0)


def hand_records(game: str, seats: int, hands: Sequence[HandResult], start: int
                 ) -> tuple[HandMarks, ...]:
    """Every seat's best and worst hand over a match's scored hands, in order (``start``:
    Countdown's starting count, unused by the other games)."""
    scoring = GAMES[game].scoring
    if scoring == "out":
        return tuple(_out_scores(game, seat, hands) for seat in range(seats))
    if scoring == "own":
        return tuple(_own_scores(seat, hands) for seat in range(seats))
    return tuple(_counts(seat, hands, start) for seat in range(seats))
