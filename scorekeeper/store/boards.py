"""A match as everything that reads it sees it: frozen plain values from one query, no
mapped match.

The scoreboard is the page every phone at the table loads after every save, and
building the mapped objects of a match, its group, seats and players cost more than
the rest of finding it. So these read-only views are THE read model of a match: the
pages (scoreboard, live summary, hand entry, edit and delete) and the API (its save,
edit, delete and read) all take one, under the models' own attribute names, and the
writer writes from it. A page that needs every hand reads them beside it
(:func:`match_hands`, frozen :class:`HandView` rows too); the mapped classes stay in
the store. A write answers the match's view after it; nothing changes a view. A row stored before
the running state was kept gets it worked out from its hands, read-only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.engine import Connection

from scorekeeper.store.extensions import db
from scorekeeper.store.models import (
    MAX_ID,
    MAX_TOKEN,
    Group,
    Hand,
    HandEntry,
    Match,
    Player,
    Seat,
)
from scorekeeper.store.projection.recomputed import running_text

__all__ = ["EntryView", "GroupView", "HandView", "MatchView", "PlayerView", "SeatView",
           "board_match", "invited_match", "match_hand", "match_hands", "reread", "view_of",
           "watched_match", "written_match"]


@dataclass(frozen=True)
class GroupView:
    """The group a scoreboard belongs to: its name, and its invite for the access check."""

    id: int
    name: str
    invite_token: str


@dataclass(frozen=True)
class PlayerView:
    """A seated player as the scoreboard shows them."""

    id: int
    name: str
    colour: str


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
    status: str
    hand_count: int
    finished_at: datetime | None
    running_json: str
    version: int
    group: GroupView
    seats: tuple[SeatView, ...]


_MATCH = ("id", "group_id", "game", "sheet_json", "first_dealer", "view_token", "status",
          "hand_count", "finished_at", "running_json", "version")


@lru_cache(maxsize=1)
def _statements() -> tuple[Any, Any, Any]:
    """The lookups, built once: by group and match id, by view token, and by match id
    and the group's invite token (the API's bearer token)."""
    m, g, s, p = Match.__table__, Group.__table__, Seat.__table__, Player.__table__
    base = (select(*(m.c[name] for name in _MATCH), g.c.name, g.c.invite_token, s.c.position,
                   s.c.winner, p.c.id, p.c.name, p.c.colour)
            .join(g, g.c.id == m.c.group_id).join(s, s.c.match_id == m.c.id)
            .join(p, p.c.id == s.c.player_id).order_by(s.c.position))
    return (base.where(m.c.id == bindparam("match"), m.c.group_id == bindparam("group")),
            base.where(m.c.view_token == bindparam("token")),
            base.where(m.c.id == bindparam("match"), g.c.invite_token == bindparam("token")))


def _view(rows: Sequence[Any], connection: Connection) -> MatchView | None:
    """The view of a match from its rows, one per seat (see :func:`_statements`)."""
    if not rows:
        return None
    *match, group_name, invite_token = rows[0][:len(_MATCH) + 2]
    values = dict(zip(_MATCH, match, strict=True))
    if values["running_json"] is None:
        values["running_json"] = running_text(connection, values["id"])
    seats = []
    for row in rows:
        position, winner, player_id, name, colour = row[len(_MATCH) + 2:]
        seats.append(SeatView(position, bool(winner), PlayerView(player_id, name, colour)))
    return MatchView(**values, group=GroupView(values["group_id"], group_name, invite_token),
                     seats=tuple(seats))


def _read(statement: Any, values: dict[str, Any]) -> MatchView | None:
    """One look-up on a connection of its own: a page that only shows a match never
    starts the ORM session (its transaction and teardown cost more than the query)."""
    with db.engine.connect() as connection:
        return _view(connection.execute(statement, values).all(), connection)


def board_match(group_id: int, match_id: int) -> MatchView | None:
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


def view_of(match: Match) -> MatchView:
    """The view of a match already loaded as a model, with its seats (a reader that
    loads many matches with their hands at once, such as an export)."""
    return MatchView(
        **{name: getattr(match, name) for name in _MATCH if name != "running_json"},
        running_json=match.running_json or running_text(db.session.connection(), match.id),
        group=GroupView(match.group_id, match.group.name, match.group.invite_token),
        seats=tuple(SeatView(seat.position, seat.winner,
                             PlayerView(seat.player.id, seat.player.name, seat.player.colour))
                    for seat in match.seats))


@dataclass(frozen=True)
class EntryView:
    """One seat's row of a stored hand: the cards it held (canonical text), its points."""

    seat: int
    cards: str
    points: int


@dataclass(frozen=True)
class HandView:
    """A stored hand: its number, dealer, who went out (None: blocked), its own deal
    size, when it was recorded, and each seat's entry in seat order."""

    id: int
    number: int
    dealer: int
    out_seat: int | None
    hand_size: int | None
    created_at: datetime
    entries: tuple[EntryView, ...]


_H, _E = Hand.__table__, HandEntry.__table__
_HAND = (_H.c.id, _H.c.number, _H.c.dealer, _H.c.out_seat, _H.c.hand_size, _H.c.created_at)


def _hand_views(connection: Connection, where: Any) -> list[HandView]:
    """The hands matching ``where`` with their entries, in order (two queries)."""
    hands = connection.execute(select(*_HAND).where(where).order_by(_H.c.number)).all()
    if not hands:
        return []
    entries: dict[int, list[EntryView]] = {hand.id: [] for hand in hands}
    for hand_id, seat, cards, points in connection.execute(
            select(_E.c.hand_id, _E.c.seat, _E.c.cards, _E.c.points)
            .where(_E.c.hand_id.in_(list(entries))).order_by(_E.c.hand_id, _E.c.seat)):
        entries[hand_id].append(EntryView(seat, cards, points))
    return [HandView(*hand, entries=tuple(entries[hand.id])) for hand in hands]


def match_hands(match: MatchView) -> tuple[HandView, ...]:
    """Every hand of the match with its entries, in order (two queries), read in the
    session's transaction: what a page that lists or replays every hand reads beside
    the view, and what an edit or a delete starts from. None is read for a match
    without hands."""
    if not match.hand_count:
        return ()
    return tuple(_hand_views(db.session.connection(), _H.c.match_id == match.id))


def match_hand(match: MatchView, number: int) -> HandView | None:
    """Hand ``number`` of the match with its entries, or None (one hand of a long
    match, without reading the others)."""
    found = _hand_views(db.session.connection(),
                        (_H.c.match_id == match.id) & (_H.c.number == number))
    return found[0] if found else None


def reread(match: MatchView) -> MatchView:
    """The match as stored now (after another phone won a race, say), or ``match`` as
    it was if it is gone."""
    return board_match(match.group_id, match.id) or match
