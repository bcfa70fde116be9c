"""Finding a group, a match or a player from what a client sends: ids and tokens.

Both front doors use these: the pages (from a cookie or a view link) and the API (from
a bearer token). Each answers None for anything out of range or not found, and the
caller turns that into its own 404; ids beyond a 32-bit integer never reach a query.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload

from scorekeeper.core.text import FieldError, clean_colour, clean_name, next_colour
from scorekeeper.store.extensions import db
from scorekeeper.store.models import MAX_ID, Group, Hand, Match, Player, Seat

MAX_TOKEN = 64


def whole_match() -> tuple[Any, ...]:
    """Loader options for a match with its seats, players, hands and entries: a fixed
    four queries whatever the number of hands (a scoreboard and a save need them all)."""
    return (selectinload(Match.seats).joinedload(Seat.player),
            selectinload(Match.hands).selectinload(Hand.entries))


def in_range(value: int) -> bool:
    """Whether a client's id can name a row at all (1 to 2³¹ − 1)."""
    return 0 < value <= MAX_ID


def group_by_id(group_id: int) -> Group | None:
    """The group with this id, or None."""
    return db.session.get(Group, group_id) if in_range(group_id) else None


def group_by_invite(token: str) -> Group | None:
    """The group whose current invite token this is, or None."""
    if not 0 < len(token) <= MAX_TOKEN:
        return None
    return db.session.scalar(db.select(Group).where(Group.invite_token == token))


def group_match(group: Group, match_id: int) -> Match | None:
    """A match of the group, or None (another group's match is not found)."""
    if not in_range(match_id):
        return None
    return db.session.scalar(
        db.select(Match).where(Match.id == match_id, Match.group_id == group.id)
        .options(*whole_match()))


def match_by_view_token(token: str) -> Match | None:
    """The match a spectator's view link points at, or None."""
    if not 0 < len(token) <= MAX_TOKEN:
        return None
    return db.session.scalar(db.select(Match).where(Match.view_token == token)
                             .options(*whole_match()))


def group_player(group: Group, player_id: int) -> Player | None:
    """A player of the group, or None."""
    if not in_range(player_id):
        return None
    return db.session.scalar(
        db.select(Player).where(Player.id == player_id, Player.group_id == group.id))


def check_unique_name(group: Group, name: str, field: str, player: Player | None = None
                      ) -> None:
    """Refuse a name already used in the group (ignoring case)."""
    query = db.select(Player.id).where(Player.group_id == group.id,
                                       func.lower(Player.name) == name.lower())
    if player is not None:
        query = query.where(Player.id != player.id)
    if db.session.scalar(query) is not None:
        raise FieldError(f"{name!r} is already a player in this group; pick another name.",
                         field)


def add_player(group: Group, name_text: str | None, colour: str | None = None,
               field: str = "name") -> Player:
    """Add (and flush) a player; :class:`FieldError` for a bad or duplicate name.

    The database's unique constraint settles a race between two phones adding the
    same name (the session is then rolled back); the caller commits.
    """
    name = clean_name(name_text, field)
    check_unique_name(group, name, field)
    used = [p.colour for p in group.players]
    player = Player(group=group, name=name, colour=clean_colour(colour) if colour else
                    next_colour(used))
    db.session.add(player)
    try:
        db.session.flush()
    except IntegrityError:
        db.session.rollback()
        raise FieldError(f"{name!r} is already a player in this group.", field) from None
    return player


def has_history(player: Player) -> bool:
    """Whether the player sat at any match."""
    return db.session.scalar(db.select(Seat.id).where(Seat.player_id == player.id)
                             .limit(1)) is not None
