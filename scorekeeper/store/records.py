"""The one writer: every change to matches and hands goes through this module — a new
match or rematch (:func:`create_match`), an import (:func:`add_matches`), a recorded
hand (:func:`record_hand`), an edited one (:func:`edit_hand`) and the last one deleted
(:func:`delete_last_hand`) — and all of them take one path:

1. the hands are checked and scored by the core: a new hand from the match's stored
   running state (the same few rows at hand 500 as at hand 1), anything else by
   replaying the match's hands;
2. the match is claimed: one version-checked ``UPDATE`` moves its ``version`` on, so of
   two phones changing the same match at once exactly one commits and the other gets
   :class:`ConflictError` (a hand's number is unique per match in the database too);
3. the facts (matches, seats, hands, entries) are written with plain statements;
4. :func:`scorekeeper.store.projection.project` writes every derived row from the
   match's derived state before and after, in the same transaction;
5. the transaction commits, and the match's view in memory is kept in step with what
   was written (and an edited hand's objects as if the ORM had written them).

Every function here reads a match through its one read model,
:class:`scorekeeper.store.boards.MatchView`, with its hands read beside it where they
are needed (:func:`scorekeeper.store.boards.match_hands`). The read helpers
(:func:`match_standings`, :func:`current_standings`, …) remember what they worked out
by the stored text it came from, never on the objects.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from functools import lru_cache
from typing import Any, cast

from sqlalchemy import Table, bindparam, delete, insert, inspect, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.base import NO_VALUE

from scorekeeper.core.cards import Card, format_cards, parse_cards
from scorekeeper.core.errors import ConflictError, InputError, SameHandError
from scorekeeper.core.same_hand import carries_cards, same_as
from scorekeeper.core.scoring import (
    HandResult,
    HandScore,
    ScoringError,
    Standings,
    check_complete,
    standings,
    standings_at,
)
from scorekeeper.core.sheets import LO, OPTIONS, Sheet
from scorekeeper.core.stats import HandRow
from scorekeeper.store import projection, running
from scorekeeper.store.boards import MatchView, match_hands, written_match
from scorekeeper.store.derived import (
    Change,
    MatchState,
    Replayed,
    after_step,
    replay_of,
    state_of,
)
from scorekeeper.store.extensions import db
from scorekeeper.store.models import (
    Group,
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

__all__ = [
    "NewMatch",
    "SavedEntry",
    "SavedHand",
    "add_matches",
    "build_match",
    "create_match",
    "current_standings",
    "delete_last_hand",
    "edit_hand",
    "hand_results",
    "hand_rows",
    "match_names",
    "match_sheet",
    "match_standings",
    "new_match",
    "record_hand",
    "running_state",
]


# A refused write is an InputError whose ``field`` names the form field at fault (``out``,
# ``seat-<n>``, ``hand_size``, ``number``, ``players``, ``first_dealer``); a hand number
# already recorded (another phone was quicker) or not next is its ConflictError.
RACED = "another phone changed this match at the same moment; "


# ---- reading what the hands give ----------------------------------------------------

def match_sheet(match: MatchView) -> Sheet:
    """The frozen rule sheet a match is played under."""
    return _sheet(match.sheet_json)


@lru_cache(maxsize=256)
def _sheet(text: str) -> Sheet:
    """A stored sheet parsed and validated once per process (a Sheet is immutable)."""
    return Sheet.from_json(text)


def match_names(match: MatchView) -> list[str]:
    """Player names in seat order."""
    return [seat.player.name for seat in match.seats]


def _facts(match: MatchView, hands: Sequence[Hand]) -> tuple:
    """Everything a full replay depends on, as plain values (the replay's cache key)."""
    return (match.sheet_json, match.first_dealer, tuple(match_names(match)), len(match.seats),
            tuple((h.out_seat, h.hand_size, tuple((e.seat, e.cards) for e in h.entries))
                  for h in hands))


@lru_cache(maxsize=64)
def _replay(facts: tuple) -> tuple[tuple[HandResult, ...], Standings]:
    """The hands as scoring input and their standings, once per set of facts (a page,
    the API's check and the write of one request share it)."""
    sheet_json, first_dealer, names, seats, hands = facts
    results = []
    for out, size, entries in hands:
        held: list[list[Card]] = [[] for _ in range(seats)]
        for seat, cards in entries:
            held[seat] = parse_cards(cards)
        results.append(HandResult.of(out, held, size))
    return tuple(results), standings(_sheet(sheet_json), names, first_dealer, results)


def hand_results(match: MatchView, hands: Sequence[Hand]) -> list[HandResult]:
    """The match's stored ``hands`` (all of them, in order) as scoring input."""
    return list(_replay(_facts(match, hands))[0])


def match_standings(match: MatchView, hands: Sequence[Hand]) -> Standings:
    """Standings derived from the match's stored ``hands`` (every hand replayed)."""
    return _replay(_facts(match, hands))[1]


def hand_rows(match: MatchView, hands: Sequence[Hand]) -> list[HandRow]:
    """The match's ``hands`` as they stand in memory, one row each."""
    seats = len(match.seats)
    rows = []
    for hand in hands:
        cards, points = [""] * seats, [0] * seats
        for entry in hand.entries:
            cards[entry.seat], points[entry.seat] = entry.cards, entry.points
        rows.append(HandRow(hand.out_seat, tuple(cards), tuple(points)))
    return rows


@lru_cache(maxsize=256)
def _parsed(text: str) -> running.Running:
    return running.from_text(text)


def running_state(match: MatchView) -> running.Running:
    """The match's stored running state (a view of a row from before the state was
    kept has it worked out from the hands: see :mod:`.boards`)."""
    return _parsed(match.running_json)


@lru_cache(maxsize=256)
def _standings_at(sheet_json: str, names: tuple[str, ...], text: str) -> Standings:
    return standings_at(_sheet(sheet_json), names, _parsed(text).position)


def current_standings(match: MatchView) -> Standings:
    """The standings after the last hand, from the stored running state: no hand is
    read. They carry no per-hand history (``progress``, ``hands`` and ``dealers`` are
    empty); :func:`match_standings` replays every hand for pages that show them."""
    return _standings_at(match.sheet_json, tuple(match_names(match)), match.running_json)


def _field(exc: ScoringError) -> str:
    """Map a scoring error's field to the hand form's field name."""
    if exc.field.startswith("seat:"):
        return "seat-" + exc.field[5:]
    if exc.field.startswith("hand:"):
        return "number"
    return "cards" if exc.field == "hands" else exc.field


def _compute(match: MatchView, results: Sequence[HandResult], written: int = 0) -> Standings:
    """Replay ``results``; hand ``written`` (when not 0) is the one being saved and must
    also be complete: every seat still in it holds cards but the one who went out."""
    sheet, names = match_sheet(match), match_names(match)
    try:
        table = standings(sheet, names, match.first_dealer, results)
        playing = [table.eliminated.get(s, written) >= written for s in range(len(names))]
        if written:
            check_complete(sheet, names, results[written - 1], playing)
    except ScoringError as exc:
        raise InputError(str(exc), _field(exc)) from None
    return table


def _step(match: MatchView, result: HandResult) -> tuple[running.Running, HandScore, int]:
    """Check and score the match's next hand from its stored running state, as
    :func:`_compute` would by replaying every hand: the state after it, its score and
    its dealer. The hand must be complete (see :func:`_compute`)."""
    sheet, names, before = match_sheet(match), match_names(match), running_state(match)
    try:
        after = running.advance(sheet, names, before, result)
        check_complete(sheet, names, result, before.position.in_play)
    except ScoringError as exc:
        raise InputError(str(exc), _field(exc)) from None
    return after


# ---- derived states: what the projection is handed --------------------------------

def _players(match: MatchView) -> tuple[int, ...]:
    return tuple(seat.player.id for seat in match.seats)


def _stored_state(match: MatchView) -> MatchState:
    """The match's derived state as stored (its row, its seats' flags and its running
    state), which the projection keeps equal to a replay: no other row is read."""
    return MatchState(match.id, match.game, _players(match), match.hand_count, match.status,
                      match.finished_at,
                      tuple(seat.position for seat in match.seats if seat.winner),
                      running_state(match))


def _texts(result: HandResult) -> tuple[str, ...]:
    return tuple(format_cards(cards) for cards in result.held)


def _replayed_state(match: MatchView, table: Standings, results: Sequence[HandResult]
                    ) -> MatchState:
    """The match's derived state after a full replay of ``results`` (``table``)."""
    finished = match.finished_at if match.status == "finished" else None
    done = replay_of(match.game, match.sheet_json, table,
                     [_texts(result) for result in results], [result.out for result in results])
    return state_of(match.id, match.game, _players(match), done, finished)


def _keep(match: MatchView, state: MatchState, version: int) -> None:
    """Keep the match's view in step with what was written (what the caller shows
    next: the API's answer, the news after a save)."""
    values = {**state.listing(), "version": version}
    for name, value in values.items():
        setattr(match, name, value)
    match.seats = [replace(seat, winner=seat.position in state.winners)
                   for seat in match.seats]


def _expire_model(match_id: int) -> None:
    """A mapped match (and its seats) already in the session, loaded by a page or
    an export before this write, is read again on its next use: the view was written
    from, so the model's values are those of before."""
    session = db.session()
    model = session.identity_map.get(session.identity_key(Match, match_id))
    if model is None:
        return
    seats = inspect(model).attrs.seats.loaded_value
    for seat in () if seats is NO_VALUE else seats:
        session.expire(seat, ["winner"])
    # Named columns only: a whole-object expire would cascade to the hands in hand.
    session.expire(model, [*_LISTING, "version", "hands"])


_LISTING = ("status", "hand_count", "finished_at", "running_json")  # MatchState.listing()


def _restore(match: MatchView, kept: MatchView) -> None:
    """Undo :func:`_keep` after a write that rolled back: the view says what is stored."""
    for name in (*_LISTING, "version", "seats"):
        setattr(match, name, getattr(kept, name))


# ---- the write path ------------------------------------------------------------------

@dataclass(frozen=True)
class _Statements:
    """The statements every write runs, built once."""

    claim: Any
    hand: Any
    entries: Any
    restamp_hand: Any
    restamp_entry: Any


@lru_cache(maxsize=1)
def _statements() -> _Statements:
    h, e = cast(Table, Hand.__table__), cast(Table, HandEntry.__table__)
    return _Statements(
        claim=update(Match).where(Match.id == bindparam("match_id"),
                                  Match.version == bindparam("old_version"))
        .values(version=bindparam("new_version")),
        hand=insert(Hand).values({c: bindparam(c) for c in _HAND_COLUMNS}),
        entries=insert(HandEntry),
        restamp_hand=update(h).where(h.c.id == bindparam("at"))
        .values(dealer=bindparam("dealer"), out_seat=bindparam("out_seat"),
                hand_size=bindparam("hand_size")),
        restamp_entry=update(e).where(e.c.hand_id == bindparam("at"),
                                      e.c.seat == bindparam("at_seat"))
        .values(cards=bindparam("cards"), points=bindparam("points")),
    )


_HAND_COLUMNS = ("match_id", "number", "dealer", "out_seat", "hand_size", "created_at",
                 "idempotency_key", "request_digest", "reply_json")


def _claim(connection: Connection, match: MatchView, conflict: str) -> int:
    """Move the match's version on by one, or raise :class:`ConflictError` when another
    phone changed it meanwhile (the UPDATE then matches no row). Returns the new version."""
    version = match.version + 1
    done = connection.execute(_statements().claim, {
        "match_id": match.id, "old_version": match.version, "new_version": version})
    if done.rowcount != 1:
        raise ConflictError(conflict, "number")
    return version


def _commit(match: MatchView, conflict: str, before: MatchState | None,
            after: MatchState, write: Callable[[Connection], None]) -> None:
    """The write path: claim the match, keep it in memory in step with ``after``, run
    ``write`` (the facts), project the change from ``before`` to ``after``, commit; or
    roll it all back, a lost race as :class:`ConflictError`."""
    session = db.session()
    # What was just written is what the caller shows next (the API's answer, the news
    # after a save): keep it in memory instead of reloading every row after the commit.
    session.expire_on_commit = False
    kept = replace(match)
    try:
        connection = session.connection()
        _keep(match, after, _claim(connection, match, conflict))
        write(connection)
        projection.project(connection, [Change(before, after)])
        session.commit()
        _expire_model(match.id)
    except (IntegrityError, ConflictError):
        session.rollback()
        _restore(match, kept)
        raise ConflictError(conflict, "number") from None
    except BaseException:
        session.rollback()
        _restore(match, kept)
        raise
    finally:
        session.expire_on_commit = True


def _check_hand_size(match: MatchView, hand_size: int | None) -> None:
    size = OPTIONS["hand_size"]
    if hand_size is not None and (match.game != LO or not size.allows(hand_size)):
        raise InputError(f"a hand's own deal size is for Last One, {size.minimum} to "
                          f"{size.maximum} cards", "hand_size")


@dataclass(frozen=True)
class SavedEntry:
    """One seat's row of a hand just recorded: its cards (canonical text) and points."""

    seat: int
    cards: str
    points: int


@dataclass
class SavedHand:
    """A hand just recorded, as its rows were written (what the caller answers with).
    Plain values, not a mapped object: the rows go in as plain statements."""

    match_id: int
    number: int
    dealer: int
    out_seat: int | None
    hand_size: int | None
    idempotency_key: str | None
    request_digest: str | None
    created_at: datetime
    entries: tuple[SavedEntry, ...]
    reply_json: str | None = None
    id: int | None = None


def record_hand(match: MatchView, number: int, out: int | None,
                held: Sequence[Sequence[Card]],
                hand_size: int | None = None, *, key: str | None = None,
                digest: str | None = None,
                reply: Callable[[MatchView, SavedHand], str] | None = None,
                same_as_confirmed: bool = False) -> SavedHand:
    """Record the next hand. ``number`` is the hand the form was showing: anything but
    the next number means the form is stale and nothing is stored.

    A hand that looks like the one that took ``number`` or like the match's last hand
    (:mod:`scorekeeper.core.same_hand`) is refused with :class:`SameHandError` naming
    it, before anything else is checked or written, unless ``same_as_confirmed``.

    ``key`` and ``digest`` are the client's idempotency key and its request's fingerprint
    (see :mod:`.idempotency`); ``reply`` renders the answer to keep with them, inside the
    same transaction (the match already in step), so a resent request gets exactly the
    first answer.
    """
    result = HandResult.of(out, held, hand_size)
    if not same_as_confirmed:
        sheet = match_sheet(match)
        twin = same_as(sheet, result, _stored_results(
            match, (number, match.hand_count) if carries_cards(sheet, result) else ()))
        if twin is not None:
            raise SameHandError(twin)
    expected = match.hand_count + 1
    if number != expected:
        raise ConflictError(f"hand {number} is already recorded; the next hand is {expected}",
                            "number")
    if match.status == "finished":
        raise InputError("the match is over: no more hands can be recorded", "number")
    _check_hand_size(match, hand_size)
    before = _stored_state(match)
    state, score, dealer = _step(match, result)
    after = after_step(before, state, standings_at(match_sheet(match), match_names(match),
                                                   state.position))
    hand = SavedHand(match.id, number, dealer, out, hand_size, key, digest, utcnow(), tuple(
        SavedEntry(seat, text, points)
        for seat, (text, points) in enumerate(zip(_texts(result), score.points, strict=True))))

    def write(connection: Connection) -> None:
        if reply is not None:
            hand.reply_json = reply(match, hand)
        _insert_hand(connection, hand)

    _commit(match, f"hand {number} was just recorded from another phone", before, after, write)
    return hand


def _stored_results(match: MatchView, numbers: Sequence[int]
                    ) -> list[tuple[int, HandResult]]:
    """The match's hands of these numbers as stored now, in the order asked (one
    statement, none when no number is asked)."""
    wanted = [n for n in dict.fromkeys(numbers) if n >= 1]
    if not wanted:
        return []
    held: dict[int, list[list[Card]]] = {}
    outs: dict[int, int | None] = {}
    for number, out, seat, cards in db.session.execute(
            select(Hand.number, Hand.out_seat, HandEntry.seat, HandEntry.cards)
            .outerjoin(HandEntry, HandEntry.hand_id == Hand.id)
            .where(Hand.match_id == match.id, Hand.number.in_(wanted))):
        outs[number] = out
        seats = held.setdefault(number, [[] for _ in match.seats])
        if seat is not None:
            seats[seat] = parse_cards(cards)
    return [(n, HandResult.of(outs[n], held[n])) for n in wanted if n in outs]


def _insert_hand(connection: Connection, hand: SavedHand) -> None:
    """INSERT the hand and its entries (one statement each) and note the hand's id."""
    statements = _statements()
    inserted = connection.execute(statements.hand, {c: getattr(hand, c) for c in _HAND_COLUMNS})
    key = inserted.inserted_primary_key
    assert key is not None  # an INSERT always has one
    hand.id = key[0]
    connection.execute(statements.entries, [
        {"hand_id": hand.id, "seat": e.seat, "cards": e.cards, "points": e.points}
        for e in hand.entries])


def edit_hand(match: MatchView, number: int, out: int | None, held: Sequence[Sequence[Card]],
              hand_size: int | None = None, hands: Sequence[Hand] | None = None) -> Hand:
    """Replace a recorded hand and re-derive every hand's points and dealer. ``hands``
    are the match's hands if the caller read them (it answers with them, kept in step
    with the edit), else they are read here."""
    if not 1 <= number <= match.hand_count:
        raise InputError(f"there is no hand {number} to edit", "number")
    _check_hand_size(match, hand_size)
    result = HandResult.of(out, held, hand_size)
    hands = match_hands(match) if hands is None else list(hands)
    results = hand_results(match, hands)
    results[number - 1] = result
    table = _compute(match, results, number)
    before, after = _stored_state(match), _replayed_state(match, table, results)
    _commit(match, RACED + "nothing was saved", before, after,
            lambda connection: _restamp(connection, hands, results, table, number))
    return hands[number - 1]


def _restamp(connection: Connection, hands: Sequence[Hand], results: Sequence[HandResult],
             table: Standings, edited: int) -> None:
    """Write the edited hand and every hand whose dealer or points the replay moved
    (two statements whatever their number), and keep the objects in step."""
    moved_hands, moved_entries = [], []
    for number, (hand, result, dealer, score) in enumerate(
            zip(hands, results, table.dealers, table.hands, strict=True), start=1):
        texts = _texts(result) if number == edited else None
        if number == edited or hand.dealer != dealer:
            moved_hands.append({"at": hand.id, "dealer": dealer, "out_seat": result.out,
                                "hand_size": result.hand_size})
            for name, value in (("dealer", dealer), ("out_seat", result.out),
                                ("hand_size", result.hand_size)):
                set_committed_value(hand, name, value)
        for entry in hand.entries:
            cards = entry.cards if texts is None else texts[entry.seat]
            if texts is not None or entry.points != score.points[entry.seat]:
                moved_entries.append({"at": hand.id, "at_seat": entry.seat, "cards": cards,
                                      "points": score.points[entry.seat]})
                set_committed_value(entry, "cards", cards)
                set_committed_value(entry, "points", score.points[entry.seat])
    connection.execute(_statements().restamp_hand, moved_hands)
    connection.execute(_statements().restamp_entry, moved_entries)


def delete_last_hand(match: MatchView, hands: Sequence[Hand] | None = None) -> int:
    """Delete the newest hand; returns its number. ``hands`` are the match's hands if
    the caller read them (as :func:`edit_hand`)."""
    hands = match_hands(match) if hands is None else list(hands)
    if not hands:
        raise InputError("there is no hand to delete", "number")
    results = hand_results(match, hands)[:-1]
    hand = hands.pop()
    table = _compute(match, results)
    before = _stored_state(match)
    after = _replayed_state(match, table, results)

    def write(connection: Connection) -> None:
        connection.execute(delete(HandEntry).where(HandEntry.hand_id == hand.id))
        connection.execute(delete(Hand).where(Hand.id == hand.id))

    _commit(match, RACED + "nothing was deleted", before, after, write)
    for gone in (*hand.entries, hand):
        db.session.expunge(gone)
    return hand.number


# ---- new matches: set up, rematch, import -----------------------------------------------

@dataclass
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


def _check_seats(group: Group, sheet: Sheet, players: Sequence[Player], first_dealer: int
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


def new_match(group: Group, sheet: Sheet, players: Sequence[Player], first_dealer: int,
              hands: Sequence[HandResult] = (), **given: Any) -> NewMatch:
    """Check a new match and replay its hands (every dealer and point comes from the
    replay); ``given`` are :class:`NewMatch`'s optional fields."""
    _check_seats(group, sheet, players, first_dealer)
    try:
        table = standings(sheet, [p.name for p in players], first_dealer, hands)
    except ScoringError as exc:
        raise InputError(str(exc), _field(exc)) from None
    sheet_json, texts = sheet.to_json(), [_texts(result) for result in hands]
    return NewMatch(sheet, sheet_json, players, first_dealer,
                    [(r.out, r.hand_size) for r in hands],
                    replay_of(sheet.game, sheet_json, table, texts, [r.out for r in hands]),
                    texts, **given)


def add_matches(group: Group, matches: Sequence[NewMatch]) -> list[int]:
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
    """The new matches' seats, hands, entries and rulings."""
    seats = [{"match_id": match_id, "position": i, "player_id": player.id}
             for match, match_id in zip(matches, ids, strict=True)
             for i, player in enumerate(match.players)]
    connection.execute(insert(Seat), seats)
    hands = [{"match_id": match_id, "number": number, "dealer": dealer, "out_seat": out,
              "hand_size": size, "created_at": now}
             for match, match_id in zip(matches, ids, strict=True)
             for number, ((out, size), dealer) in enumerate(zip(
                 match.hands, match.replayed.dealers, strict=True), start=1)]
    if hands:
        connection.execute(insert(Hand), hands)
    del hands  # plain rows, but tens of thousands of them: not kept through the entries
    numbered = {(match_id, number): hand_id for hand_id, match_id, number in connection.execute(
        select(Hand.id, Hand.match_id, Hand.number).where(Hand.match_id.in_(ids)))}
    entries = [{"hand_id": numbered[match_id, number], "seat": seat, "cards": text,
                "points": points}
               for match, match_id in zip(matches, ids, strict=True)
               for number, (texts, points_of) in enumerate(zip(
                   match.texts, match.replayed.points, strict=True), start=1)
               for seat, (text, points) in enumerate(zip(texts, points_of, strict=True))]
    if entries:
        connection.execute(insert(HandEntry), entries)
    rulings = [{"match_id": match_id, **ruling}
               for match, match_id in zip(matches, ids, strict=True) for ruling in match.rulings]
    if rulings:
        connection.execute(insert(Ruling), rulings)


def build_match(group: Group, sheet: Sheet, players: Sequence[Player], first_dealer: int,
                hands: Sequence[HandResult] = (), **given: Any) -> MatchView:
    """Write a new match with these hands in the session's transaction, NOT committed,
    and answer its view as read in that transaction."""
    (match_id,) = add_matches(group, [new_match(group, sheet, players, first_dealer, hands,
                                                **given)])
    match = written_match(group.id, match_id)
    assert match is not None  # just written, in this transaction
    return match


def create_match(group: Group, sheet: Sheet, players: Sequence[Player], first_dealer: int
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
