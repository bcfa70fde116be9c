"""Finding a group, a match or a player from what a client sends (ids and tokens),
and the few writes of groups, players, links and new matches, committed here for the
pages, the API and the command line.

Every front door uses these: the pages (from a cookie or a view link), the API (from
a bearer token) and the commands (from an id). Each answers None for anything out of
range or not found, and the caller turns that into its own 404; ids beyond a 32-bit
integer never reach a query. What they answer are frozen views (:class:`GroupView`,
:class:`GroupPlayer`): the mapped rows and the session stay in the store.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, cast

from sqlalchemy import bindparam, update
from sqlalchemy.exc import IntegrityError

from scorekeeper.core.errors import ConflictError, InputError
from scorekeeper.core.sheets import Sheet
from scorekeeper.core.text import char_name, clean_colour, clean_name, name_key, next_colour
from scorekeeper.store.extensions import db
from scorekeeper.store.match_views import GroupView, MatchView, PlayerView, listed_matches
from scorekeeper.store.models import (
    MAX_ID,
    MAX_TOKEN,
    Group,
    Hand,
    HandEntry,
    Match,
    Player,
    Seat,
    new_token,
)
from scorekeeper.store.projection.running_state import Recent
from scorekeeper.store.records import create_match

__all__ = ["MAX_ID", "GroupPlayer", "GroupView", "NewPlayer", "add_player",
           "check_unique_name", "create_group", "delete_player", "edit_player",
           "fresh_colour", "group_by_id", "group_by_invite", "group_player",
           "group_players", "groups_by_ids", "has_history", "in_range", "last_seating",
           "look_alike", "name_problems", "recent_hands", "recent_matches",
           "rotate_invite", "rotate_view_token", "save_player", "seen_text",
           "start_match", "toggle_hidden", "told_apart"]


@dataclass(frozen=True)
class GroupPlayer(PlayerView):
    """A player as the group's pages and the API list them: the seated player's view,
    and whether they are hidden from new matches."""

    hidden: bool


@dataclass(frozen=True)
class NewPlayer:
    """A player to add as a new match is started: the name typed and the field it was
    typed in (where a refusal of the name is shown)."""

    name: str
    field: str = "players"


def recent_hands(match: MatchView, count: int) -> list[Recent]:
    """The match's last ``count`` hands, oldest first: one plain query on the session's
    connection (no ORM objects, nor the ORM's execute: each cost more than the query
    for a page shown after every save)."""
    rows = db.session.connection().execute(  # plain rows: the ORM's execute costs more
        _statements().recent_hands, {"match": match.id, "first": match.hand_count - count + 1})
    hands: dict[int, tuple[int, int | None, list[int]]] = {}
    for number, dealer, out, seat, points in rows:
        seats = hands.setdefault(number, (dealer, out, [0] * len(match.seats)))[2]
        seats[seat] = points
    return [Recent(number, dealer, out, tuple(points))
            for number, (dealer, out, points) in hands.items()]


@dataclass(frozen=True)
class _Statements:
    """The lookups every page and API call makes, each built once with bound
    parameters: building a statement (with its loader options) cost more than running
    it against SQLite."""

    recent_hands: Any
    group_by_id: Any
    group_by_invite: Any
    players: Any


@lru_cache(maxsize=1)
def _statements() -> _Statements:
    return _Statements(
        recent_hands=db.select(Hand.number, Hand.dealer, Hand.out_seat, HandEntry.seat,
                               HandEntry.points)
        .join(HandEntry, HandEntry.hand_id == Hand.id)
        .where(Hand.match_id == bindparam("match"), Hand.number >= bindparam("first"))
        .order_by(Hand.number, HandEntry.seat),
        group_by_id=db.select(*_GROUP).where(Group.id == bindparam("id")),
        group_by_invite=db.select(*_GROUP).where(Group.invite_token == bindparam("token")),
        players=db.select(*_PLAYER).where(Player.group_id == bindparam("group"))
        .order_by(Player.name),
    )


# The columns of the frozen views, in their fields' order.
_GROUP = (Group.id, Group.name, Group.invite_token)
_PLAYER = (Player.id, Player.name, Player.colour, Player.uid, Player.hidden)


def _group_view(row: Any) -> GroupView | None:
    return None if row is None else GroupView(*row)


def in_range(value: int) -> bool:
    """Whether a client's id can name a row at all (1 to 2³¹ − 1)."""
    return 0 < value <= MAX_ID


def group_by_id(group_id: int) -> GroupView | None:
    """The group with this id, or None: one plain query (every member's page asks)."""
    if not in_range(group_id):
        return None
    return _group_view(db.session.connection().execute(
        _statements().group_by_id, {"id": group_id}).first())


def group_by_invite(token: str) -> GroupView | None:
    """The group whose current invite token this is, or None."""
    if not 0 < len(token) <= MAX_TOKEN:
        return None
    return _group_view(db.session.connection().execute(
        _statements().group_by_invite, {"token": token}).first())


def groups_by_ids(group_ids: Sequence[int]) -> list[GroupView]:
    """The groups of these ids that exist (in no particular order)."""
    wanted = [group_id for group_id in group_ids if in_range(group_id)]
    if not wanted:
        return []
    return [GroupView(*row) for row in db.session.execute(
        db.select(*_GROUP).where(Group.id.in_(wanted)))]


def group_players(group: GroupView) -> list[GroupPlayer]:
    """The group's players by name, hidden ones too."""
    return [GroupPlayer(*row) for row in db.session.connection().execute(
        _statements().players, {"group": group.id})]


def group_player(group: GroupView, player_id: int) -> GroupPlayer | None:
    """A player of the group, or None."""
    if not in_range(player_id):
        return None
    row = db.session.execute(db.select(*_PLAYER).where(
        Player.id == player_id, Player.group_id == group.id)).first()
    return None if row is None else GroupPlayer(*row)


def _player_view(player: Player) -> GroupPlayer:
    return GroupPlayer(player.id, player.name, player.colour, player.uid, player.hidden)


def _mapped_player(player: PlayerView) -> Player:
    """The row of a player a view shows; :class:`ConflictError` when another phone
    deleted them since the view was read."""
    found = db.session.get(Player, player.id)
    if found is None:
        raise ConflictError(f"{player.name} was just deleted from the group; nothing was "
                            "changed", "player")
    return found


# Characters that change nothing a person sees in a name: an emoji's presentation
# selectors and the joiner between emoji (the only ones core.text lets through).
_UNSEEN = dict.fromkeys(map(ord, "\ufe0e\ufe0f\u200d"))


@lru_cache(maxsize=1)
def _confusables() -> dict[str, list[dict[str, str]]]:
    """Unicode's confusables table, loaded on the first name checked (it takes a tenth
    of a second, which a server's start need not wait for)."""
    from confusable_homoglyphs.confusables import confusables_data

    return cast(dict[str, list[dict[str, str]]], confusables_data)


def _near(char: str) -> set[str]:
    """The character and those Unicode's confusables table (UTS #39) links it to: its
    prototype, or the characters whose prototype it is (``а`` Cyrillic → ``a``)."""
    return {char, *(glyph["c"] for glyph in _confusables().get(char, ()))}


def seen_text(name: str) -> str:
    """A name as the eye compares it: case folded, NFC, without an emoji's unseen
    characters (two look-alikes have seen texts of one length)."""
    return name_key(name).translate(_UNSEEN)


def look_alike(name: str, other: str) -> tuple[str, str] | None:
    """Whether a person could not tell ``name`` from ``other``: case aside, the same
    length and each character the same or a look-alike (a Cyrillic ``о`` for a Latin
    ``o``, a Greek ``Α`` for an ``A``). Answers the first pair of characters that
    differ only in look (``("а", "a")``; two empty strings when the names differ by
    case or by an emoji's unseen characters alone), else None.

    >>> look_alike("B\u043eb", "Bob")
    ('о', 'o')
    >>> look_alike("\u0410\u043d\u043d\u0430", "Ann") is None
    True
    """
    mine, theirs = seen_text(name), seen_text(other)
    if len(mine) != len(theirs):
        return None
    pairs = [(a, b) for a, b in zip(mine, theirs, strict=True) if a != b]
    if any(not _near(a) & _near(b) for a, b in pairs):
        return None
    return pairs[0] if pairs else ("", "")


def told_apart(name: str, other: str) -> str | None:
    """Why ``name`` cannot be told from ``other``, a player already, else None."""
    pair = look_alike(name, other)
    if pair is None:
        return None
    if pair == ("", ""):
        return f"{name!r} is already a player in this group; pick another name."
    mine, theirs = (f"{char} ({char_name(char)})" for char in pair)
    return (f"{name!r} looks the same as {other!r}, already a player in this group: "
            f"{mine} looks like {theirs}. Pick a name people can tell apart.")


def check_unique_name(group: GroupView, name: str, field: str,
                      player: PlayerView | None = None) -> None:
    """Refuse a name a person could not tell from one already in the group: the same
    by :func:`name_key` (case folded, NFC: ``Émile`` and ``ÉMILE`` are one name) or a
    :func:`look_alike` (``Bоb`` with a Cyrillic ``о`` beside ``Bob``). A group has few
    players, so they are compared here rather than by the database's ``lower()``."""
    query = db.select(Player.id, Player.name).where(Player.group_id == group.id)
    if player is not None:
        query = query.where(Player.id != player.id)
    for _, other in db.session.execute(query):
        why = told_apart(name, other)
        if why is not None:
            raise ConflictError(why, field)


def fresh_colour(group: GroupView) -> str:
    """The colour a new player of the group gets unless one is picked."""
    used = db.session.scalars(db.select(Player.colour).where(Player.group_id == group.id)
                              .order_by(Player.name))
    return next_colour(list(used))


def add_player(group: GroupView, name_text: str | None, colour: str | None = None,
               field: str = "name") -> Player:
    """Add (and flush) a player; :class:`InputError` for a bad name, its subclass
    :class:`ConflictError` for one already taken.

    The database's unique constraint settles a race between two phones adding the
    same name (the session is then rolled back); the caller commits.
    """
    name = clean_name(name_text, field)
    check_unique_name(group, name, field)
    player = Player(group_id=group.id, name=name, colour=clean_colour(colour) if colour else
                    fresh_colour(group))
    db.session.add(player)
    try:
        db.session.flush()
    except IntegrityError:
        db.session.rollback()
        raise ConflictError(f"{name!r} is already a player in this group.", field) from None
    return player


def has_history(player: PlayerView) -> bool:
    """Whether the player sat at any match."""
    return db.session.scalar(db.select(Seat.id).where(Seat.player_id == player.id)
                             .limit(1)) is not None


def delete_player(player: PlayerView) -> None:
    """Delete (and commit) a player who never sat at a match.

    A seated player is refused with :class:`ConflictError` (hide them instead). The
    check and the delete race with a match being started with this player; the
    database's foreign key settles it, and the loser gets the same 409, never a 500.
    """
    if has_history(player):
        raise ConflictError(f"{player.name} has played matches, so they can only be hidden.",
                            "player")
    db.session.delete(_mapped_player(player))
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise ConflictError(f"{player.name} was just seated in a match, so they can only be "
                            "hidden.", "player") from None


def name_problems() -> list[str]:
    """Stored names that today's rules refuse: text :func:`clean_name` rejects (a NUL,
    a zero-width space, a bidi override, a variation selector…) and players of one
    group whose names a person cannot tell apart (:func:`look_alike`: ``Émile`` and
    ``ÉMILE``, ``Bob`` and ``Bоb``, stored before the rule). The
    ``scorekeeper check-names`` command lists them, so they can be renamed by hand."""
    problems = []
    for kind, rows, limit in (
            ("group", db.session.execute(db.select(Group.id, Group.id, Group.name)), 80),
            ("player", db.session.execute(db.select(Player.group_id, Player.id, Player.name)),
             40)):
        for group_id, row_id, name in rows:
            try:
                clean_name(name, "name", limit)
            except InputError as exc:
                problems.append(f"group {group_id}, {kind} {row_id} {name!r}: {exc.message}")
    seen: dict[int, list[tuple[int, str]]] = {}
    for group_id, player_id, name in db.session.execute(
            db.select(Player.group_id, Player.id, Player.name).order_by(Player.id)):
        others = seen.setdefault(group_id, [])
        for other_id, other in others:
            pair = look_alike(name, other)
            if pair is not None:
                how = "the same name" if pair == ("", "") else "looks the same"
                problems.append(f"group {group_id}, player {player_id} {name!r}: {how} as "
                                f"player {other_id} {other!r}")
                break
        others.append((player_id, name))
    return problems


# ---- the writes of groups, players and links (committed here, not by the pages) ----

def create_group(name: str) -> GroupView:
    """Start a group called ``name`` (committed)."""
    group = Group(name=name)
    db.session.add(group)
    db.session.commit()
    return GroupView(group.id, group.name, group.invite_token)


def rotate_invite(group: GroupView) -> GroupView:
    """Replace the group's invite link (committed): phones that joined with the old
    one lose access. Answers the group with its new invite."""
    token = new_token()
    db.session.execute(update(Group).where(Group.id == group.id).values(invite_token=token))
    db.session.commit()
    return GroupView(group.id, group.name, token)


def rotate_view_token(match: MatchView) -> None:
    """Replace a match's view link (committed): the old one stops working. The token
    is no derived figure and no hand, so the match's version stays."""
    db.session.execute(update(Match).where(Match.id == match.id)
                       .values(view_token=new_token()))
    db.session.commit()


def save_player(group: GroupView, name_text: str | None, colour: str | None = None
                ) -> GroupPlayer:
    """Add a player (committed); the refusals of :func:`add_player`, nothing kept."""
    try:
        player = add_player(group, name_text, colour)
    except InputError:
        db.session.rollback()
        raise
    db.session.commit()
    return _player_view(player)


def edit_player(group: GroupView, player: PlayerView, name: str, colour: str
                ) -> GroupPlayer:
    """Rename or recolour a player (committed) and answer them as now stored;
    :class:`ConflictError` on ``name`` when the name is taken, or was just taken by
    another phone (nothing changes)."""
    try:
        check_unique_name(group, name, "name", player)
        row = _mapped_player(player)
        row.name, row.colour = name, colour
        db.session.commit()
    except ConflictError:
        db.session.rollback()
        raise
    except IntegrityError:
        db.session.rollback()
        raise ConflictError("That name was just taken by another player; pick another.",
                            "name") from None
    return _player_view(row)


def toggle_hidden(player: PlayerView) -> GroupPlayer:
    """Hide a player from new matches, or show them again (committed); answers them
    as now stored."""
    row = _mapped_player(player)
    row.hidden = not row.hidden
    db.session.commit()
    return _player_view(row)


def start_match(group: GroupView, sheet: Sheet, seats: Sequence[PlayerView | NewPlayer],
                first_dealer: int) -> MatchView:
    """Start a match (committed) with these seats clockwise: players of the group, and
    new ones added first (a rematch too). A refusal (:class:`InputError`, naming the
    field at fault) keeps nothing, not even a new player."""
    try:
        return create_match(group, sheet, [_seated(group, seat) for seat in seats],
                            first_dealer)
    except InputError:
        db.session.rollback()
        raise


def _seated(group: GroupView, seat: PlayerView | NewPlayer) -> Player:
    """A new match's seat as its row: a player of the group, or one added now."""
    if isinstance(seat, NewPlayer):
        return add_player(group, seat.name, field=seat.field)
    found = db.session.get(Player, seat.id)
    if found is None:  # what create_match says when the database's foreign key catches it
        raise ConflictError("one of these players was just deleted from the group; "
                            "nothing was started", "players")
    return found


def last_seating(group: GroupView) -> list[int]:
    """The player ids of the group's latest match, in seat order (none yet: empty)."""
    latest = db.session.scalar(db.select(Match.id).where(Match.group_id == group.id)
                               .order_by(Match.created_at.desc(), Match.id.desc()).limit(1))
    if latest is None:
        return []
    return list(db.session.scalars(db.select(Seat.player_id).where(Seat.match_id == latest)
                                   .order_by(Seat.position)))


def recent_matches(group: GroupView, count: int = 50) -> list[MatchView]:
    """The group's latest matches, newest first, with their seats (the group's page
    lists them): one statement."""
    return listed_matches(Match.group_id == group.id, newest_first=True, limit=count)
