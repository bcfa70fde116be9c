"""A match's running state after its last hand, as stored in ``match.running_json``.

It holds the standings' :class:`~scorekeeper.core.scoring.MatchTally` and every seat's
figures (the values of its ``seat_figures`` row): with it a save scores and checks the
next hand, moves standings and figures on by that one hand and answers, without reading
the match's earlier hands. :mod:`.projection` works it out with every change the
writer makes to the hands — one step for a new hand, a replay for anything else — and
stores it in the same transaction, so the stored state always equals a full replay
(``scorekeeper db verify`` checks it).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from scorekeeper.core.scoring import (
    HandResult,
    MatchTally,
    Standings,
    play_hand,
    tally_of,
)
from scorekeeper.core.sheets import Sheet
from scorekeeper.core.stats import SEAT_FIGURE_NAMES, SeatFigures, advance_figures

__all__ = ["FIGURES_OF", "KEPT", "Last", "Recent", "Running", "advance", "at_end", "from_text",
           "of_replay", "recent_of", "to_text"]

KEPT = 10  # the last hands a state keeps: what the scoreboard lists


@dataclass(frozen=True)
class Recent:
    """One of a match's last hands as the scoreboard lists it: its number, who dealt,
    who went out (None: blocked or jammed) and each seat's points."""

    number: int
    dealer: int
    out_seat: int | None
    points: tuple[int, ...]


Last = tuple[int, int, int | None, tuple[int, ...]]  # a Recent's values, in its order


@dataclass(frozen=True)
class Running:
    """Where a match stands after its last hand, each seat's figures there, and its
    last :data:`KEPT` hands, oldest first (``None`` in a state stored before they were
    kept: the scoreboard then reads them from the hands).

    The last hands are kept as plain tuples (``last``) and read as :class:`Recent`
    (``recent``): tuples of plain values are not tracked by the cycle collector, and an
    import holds the states of thousands of matches at once."""

    position: MatchTally
    figures: tuple[SeatFigures, ...]
    last: tuple[Last, ...] | None = None

    @property
    def recent(self) -> tuple[Recent, ...] | None:
        """The last hands, oldest first."""
        return None if self.last is None else tuple(Recent(*hand) for hand in self.last)


FIGURES_OF = attrgetter(*SEAT_FIGURE_NAMES)  # a seat's figures in that order, as one tuple
_JSON = json.JSONEncoder(separators=(",", ":"), sort_keys=True)  # made once, not per call


def to_text(state: Running) -> str:
    """The state as compact JSON (figures as one list per seat, in ``SEAT_FIGURE_NAMES`` order;
    each recent hand as ``[number, dealer, out, [points…]]``)."""
    data: dict[str, Any] = {"position": state.position.to_dict(),
                            "figures": [list(FIGURES_OF(f)) for f in state.figures]}
    if state.last is not None:
        data["recent"] = [[number, dealer, out, list(points)]
                          for number, dealer, out, points in state.last]
    return _JSON.encode(data)


def from_text(text: str) -> Running:
    """Read back what :func:`to_text` wrote."""
    data = json.loads(text)
    recent = data.get("recent")
    return Running(MatchTally.from_dict(data["position"]),
                   tuple(SeatFigures(seat, **dict(zip(SEAT_FIGURE_NAMES, row, strict=True)))
                         for seat, row in enumerate(data["figures"])),
                   None if recent is None else tuple(
                       (number, dealer, out, tuple(points))
                       for number, dealer, out, points in recent))


def of_replay(table: Standings, values: Sequence[dict[str, Any]],
              outs: Sequence[int | None] | None = None) -> Running:
    """The state a full replay ends in: its standings, every seat's figure values
    (as :func:`scorekeeper.store.projection.seat_rows.figure_values` gives them) and, given who went
    out of each hand (``outs``), its last hands."""
    return at_end(table, [SeatFigures(v["seat"], **{name: v[name] for name in SEAT_FIGURE_NAMES})
                          for v in values], outs)


def at_end(table: Standings, figures: Sequence[SeatFigures],
           outs: Sequence[int | None] | None = None) -> Running:
    """The state a full replay ends in: its standings, every seat's figures (as
    :func:`scorekeeper.store.projection.seat_rows.replayed_figures` gives them) and, given who went
    out of each hand (``outs``), its last :data:`KEPT` hands."""
    recent = None if outs is None else recent_of(
        table.dealers, outs, [score.points for score in table.hands])
    return Running(tally_of(table), tuple(figures), recent)


def recent_of(dealers: Sequence[int], outs: Sequence[int | None],
              points: Sequence[Sequence[int]]) -> tuple[Last, ...]:
    """The last :data:`KEPT` of a match's hands (as :attr:`Running.last` keeps them),
    from each hand's dealer, who went out and its points (all of the match's hands, in
    order)."""
    first = max(0, len(dealers) - KEPT)
    return tuple(zip(range(first + 1, len(dealers) + 1), dealers[first:], outs[first:],
                     [tuple(scored) for scored in points[first:]], strict=True))


def advance(sheet: Sheet, names: Sequence[str], state: Running, result: HandResult
            ) -> tuple[Running, HandResult, int]:
    """The state after one more hand, its score and its dealer; a hand that cannot be
    scored raises :class:`~scorekeeper.core.scoring.ScoringError` as a replay would."""
    position, score, dealer = play_hand(sheet, names, state.position, result)
    threshold = sheet.game_info.threshold(sheet.options)
    figures = advance_figures(sheet.game, state.figures, position.played, score,
                              position.totals, position.winners, threshold)
    recent = None if state.last is None else (
        *state.last, (position.played, dealer, result.out, tuple(score.points)))[-KEPT:]
    return Running(position, figures, recent), score, dealer
