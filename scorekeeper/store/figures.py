"""Each seat's statistics in a match (table ``seat_figures``), kept by the records.

:func:`rows_for` builds them for a new match (import and setup go through
:func:`records.build_match`); :func:`rewrite` brings a stored match's rows up to date
with one ``UPDATE`` for all seats, in the same transaction as the change to its hands
(a save passes values moved on by one hand from the match's running state), and hands
the old and new rows to :mod:`scorekeeper.store.totals` (the players' sums).
The figures themselves are defined by :func:`scorekeeper.core.stats.seat_figures`.
"""

from __future__ import annotations

import json
from functools import lru_cache
from operator import attrgetter
from typing import Any

from sqlalchemy import bindparam, select, update
from sqlalchemy.orm.attributes import set_committed_value

from scorekeeper.core.scoring import Standings
from scorekeeper.core.stats import HandRow, seat_figures
from scorekeeper.core.stats import SeatFigures as Figures
from scorekeeper.store import totals
from scorekeeper.store.extensions import db
from scorekeeper.store.models import Match, SeatFigures

__all__ = ["as_values", "figure_values", "figures_of", "hand_rows", "replayed_figures",
           "rewrite", "rows_for"]

_TABLE = SeatFigures.__table__
_COLUMNS = ("hands", "points", "went_out", "caught_eight", "caught_joker", "fell",
            "deficit", "deficit_hand")
_FIGURES = attrgetter(*_COLUMNS)  # a seat's figures in that order, as one tuple


def hand_rows(match: Match) -> list[HandRow]:
    """The match's hands as they stand in memory, one row each."""
    seats = len(match.seats)
    rows = []
    for hand in match.hands:
        cards, points = [""] * seats, [0] * seats
        for entry in hand.entries:
            cards[entry.seat], points[entry.seat] = entry.cards, entry.points
        rows.append(HandRow(hand.out_seat, tuple(cards), tuple(points)))
    return rows


@lru_cache(maxsize=256)
def _limits(sheet_json: str) -> tuple[int, int | None]:
    """Countdown's starting count and Last One's threshold in a stored sheet (read once
    per sheet text: an import writes thousands of matches under a few sheets)."""
    options = json.loads(sheet_json).get("options", {})
    return options.get("start_count", 0), options.get("threshold")


def replayed_figures(game: str, sheet_json: str, seats: int, rows: list[HandRow],
                     table: Standings) -> list[Figures]:
    """Every seat's figures from a match's hand rows and the full replay of them
    (``table``), whose totals after each hand they reuse instead of adding them up
    again."""
    start, threshold = _limits(sheet_json)
    progress = table.progress if len(table.progress) == len(rows) else None
    return seat_figures(game, seats, rows, table.winners, start, threshold, progress)


def figure_values(game: str, sheet_json: str, seats: int, rows: list[HandRow],
                  table: Standings) -> list[dict[str, Any]]:
    """Every seat's column values from a match's hand rows and their standings."""
    return as_values(game, replayed_figures(game, sheet_json, seats, rows, table), table)


def as_values(game: str, figures: list[Figures] | tuple[Figures, ...], table: Standings
              ) -> list[dict[str, Any]]:
    """Every seat's column values from its figures and the match's standings."""
    over, winners = table.over, table.winners
    return [{"seat": f.seat, "game": game, "finished": over, "won": over and f.seat in winners,
             **dict(zip(_COLUMNS, _FIGURES(f), strict=True))} for f in figures]


def figures_of(match: Match, table: Standings) -> list[dict[str, Any]]:
    """Every seat's column values, from the hands in memory and their fresh standings."""
    return figure_values(match.game, match.sheet_json, len(match.seats), hand_rows(match),
                         table)


def rows_for(match: Match, values: list[dict[str, Any]]) -> None:
    """Give a new (unflushed) match its rows from every seat's values (of
    :func:`figures_of`); players may be unflushed too (an import)."""
    match.figures = [SeatFigures(player=seat.player, **seat_values)
                     for seat, seat_values in zip(match.seats, values, strict=True)]


def _old_rows(match: Match) -> dict[int, dict[str, Any]]:
    """The match's stored rows by seat: from memory when loaded with the seats (as
    :func:`groups.match_seats` does), else one SELECT. Rows in memory are current: any
    other change to the match would have failed the version check of this flush."""
    if all("figures" in seat.__dict__ and seat.figures is not None for seat in match.seats):
        return {seat.position: {c.key: getattr(seat.figures, c.key) for c in _TABLE.c}
                for seat in match.seats if seat.figures is not None}
    return {row["seat"]: dict(row) for row in db.session.connection().execute(
        select(_TABLE).where(_TABLE.c.match_id == match.id)).mappings()}


@lru_cache(maxsize=1)
def _rewrite_statement() -> Any:
    """The UPDATE of :func:`rewrite`, built once (every save runs it)."""
    return (update(SeatFigures)
            .where(SeatFigures.match_id == bindparam("match"),
                   SeatFigures.seat == bindparam("at_seat"))
            .values({name: bindparam(name) for name in ("finished", "won", *_COLUMNS)}))


def rewrite(match: Match, values: list[dict[str, Any]]) -> None:
    """Update a stored match's rows in one statement (executed with every seat's
    values: recomputed from every hand after an edit, moved on by one hand by a save),
    and add the difference from the rows they replace to the players' totals."""
    old = _old_rows(match)
    statement = _rewrite_statement()
    new = [{**old[row["seat"]], **row} for row in values]
    connection = db.session.connection()
    connection.execute(statement, [
        {"match": match.id, "at_seat": row["seat"],
         **{name: row[name] for name in ("finished", "won", *_COLUMNS)}} for row in new])
    totals.apply(connection, [(old[row["seat"]], row) for row in new])
    for seat in match.seats:  # keep the loaded rows in step (the session outlives commits)
        loaded = seat.__dict__.get("figures")
        if loaded is not None:
            for name in ("finished", "won", *_COLUMNS):
                set_committed_value(loaded, name, new[seat.position][name])
