"""Each seat's statistics in a match (table ``seat_figures``), as a derived figure.

One row per seat per match, so the player page adds up a row per match instead of
replaying every hand. The values are the running state's figures
(:func:`scorekeeper.core.stats.seat_figures`, moved on hand by hand by a save) with
the match's ``game``, ``finished`` and ``won``; :mod:`.player_totals` sums them per player.
Only :mod:`.projection` calls this module, with the writer's changes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any, cast

from sqlalchemy import Table, bindparam, delete, insert, select, update
from sqlalchemy.engine import Connection

from scorekeeper.store.models import Match, SeatFigureRow
from scorekeeper.store.projection.states import FIGURE_COLUMNS, Change, GroupState, Kept, Row

__all__ = ["COLUMNS", "SEAT_FIGURES"]

F, M = cast(Table, SeatFigureRow.__table__), cast(Table, Match.__table__)
CHANGING = ("finished", "won", *FIGURE_COLUMNS)  # what a change to the hands can move
COLUMNS = ("player_id", "game", *CHANGING)


@lru_cache(maxsize=1)
def _statements() -> tuple[Any, Any]:
    """The INSERT of a new match's rows and the UPDATE of a changed match's, built once."""
    changed = (update(F).where(F.c.match_id == bindparam("at_match"),
                               F.c.seat == bindparam("at_seat"))
               .values({name: bindparam(name) for name in CHANGING}))
    return insert(F), changed


def _changed(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"at_match": r["match_id"], "at_seat": r["seat"],
             **{name: r[name] for name in CHANGING}} for r in rows]


class SeatFiguresFigure:
    """The ``seat_figures`` rows: inserted with a new match, updated with its hands."""

    def project(self, connection: Connection, changes: Sequence[Change]) -> None:
        new: list[dict[str, Any]] = []
        changed: list[dict[str, Any]] = []
        for change in changes:
            (new if change.before is None else changed).extend(change.after.seat_rows())
        inserted, updated = _statements()
        if new:
            connection.execute(inserted, new)
        if changed:
            connection.execute(updated, _changed(changed))

    @property
    def tables(self) -> tuple[Kept, ...]:
        return (Kept("seat_figures", ("match_id", "seat"), COLUMNS, _stored, _expected,
                     _replace),)


def _stored(connection: Connection, group_id: int) -> Iterable[Row]:
    return connection.execute(select(F.c.match_id, F.c.seat, *(F.c[n] for n in COLUMNS))
                              .join(M, M.c.id == F.c.match_id)
                              .where(M.c.group_id == group_id)).mappings()


def _expected(group: GroupState) -> Iterable[Row]:
    return [row for match in group.matches for row in match.seat_rows()]


def _replace(connection: Connection, group: GroupState, rows: list[Row]) -> None:
    connection.execute(delete(F).where(F.c.match_id.in_(
        select(M.c.id).where(M.c.group_id == group.group_id).scalar_subquery())))
    if rows:
        connection.execute(_statements()[0], rows)


SEAT_FIGURES = SeatFiguresFigure()
