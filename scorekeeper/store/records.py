"""The one place that writes matches and hands; used by the pages, the JSON API and
import (:func:`build_match` turns hands into rows without committing).

Every write is validated through the scoring replay before anything is committed, so a
recorded match is always scoreable. Recording the next hand resumes the replay from the
match's stored running state (:mod:`.running`): it reads and writes the same few rows
at hand 500 as at hand 1. Editing or deleting a hand replays the whole match and stores
the state that replay ends in. A new hand goes in as a few plain statements, the first
of them the match row's version-checked UPDATE; with a hand's number unique per match
in the database as well, when two phones record the same hand at once exactly one
commits and the other gets :class:`ConflictError`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from functools import lru_cache
from typing import Any

from sqlalchemy import bindparam, insert, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import flag_modified, set_committed_value
from sqlalchemy.orm.exc import StaleDataError

from scorekeeper.core.cards import Card, format_cards, parse_cards
from scorekeeper.core.errors import ConflictError, InputError
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
from scorekeeper.store import figures, rating_rows, running
from scorekeeper.store.boards import MatchView
from scorekeeper.store.extensions import db
from scorekeeper.store.models import Group, Hand, HandEntry, Match, Player, Seat, utcnow

__all__ = [
    "SavedEntry",
    "SavedHand",
    "build_match",
    "create_match",
    "current_standings",
    "delete_last_hand",
    "edit_hand",
    "hand_results",
    "match_names",
    "match_sheet",
    "match_standings",
    "record_hand",
    "running_state",
]


# A refused write is an InputError whose ``field`` names the form field at fault (``out``,
# ``seat-<n>``, ``hand_size``, ``number``, ``players``, ``first_dealer``); a hand number
# already recorded (another phone was quicker) or not next is its ConflictError.
RACED = "another phone changed this match at the same moment; "


def match_sheet(match: Match | MatchView) -> Sheet:
    """The frozen rule sheet a match is played under."""
    return _sheet(match.sheet_json)


@lru_cache(maxsize=256)
def _sheet(text: str) -> Sheet:
    """A stored sheet parsed and validated once per process (a Sheet is immutable)."""
    return Sheet.from_json(text)


def match_names(match: Match | MatchView) -> list[str]:
    """Player names in seat order."""
    return [seat.player.name for seat in match.seats]


def hand_results(match: Match) -> list[HandResult]:
    """The match's stored hands as scoring input, in order (parsed once per state)."""
    return list(_derived(match).results)


def _result_of(hand: Hand, seats: int) -> HandResult:
    held: list[list[Card]] = [[] for _ in range(seats)]
    for entry in hand.entries:
        held[entry.seat] = parse_cards(entry.cards)
    return HandResult.of(hand.out_seat, held, hand.hand_size)


def running_state(match: Match | MatchView) -> running.Running:
    """The match's stored running state (parsed once per stored text). A row from
    before the state was kept (the migration fills them in) is replayed instead (the
    scoreboard's view of such a row is never made: see ``web.access.member_board``)."""
    text = match.running_json
    if text is None:
        if not isinstance(match, Match):
            raise TypeError("a match without a running state is replayed from its model")
        table = match_standings(match)
        return running.of_replay(table, figures.figures_of(match, table),
                                 [result.out for result in hand_results(match)])
    kept = match.__dict__.get("_running")
    if kept is None or kept[0] != text:
        kept = (text, running.from_text(text))
        match.__dict__["_running"] = kept
    return kept[1]


def current_standings(match: Match | MatchView) -> Standings:
    """The standings after the last hand, from the stored running state: no hand is
    read. They carry no per-hand history (``progress``, ``hands`` and ``dealers`` are
    empty); :func:`match_standings` replays every hand for pages that show them.
    Worked out once per running state (and names) for the rest of the request."""
    state, names = running_state(match), match_names(match)
    kept = match.__dict__.get("_standings")
    if kept is None or kept[0] is not state or kept[1] != names:
        kept = (state, names, standings_at(match_sheet(match), names, state.position))
        match.__dict__["_standings"] = kept
    return kept[2]


def match_standings(match: Match) -> Standings:
    """Standings derived from the stored hands (computed once per state of the match)."""
    derived = _derived(match)
    if derived.table is None:
        derived.table = standings(match_sheet(match), match_names(match), match.first_dealer,
                                  derived.results)
    return derived.table


@dataclass
class _Derived:
    """What was last derived from a match's hands, and the state it was derived from."""

    state: tuple
    results: list[HandResult]
    table: Standings | None = None


def _state(match: Match) -> tuple:
    """Everything standings depend on, as plain values: a cheap comparison instead of
    parsing every card and replaying every hand again."""
    return (match.sheet_json, match.first_dealer, tuple(match_names(match)),
            tuple((h.out_seat, h.hand_size, tuple((e.seat, e.cards) for e in h.entries))
                  for h in match.hands))


def _derived(match: Match) -> _Derived:
    """The derived values of the match as it stands in memory.

    Kept on the instance (not a mapped attribute) for the life of the session, i.e. one
    request: the page, the API body check, the write and the response all share one
    replay. The cached value is used only while the stored state it came from is
    unchanged, so a reload or another write can never be answered from a stale replay.
    """
    state = _state(match)
    derived = match.__dict__.get("_derived")
    if derived is None or derived.state != state:
        derived = _Derived(state, [_result_of(h, len(match.seats)) for h in match.hands])
        match.__dict__["_derived"] = derived
    return derived


def _remember(match: Match, results: Sequence[HandResult], table: Standings) -> None:
    """Keep a write's fresh replay for the rest of the request."""
    match.__dict__["_derived"] = _Derived(_state(match), list(results), table)


def _field(exc: ScoringError) -> str:
    """Map a scoring error's field to the hand form's field name."""
    if exc.field.startswith("seat:"):
        return "seat-" + exc.field[5:]
    if exc.field.startswith("hand:"):
        return "number"
    return "cards" if exc.field == "hands" else exc.field


def _compute(match: Match, results: Sequence[HandResult], written: int = 0) -> Standings:
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


def _step(match: Match | MatchView, result: HandResult) -> tuple[running.Running, HandScore, int]:
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


def build_match(group: Group, sheet: Sheet, players: Sequence[Player], first_dealer: int,
                hands: Sequence[HandResult] = (), *, created_at: datetime | None = None,
                finished_at: datetime | None = None) -> Match:
    """A match with its seats, hands and entries, added to the session but NOT committed.

    The hands are validated once through :func:`scoring.standings`; every hand's dealer
    and points and the match's derived columns come from that replay. ``finished_at``
    is kept only when the hands end the match (an import keeps its finish time).
    """
    _check_seats(group, sheet, players, first_dealer)
    try:
        table = standings(sheet, [p.name for p in players], first_dealer, hands)
    except ScoringError as exc:
        raise InputError(str(exc), _field(exc)) from None
    match = Match(group=group, game=sheet.game, sheet_json=sheet.to_json(),
                  first_dealer=first_dealer, created_at=created_at or utcnow())
    match.seats = [Seat(position=i, player=p) for i, p in enumerate(players)]
    for number, (result, dealer, score) in enumerate(
            zip(hands, table.dealers, table.hands, strict=True), start=1):
        hand = Hand(number=number, dealer=dealer, out_seat=result.out,
                    hand_size=result.hand_size)
        _fill_entries(hand, result, score.points)
        match.hands.append(hand)
    _refresh(match, table)
    _remember(match, hands, table)
    values = figures.figures_of(match, table)
    figures.rows_for(match, values)
    _keep_state(match, running.of_replay(table, values, [result.out for result in hands]))
    if table.over and finished_at is not None:
        match.finished_at = finished_at
    db.session.add(match)
    return match


def _check_seats(group: Group, sheet: Sheet, players: Sequence[Player], first_dealer: int
                 ) -> None:
    info = sheet.game_info
    problem = info.players_problem(len(players))
    if problem:
        raise InputError(problem, "players")
    # Objects, not ids: an import seats players it has not flushed yet.
    if len({id(p) for p in players}) != len(players):
        raise InputError("a player can take only one seat", "players")
    if any(p.group_id != group.id for p in players):
        raise InputError("every player must belong to this group", "players")
    if not 0 <= first_dealer < len(players):
        raise InputError("the first dealer must be one of the seats", "first_dealer")


def create_match(group: Group, sheet: Sheet, players: Sequence[Player], first_dealer: int
                 ) -> Match:
    """Start a match with players seated clockwise in the given order."""
    match = build_match(group, sheet, players, first_dealer)
    try:
        db.session.commit()
    except IntegrityError:  # a player deleted at the same moment (the foreign key says so)
        db.session.rollback()
        raise ConflictError("one of these players was just deleted from the group; "
                            "nothing was started", "players") from None
    return match


def _check_hand_size(match: Match | MatchView, hand_size: int | None) -> None:
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


def record_hand(match: Match | MatchView, number: int, out: int | None,
                held: Sequence[Sequence[Card]],
                hand_size: int | None = None, *, key: str | None = None,
                digest: str | None = None,
                reply: Callable[[Match | MatchView, SavedHand], str] | None = None
                ) -> SavedHand:
    """Record the next hand. ``number`` is the hand the form was showing: anything but
    the next number means the form is stale and nothing is stored.

    ``key`` and ``digest`` are the client's idempotency key and its request's fingerprint
    (see :mod:`.idempotency`); ``reply`` renders the answer to keep with them, inside the
    same transaction, so a resent request gets exactly the first answer.

    The rows are written with a few plain statements (see :func:`_insert_hand`), not
    through the ORM's unit of work, which cost more than everything else in a save;
    ``match`` may be the model or the scoreboard's read-only view of it (the API's
    save), and either is kept in step with what was written.
    """
    expected = match.hand_count + 1
    if number != expected:
        raise ConflictError(f"hand {number} is already recorded; the next hand is {expected}",
                            "number")
    if match.status == "finished":
        raise InputError("the match is over: no more hands can be recorded", "number")
    _check_hand_size(match, hand_size)
    result = HandResult.of(out, held, hand_size)
    old = figures.rows_before_save(match, running_state(match).figures)
    state, score, dealer = _step(match, result)
    hand = SavedHand(match.id, number, dealer, out, hand_size, key, digest, utcnow(), tuple(
        SavedEntry(seat, format_cards(cards), points)
        for seat, (cards, points) in enumerate(zip(result.held, score.points, strict=True))))
    conflict = f"hand {number} was just recorded from another phone"
    session = db.session()
    try:
        table = _bump(match, state, conflict)
        if reply is not None:
            hand.reply_json = reply(match, hand)
        _insert_hand(hand)
        figures.rewrite(match, figures.as_values(match.game, state.figures, table), old)
        if table.over:  # the hand that finished the match: its players' ratings move on
            rating_rows.match_changed(db.session.connection(), match.id)
        # What was just written is what the caller shows next: keep it in memory.
        session.expire_on_commit = False
        session.commit()
    except IntegrityError:
        session.rollback()
        raise ConflictError(conflict, "number") from None
    finally:
        session.expire_on_commit = True
    if isinstance(match, Match) and "hands" in match.__dict__:  # loaded before this save:
        session.expire(match, ["hands"])                          # it lacks the new hand
    return hand


@dataclass(frozen=True)
class _SaveStatements:
    """The statements of :func:`record_hand`, built once (every save runs them)."""

    bump: Any
    winners: Any
    hand: Any
    entries: Any


@lru_cache(maxsize=1)
def _save_statements() -> _SaveStatements:
    return _SaveStatements(
        bump=update(Match).where(Match.id == bindparam("match_id"),
                                 Match.version == bindparam("old_version"))
        .values({name: bindparam(name) for name in _BUMPED}),
        winners=update(Seat).where(Seat.match_id == bindparam("match"),
                                   Seat.position == bindparam("at")).values(winner=True),
        hand=insert(Hand).values({c: bindparam(c) for c in _HAND_COLUMNS}),
        entries=insert(HandEntry),
    )


_BUMPED = ("hand_count", "running_json", "version", "status", "finished_at")
_HAND_COLUMNS = ("match_id", "number", "dealer", "out_seat", "hand_size", "created_at",
                 "idempotency_key", "request_digest", "reply_json")


def _bump(match: Match | MatchView, state: running.Running, conflict: str) -> Standings:
    """Move the match row on to its state after a new hand, its version by one, and
    answer the standings there: the UPDATE matches no row when another phone changed
    the match meanwhile (then :class:`ConflictError`). The match in memory is kept in
    step (a model as if the ORM had written it)."""
    text, names = running.to_text(state), match_names(match)
    table = standings_at(match_sheet(match), names, state.position)
    values = {**_listing(match, table), "running_json": text, "version": match.version + 1}
    connection = db.session.connection()
    done = connection.execute(_save_statements().bump,
                              {"match_id": match.id, "old_version": match.version, **values})
    if done.rowcount != 1:
        db.session.rollback()
        raise ConflictError(conflict, "number")
    if table.winners:
        connection.execute(_save_statements().winners,
                           [{"match": match.id, "at": seat} for seat in table.winners])
    keep = set_committed_value if isinstance(match, Match) else setattr
    for name, value in values.items():
        keep(match, name, value)
    if isinstance(match, Match):
        for seat in match.seats:
            set_committed_value(seat, "winner", seat.position in table.winners)
    else:
        match.seats = [replace(seat, winner=seat.position in table.winners)
                       for seat in match.seats]
    match.__dict__["_running"] = (text, state)  # as running_state and current_standings
    match.__dict__["_standings"] = (state, names, table)  # would find them
    return table


def _insert_hand(hand: SavedHand) -> None:
    """INSERT the hand and its entries (one statement each) and note the hand's id."""
    statements = _save_statements()
    connection = db.session.connection()
    inserted = connection.execute(statements.hand, {c: getattr(hand, c) for c in _HAND_COLUMNS})
    key = inserted.inserted_primary_key
    assert key is not None  # an INSERT always has one
    hand.id = key[0]
    connection.execute(statements.entries, [
        {"hand_id": hand.id, "seat": e.seat, "cards": e.cards, "points": e.points}
        for e in hand.entries])


def edit_hand(match: Match, number: int, out: int | None, held: Sequence[Sequence[Card]],
              hand_size: int | None = None) -> Hand:
    """Replace a recorded hand and re-derive every hand's points and dealer."""
    hands = list(match.hands)
    if not 1 <= number <= len(hands):
        raise InputError(f"there is no hand {number} to edit", "number")
    _check_hand_size(match, hand_size)
    result = HandResult.of(out, held, hand_size)
    results = hand_results(match)
    results[number - 1] = result
    table = _compute(match, results, number)
    rated = match.status == "finished" or table.over
    hand = hands[number - 1]
    hand.out_seat, hand.hand_size = out, hand_size
    _fill_entries(hand, result, table.hands[number - 1].points)
    _restamp(hands, table)
    _commit(match, _replayed(match, table, results), RACED + "nothing was saved", rated=rated)
    return hand


def delete_last_hand(match: Match) -> int:
    """Delete the newest hand; returns its number."""
    if not match.hands:
        raise InputError("there is no hand to delete", "number")
    hand = match.hands[-1]
    number = hand.number
    rated = match.status == "finished"  # deleting its last hand reopens it
    # Removing it from the collection deletes it (delete-orphan cascade); an extra
    # session.delete() as well makes the next autoflush fail on SQLAlchemy 2.1.
    match.hands.remove(hand)
    results = hand_results(match)
    table = _compute(match, results)
    _commit(match, _replayed(match, table, results), RACED + "nothing was deleted",
            rated=rated)
    return number


def _replayed(match: Match, table: Standings, results: Sequence[HandResult]
              ) -> list[dict[str, Any]]:
    """After a full replay: the derived columns and running state from it, and every
    seat's figure values (from the hands in memory) for :func:`_commit` to write."""
    _refresh(match, table)
    _remember(match, results, table)
    values = figures.figures_of(match, table)
    _keep_state(match, running.of_replay(table, values, [result.out for result in results]))
    return values


def _keep_state(match: Match, state: running.Running) -> None:
    """Store the running state (and keep it parsed for the rest of the request)."""
    text = running.to_text(state)
    match.running_json = text
    match.__dict__["_running"] = (text, state)


def _commit(match: Match, values: list[dict[str, Any]], conflict: str,
            before: Callable[[], None] | None = None, *, rated: bool = False) -> None:
    """Commit a change to a match's hands with its seats' figure ``values``, or roll it
    all back as a conflict.

    The match row is always rewritten so its version moves on: of two phones changing
    the same match at once, the second UPDATE finds a stale version and fails, and a
    second insert of the same hand number fails the unique constraint. ``before`` runs
    after the flush (the new version and rows are known) and before the commit;
    ``rated`` says the match is finished or was (its ratings follow the change).
    """
    flag_modified(match, "hand_count")
    session = db.session()
    # What was just flushed is what the caller shows next (the API's answer, the news
    # after a save): keep it in memory instead of reloading every row after the commit.
    session.expire_on_commit = False
    try:
        session.flush()
        figures.rewrite(match, values)
        if rated:
            rating_rows.match_changed(session.connection(), match.id)
        if before is not None:
            before()
        session.commit()
    except (IntegrityError, StaleDataError):
        session.rollback()
        raise ConflictError(conflict, "number") from None
    finally:
        session.expire_on_commit = True


def _fill_entries(hand: Hand, result: HandResult, points: Sequence[int]) -> None:
    """Set one entry per seat, reusing existing rows so (hand, seat) stays unique."""
    existing = {entry.seat: entry for entry in hand.entries}
    for seat, cards in enumerate(result.held):
        entry = existing.get(seat)
        if entry is None:
            entry = HandEntry(seat=seat)
            hand.entries.append(entry)
        entry.cards = format_cards(cards)
        entry.points = points[seat]


def _restamp(hands: Sequence[Hand], table: Standings) -> None:
    """Keep every stored dealer and point in step with freshly derived standings."""
    for hand, dealer, score in zip(hands, table.dealers, table.hands, strict=True):
        hand.dealer = dealer
        for entry in hand.entries:
            entry.points = score.points[entry.seat]


def _refresh(match: Match, table: Standings) -> None:
    """Rewrite the match's derived listing columns from standings."""
    for name, value in _listing(match, table).items():
        setattr(match, name, value)
    for seat in match.seats:
        seat.winner = seat.position in table.winners


def _listing(match: Match | MatchView, table: Standings) -> dict[str, Any]:
    """The match's listing columns after ``table``: hands played, active or finished,
    and since when (kept if it was finished already)."""
    if not table.over:
        return {"hand_count": table.played, "status": "active", "finished_at": None}
    finished = match.finished_at if match.status == "finished" else utcnow()
    return {"hand_count": table.played, "status": "finished", "finished_at": finished}
