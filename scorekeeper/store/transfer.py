"""Export and import: a match or a whole group as JSON (complete) or CSV (for spreadsheets).

The JSON document (format ``scorekeeper-export``, version 1) holds each match's rule
sheet, seats by player name, first dealer, start and finish times, every hand with the
cards each seat held, and the saved rulings; points and results are included too, and
checked on import. ``finished_at`` is optional (older files lack it: an imported
finished match then finishes at the time of the import). Each match carries its stable
``uid``: importing a file again skips (and reports) the matches already in the group.
Importing validates *everything* first — the sheet, the seats, every hand replayed
through :func:`scoring.standings`, all text through :func:`text.clean_text` — and then
writes all of a file or nothing, in one transaction of bulk inserts (:func:`_write`).
Players are matched by name (case-folded NFC) within the target group and created
when missing.
Problems are reported with where they are (``matches[2].hands[4].held[1]``) and in
words (match 3, hand 5, Bob).
"""

from __future__ import annotations

import csv
import gc
import io
import json
import re
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from itertools import chain
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload

from scorekeeper.core.cards import ALL_CARDS, JOKER, Card, CardError, parse_card, parse_cards
from scorekeeper.core.errors import InputError
from scorekeeper.core.scoring import HandResult, ScoringError, Standings, standings
from scorekeeper.core.sheets import LO, Sheet, SheetError
from scorekeeper.core.stats import HandRow
from scorekeeper.core.text import clean_text, name_key
from scorekeeper.store import rating_rows, running
from scorekeeper.store import totals as player_totals
from scorekeeper.store.extensions import db
from scorekeeper.store.figures import as_values, replayed_figures
from scorekeeper.store.models import (
    Group,
    Hand,
    HandEntry,
    Match,
    Player,
    Ruling,
    Seat,
    SeatFigures,
    new_token,
    new_uid,
    utcnow,
)
from scorekeeper.store.records import match_standings

__all__ = [
    "FORMAT",
    "VERSION",
    "Limits",
    "Problem",
    "TransferError",
    "collector_paused",
    "export_document",
    "import_document",
    "load_matches",
    "parse_json",
    "to_csv",
    "validate",
    "write_plans",
]

FORMAT, VERSION = "scorekeeper-export", 1
MAX_NAME, MAX_CARDS_TEXT, MAX_TEXT, MAX_RULE = 40, 400, 4000, 40
COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
UID = re.compile(r"^[0-9A-Za-z_-]{1,32}$")
CSV_COLUMNS = ("match", "game", "started", "hand", "dealer", "seat", "player", "went_out",
               "cards", "points", "total")


@dataclass(frozen=True)
class Limits:
    """What one import may hold, so a hostile file cannot exhaust the server.

    Sized so that writing the largest import holds the database's write lock for a
    fraction of a second (see :func:`_write`): other groups' saves wait, never fail.
    A bigger history is imported in several files.
    """

    max_bytes: int = 1024 * 1024
    max_matches: int = 1000
    max_hands: int = 500  # per match
    max_total_hands: int = 5000  # written in about 0.1-0.3 s on the 2-core test machine
    max_rulings: int = 200  # per match
    max_players: int = 1000


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an import: where (a path into the document) and what."""

    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message


class TransferError(ValueError):
    """An import refused; ``problems`` lists what is wrong (at most one per match)."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        super().__init__("; ".join(str(p) for p in problems))
        self.problems = list(problems)


@dataclass
class _Plan:
    """A validated match, ready to write."""

    sheet: Sheet
    names: list[str]
    first_dealer: int
    results: list[HandResult]
    created_at: datetime | None
    finished_at: datetime | None
    rulings: list[dict[str, Any]] = field(default_factory=list)
    table: Standings | None = None  # the replay that validated the hands
    uid: str | None = None  # the match's stable id, when the file carries one
    texts: list[tuple[str, ...]] = field(default_factory=list)  # each hand's cards as stored


@dataclass(frozen=True)
class ImportReport:
    """What an import wrote; ``already_imported`` counts the file's matches that were in
    the group already (the same stable id) and were left alone."""

    matches: int
    hands: int
    players_created: tuple[str, ...]
    already_imported: int = 0


# ---- export ----------------------------------------------------------------------

def load_matches(group: Group, match_id: int | None = None) -> list[Match]:
    """The group's matches (or one), oldest first, with everything export needs loaded."""
    query = (db.select(Match).where(Match.group_id == group.id)
             .options(selectinload(Match.seats).joinedload(Seat.player),
                      selectinload(Match.hands).selectinload(Hand.entries),
                      selectinload(Match.rulings))
             .order_by(Match.created_at, Match.id))
    if match_id is not None:
        query = query.where(Match.id == match_id)
    return list(db.session.scalars(query))


def _iso(moment: datetime | None) -> str | None:
    if moment is None:
        return None
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).isoformat()


def _export_match(match: Match) -> dict[str, Any]:
    table = match_standings(match)
    names = [seat.player.name for seat in match.seats]
    hands = [{
        "number": hand.number, "dealer": hand.dealer, "out": hand.out_seat,
        "hand_size": hand.hand_size,
        "held": [entry.cards for entry in hand.entries],
        "points": list(score.points),
    } for hand, score in zip(match.hands, table.hands, strict=True)]
    return {
        "id": match.id, "uid": match.uid, "sheet": json.loads(match.sheet_json),
        "seats": names,
        "first_dealer": match.first_dealer, "created_at": _iso(match.created_at),
        "finished_at": _iso(match.finished_at), "hands": hands,
        "rulings": [{"hand_number": r.hand_number, "question": r.question, "legal": r.legal,
                     "reason": r.reason, "rule": r.rule, "request": json.loads(r.request_json)}
                    for r in match.rulings],
        "result": {"status": "finished" if table.over else "active",
                   "totals": list(table.totals),
                   "winners": [names[s] for s in table.winners]},
    }


def export_document(group: Group, matches: Iterable[Match]) -> dict[str, Any]:
    """The JSON export of the given matches of a group."""
    matches = list(matches)
    players = {seat.player.id: seat.player for m in matches for seat in m.seats}
    return {
        "format": FORMAT, "version": VERSION, "exported_at": _iso(utcnow()),
        "group": {"name": group.name},
        "players": [{"name": p.name, "colour": p.colour}
                    for p in sorted(players.values(), key=lambda p: p.name.lower())],
        "matches": [_export_match(m) for m in matches],
    }


def _cell(text: str) -> str:
    """Keep a spreadsheet from reading a name as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


def to_csv(matches: Iterable[Match]) -> str:
    """One row per player per hand: cards held, points scored, total after the hand."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for match in matches:
        table = match_standings(match)
        names = [_cell(seat.player.name) for seat in match.seats]
        for hand, totals in zip(match.hands, table.progress, strict=True):
            for entry in hand.entries:
                writer.writerow((match.id, match.game, _iso(match.created_at), hand.number,
                                 names[hand.dealer], entry.seat, names[entry.seat],
                                 "yes" if hand.out_seat == entry.seat else "", entry.cards,
                                 entry.points, totals[entry.seat]))
    return out.getvalue()


# ---- import: parsing and validation ------------------------------------------------

def parse_json(raw: bytes | str, limits: Limits = Limits()) -> Any:
    """Decode an uploaded file, refusing oversized, undecodable or absurdly nested text."""
    if len(raw) > limits.max_bytes:
        raise TransferError([Problem("", f"the file is larger than {limits.max_bytes} bytes")])
    try:
        return json.loads(raw)
    except RecursionError:
        raise TransferError([Problem("", "the file is nested too deeply")]) from None
    except (ValueError, UnicodeDecodeError) as exc:  # JSONDecodeError, huge integers
        raise TransferError([Problem("", f"not a JSON file: {exc}")]) from None


class _Bad(ValueError):
    """One problem found while checking one match."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(message)
        self.where, self.message = where, message


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _text(value: Any, where: str, limit: int, *, empty: bool = False) -> str:
    if not isinstance(value, str):
        raise _Bad(where, f"must be text, not {type(value).__name__}")
    try:  # the same hygiene as the forms and the API: NFC, no control or invisible chars
        value = clean_text(value[:limit + 1], where, limit + 1, empty=True, lines=True)
    except InputError as exc:
        raise _Bad(where, exc.message[:1].lower() + exc.message[1:]) from None
    if len(value) > limit or (not empty and not value.strip()):
        raise _Bad(where, f"must be 1 to {limit} characters" if not empty else
                   f"must be at most {limit} characters")
    return value


def _name(value: Any, where: str) -> str:
    return " ".join(_text(value, where, MAX_NAME).split())


def _sheet(data: Any, where: str) -> Sheet:
    try:
        return Sheet.from_dict(data)
    except SheetError as exc:
        raise _Bad(f"{where}.sheet" + ("" if exc.field == "sheet" else
                                       f".{exc.field.removeprefix('sheet.')}"), str(exc)) from None


def _cards(text: Any, where: str, name: str) -> list[Card]:
    try:
        return parse_cards(_text(text, where, MAX_CARDS_TEXT, empty=True))
    except CardError as exc:
        raise _Bad(where, f"{name}: {exc}") from None


_CANONICAL = {c: str(c) for c in (*ALL_CARDS, JOKER)}  # a card's text as stored


class _Reader:
    """Reads the sheets, names and card texts of one file, remembering each value read:
    a big file repeats a few sheets, names and card spellings thousands of times.

    Only what reads without a problem is kept, so every problem is still found and
    worded by :func:`_sheet`, :func:`_name` and :func:`_cards`, the field named, as on
    first sight. With ``lean`` false nothing is remembered (the reference the tests
    hold the remembering reader equal to).
    """

    def __init__(self, lean: bool = True) -> None:
        self.lean = lean
        self.sheets: dict[str, Sheet] = {}
        self.names: dict[str, str] = {}
        # card spellings known good: the stored ones to start with (read, not assumed)
        self.tokens = {text: parse_card(text) for text in _CANONICAL.values()}
        # a seat's whole text read without a problem: its cards, and their text as stored
        # (most texts recur: the empty one of every player out, short hands)
        self.texts: dict[str, tuple[tuple[Card, ...], str]] = {}

    def sheet(self, data: Any, where: str) -> Sheet:
        if not self.lean or type(data) is not dict:
            return _sheet(data, where)
        key = repr(data)  # exact for JSON values: a different sheet has a different repr
        found = self.sheets.get(key)
        if found is None:
            found = self.sheets[key] = _sheet(data, where)
        return found

    def name(self, value: Any, where: str) -> str:
        if not self.lean or type(value) is not str:
            return _name(value, where)
        found = self.names.get(value)
        if found is None:
            found = self.names[value] = _name(value, where)
        return found

    def cards(self, text: Any, where: str, name: str) -> tuple[Card, ...]:
        """One seat's cards. Printable ASCII is text :func:`clean_text` keeps as it is
        (but trimmed), split by spaces, commas and semicolons only; its tokens, when all
        known, are the cards. Anything else is read the long way (and its tokens kept)."""
        if (self.lean and type(text) is str and len(text) <= MAX_CARDS_TEXT
                and text.isascii() and text.isprintable()):
            tokens = text.replace(",", " ").replace(";", " ").split()
            try:
                return tuple([self.tokens[token] for token in tokens])
            except KeyError:
                cards = _cards(text, where, name)
                self.tokens.update(zip(tokens, cards, strict=True))
                return tuple(cards)
        return tuple(_cards(text, where, name))

    def held(self, held: list[Any], where: str, names: list[str]
             ) -> tuple[tuple[tuple[Card, ...], ...], tuple[str, ...]]:
        """Every seat's cards in one hand (``held``, one text per seat, at least one),
        and each seat's cards as stored (canonical text)."""
        texts = self.texts
        found: list[tuple[tuple[Card, ...], str] | None]
        try:
            found = [texts.get(text) for text in held] if self.lean else [None] * len(held)
        except TypeError:  # a list or object where text belongs: read the long way below
            found = [None] * len(held)
        if None in found:  # a text not read before
            for seat, text in enumerate(held):
                if found[seat] is None:
                    cards = self.cards(text, f"{where}[{seat}]", names[seat])
                    found[seat] = known = (cards, " ".join([_CANONICAL[c] for c in cards]))
                    if self.lean and type(text) is str:
                        texts[text] = known
        every, stored = zip(*found, strict=True)  # (cards, text) pairs, none None by now
        return every, stored


def _seats(data: Any, where: str, sheet: Sheet, read: _Reader) -> list[str]:
    if not isinstance(data, list):
        raise _Bad(where, "must be a list of player names in clockwise order")
    info = sheet.game_info
    problem = info.players_problem(len(data))
    if problem:
        raise _Bad(where, problem)
    names = [read.name(n, f"{where}[{i}]") for i, n in enumerate(data)]
    if len({name_key(n) for n in names}) != len(names):
        raise _Bad(where, "a player can take only one seat")
    return names


def _hand(data: Any, where: str, number: int, names: list[str], sheet: Sheet,
          read: _Reader) -> tuple[HandResult, tuple[str, ...]]:
    """One hand as scoring input, and its seats' cards as stored."""
    if not isinstance(data, dict):
        raise _Bad(where, "must be an object with out and held")
    if data.get("number", number) != number:
        raise _Bad(f"{where}.number", f"hands must be numbered 1, 2, 3…; expected {number}")
    out, size, held = data.get("out"), data.get("hand_size"), data.get("held")
    if out is not None and not (_is_int(out) and 0 <= out < len(names)):
        raise _Bad(f"{where}.out", f"must be a seat from 0 to {len(names) - 1} or null")
    if size is not None and not (sheet.game == LO and _is_int(size) and 4 <= size <= 9):
        raise _Bad(f"{where}.hand_size", "a hand's own deal size is for Last One, 4 to 9")
    if not isinstance(held, list) or len(held) != len(names):
        raise _Bad(f"{where}.held", f"must list the cards of all {len(names)} seats")
    cards, texts = read.held(held, f"{where}.held", names)
    return HandResult(out, cards, size), texts


def _replay(sheet: Sheet, names: list[str], dealer: int, results: list[HandResult],
            where: str) -> Standings:
    try:
        return standings(sheet, names, dealer, results)
    except ScoringError as exc:
        spot = where
        number = re.match(r"hand (\d+):", str(exc))
        if number:
            spot = f"{where}.hands[{int(number.group(1)) - 1}]"
            if exc.field.startswith("seat:"):
                spot += f".held[{exc.field[5:]}]"
        raise _Bad(spot, str(exc)) from None


def _check_claims(data: dict[str, Any], table: Standings, names: list[str], where: str) -> None:
    """Points and results in the file, when given, must be what the hands score."""
    for i, hand in enumerate(data["hands"]):
        claimed = hand.get("points")
        if claimed is not None and claimed != list(table.hands[i].points):
            raise _Bad(f"{where}.hands[{i}].points", f"hand {i + 1} scores "
                       f"{list(table.hands[i].points)}, not {claimed!r}")
    result = data.get("result")
    if isinstance(result, dict):
        if "totals" in result and result["totals"] != list(table.totals):
            raise _Bad(f"{where}.result.totals", f"the hands give {list(table.totals)}")
        winners = [names[s] for s in table.winners]
        if "winners" in result and result["winners"] != winners:
            raise _Bad(f"{where}.result.winners", f"the hands give {winners}")


def _moment(value: Any, where: str) -> datetime | None:
    if value is None:
        return None
    try:
        moment = datetime.fromisoformat(_text(value, where, 40))
    except ValueError:
        raise _Bad(where, f"not a date and time: {value!r}") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _ruling(data: Any, where: str, hands: int) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise _Bad(where, "must be an object")
    number, legal = data.get("hand_number"), data.get("legal")
    if number is not None and not (_is_int(number) and 1 <= number <= max(hands, 1)):
        raise _Bad(f"{where}.hand_number", f"must be a hand from 1 to {hands} or null")
    if legal is not None and not isinstance(legal, bool):
        raise _Bad(f"{where}.legal", "must be true, false or null")
    request = data.get("request", {})
    text = json.dumps(request) if isinstance(request, dict) else ""
    if not isinstance(request, dict) or len(text) > MAX_TEXT:
        raise _Bad(f"{where}.request", f"must be an object of at most {MAX_TEXT} characters")
    return {"hand_number": number, "legal": legal, "request_json": text,
            "question": _text(data.get("question"), f"{where}.question", MAX_TEXT),
            "reason": _text(data.get("reason"), f"{where}.reason", MAX_TEXT, empty=True),
            "rule": _text(data.get("rule", ""), f"{where}.rule", MAX_RULE, empty=True)}


def _match(data: Any, where: str, limits: Limits, read: _Reader) -> _Plan:
    if not isinstance(data, dict):
        raise _Bad(where, "must be an object with sheet, seats and hands")
    sheet = read.sheet(data.get("sheet"), where)
    names = _seats(data.get("seats"), f"{where}.seats", sheet, read)
    dealer = data.get("first_dealer", 0)
    if not (_is_int(dealer) and 0 <= dealer < len(names)):
        raise _Bad(f"{where}.first_dealer", f"must be a seat from 0 to {len(names) - 1}")
    hands, rulings = data.get("hands"), data.get("rulings", [])
    if not isinstance(hands, list) or len(hands) > limits.max_hands:
        raise _Bad(f"{where}.hands", f"must be a list of at most {limits.max_hands} hands")
    if not isinstance(rulings, list) or len(rulings) > limits.max_rulings:
        raise _Bad(f"{where}.rulings", f"must be a list of at most {limits.max_rulings}")
    uid = data.get("uid")
    if uid is not None and not (isinstance(uid, str) and UID.match(uid)):
        raise _Bad(f"{where}.uid", "must be the match's id from its export (up to 32 "
                   "letters, digits, - or _) or absent")
    read_hands = [_hand(h, f"{where}.hands[{i}]", i + 1, names, sheet, read)
                  for i, h in enumerate(hands)]
    results = [result for result, _ in read_hands]
    table = _replay(sheet, names, dealer, results, where)
    _check_claims(data, table, names, where)
    return _Plan(sheet, names, dealer, results,
                 _moment(data.get("created_at"), f"{where}.created_at"),
                 _moment(data.get("finished_at"), f"{where}.finished_at"),
                 [_ruling(r, f"{where}.rulings[{i}]", len(hands)) for i, r in enumerate(rulings)],
                 table, uid, [texts for _, texts in read_hands])


def _envelope(doc: Any, limits: Limits) -> list[Any]:
    if not isinstance(doc, dict):
        raise _Bad("", "the file must be a JSON object (a Scorekeeper export)")
    if doc.get("format") != FORMAT:
        raise _Bad("format", f"not a Scorekeeper export (format must be {FORMAT!r})")
    if doc.get("version") != VERSION:
        raise _Bad("version", f"export version {doc.get('version')!r} is not supported; "
                   f"this server reads version {VERSION}")
    matches = doc.get("matches")
    if not isinstance(matches, list) or not 1 <= len(matches) <= limits.max_matches:
        raise _Bad("matches", f"must be a list of 1 to {limits.max_matches} matches")
    total = sum(len(m["hands"]) for m in matches
                if isinstance(m, dict) and isinstance(m.get("hands"), list))
    if total > limits.max_total_hands:
        raise _Bad("matches", f"{total} hands is more than the {limits.max_total_hands} "
                   "one import may hold")
    return matches


def _colours(doc: dict[str, Any], limits: Limits) -> dict[str, str]:
    players = doc.get("players", [])
    if not isinstance(players, list) or len(players) > limits.max_players:
        raise _Bad("players", f"must be a list of at most {limits.max_players} players")
    colours = {}
    for i, p in enumerate(players):
        if not isinstance(p, dict):
            raise _Bad(f"players[{i}]", "must be an object with name and colour")
        name = _name(p.get("name"), f"players[{i}].name")
        colour = p.get("colour")
        if colour is not None and not (isinstance(colour, str) and COLOUR.match(colour)):
            raise _Bad(f"players[{i}].colour", "must be a colour like #1f77b4")
        if colour:
            colours[name_key(name)] = colour.lower()
    return colours


def _where_words(where: str) -> str:
    """``matches[2].hands[4]`` → ``match 3, hand 5`` for people."""
    words = []
    for kind, index in re.findall(r"(matches|hands|rulings)\[(\d+)\]", where):
        words.append(f"{kind[:-2] if kind == 'matches' else kind[:-1]} {int(index) + 1}")
    return ", ".join(words)


class _Collector:
    """Python's cycle collector, paused while imports run (thread-safe, nestable).

    An import makes hundreds of thousands of small objects beside the file's own
    millions of parsed values, and every automatic collection walks all of them (a
    third of validation's time on a 50,000-hand file). Nothing an import makes needs
    the collector (reference counting frees it); it runs again, if it ran before,
    when the last import running ends, however it ends.
    """

    def __init__(self) -> None:
        self.lock, self.running, self.was_enabled = threading.Lock(), 0, False

    @contextmanager
    def paused(self) -> Iterator[None]:
        with self.lock:
            if not self.running:
                self.was_enabled = gc.isenabled()
                gc.disable()
            self.running += 1
        try:
            yield
        finally:
            with self.lock:
                self.running -= 1
                if not self.running and self.was_enabled:
                    gc.enable()


_COLLECTOR = _Collector()


def collector_paused() -> AbstractContextManager[None]:
    """The cycle collector paused for a whole import, validation and writing.

    When it runs again it walks every object made while it was paused that is still
    alive: after :func:`validate` alone, that is all the plans (a quarter of a second
    for 50,000 hands); after the writing, with the plans dropped, next to nothing.
    """
    return _COLLECTOR.paused()


def validate(doc: Any, limits: Limits = Limits(), *, lean: bool = True
             ) -> tuple[list[_Plan], dict[str, str]]:
    """Check a whole document; raise :class:`TransferError` listing every bad match.

    ``lean=False`` reads every sheet, name and card text afresh: slower, and what the
    tests hold the remembering reader equal to.
    """
    with _COLLECTOR.paused():
        return _validate(doc, limits, _Reader(lean))


def _validate(doc: Any, limits: Limits, read: _Reader) -> tuple[list[_Plan], dict[str, str]]:
    try:
        matches = _envelope(doc, limits)
        colours = _colours(doc, limits)
    except _Bad as bad:
        raise TransferError([Problem(bad.where, bad.message)]) from None
    plans, problems = [], []
    for i, data in enumerate(matches):
        try:
            plans.append(_match(data, f"matches[{i}]", limits, read))
        except _Bad as bad:
            words = _where_words(bad.where)
            problems.append(Problem(bad.where, f"{words}: {bad.message}" if words
                                    else bad.message))
        if len(problems) >= 20:
            problems.append(Problem("", "…and possibly more; fix these first"))
            break
    problems += _twice(plans)
    if problems:
        raise TransferError(problems)
    return plans, colours


def _twice(plans: list[_Plan]) -> list[Problem]:
    """A match may appear only once in a file (by its stable id)."""
    seen: dict[str, int] = {}
    problems = []
    for i, plan in enumerate(plans):
        if plan.uid is not None and plan.uid in seen:
            problems.append(Problem(f"matches[{i}].uid", f"match {i + 1}: the same match as "
                                    f"match {seen[plan.uid] + 1} of this file"))
        seen.setdefault(plan.uid or "", i)
    return problems


# ---- import: writing ----------------------------------------------------------------

def _already_here(group: Group, plans: list[_Plan]) -> set[str]:
    """The stable ids of the file's matches that the group holds already."""
    uids = [plan.uid for plan in plans if plan.uid]
    if not uids:
        return set()
    return set(db.session.scalars(db.select(Match.uid).where(Match.group_id == group.id,
                                                              Match.uid.in_(uids))))


class _Keys(dict[str, str]):
    """:func:`name_key` of each name, worked out once per import."""

    def __missing__(self, name: str) -> str:
        self[name] = key = name_key(name)
        return key


def _players(group: Group, plans: list[_Plan], colours: dict[str, str], key_of: _Keys
             ) -> tuple[dict[str, Player], list[Player]]:
    """Existing players by :func:`name_key`, plus the ones to create (not yet added)."""
    found = {name_key(p.name): p for p in db.session.scalars(
        db.select(Player).where(Player.group_id == group.id))}
    created = []
    for name in (n for plan in plans for n in plan.names):
        key = key_of[name]
        if key not in found:
            found[key] = player = Player(group_id=group.id, name=name,
                                         colour=colours.get(key, "#1f77b4"))
            created.append(player)
    return found, created


def _match_row(group: Group, plan: _Plan, sheet_json: str) -> dict[str, Any]:
    """A match's row: its derived columns from the validating replay, as
    :func:`records.build_match` would set them (a finished match keeps the file's
    finish time, or finishes now)."""
    table = plan.table
    assert table is not None  # set by validate()
    finished = (plan.finished_at or utcnow()) if table.over else None
    return {"group_id": group.id, "game": plan.sheet.game, "sheet_json": sheet_json,
            "first_dealer": plan.first_dealer, "uid": plan.uid or new_uid(),
            "view_token": new_token(), "created_at": plan.created_at or utcnow(),
            "status": "finished" if table.over else "active",
            "hand_count": len(table.hands), "finished_at": finished, "version": 1}


@dataclass
class _Rows:
    """Every row of an import, built before the first write, as values in the order of
    each table's columns in :func:`_write`. Rows below a match name it by its position
    in ``matches`` (``m``); rows below a hand by ``m`` and the hand's number."""

    matches: list[dict[str, Any]] = field(default_factory=list)
    # m, position, player key, whether the seat won
    seats: list[tuple[int, int, str, bool]] = field(default_factory=list)
    # m, number, dealer, out seat, Last One's own deal size; then each seat's cards as
    # stored and points (its hand_entry rows, written once the hand's id is known)
    hands: list[tuple[int, int, int, int | None, int | None, tuple[str, ...], tuple[int, ...]]
                ] = field(default_factory=list)
    rulings: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    # m, player key, the seat's seat_figures columns
    figures: list[tuple[int, str, dict[str, Any]]] = field(default_factory=list)


def _rows(group: Group, plans: list[_Plan], key_of: _Keys) -> _Rows:
    rows, sheets = _Rows(), {}
    for m, plan in enumerate(plans):
        table = plan.table
        assert table is not None  # set by validate()
        if id(plan.sheet) not in sheets:  # the reader gives equal sheets as one object
            sheets[id(plan.sheet)] = plan.sheet.to_json()
        sheet_json = sheets[id(plan.sheet)]
        rows.matches.append(_match_row(group, plan, sheet_json))
        keys = [key_of[name] for name in plan.names]
        rows.seats += [(m, i, key, i in table.winners) for i, key in enumerate(keys)]
        rows.rulings += [(m, ruling) for ruling in plan.rulings]
        hand_rows = []
        for number, (result, dealer, texts, score) in enumerate(zip(
                plan.results, table.dealers, plan.texts, table.hands, strict=True), start=1):
            rows.hands.append((m, number, dealer, result.out, result.hand_size, texts,
                               score.points))
            hand_rows.append(HandRow(result.out, texts, score.points))
        # The player page's per-seat figures, as the records keep them for every match,
        # from the hands and the validating replay (its totals after each hand).
        seat_figures = replayed_figures(plan.sheet.game, sheet_json, len(plan.names),
                                        hand_rows, table)
        rows.figures += [(m, keys[v["seat"]], v)
                         for v in as_values(plan.sheet.game, seat_figures, table)]
        # Issue 12 (save round trip): the running state a save moves on from, as the
        # records store it (store/running.py).
        rows.matches[-1]["running_json"] = running.to_text(running.at_end(
            table, seat_figures, [result.out for result in plan.results]))
    return rows


_MARKS = {"qmark": "?", "format": "%s", "pyformat": "%s"}  # sqlite3; psycopg
_PARAMETERS = 999  # per statement: the oldest SQLite's limit (PostgreSQL's is 65,535)


def _insert(model: type, rows: list[dict[str, Any]]) -> None:
    """Insert many rows, all with the same keys (see :func:`_insert_values`)."""
    if rows:
        names = list(rows[0])
        _insert_values(model, names, [tuple([row[name] for name in names]) for row in rows])


def _insert_values(model: type, names: Sequence[str], values: list[tuple[Any, ...]]) -> None:
    """Insert many rows, given as tuples of the named columns, in at most two
    executions, no RETURNING.

    SQLAlchemy's own executemany builds every row's parameters through the compiled
    statement, which costs more than the database's work for an import's hundreds of
    thousands of rows; so, when every column with a default is given, the rows go to
    the driver as plain values, each through its column type's bind processor (dates,
    booleans) exactly as SQLAlchemy would pass it (once per distinct value), up to
    :data:`_PARAMETERS` values to a multi-row ``VALUES`` (on SQLite half the driver's
    time of one row per statement).
    """
    if not values:
        return
    table = model.__table__  # type: ignore[attr-defined]
    connection = db.session.connection()
    dialect = connection.dialect
    mark = _MARKS.get(dialect.paramstyle)
    if mark is None or any(c.default is not None and c.name not in names for c in table.c):
        connection.execute(table.insert(), [dict(zip(names, v, strict=True)) for v in values])
        return
    quote = dialect.identifier_preparer
    columns = [table.c[name] for name in names]
    processors = [(i, process) for i, column in enumerate(columns)
                  if (process := column.type.dialect_impl(dialect).bind_processor(dialect))]
    if processors:
        data = list(zip(*values, strict=True))  # column by column
        for i, process in processors:
            done = {value: process(value) for value in set(data[i])}  # dates, flags: few
            data[i] = tuple([done[value] for value in data[i]])
        values = list(zip(*data, strict=True))
    head = (f"INSERT INTO {quote.format_table(table)} "
            f"({', '.join(quote.format_column(c) for c in columns)}) VALUES ")
    row = f"({', '.join([mark] * len(names))})"
    per = max(1, _PARAMETERS // len(names))  # rows a statement
    whole = len(values) - len(values) % per  # rows in full statements
    flat = tuple(chain.from_iterable(values))  # a tuple's slices are tuples, as drivers want
    step = per * len(names)
    if whole:
        connection.exec_driver_sql(head + ", ".join([row] * per), [
            flat[i:i + step] for i in range(0, whole * len(names), step)])
    if whole < len(values):
        connection.exec_driver_sql(head + ", ".join([row] * (len(values) - whole)),
                                   [flat[whole * len(names):]])


def _write(group: Group, plans: list[_Plan], colours: dict[str, str]) -> list[str]:
    """Write validated matches with bulk inserts, a few statements per table whatever
    their number, so the write lock is held briefly; returns the players created.

    Every row is built first; new ids are read back by the match's stable id (unique
    in the group) and the hand's number (unique in the match), not row by row.
    """
    key_of = _Keys()
    found, created = _players(group, plans, colours, key_of)
    rows, now = _rows(group, plans, key_of), utcnow()
    db.session.add_all(created)
    db.session.flush()  # the first write: from here to the commit the lock is held
    players = {key: player.id for key, player in found.items()}
    connection = db.session.connection()
    _insert(Match, rows.matches)
    uids = [row["uid"] for row in rows.matches]
    by_uid = dict(connection.execute(db.select(Match.uid, Match.id).where(
        Match.group_id == group.id, Match.uid.in_(uids))).all())
    match_ids = [by_uid[uid] for uid in uids]
    _insert_values(Seat, ("match_id", "position", "player_id", "winner"),
                   [(match_ids[m], position, players[key], won)
                    for m, position, key, won in rows.seats])
    seat_rows = []
    for m, key, values in rows.figures:  # the rows' own dicts: nothing else holds them
        values["match_id"], values["player_id"] = match_ids[m], players[key]
        seat_rows.append(values)
    _insert(SeatFigures, seat_rows)
    # Player totals (issue 12): the new matches' figures added to their players' sums.
    player_totals.apply(connection, [(None, row) for row in seat_rows])
    _insert_values(Hand, ("match_id", "number", "dealer", "out_seat", "hand_size", "created_at"),
                   [(match_ids[m], number, dealer, out, size, now)
                    for m, number, dealer, out, size, _, _ in rows.hands])
    hand_ids = {(match, number): hand_id for hand_id, match, number in connection.execute(
        db.select(Hand.id, Hand.match_id, Hand.number).where(Hand.match_id.in_(match_ids)))}
    entries: list[tuple[int, int, str, int]] = []
    for m, number, _, _, _, texts, points in rows.hands:
        hand_id = hand_ids[match_ids[m], number]
        entries += [(hand_id, seat, cards, point)
                    for seat, (cards, point) in enumerate(zip(texts, points, strict=True))]
    _insert_values(HandEntry, ("hand_id", "seat", "cards", "points"), entries)
    _insert(Ruling, [{"match_id": match_ids[m], **ruling} for m, ruling in rows.rulings])
    if any(row["finished_at"] is not None for row in rows.matches):
        # Imported matches may have finished before the group's own: rate every chain again.
        rating_rows.rebuild_group(connection, group.id)
    return [player.name for player in created]


def import_document(group: Group, doc: Any, limits: Limits = Limits()) -> ImportReport:
    """Validate and write a whole document in one transaction, or nothing at all.

    Everything is checked before the first write; the matches the group already holds
    (the same stable id, from an earlier import of this file) are skipped and counted.
    """
    with collector_paused():  # once for both halves: see collector_paused
        return write_plans(group, *validate(doc, limits))


def write_plans(group: Group, plans: list[_Plan], colours: dict[str, str]) -> ImportReport:
    """The writing half of :func:`import_document`, for plans :func:`validate` returned:
    one transaction, committed, or rolled back on any error. Separate so that
    ``scorekeeper bench import`` can time validation and writing apart."""
    try:
        here = _already_here(group, plans)
        fresh = [plan for plan in plans if plan.uid not in here]
        with _COLLECTOR.paused():
            created = _write(group, fresh, colours)
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise TransferError([Problem("", "these matches or players were added at the same "
                                     "moment (the file imported twice at once?); nothing "
                                     "was imported, try again")]) from None
    except BaseException:
        db.session.rollback()
        raise
    return ImportReport(len(fresh), sum(len(p.results) for p in fresh), tuple(created),
                        len(plans) - len(fresh))
