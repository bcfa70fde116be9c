"""A match's listing columns, running state and winning seats, as a derived figure.

The match row keeps ``hand_count``, ``status`` and ``finished_at`` (the history pages
list and filter by them) and ``running_json`` (the position a save moves on from, see
:mod:`.running_state`); each seat keeps ``winner``. All of them follow the hands; only
:mod:`.projection` calls this module, with the writer's changes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any, cast

from sqlalchemy import Table, bindparam, select, update
from sqlalchemy.engine import Connection

from scorekeeper.store.models import Match, Seat
from scorekeeper.store.projection.states import ROW_COLUMNS as COLUMNS
from scorekeeper.store.projection.states import Change, GroupState, Kept, Row

__all__ = ["MATCH_COLUMNS"]

M, S = cast(Table, Match.__table__), cast(Table, Seat.__table__)


@lru_cache(maxsize=1)
def _statements() -> tuple[Any, Any]:
    """The two UPDATEs, built once (every save runs them)."""
    match = (update(M).where(M.c.id == bindparam("match_id"))
             .values({name: bindparam(name) for name in COLUMNS}))
    seat = (update(S).where(S.c.match_id == bindparam("at_match"),
                            S.c.position == bindparam("at"))
            .values(winner=bindparam("flag")))
    return match, seat


def _flags(change: Change) -> list[dict[str, Any]]:
    """The seats whose ``winner`` flag the change turns over (a new seat starts false)."""
    before = () if change.before is None else change.before.winners
    turned = set(before) ^ set(change.after.winners)
    return [{"at_match": change.after.match_id, "at": seat, "flag": seat in change.after.winners}
            for seat in sorted(turned)]


class MatchColumns:
    """The match row's derived columns and the seats' winner flags."""

    def project(self, connection: Connection, changes: Sequence[Change]) -> None:
        match, seat = _statements()
        rows = [{"match_id": c.after.match_id, **c.after.row_columns()} for c in changes]
        connection.execute(match, rows)
        flags = [flag for change in changes for flag in _flags(change)]
        if flags:
            connection.execute(seat, flags)

    @property
    def tables(self) -> tuple[Kept, ...]:
        return (Kept("match", ("match_id",), COLUMNS, _stored_matches, _expected_matches,
                     _replace_matches),
                Kept("seat", ("match_id", "position"), ("winner",), _stored_seats,
                     _expected_seats, _replace_seats))


def _stored_matches(connection: Connection, group_id: int) -> Iterable[Row]:
    return connection.execute(select(M.c.id.label("match_id"), *(M.c[n] for n in COLUMNS))
                              .where(M.c.group_id == group_id)).mappings()


def _expected_matches(group: GroupState) -> Iterable[Row]:
    return [{"match_id": m.match_id, **m.row_columns()} for m in group.matches]


def _replace_matches(connection: Connection, group: GroupState, rows: list[Row]) -> None:
    if rows:
        connection.execute(_statements()[0], rows)


def _stored_seats(connection: Connection, group_id: int) -> Iterable[Row]:
    return connection.execute(select(S.c.match_id, S.c.position, S.c.winner)
                              .join(M, M.c.id == S.c.match_id)
                              .where(M.c.group_id == group_id)).mappings()


def _expected_seats(group: GroupState) -> Iterable[Row]:
    return [{"match_id": m.match_id, "position": seat, "winner": seat in m.winners}
            for m in group.matches for seat in range(len(m.players))]


def _replace_seats(connection: Connection, group: GroupState, rows: list[Row]) -> None:
    if rows:
        connection.execute(_statements()[1], [
            {"at_match": r["match_id"], "at": r["position"], "flag": r["winner"]} for r in rows])


MATCH_COLUMNS = MatchColumns()
