"""The one writer: every change to matches and hands goes through this module — a new
match or rematch (:func:`create_match`), an import (:func:`add_matches`), a recorded
hand (:func:`record_hand`), an edited one (:func:`edit_hand`) and the last one deleted
(:func:`delete_last_hand`) — and all of them take one path:

1. the hands are checked by the core, and the projection works out the change they make
   (:func:`scorekeeper.store.projection.next_hand` scores a new hand from the match's
   stored running state, the same few rows at hand 500 as at hand 1;
   :func:`~scorekeeper.store.projection.rewritten` and
   :func:`~scorekeeper.store.projection.replayed` replay the hands of an edited or a
   new match): this module hands over facts and never scores;
2. the match is claimed: one version-checked ``UPDATE`` moves its ``version`` on, so of
   two phones changing the same match at once exactly one commits and the other gets
   :class:`ConflictError` (a hand's number is unique per match in the database too);
3. the facts (matches, seats, rulings, a new hand's row and its entries' cards, an
   edited hand's cards) are written with plain statements (:func:`_insert_hands` for
   every new hand: recorded, set up or imported);
4. :func:`scorekeeper.store.projection.project` writes every derived row of that
   change — a new hand's dealer and its entries' points too — in the same
   transaction;
5. the transaction commits, and the caller gets the match's view after the write (a
   frozen :class:`~scorekeeper.store.match_views.MatchView`, made from what was written).

Every function here reads a match through its one read model,
:class:`scorekeeper.store.match_views.MatchView`, with its hands read beside it where they
are needed (:func:`scorekeeper.store.match_views.match_hands`), and asks
:mod:`scorekeeper.store.reading` what they give: this module only writes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from functools import lru_cache
from typing import Any, cast

from sqlalchemy import Table, bindparam, delete, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from scorekeeper.core.cards import Card, format_cards
from scorekeeper.core.errors import ConflictError, InputError, SameHandError
from scorekeeper.core.same_hand import carries_cards, same_as
from scorekeeper.core.scoring import HandResult, check_complete
from scorekeeper.core.sheets import GAMES, OPTIONS, Sheet
from scorekeeper.store import projection
from scorekeeper.store.extensions import db
from scorekeeper.store.many_rows import execute_many
from scorekeeper.store.match_views import (
    RACED,
    EntryView,
    GroupView,
    HandView,
    MatchView,
    match_hands,
    written_match,
)
from scorekeeper.store.models import (
    Hand,
    HandEntry,
    Match,
    Player,
    Ruling,
    Seat,
    new_token,
    new_uid,
    utcnow,
)
from scorekeeper.store.projection.states import Change, MatchState, Replayed, state_of
from scorekeeper.store.reading import (
    hand_results,
    match_names,
    match_sheet,
    running_state_of,
    stored_results,
)

__all__ = [
    "NewMatch",
    "Written",
    "add_matches",
    "build_match",
    "create_match",
    "delete_last_hand",
    "edit_hand",
    "new_match",
    "record_hand",
]


# A refused write is an InputError whose ``field`` is the path of the input at fault,
# as the core names it (``out``, ``held.<n>``, ``held``, ``hand_size``, ``number``,
# ``players``, ``first_dealer``): a hand the core refuses is its ScoringError, passed on
# as raised. A hand number already recorded (another phone was quicker) or not next is
# its ConflictError.


def held_texts(result: HandResult) -> tuple[str, ...]:
    """The cards each seat held, as a hand's entries store them (canonical text)."""
    return tuple(format_cards(cards) for cards in result.held)


# ---- the match as stored: what the projection is handed --------------------------------

def _players(match: MatchView) -> tuple[int, ...]:
    return tuple(seat.player.id for seat in match.seats)


def _stored_state(match: MatchView) -> MatchState:
    """The match's derived state as stored (its row, its seats' flags and its running
    state), which the projection keeps equal to a replay: no other row is read."""
    return MatchState(match.id, match.game, _players(match), match.hand_count, match.status,
                      match.finished_at,
                      tuple(seat.position for seat in match.seats if seat.winner),
                      running_state_of(match))


def _after(match: MatchView, state: MatchState, version: int) -> MatchView:
    """The match's view once ``state`` is written (what the caller shows next: the
    API's answer, the news after a save), without reading it again."""
    return replace(match, **state.row_columns(), version=version, seats=tuple(
        replace(seat, winner=seat.position in state.winners) for seat in match.seats))


# ---- the write path ------------------------------------------------------------------

@dataclass(frozen=True)
class _Statements:
    """The statements every write runs, built once."""

    claim: Any
    edited_hand: Any
    edited_cards: Any
    new_cards: Any


@lru_cache(maxsize=1)
def _statements() -> _Statements:
    h, e = cast(Table, Hand.__table__), cast(Table, HandEntry.__table__)
    return _Statements(
        claim=update(Match).where(Match.id == bindparam("match_id"),
                                  Match.version == bindparam("old_version"))
        .values(version=bindparam("new_version")),
        edited_hand=update(h).where(_the_hand(h))
        .values(out_seat=bindparam("out_seat"), hand_size=bindparam("hand_size")),
        edited_cards=update(e).where(e.c.hand_id == select(h.c.id).where(_the_hand(h))
                                     .scalar_subquery(), e.c.seat == bindparam("at_seat"))
        .values(cards=bindparam("cards")),
        new_cards=insert(e).values(hand_id=bindparam("hand_id"), seat=bindparam("seat"),
                                   cards=bindparam("cards")),
    )


def _the_hand(h: Table) -> Any:
    """The hand a write names by its match and number (unique together)."""
    return (h.c.match_id == bindparam("in_match")) & (h.c.number == bindparam("of_number"))


def _claim(connection: Connection, match: MatchView, conflict: str) -> int:
    """Move the match's version on by one, or raise :class:`ConflictError` when another
    phone changed it meanwhile (the UPDATE then matches no row). Returns the new version."""
    version = match.version + 1
    done = connection.execute(_statements().claim, {
        "match_id": match.id, "old_version": match.version, "new_version": version})
    if done.rowcount != 1:
        raise ConflictError(conflict, "number")
    return version


Write = Callable[[Connection, MatchView], None]


def _commit(match: MatchView, conflict: str, change: Change, write: Write) -> MatchView:
    """The write path: claim the match, run ``write`` (the facts, given the match's view
    after the write), project ``change`` (as the projection worked it out), commit;
    answer the match's view after. Or roll it all back, a lost race as
    :class:`ConflictError`."""
    session = db.session()
    # What was just written is what the caller shows next: the objects the caller
    # holds (its group and players) are not read again after the commit.
    session.expire_on_commit = False
    try:
        connection = session.connection()
        view = _after(match, change.after, _claim(connection, match, conflict))
        write(connection, view)
        projection.project(connection, [change])
        session.commit()
    except (IntegrityError, ConflictError):
        session.rollback()
        raise ConflictError(conflict, "number") from None
    except BaseException:
        session.rollback()
        raise
    finally:
        session.expire_on_commit = True
    return view


def _check_hand_size(match: MatchView, hand_size: int | None) -> None:
    size = OPTIONS["hand_size"]
    if hand_size is not None and (GAMES[match.game].deal != "hand_size"
                                  or not size.allows(hand_size)):
        raise InputError(f"a hand's own deal size is for Last One, {size.minimum} to "
                          f"{size.maximum} cards", "hand_size")


@dataclass(frozen=True)
class Written:
    """A match after a write: its view, and its hands as now stored (every hand after
    an edit or a deleted hand; the new hand after a recorded one), with the answer kept
    with a recorded hand's idempotency key (``reply_json``)."""

    match: MatchView
    hands: tuple[HandView, ...]
    reply_json: str | None = None


def record_hand(match: MatchView, number: int, out: int | None,
                held: Sequence[Sequence[Card]],
                hand_size: int | None = None, *, key: str | None = None,
                digest: str | None = None,
                reply: Callable[[MatchView, HandView], str] | None = None,
                same_as_confirmed: bool = False) -> Written:
    """Record the next hand. ``number`` is the hand the form was showing: anything but
    the next number means the form is stale and nothing is stored. The answer is the
    match's view after the hand and the hand as stored.

    A hand that looks like the one that took ``number`` or like the match's last hand
    (:mod:`scorekeeper.core.same_hand`) is refused with :class:`SameHandError` naming
    it, before anything else is checked or written, unless ``same_as_confirmed``.

    ``key`` and ``digest`` are the client's idempotency key and its request's fingerprint
    (see :mod:`.idempotency`); ``reply`` renders the answer to keep with them, inside the
    same transaction (given the match's view after the hand), so a resent request gets
    exactly the first answer.
    """
    result = HandResult.of(out, held, hand_size)
    if not same_as_confirmed:
        sheet = match_sheet(match)
        twin = same_as(sheet, result, stored_results(
            match, (number, match.hand_count) if carries_cards(sheet, result) else ()))
        if twin is not None:
            raise SameHandError(twin)
    expected = match.hand_count + 1
    if number < expected:
        raise ConflictError(f"hand {number} is already recorded; the next hand is {expected}",
                            "number")
    if number > expected:  # a hand deleted meanwhile, or a number typed ahead
        raise ConflictError(f"hand {number} is not next: the match has {expected - 1} "
                            f"hand{'' if expected == 2 else 's'}, so the next hand is "
                            f"{expected}", "number")
    if match.status == "finished":
        raise InputError("the match is over: no more hands can be recorded", "number")
    _check_hand_size(match, hand_size)
    before, sheet, names = _stored_state(match), match_sheet(match), match_names(match)
    change = projection.next_hand(before, sheet, names, result)
    check_complete(sheet, names, result, before.running.position.in_play)
    dealer, points = change.scored(number)
    texts, created = held_texts(result), utcnow()
    hand = HandView(number, dealer, out, hand_size, created, _entries(texts, points))
    replies: list[str | None] = [None]

    def write(connection: Connection, view: MatchView) -> None:
        replies[0] = None if reply is None else reply(view, hand)
        _insert_hands(connection, [{
            "match_id": match.id, "number": number, "out_seat": out, "hand_size": hand_size,
            "created_at": created, "idempotency_key": key, "request_digest": digest,
            "reply_json": replies[0]}], [texts])

    view = _commit(match, f"hand {number} was just recorded from another phone", change,
                   write)
    return Written(view, (hand,), replies[0])


def _entries(texts: Sequence[str], points: Sequence[int]) -> tuple[EntryView, ...]:
    """A hand's entries: each seat's cards as stored and the points the replay gave."""
    return tuple(EntryView(seat, text, scored)
                 for seat, (text, scored) in enumerate(zip(texts, points, strict=True)))


def _rescored(hands: Sequence[HandView], results: Sequence[HandResult], change: Change
              ) -> tuple[HandView, ...]:
    """The hands as ``change`` (every hand replayed from ``results``) stores them."""
    return tuple(
        replace(hand, dealer=dealer, out_seat=result.out, hand_size=result.hand_size,
                entries=_entries(held_texts(result), points))
        for hand, result, (dealer, points) in zip(hands, results, change.after.scored,
                                                  strict=True))


def _rewritten(match: MatchView, results: Sequence[HandResult]) -> Change:
    """The change that rewriting the match's hands as ``results`` makes, as the
    projection replays them."""
    return projection.rewritten(_stored_state(match), match.sheet_json, match_names(match),
                                match.first_dealer, results)


def edit_hand(match: MatchView, number: int, out: int | None, held: Sequence[Sequence[Card]],
              hand_size: int | None = None, hands: Sequence[HandView] | None = None
              ) -> Written:
    """Replace a recorded hand; the projection re-derives every hand's points and
    dealer. ``hands`` are the match's hands if the caller read them, else they are
    read here."""
    if not 1 <= number <= match.hand_count:
        raise InputError(f"there is no hand {number} to edit", "number")
    _check_hand_size(match, hand_size)
    result = HandResult.of(out, held, hand_size)
    hands = match_hands(match) if hands is None else tuple(hands)
    results = hand_results(match, hands)
    results[number - 1] = result
    change = _rewritten(match, results)
    # Every seat still in the edited hand holds cards but the one who went out.
    fell = dict(change.after.running.position.eliminated)
    check_complete(match_sheet(match), match_names(match), result,
                   [fell.get(seat, number) >= number for seat in range(len(match.seats))])

    def write(connection: Connection, view: MatchView) -> None:
        """The edited hand's facts: who went out, its deal size and the cards held."""
        statements = _statements()
        connection.execute(statements.edited_hand, {
            "in_match": match.id, "of_number": number, "out_seat": result.out,
            "hand_size": result.hand_size})
        connection.execute(statements.edited_cards, [
            {"in_match": match.id, "of_number": number, "at_seat": seat, "cards": text}
            for seat, text in enumerate(held_texts(result))])

    view = _commit(match, RACED + "nothing was saved", change, write)
    return Written(view, _rescored(hands, results, change))


def delete_last_hand(match: MatchView, hands: Sequence[HandView] | None = None
                     ) -> Written:
    """Delete the newest hand (as :func:`edit_hand`, ``hands`` if the caller read
    them); the answer's hands are those left."""
    hands = match_hands(match) if hands is None else tuple(hands)
    if not hands:
        raise InputError("there is no hand to delete", "number")
    gone = hands[-1]
    change = _rewritten(match, hand_results(match, hands)[:-1])

    def write(connection: Connection, view: MatchView) -> None:
        the = (Hand.match_id == match.id) & (Hand.number == gone.number)
        connection.execute(delete(HandEntry).where(
            HandEntry.hand_id == select(Hand.id).where(the).scalar_subquery()))
        connection.execute(delete(Hand).where(the))

    view = _commit(match, RACED + "nothing was deleted", change, write)
    return Written(view, hands[:-1])


# ---- new matches: set up, rematch, import -----------------------------------------------

@dataclass(frozen=True)
class NewMatch:
    """A match checked and replayed, ready to write: its sheet (and the sheet as
    stored, ``sheet_json``), seated players (with ids), first dealer, hands (who went
    out of each and its own deal size, what their replay derived, ``replayed``, and
    each hand's cards as stored, ``texts``), times, stable id and saved rulings (an
    import's)."""

    sheet: Sheet
    sheet_json: str
    players: Sequence[Player]
    first_dealer: int
    hands: Sequence[tuple[int | None, int | None]]
    replayed: Replayed
    texts: Sequence[tuple[str, ...]]
    created_at: datetime | None = None
    finished_at: datetime | None = None
    uid: str | None = None
    rulings: Sequence[dict[str, Any]] = ()

    def state(self, match_id: int, player_ids: Sequence[int], created_at: datetime
              ) -> MatchState:
        """Its derived state once written (as match ``match_id``)."""
        return state_of(match_id, self.sheet.game, player_ids, self.replayed,
                        self.finished_at, created_at)


def _check_seats(group: GroupView, sheet: Sheet, players: Sequence[Player], first_dealer: int
                 ) -> None:
    info = sheet.game_info
    problem = info.players_problem(len(players))
    if problem:
        raise InputError(problem, "players")
    if len({id(p) for p in players}) != len(players):
        raise InputError("a player can take only one seat", "players")
    if any(p.group_id != group.id for p in players):
        raise InputError("every player must belong to this group", "players")
    if not 0 <= first_dealer < len(players):
        raise InputError("the first dealer must be one of the seats", "first_dealer")


def new_match(group: GroupView, sheet: Sheet, players: Sequence[Player], first_dealer: int,
              hands: Sequence[HandResult] = (), **given: Any) -> NewMatch:
    """Check a new match and replay its hands (every dealer and point comes from the
    replay); ``given`` are :class:`NewMatch`'s optional fields."""
    _check_seats(group, sheet, players, first_dealer)
    sheet_json, names = sheet.to_json(), [p.name for p in players]
    done = projection.replayed(sheet_json, names, first_dealer, hands)
    return NewMatch(sheet, sheet_json, players, first_dealer,
                    [(r.out, r.hand_size) for r in hands], done,
                    [held_texts(result) for result in hands], **given)


def add_matches(group: GroupView, matches: Sequence[NewMatch]) -> list[int]:
    """Write new matches of a group, their seats, hands, entries and rulings, and their
    derived rows, in the session's transaction (NOT committed), with SQLAlchemy's
    insert of many rows: a few statements per table whatever their number. Returns
    their ids."""
    db.session.flush()  # players just created get their ids
    connection, now = db.session.connection(), utcnow()
    if not matches:
        return []
    starts = [match.created_at or now for match in matches]
    rows: list[dict[str, Any]] = [
        {"group_id": group.id, "game": match.sheet.game, "sheet_json": match.sheet_json,
         "first_dealer": match.first_dealer, "uid": match.uid or new_uid(),
         "view_token": new_token(), "created_at": start, "version": 1}
        for match, start in zip(matches, starts, strict=True)]
    connection.execute(insert(Match), rows)
    # The new ids read back by the stable id, unique in the group (one query, where
    # RETURNING would cost SQLite a statement per row).
    by_uid = dict(connection.execute(select(Match.uid, Match.id).where(
        Match.group_id == group.id, Match.uid.in_([row["uid"] for row in rows]))).all())
    ids = [by_uid[row["uid"]] for row in rows]
    _write_facts(connection, matches, ids, now)
    projection.project(connection, [
        Change(None, match.state(match_id, [p.id for p in match.players], start))
        for match, match_id, start in zip(matches, ids, starts, strict=True)])
    return ids


def _write_facts(connection: Connection, matches: Sequence[NewMatch], ids: Sequence[int],
                 now: datetime) -> None:
    """The new matches' seats, rulings and hands (their facts: stored ``now``)."""
    seats = [{"match_id": match_id, "position": i, "player_id": player.id}
             for match, match_id in zip(matches, ids, strict=True)
             for i, player in enumerate(match.players)]
    connection.execute(insert(Seat), seats)
    rulings = [{"match_id": match_id, **ruling}
               for match, match_id in zip(matches, ids, strict=True) for ruling in match.rulings]
    if rulings:
        connection.execute(insert(Ruling), rulings)
    _insert_hands(connection, [
        {"match_id": match_id, "number": number, "out_seat": out, "hand_size": size,
         "created_at": now}
        for match, match_id in zip(matches, ids, strict=True)
        for number, (out, size) in enumerate(match.hands, start=1)],
        [texts for match in matches for texts in match.texts])


def _insert_hands(connection: Connection, hands: list[dict[str, Any]],
                  held: Sequence[Sequence[str]]) -> None:
    """INSERT new hands' facts: their rows (``hands``, every row naming the same
    columns) and each seat's cards (``held``, each hand's canonical texts in seat
    order), one statement per table. Their dealer and points are derived: the
    projection fills them in, in the same transaction (until then they are NULL)."""
    if not hands:
        return
    h = cast(Table, Hand.__table__)
    if len(hands) == 1:
        key = connection.execute(insert(h), hands[0]).inserted_primary_key
        assert key is not None  # an INSERT always has one
        ids = [key[0]]
    else:
        connection.execute(insert(h), hands)
        # Many hands' ids read back in one query (RETURNING would cost SQLite a
        # statement per row).
        matches = sorted({hand["match_id"] for hand in hands})
        id_of = {(match_id, number): hand_id for hand_id, match_id, number in connection.execute(
            select(h.c.id, h.c.match_id, h.c.number).where(h.c.match_id.in_(matches)))}
        ids = [id_of[hand["match_id"], hand["number"]] for hand in hands]
    execute_many(connection, _statements().new_cards, ("hand_id", "seat", "cards"), [
        (hand_id, seat, text)
        for hand_id, texts in zip(ids, held, strict=True) for seat, text in enumerate(texts)])


def build_match(group: GroupView, sheet: Sheet, players: Sequence[Player], first_dealer: int,
                hands: Sequence[HandResult] = (), **given: Any) -> MatchView:
    """Write a new match with these hands in the session's transaction, NOT committed,
    and answer its view as read in that transaction."""
    (match_id,) = add_matches(group, [new_match(group, sheet, players, first_dealer, hands,
                                                **given)])
    match = written_match(group.id, match_id)
    assert match is not None  # just written, in this transaction
    return match


def create_match(group: GroupView, sheet: Sheet, players: Sequence[Player], first_dealer: int
                 ) -> MatchView:
    """Start a match with players seated clockwise in the given order (a rematch too)."""
    try:
        match = build_match(group, sheet, players, first_dealer)
        db.session.commit()
    except IntegrityError:  # a player deleted at the same moment (the foreign key says so)
        db.session.rollback()
        raise ConflictError("one of these players was just deleted from the group; "
                            "nothing was started", "players") from None
    return match
