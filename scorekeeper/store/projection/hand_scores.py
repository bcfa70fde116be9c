"""Each hand's dealer and each seat's points in it, as a derived figure.

A hand row keeps its ``dealer`` and each entry its ``points`` beside the facts (who
went out, the cards each seat held): the core's replay of the match determines both,
and the pages and exports read them without replaying. They are columns of the rows
the writer (:mod:`.records`) inserts and rewrites with every change to a match's
hands — a hand is not complete without them — so this figure writes nothing when the
writer projects a change; it gives ``verify`` and ``rebuild`` the two tables to check
against a replay and mend.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any, cast

from sqlalchemy import Table, bindparam, select, update
from sqlalchemy.engine import Connection

from scorekeeper.store.models import Hand, HandEntry, Match
from scorekeeper.store.projection.states import Change, GroupState, Kept, Row

__all__ = ["HAND_SCORES"]

H, E, M = (cast(Table, Hand.__table__), cast(Table, HandEntry.__table__),
           cast(Table, Match.__table__))


@lru_cache(maxsize=1)
def _statements() -> tuple[Any, Any]:
    """The two UPDATEs a rebuild runs (by primary key), built once."""
    dealer = update(H).where(H.c.id == bindparam("at")).values(dealer=bindparam("value"))
    points = update(E).where(E.c.id == bindparam("at")).values(points=bindparam("value"))
    return dealer, points


def _mend(connection: Connection, statement: Any, stored: Any, key: tuple[str, ...],
          column: str, rows: list[Row]) -> None:
    """Update only the stored rows whose ``column`` differs from its recomputed row (a
    rebuild of a sound group rewrites nothing: a long history has many hands)."""
    have = {tuple(row[k] for k in key): (row["id"], row[column]) for row in stored}
    wrong = [{"at": have[at][0], "value": row[column]} for row in rows
             if (at := tuple(row[k] for k in key)) in have and have[at][1] != row[column]]
    if wrong:
        connection.execute(statement, wrong)


class HandScores:
    """The hands' ``dealer`` and the entries' ``points``: checked and rebuilt here,
    written by the writer with the hands themselves."""

    def project(self, connection: Connection, changes: Sequence[Change]) -> None:
        """Nothing to write: the writer stored these columns with the hands."""

    @property
    def tables(self) -> tuple[Kept, ...]:
        return (Kept("hand", ("match_id", "number"), ("dealer",), _stored_hands,
                     _expected_hands, _replace_hands),
                Kept("hand_entry", ("match_id", "number", "seat"), ("points",),
                     _stored_entries, _expected_entries, _replace_entries))


def _stored_hands(connection: Connection, group_id: int) -> Iterable[Row]:
    return connection.execute(select(H.c.id, H.c.match_id, H.c.number, H.c.dealer)
                              .join(M, M.c.id == H.c.match_id)
                              .where(M.c.group_id == group_id)).mappings()


def _expected_hands(group: GroupState) -> Iterable[Row]:
    return [{"match_id": m.match_id, "number": number, "dealer": dealer}
            for m in group.matches
            for number, (dealer, _) in enumerate(m.scored, start=1)]


def _replace_hands(connection: Connection, group: GroupState, rows: list[Row]) -> None:
    _mend(connection, _statements()[0], _stored_hands(connection, group.group_id),
          ("match_id", "number"), "dealer", rows)


def _stored_entries(connection: Connection, group_id: int) -> Iterable[Row]:
    return connection.execute(select(E.c.id, H.c.match_id, H.c.number, E.c.seat, E.c.points)
                              .join(H, H.c.id == E.c.hand_id)
                              .join(M, M.c.id == H.c.match_id)
                              .where(M.c.group_id == group_id)).mappings()


def _expected_entries(group: GroupState) -> Iterable[Row]:
    return [{"match_id": m.match_id, "number": number, "seat": seat, "points": points}
            for m in group.matches
            for number, (_, scores) in enumerate(m.scored, start=1)
            for seat, points in enumerate(scores)]


def _replace_entries(connection: Connection, group: GroupState, rows: list[Row]) -> None:
    _mend(connection, _statements()[1], _stored_entries(connection, group.group_id),
          ("match_id", "number", "seat"), "points", rows)


HAND_SCORES = HandScores()
