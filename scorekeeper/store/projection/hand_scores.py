"""Each hand's dealer and each seat's points in it, as a derived figure.

A hand row keeps its ``dealer`` and each entry its ``points`` beside the facts (who
went out, the cards each seat held): the core's replay of the match determines both,
and the pages and exports read them without replaying. The writer
(:mod:`scorekeeper.store.records`) inserts a new hand's facts, its row and its
entries' cards, with both figures empty (NULL); in the same transaction this figure
fills them in from the change's scores (:meth:`~.states.Change.added`), one UPDATE
for the dealers and one for the points whatever the number of hands, so no committed
hand is without them. A change that replays a match's hands (an edit, a deleted
hand) has every hand's dealer and points, and the stored ones that differ are mended.
``verify`` and ``rebuild`` check the same two tables against a replay.

It is the first figure: the others (the ratings' best and worst hands) read the
stored points.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, cast

from sqlalchemy import Table, bindparam, select, text, update
from sqlalchemy.engine import Connection

from scorekeeper.store.many_rows import execute_many
from scorekeeper.store.models import Hand, HandEntry, Match
from scorekeeper.store.projection.states import Change, GroupState, Kept, Row

__all__ = ["HAND_SCORES"]

H, E, M = (cast(Table, Hand.__table__), cast(Table, HandEntry.__table__),
           cast(Table, Match.__table__))


@dataclass(frozen=True)
class _Statements:
    """The UPDATEs this figure runs, built once: a rebuild's (by primary key) and a new
    hand's (by its match and number, unique together, and an entry's seat)."""

    dealer: Any
    points: Any
    new_dealer: Any
    new_points: Any


@lru_cache(maxsize=1)
def _statements() -> _Statements:
    the_hand = (H.c.match_id == bindparam("in_match")) & (H.c.number == bindparam("of_number"))
    value: Any = bindparam("value")
    return _Statements(
        dealer=update(H).where(H.c.id == bindparam("at")).values(dealer=value),
        points=update(E).where(E.c.id == bindparam("at")).values(points=value),
        new_dealer=update(H).where(the_hand).values(dealer=value),
        new_points=update(E).where(E.c.hand_id == select(H.c.id).where(the_hand)
                                   .scalar_subquery(),
                                   E.c.seat == bindparam("at_seat")).values(points=value))


def _mend(connection: Connection, statement: Any, stored: Any, key: tuple[str, ...],
          column: str, rows: Iterable[Row]) -> None:
    """Update only the stored rows whose ``column`` differs from its recomputed row (a
    rebuild of a sound group rewrites nothing: a long history has many hands)."""
    have = {tuple(row[k] for k in key): (row["id"], row[column]) for row in stored}
    wrong = [{"at": have[at][0], "value": row[column]} for row in rows
             if (at := tuple(row[k] for k in key)) in have and have[at][1] != row[column]]
    if wrong:
        connection.execute(statement, wrong)


def _score_added(connection: Connection, changes: Sequence[Change]) -> None:
    """Fill in the dealer of every hand the changes add, and the points of its entries
    (their rows are the writer's, just inserted): one statement each, every row at
    once on PostgreSQL, the driver's executemany on SQLite (an import adds tens of
    thousands)."""
    dealers: list[tuple[int, int, int]] = []
    points: list[tuple[int, int, int, int]] = []
    for change in changes:
        after, added = change.after, change.added
        if not added:
            continue
        assert added.start >= after.scored_from  # a new hand comes scored
        scored = after.scored[added.start - after.scored_from:]
        match_id = after.match_id
        for number, (dealer, scores) in zip(added, scored, strict=True):
            dealers.append((dealer, match_id, number))
            points.extend((value, match_id, number, seat) for seat, value in enumerate(scores))
    if not dealers:
        return
    if connection.dialect.name == "postgresql":
        # PostgreSQL takes every row in one statement, as arrays (a statement per row
        # would cost an import five times the client's time and twice the wall clock).
        connection.execute(_UNNESTED_DEALERS, _arrays(("d", "m", "n"), dealers))
        connection.execute(_UNNESTED_POINTS, _arrays(("p", "m", "n", "s"), points))
        return
    statements = _statements()
    execute_many(connection, statements.new_dealer, ("value", "in_match", "of_number"),
                 dealers)
    execute_many(connection, statements.new_points,
                 ("value", "in_match", "of_number", "at_seat"), points)


def _arrays(names: tuple[str, ...], rows: Sequence[tuple[int, ...]]) -> dict[str, list[int]]:
    """The rows' columns as one list each, by name (PostgreSQL's arrays)."""
    return {name: list(column) for name, column in zip(names, zip(*rows, strict=True), strict=True)}


_UNNESTED_DEALERS = text(
    "UPDATE hand SET dealer = v.d FROM unnest(CAST(:d AS integer[]), CAST(:m AS integer[]), "
    "CAST(:n AS integer[])) AS v(d, m, n) WHERE hand.match_id = v.m AND hand.number = v.n")
_UNNESTED_POINTS = text(
    "UPDATE hand_entry SET points = v.p FROM hand, unnest(CAST(:p AS integer[]), "
    "CAST(:m AS integer[]), CAST(:n AS integer[]), CAST(:s AS integer[])) AS v(p, m, n, s) "
    "WHERE hand.match_id = v.m AND hand.number = v.n AND hand_entry.hand_id = hand.id "
    "AND hand_entry.seat = v.s")


def _mend_replayed(connection: Connection, changes: Sequence[Change]) -> None:
    """Mend the stored dealers and points that a replay of an existing match moved."""
    replayed = [c.after for c in changes
                if c.before is not None and c.after.scored_from == 1 and not c.added]
    if not replayed:
        return
    state = GroupState(0, tuple(replayed), ())
    where = H.c.match_id.in_([m.match_id for m in replayed])
    _mend(connection, _statements().dealer, _hands(connection, where), ("match_id", "number"),
          "dealer", _expected_hands(state))
    _mend(connection, _statements().points, _entries(connection, where),
          ("match_id", "number", "seat"), "points", _expected_entries(state))


class HandScores:
    """The hands' ``dealer`` and the entries' ``points``."""

    def project(self, connection: Connection, changes: Sequence[Change]) -> None:
        """Fill in the new hands' dealers and points; mend what a replay moved."""
        _score_added(connection, changes)
        _mend_replayed(connection, changes)

    @property
    def tables(self) -> tuple[Kept, ...]:
        return (Kept("hand", ("match_id", "number"), ("dealer",), _stored_hands,
                     _expected_hands, _replace_hands),
                Kept("hand_entry", ("match_id", "number", "seat"), ("points",),
                     _stored_entries, _expected_entries, _replace_entries))


def _hands(connection: Connection, where: Any) -> Iterable[Row]:
    return connection.execute(select(H.c.id, H.c.match_id, H.c.number, H.c.dealer)
                              .join(M, M.c.id == H.c.match_id).where(where)).mappings()


def _stored_hands(connection: Connection, group_id: int) -> Iterable[Row]:
    return _hands(connection, M.c.group_id == group_id)


def _expected_hands(group: GroupState) -> Iterable[Row]:
    return [{"match_id": m.match_id, "number": number, "dealer": dealer}
            for m in group.matches
            for number, (dealer, _) in enumerate(m.scored, start=1)]


def _replace_hands(connection: Connection, group: GroupState, rows: list[Row]) -> None:
    _mend(connection, _statements().dealer, _stored_hands(connection, group.group_id),
          ("match_id", "number"), "dealer", rows)


def _entries(connection: Connection, where: Any) -> Iterable[Row]:
    return connection.execute(select(E.c.id, H.c.match_id, H.c.number, E.c.seat, E.c.points)
                              .join(H, H.c.id == E.c.hand_id)
                              .join(M, M.c.id == H.c.match_id).where(where)).mappings()


def _stored_entries(connection: Connection, group_id: int) -> Iterable[Row]:
    return _entries(connection, M.c.group_id == group_id)


def _expected_entries(group: GroupState) -> Iterable[Row]:
    return [{"match_id": m.match_id, "number": number, "seat": seat, "points": points}
            for m in group.matches
            for number, (_, scores) in enumerate(m.scored, start=1)
            for seat, points in enumerate(scores)]


def _replace_entries(connection: Connection, group: GroupState, rows: list[Row]) -> None:
    _mend(connection, _statements().points, _stored_entries(connection, group.group_id),
          ("match_id", "number", "seat"), "points", rows)


HAND_SCORES = HandScores()
