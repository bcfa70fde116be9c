"""A match as everything that reads it sees it: frozen plain values from one query, no
mapped match.

The scoreboard is the page every phone at the table loads after every save, and
building the mapped objects of a match, its group, seats and players cost more than
the rest of finding it. So these read-only views are THE read model of a match: the
pages (scoreboard, live summary, hand entry, edit and delete, history, the group's
page, the match's record) and the API (its save, edit, delete and read) and the
exports all take one, under the models' own attribute names, and the writer writes
from it. A write that needs every hand reads them beside it (:func:`match_hands`,
frozen :class:`HandView` rows too, refused when the match moved on meanwhile); a page,
the API's match and an export read a :class:`MatchRecord` (the view, its hands and its
rulings) in one snapshot (:mod:`.snapshot`), so a hand saved or edited while they read
is in all of it or none of it. The mapped classes stay in the store. A write answers
the match's view after it; nothing changes a view. A row stored before the running
state was kept gets it worked out from its hands, read-only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from itertools import groupby
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.engine import Connection

from scorekeeper.core.errors import ConflictError
from scorekeeper.store.extensions import db
from scorekeeper.store.models import (
    MAX_ID,
    MAX_TOKEN,
    Group,
    Hand,
    HandEntry,
    Match,
    Player,
    Ruling,
    Seat,
)
from scorekeeper.store.projection.recomputed import running_text
from scorekeeper.store.snapshot import snapshot

__all__ = [
    "RACED",
    "EntryView",
    "GroupView",
    "HandView",
    "MatchRecord",
    "MatchView",
    "PlayerView",
    "RulingView",
    "SeatView",
    "invited_match",
    "listed_matches",
    "match_hand",
    "match_hands",
    "match_records",
    "member_match",
    "reread",
    "watched_match",
    "written_match",
]


@dataclass(frozen=True)
class GroupView:
    """The group a scoreboard belongs to: its name, and its invite for the access check."""

    id: int
    name: str
    invite_token: str


@dataclass(frozen=True)
class PlayerView:
    """A seated player as the scoreboard shows them, and their stable id (what BG Stats
    knows them by)."""

    id: int
    name: str
    colour: str
    uid: str


@dataclass(frozen=True)
class SeatView:
    """A seat: its place clockwise, whether it won, who sits there."""

    position: int
    winner: bool
    player: PlayerView

    @property
    def player_id(self) -> int:
        """The seated player's id, as the model names it."""
        return self.player.id


@dataclass(frozen=True)
class MatchView:
    """A match's row, its group and its seats in order (not its hands)."""

    id: int
    group_id: int
    game: str
    sheet_json: str
    first_dealer: int
    view_token: str
    uid: str
    created_at: datetime
    status: str
    hand_count: int
    finished_at: datetime | None
    running_json: str
    version: int
    group: GroupView
    seats: tuple[SeatView, ...]


# The start of a write's refusal when another phone changed the match first.
RACED = "another phone changed this match at the same moment; "

_MATCH = ("id", "group_id", "game", "sheet_json", "first_dealer", "view_token", "uid",
          "created_at", "status", "hand_count", "finished_at", "running_json", "version")
_M, _G, _S, _P = Match.__table__, Group.__table__, Seat.__table__, Player.__table__


def _seated() -> Any:
    """The rows of matches, one per seat with its player, and their group: the
    lookups' columns and joins, with no condition or order yet."""
    return (select(*(_M.c[name] for name in _MATCH), _G.c.name, _G.c.invite_token,
                   _S.c.position, _S.c.winner, _P.c.id, _P.c.name, _P.c.colour, _P.c.uid)
            .join(_G, _G.c.id == _M.c.group_id).join(_S, _S.c.match_id == _M.c.id)
            .join(_P, _P.c.id == _S.c.player_id))


@lru_cache(maxsize=1)
def _statements() -> tuple[Any, Any, Any]:
    """The lookups, built once: by group and match id, by view token, and by match id
    and the group's invite token (the API's bearer token)."""
    base = _seated().order_by(_S.c.position)
    return (base.where(_M.c.id == bindparam("match"), _M.c.group_id == bindparam("group")),
            base.where(_M.c.view_token == bindparam("token")),
            base.where(_M.c.id == bindparam("match"), _G.c.invite_token == bindparam("token")))


def _view(rows: Sequence[Any], connection: Connection) -> MatchView | None:
    """The view of a match from its rows, one per seat in order (see :func:`_seated`)."""
    if not rows:
        return None
    *match, group_name, invite_token = rows[0][:len(_MATCH) + 2]
    values = dict(zip(_MATCH, match, strict=True))
    if values["running_json"] is None:
        values["running_json"] = running_text(connection, values["id"])
    seats = []
    for row in rows:
        position, winner, player_id, name, colour, uid = row[len(_MATCH) + 2:]
        seats.append(SeatView(position, bool(winner), PlayerView(player_id, name, colour, uid)))
    return MatchView(**values, group=GroupView(values["group_id"], group_name, invite_token),
                     seats=tuple(seats))


def _read(statement: Any, values: dict[str, Any]) -> MatchView | None:
    """One look-up on a connection of its own: a page that only shows a match never
    starts the ORM session (its transaction and teardown cost more than the query)."""
    with db.engine.connect() as connection:
        return _view(connection.execute(statement, values).all(), connection)


def member_match(group_id: int, match_id: int) -> MatchView | None:
    """The match with this id in this group, or None. The caller still checks that
    the phone may see the group."""
    if not (0 < group_id <= MAX_ID and 0 < match_id <= MAX_ID):
        return None
    return _read(_statements()[0], {"group": group_id, "match": match_id})


def invited_match(token: str, match_id: int) -> MatchView | None:
    """The match with this id in the group this invite token opens, or None (either
    is wrong: the caller tells which). Read in the session's transaction: a new hand
    is written from it."""
    if not (0 < len(token) <= MAX_TOKEN and 0 < match_id <= MAX_ID):
        return None
    connection = db.session.connection()
    return _view(connection.execute(_statements()[2], {"token": token, "match": match_id})
                 .all(), connection)


def written_match(group_id: int, match_id: int) -> MatchView | None:
    """The match with this id in this group as read in the session's transaction (one
    just written there and not yet committed, say), or None."""
    connection = db.session.connection()
    return _view(connection.execute(_statements()[0], {"group": group_id, "match": match_id})
                 .all(), connection)


def watched_match(token: str) -> MatchView | None:
    """The match a spectator's view link points at, or None."""
    if not 0 < len(token) <= MAX_TOKEN:
        return None
    return _read(_statements()[1], {"token": token})


def listed_matches(where: Any, *, newest_first: bool = False, limit: int | None = None,
                   connection: Connection | None = None) -> list[MatchView]:
    """The views of the matches ``where`` picks out (a condition on the match's row),
    oldest or newest first by when they started, at most ``limit`` of them: one
    statement whatever their number, read on ``connection`` (a snapshot's), else in the
    session's transaction (a list of history, a group's page)."""
    order: tuple[Any, ...] = (_M.c.created_at, _M.c.id)
    if newest_first:
        order = (_M.c.created_at.desc(), _M.c.id.desc())
    picked = select(_M.c.id).where(where).order_by(*order).limit(limit)
    connection = connection or db.session.connection()
    rows = connection.execute(_seated().where(_M.c.id.in_(picked))
                              .order_by(*order, _S.c.position)).all()
    views = (_view(list(seats), connection) for _, seats in groupby(rows, lambda row: row[0]))
    return [view for view in views if view is not None]


@dataclass(frozen=True)
class EntryView:
    """One seat's row of a stored hand: the cards it held (canonical text), its points."""

    seat: int
    cards: str
    points: int


@dataclass(frozen=True)
class HandView:
    """A stored hand, the one shape pages, the API, an export and the writer read it in:
    its number (with its match, what picks it out), dealer, who went out (None:
    blocked), its own deal size, when it was recorded, and each seat's entry in seat
    order."""

    number: int
    dealer: int
    out_seat: int | None
    hand_size: int | None
    created_at: datetime
    entries: tuple[EntryView, ...]


_H, _E = Hand.__table__, HandEntry.__table__
_HAND = (_H.c.number, _H.c.dealer, _H.c.out_seat, _H.c.hand_size, _H.c.created_at)


def _hand_views(connection: Connection, where: Any
                ) -> tuple[dict[int, list[HandView]], dict[int, int]]:
    """The hands of the matches ``where`` picks out (a condition on the hand's or the
    match's row) with their entries, in order, by match, and the version of each match
    they were read with: ONE statement however many matches, so a hand and its seats'
    cards are always read as they were written together."""
    rows = connection.execute(
        select(_H.c.match_id, _M.c.version, *_HAND, _E.c.seat, _E.c.cards, _E.c.points)
        .join(_M, _M.c.id == _H.c.match_id).join(_E, _E.c.hand_id == _H.c.id)
        .where(where).order_by(_H.c.match_id, _H.c.number, _E.c.seat)).all()
    found: dict[int, list[HandView]] = {}
    versions: dict[int, int] = {}
    for _, seats in groupby(rows, lambda row: (row.match_id, row.number)):
        first, *rest = seats
        versions[first.match_id] = first.version
        found.setdefault(first.match_id, []).append(HandView(
            first.number, first.dealer, first.out_seat, first.hand_size,
            first.created_at, tuple(EntryView(row.seat, row.cards, row.points)
                                    for row in (first, *rest))))
    return found, versions


def match_hands(match: MatchView) -> tuple[HandView, ...]:
    """Every hand of the match with its entries, in order (one query), read in the
    session's transaction: what an edit or a delete starts from. None is read for a
    match without hands. Hands that another phone changed since ``match`` was read
    are :class:`ConflictError` (the write would lose its race anyway); a page that
    only reads takes a :func:`match_records` snapshot instead."""
    if not match.hand_count:
        return ()
    found, versions = _hand_views(db.session.connection(), _H.c.match_id == match.id)
    if versions.get(match.id) != match.version:
        raise ConflictError(RACED + "nothing was saved", "number")
    return tuple(found[match.id])


def match_hand(match: MatchView, number: int) -> HandView | None:
    """Hand ``number`` of the match with its entries, or None (one hand of a long
    match, without reading the others)."""
    found, _ = _hand_views(db.session.connection(),
                           (_H.c.match_id == match.id) & (_H.c.number == number))
    return found[match.id][0] if found else None


def reread(match: MatchView) -> MatchView:
    """The match as stored now (after another phone won a race, say), or ``match`` as
    it was if it is gone."""
    return member_match(match.group_id, match.id) or match


@dataclass(frozen=True)
class RulingView:
    """A play-checker verdict saved against a match: the hand it was asked in (None:
    between hands), the question in words, the answer (None: cannot tell), why, the
    rule's section, and the request that asked it (JSON)."""

    hand_number: int | None
    question: str
    legal: bool | None
    reason: str
    rule: str
    request_json: str


@dataclass(frozen=True)
class MatchRecord:
    """Everything a match's record shows and an export writes: its view, every hand
    with its entries, and its rulings, each in order."""

    match: MatchView
    hands: tuple[HandView, ...]
    rulings: tuple[RulingView, ...]


_R = Ruling.__table__
_RULING = (_R.c.match_id, _R.c.hand_number, _R.c.question, _R.c.legal, _R.c.reason,
           _R.c.rule, _R.c.request_json)


def match_records(group_id: int, match_id: int | None = None) -> list[MatchRecord]:
    """The group's matches (or the one with this id), oldest first, each with its hands
    and rulings: three statements however many matches, read in one
    :func:`~scorekeeper.store.snapshot.snapshot`, so a hand recorded or edited
    meanwhile is in all of them or in none."""
    where = _M.c.group_id == group_id
    if match_id is not None:
        where = where & (_M.c.id == match_id)
    with snapshot() as connection:
        views = listed_matches(where, connection=connection)
        if not views:
            return []
        hands, _ = _hand_views(connection, where)
        rulings: dict[int, list[RulingView]] = {}
        for found_in, *ruling in connection.execute(
                select(*_RULING).join(_M, _M.c.id == _R.c.match_id).where(where)
                .order_by(_R.c.id)):
            rulings.setdefault(found_in, []).append(RulingView(*ruling))
    return [MatchRecord(view, tuple(hands.get(view.id, ())), tuple(rulings.get(view.id, ())))
            for view in views]
