"""Each seat's figures advanced one hand at a time (the step of :func:`stats.seat_figures`).

A save of the next hand should cost the same at hand 500 as at hand 1, so the records
keep a match's figures after its last hand and move them on by one hand here instead of
recomputing them from every hand. Folding :func:`advance_figures` over a match's hands
from :func:`start_figures` gives exactly :func:`scorekeeper.core.stats.seat_figures`
(the tests hold the two equal): a seat's fall, hands played, points, times out and
caught, and its largest deficit to the leader still in the match.

>>> from scorekeeper.core.stats import HandRow
>>> after = advance_figures("crazy-eights", start_figures(2), 1, HandRow(1, ("5H", ""), (0, 5)),
...                         totals=(0, 5), winners=())
>>> after[0].hands, after[0].deficit, after[0].deficit_hand, after[1].went_out
(1, 5, 1, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from scorekeeper.core.games import GAMES
from scorekeeper.core.stats import HandRow, SeatFigures, _holds

__all__ = ["SEAT_FIGURE_NAMES", "advance_figures", "start_figures"]

# The figures of a seat that move with each hand, in the order they are stored.
SEAT_FIGURE_NAMES = ("hands", "points", "went_out", "caught_eight", "caught_joker", "fell",
                     "deficit", "deficit_hand")


def start_figures(seats: int) -> tuple[SeatFigures, ...]:
    """Every seat's figures before the first hand."""
    return tuple(SeatFigures(seat) for seat in range(seats))


def advance_figures(game: str, figures: Sequence[SeatFigures], number: int, row: HandRow,
                    totals: Sequence[int], winners: Sequence[int],
                    threshold: int | None = None) -> tuple[SeatFigures, ...]:
    """The figures after hand ``number`` (``row``), given the totals after it and the
    match's winners (none until the hand that ends it). ``threshold`` is Last One's."""
    info = GAMES[game]
    fallen = {f.seat: f.fell for f in figures if f.fell is not None}
    for seat in info.falls(totals, threshold, fallen, winners):
        fallen[seat] = number
    lead = info.leader([t for seat, t in enumerate(totals) if fallen.get(seat, number) >= number])
    return tuple(_one(f, fallen.get(f.seat), number, row, info.behind(totals[f.seat], lead))
                 for f in figures)


def _one(f: SeatFigures, fell: int | None, number: int, row: HandRow, behind: int
         ) -> SeatFigures:
    seat = f.seat
    new = replace(f, fell=fell)
    if fell is None or number <= fell:  # a hand played (up to and including the fall)
        cards = row.cards[seat]
        caught = row.out != seat
        new = replace(new, hands=f.hands + 1, points=f.points + row.points[seat],
                      went_out=f.went_out + (not caught),
                      caught_eight=f.caught_eight + (caught and _holds(cards, "8")),
                      caught_joker=f.caught_joker + (caught and _holds(cards, "JK")))
    if behind > f.deficit:
        new = replace(new, deficit=behind, deficit_hand=number)
    return new
