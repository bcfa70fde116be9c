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

from scorekeeper.core.scoring import Standings
from scorekeeper.core.stats import HandRow, seat_figures
from scorekeeper.core.stats import SeatFigures as Figures
from scorekeeper.store import totals
from scorekeeper.store.boards import MatchView
from scorekeeper.store.extensions import db
from scorekeeper.store.models import Match, SeatFigures

__all__ = ["as_values", "figure_values", "figures_of", "hand_rows", "replayed_figures",
           "rewrite", "rows_before_save", "rows_for"]

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


def _old_rows(match: Match | MatchView) -> dict[int, dict[str, Any]]:
    """The match's stored rows by seat (one SELECT)."""
    return {row["seat"]: dict(row) for row in db.session.connection().execute(
        select(_TABLE).where(_TABLE.c.match_id == match.id)).mappings()}


def rows_before_save(match: Match | MatchView, kept: tuple[Figures, ...]
                     ) -> dict[int, dict[str, Any]]:
    """The match's rows as they stand before its next hand is saved, from its running
    state's figures (``kept``), which the records write with the rows and hold equal to
    them: no SELECT. A match that takes another hand is not finished, so no seat won."""
    players = [seat.player.id for seat in match.seats]
    return {f.seat: {"match_id": match.id, "seat": f.seat, "player_id": players[f.seat],
                     "game": match.game, "finished": False, "won": False,
                     **{name: getattr(f, name) for name in _COLUMNS}}
            for f in kept}


@lru_cache(maxsize=1)
def _rewrite_statement() -> Any:
    """The UPDATE of :func:`rewrite`, built once (every save runs it)."""
    return (update(SeatFigures)
            .where(SeatFigures.match_id == bindparam("match"),
                   SeatFigures.seat == bindparam("at_seat"))
            .values({name: bindparam(name) for name in ("finished", "won", *_COLUMNS)}))


def rewrite(match: Match | MatchView, values: list[dict[str, Any]],
            old: dict[int, dict[str, Any]] | None = None) -> None:
    """Update a stored match's rows in one statement (executed with every seat's
    values: recomputed from every hand after an edit, moved on by one hand by a save),
    and add the difference from the rows they replace (``old``: read when not given)
    to the players' totals."""
    if old is None:
        old = _old_rows(match)
    new = [{**old[row["seat"]], **row} for row in values]
    connection = db.session.connection()
    connection.execute(_rewrite_statement(), [
        {"match": match.id, "at_seat": row["seat"],
         **{name: row[name] for name in ("finished", "won", *_COLUMNS)}} for row in new])
    totals.apply(connection, [(old[row["seat"]], row) for row in new])
