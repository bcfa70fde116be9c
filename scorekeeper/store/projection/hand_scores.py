"""Each hand's dealer and each seat's points in it, as a derived figure.

A hand row keeps its ``dealer`` and each entry its ``points`` beside the facts (who
went out, the cards each seat held): the core's replay of the match determines both,
and the pages and exports read them without replaying. The writer
(:mod:`scorekeeper.store.records`) hands this figure the new hands as entered
(:class:`~.states.EnteredHand`, in the :class:`~.states.Change`); it writes them with
their dealer and points in one INSERT for the hands and one for the entries, so a hand
is never stored without them. A change that replays a match's hands (an edit, a
deleted hand) has every hand's dealer and points, and the stored ones that differ are
mended. ``verify`` and ``rebuild`` check the same two tables against a replay.

It is the first figure: the others (the ratings' best and worst hands) read the
stored points.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any, cast

from sqlalchemy import Table, bindparam, insert, select, update
from sqlalchemy.engine import Connection

from scorekeeper.store.models import Hand, HandEntry, Match
from scorekeeper.store.projection.states import Change, EnteredHand, GroupState, Kept, Row

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
          column: str, rows: Iterable[Row]) -> None:
    """Update only the stored rows whose ``column`` differs from its recomputed row (a
    rebuild of a sound group rewrites nothing: a long history has many hands)."""
    have = {tuple(row[k] for k in key): (row["id"], row[column]) for row in stored}
    wrong = [{"at": have[at][0], "value": row[column]} for row in rows
             if (at := tuple(row[k] for k in key)) in have and have[at][1] != row[column]]
    if wrong:
        connection.execute(statement, wrong)


def _insert(connection: Connection, changes: Sequence[Change]) -> None:
    """INSERT the changes' new hands with their dealers, then their entries with their
    points (one statement each; many hands' ids are read back in one query)."""
    new: list[EnteredHand] = []
    rows: list[dict[str, Any]] = []
    points_of: list[tuple[int, ...]] = []
    for change in changes:
        for hand in change.entered:
            dealer, points = change.scored(hand.number)
            new.append(hand)
            rows.append({"match_id": hand.match_id, "number": hand.number, "dealer": dealer,
                         "out_seat": hand.out_seat, "hand_size": hand.hand_size,
                         "created_at": hand.created_at})
            points_of.append(points)
    if not rows:
        return
    # A client's request (key, fingerprint, answer) comes with a hand recorded on its
    # own; every row of one INSERT names the same columns, so they go in only then.
    if any(hand.idempotency_key is not None for hand in new):
        for row, hand in zip(rows, new, strict=True):
            row.update(idempotency_key=hand.idempotency_key,
                       request_digest=hand.request_digest, reply_json=hand.reply_json)
    if len(rows) == 1:
        key = connection.execute(insert(H), rows[0]).inserted_primary_key
        assert key is not None  # an INSERT always has one
        ids = {(rows[0]["match_id"], rows[0]["number"]): key[0]}
    else:
        connection.execute(insert(H), rows)
        del rows  # plain rows, but tens of thousands of them in an import
        matches = sorted({change.after.match_id for change in changes if change.entered})
        ids = {(match_id, number): hand_id for hand_id, match_id, number in connection.execute(
            select(H.c.id, H.c.match_id, H.c.number).where(H.c.match_id.in_(matches)))}
    connection.execute(insert(E), [
        {"hand_id": ids[hand.match_id, hand.number], "seat": seat, "cards": cards,
         "points": points}
        for hand, points_in in zip(new, points_of, strict=True)
        for seat, (cards, points) in enumerate(zip(hand.cards, points_in, strict=True))])


def _mend_replayed(connection: Connection, changes: Sequence[Change]) -> None:
    """Mend the stored dealers and points that a replay of an existing match moved."""
    replayed = [c.after for c in changes
                if c.before is not None and not c.entered and c.after.scored_from == 1]
    if not replayed:
        return
    state = GroupState(0, tuple(replayed), ())
    where = H.c.match_id.in_([m.match_id for m in replayed])
    _mend(connection, _statements()[0], _hands(connection, where), ("match_id", "number"),
          "dealer", _expected_hands(state))
    _mend(connection, _statements()[1], _entries(connection, where),
          ("match_id", "number", "seat"), "points", _expected_entries(state))


class HandScores:
    """The hands' ``dealer`` and the entries' ``points``."""

    def project(self, connection: Connection, changes: Sequence[Change]) -> None:
        """Write the new hands with their dealers and points; mend what a replay moved."""
        _insert(connection, changes)
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
    _mend(connection, _statements()[0], _stored_hands(connection, group.group_id),
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
    _mend(connection, _statements()[1], _stored_entries(connection, group.group_id),
          ("match_id", "number", "seat"), "points", rows)


HAND_SCORES = HandScores()
