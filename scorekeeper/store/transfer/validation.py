"""Validating an import: a file decoded, every match checked and replayed, into plans.

Validation reads *everything* before anything is written — the envelope, the sheet,
the seats, every hand replayed through :func:`scoring.standings`, all text through
:func:`text.clean_text` — and reports each bad match with where the problem is
(``matches[2].hands[4].held[1]``) and in words (match 3, hand 5, Bob). What it answers
(:class:`Plan`, one per match) is what :mod:`.writing` hands to the writer.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from typing import Any

from scorekeeper.core.cards import ALL_CARDS, JOKER, Card, CardError, parse_card, parse_cards
from scorekeeper.core.errors import InputError
from scorekeeper.core.scoring import HandResult, ScoringError, Standings, standings
from scorekeeper.core.sheets import OPTIONS, Sheet, SheetError
from scorekeeper.core.text import COLOUR, DuplicateKeyError, clean_text, name_key, read_json
from scorekeeper.store.models import MAX_ID
from scorekeeper.store.projection.states import Replayed, replay_of
from scorekeeper.store.seasons import LONGEST

__all__ = ["FORMAT", "VERSION", "GroupNotes", "Limits", "Plan", "Problem", "TransferError",
           "parse_json", "validate"]

FORMAT, VERSION = "scorekeeper-export", 1
MAX_NAME, MAX_CARDS_TEXT, MAX_TEXT, MAX_RULE, MAX_SEASONS = 40, 400, 4000, 40, 1000
UID = re.compile(r"^[0-9A-Za-z_-]{1,32}$")


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


@dataclass(frozen=True)
class Plan:
    """A validated match, ready to write."""

    sheet: Sheet
    names: tuple[str, ...]
    first_dealer: int
    hands: tuple[tuple[int | None, int | None], ...]  # who went out of each, its own deal size
    created_at: datetime | None
    finished_at: datetime | None
    rulings: tuple[dict[str, Any], ...] = ()
    replayed: Replayed | None = None  # what the replay that validated the hands derived
    uid: str | None = None  # the match's stable id, when the file carries one
    texts: tuple[tuple[str, ...], ...] = ()  # each hand's cards as stored
    sheet_json: str = ""  # the sheet as stored


def parse_json(raw: bytes | str, limits: Limits = Limits()) -> Any:
    """Decode an uploaded file, refusing oversized, undecodable or absurdly nested text."""
    if len(raw) > limits.max_bytes:
        raise TransferError([Problem("", f"the file is larger than {limits.max_bytes} bytes")])
    try:
        return read_json(raw)  # 867.0 is the integer 867; a key given twice is refused
    except DuplicateKeyError as exc:
        raise TransferError([Problem("", f"the file names the key {exc.key!r} twice in one "
                                     "object, so which value was meant is unknown")]) from None
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


def _text(value: Any, where: str, limit: int, *, empty: bool = False, lines: bool = True
          ) -> str:
    if not isinstance(value, str):
        raise _Bad(where, f"must be text, not {type(value).__name__}")
    try:  # the same hygiene as the forms and the API: NFC, no control or invisible chars
        # (the length is judged below, after trimming, in the import's own words)
        value = clean_text(value, where, max(len(value), 1), empty=True, lines=lines)
    except InputError as exc:
        raise _Bad(where, exc.message[:1].lower() + exc.message[1:]) from None
    if len(value) > limit or (not empty and not value.strip()):
        raise _Bad(where, f"must be 1 to {limit} characters" if not empty else
                   f"must be at most {limit} characters")
    return value


def _name(value: Any, where: str) -> str:
    """A name read as the pages and the API read one (white space, a tab or a vertical
    tab too, folds to one space)."""
    return _text(value, where, MAX_NAME, lines=False)


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
        self.sheets: dict[str, tuple[Sheet, str]] = {}
        self.names: dict[str, str] = {}
        # card spellings known good: the stored ones to start with (read, not assumed)
        self.tokens = {text: parse_card(text) for text in _CANONICAL.values()}
        # a seat's whole text read without a problem, and its text as stored (most texts
        # recur: the empty one of every player out, short hands). Text to text only: a
        # big file has tens of thousands of distinct texts, and tuples of cards kept for
        # each would be walked by every full collection the validation sets off.
        self.texts: dict[str, str] = {}

    def sheet(self, data: Any, where: str) -> tuple[Sheet, str]:
        """A match's sheet, and its text as stored."""
        if not self.lean or type(data) is not dict:
            sheet = _sheet(data, where)
            return sheet, sheet.to_json()
        key = repr(data)  # exact for JSON values: a different sheet has a different repr
        found = self.sheets.get(key)
        if found is None:
            sheet = _sheet(data, where)
            found = self.sheets[key] = (sheet, sheet.to_json())
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
        texts, tokens = self.texts, self.tokens
        every, stored = [], []
        for seat, text in enumerate(held):
            known = texts.get(text) if self.lean and type(text) is str else None
            if known is None:  # a text not read before
                cards = self.cards(text, f"{where}[{seat}]", names[seat])
                known = " ".join([_CANONICAL[c] for c in cards])
                if self.lean and type(text) is str:
                    texts[text] = known
            else:  # the stored text's tokens are all canonical spellings
                cards = tuple([tokens[token] for token in known.split()])
            every.append(cards)
            stored.append(known)
        return tuple(every), tuple(stored)


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
    deal = OPTIONS["hand_size"]
    by_size = sheet.game_info.deal == "hand_size"
    if size is not None and not (by_size and _is_int(size) and deal.allows(size)):
        raise _Bad(f"{where}.hand_size", f"a hand's own deal size is for Last One, "
                   f"{deal.minimum} to {deal.maximum}")
    if not isinstance(held, list) or len(held) != len(names):
        raise _Bad(f"{where}.held", f"must list the cards of all {len(names)} seats")
    cards, texts = read.held(held, f"{where}.held", names)
    return HandResult(out, cards, size), texts


def _replay(sheet: Sheet, names: list[str], dealer: int, results: list[HandResult],
            where: str) -> Standings:
    try:
        return standings(sheet, names, dealer, results)
    except ScoringError as exc:  # the hand and seat at fault, as the replay names them
        spot = where
        if exc.hand is not None:
            spot = f"{where}.hands[{exc.hand - 1}]"
            if exc.seat is not None:
                spot += f".held[{exc.seat}]"
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
    # As UTC: the instant a zone names (SQLite keeps a time's digits, not its zone, and
    # every reader takes them as UTC), UTC when the file names none.
    return moment.astimezone(UTC) if moment.tzinfo else moment.replace(tzinfo=UTC)


def _ruling(data: Any, where: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise _Bad(where, "must be an object")
    # The hand a ruling was asked in: often the hand in progress (one past the last
    # recorded), or one deleted since; any hand number is kept as it was saved.
    number, legal = data.get("hand_number"), data.get("legal")
    if number is not None and not (_is_int(number) and 1 <= number <= MAX_ID):
        raise _Bad(f"{where}.hand_number", f"must be a hand number from 1 to {MAX_ID} or null")
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


def _match(data: Any, where: str, limits: Limits, read: _Reader) -> Plan:
    if not isinstance(data, dict):
        raise _Bad(where, "must be an object with sheet, seats and hands")
    sheet, sheet_json = read.sheet(data.get("sheet"), where)
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
    texts = tuple([texts for _, texts in read_hands])
    # What the replay derived, as plain values in tuples (which the cycle collector
    # stops tracking): the scoring input's and the replay's objects are let go now, not
    # kept alive with the plans for every full collection to walk again.
    return Plan(sheet, tuple(names), dealer,
                tuple([(result.out, result.hand_size) for result in results]),
                _moment(data.get("created_at"), f"{where}.created_at"),
                _moment(data.get("finished_at"), f"{where}.finished_at"),
                tuple([_ruling(r, f"{where}.rulings[{i}]")
                       for i, r in enumerate(rulings)]),
                replay_of(sheet.game, sheet_json, table), uid, texts, sheet_json)


def _envelope(doc: Any, limits: Limits) -> list[Any]:
    if not isinstance(doc, dict):
        raise _Bad("", "the file must be a JSON object (a Scorekeeper export)")
    if doc.get("format") != FORMAT:
        raise _Bad("format", f"not a Scorekeeper export (format must be {FORMAT!r})")
    if doc.get("version") != VERSION:
        raise _Bad("version", f"export version {doc.get('version')!r} is not supported; "
                   f"this server reads version {VERSION}")
    for key, kind, words in (("group", dict, "an object"), ("exported_at", str, "text")):
        if key in doc and not isinstance(doc[key], kind):  # not read, but a file's part
            raise _Bad(key, f"must be {words}")
    matches = doc.get("matches")
    if not isinstance(matches, list) or len(matches) > limits.max_matches:
        raise _Bad("matches", f"must be a list of at most {limits.max_matches} matches")
    total = sum(len(m["hands"]) for m in matches
                if isinstance(m, dict) and isinstance(m.get("hands"), list))
    if total > limits.max_total_hands:
        raise _Bad("matches", f"{total} hands is more than the {limits.max_total_hands} "
                   "one import may hold")
    return matches


@dataclass(frozen=True)
class GroupNotes:
    """What a file says of the group besides its matches: its players (every one, in
    order, seated or not), their colours and who is hidden, by :func:`name_key`, and
    its named seasons (name, first day, last day)."""

    names: tuple[str, ...] = ()
    colours: dict[str, str] = field(default_factory=dict)
    hidden: frozenset[str] = frozenset()
    seasons: tuple[tuple[str, date, date], ...] = ()


def _player(data: Any, where: str) -> tuple[str, str | None, bool]:
    """A listed player: name, colour (or None), hidden."""
    if not isinstance(data, dict):
        raise _Bad(where, "must be an object with name and colour")
    name = _name(data.get("name"), f"{where}.name")
    colour, hidden = data.get("colour"), data.get("hidden", False)
    if colour is not None and not (isinstance(colour, str) and COLOUR.match(colour)):
        raise _Bad(f"{where}.colour", "must be a colour like #1f77b4")
    if not isinstance(hidden, bool):
        raise _Bad(f"{where}.hidden", "must be true or false")
    return name, colour.lower() if colour else None, hidden


def _day(value: Any, where: str) -> date:
    try:
        return date.fromisoformat(_text(value, where, 10))
    except ValueError:
        raise _Bad(where, f"not a date like 2026-12-31: {value!r}") from None


def _seasons(data: Any) -> tuple[tuple[str, date, date], ...]:
    """The file's named seasons, each checked as a page checks one."""
    if not isinstance(data, list) or len(data) > MAX_SEASONS:
        raise _Bad("seasons", f"must be a list of at most {MAX_SEASONS} seasons")
    found, keys = [], set()
    for i, season in enumerate(data):
        where = f"seasons[{i}]"
        if not isinstance(season, dict):
            raise _Bad(where, "must be an object with name, first_day and last_day")
        name = _name(season.get("name"), f"{where}.name")
        first = _day(season.get("first_day"), f"{where}.first_day")
        last = _day(season.get("last_day"), f"{where}.last_day")
        if not 0 <= (last - first).days <= LONGEST:
            raise _Bad(f"{where}.last_day", f"must be 0 to {LONGEST} days after the first day")
        if name_key(name) in keys:
            raise _Bad(f"{where}.name", f"a second season called {name!r}")
        keys.add(name_key(name))
        found.append((name, first, last))
    return tuple(found)


def _group_notes(doc: dict[str, Any], limits: Limits) -> GroupNotes:
    players = doc.get("players", [])
    if not isinstance(players, list) or len(players) > limits.max_players:
        raise _Bad("players", f"must be a list of at most {limits.max_players} players")
    names, colours, hidden = [], {}, set()
    for i, data in enumerate(players):
        name, colour, hides = _player(data, f"players[{i}]")
        names.append(name)
        if colour:
            colours[name_key(name)] = colour
        if hides:
            hidden.add(name_key(name))
    return GroupNotes(tuple(names), colours, frozenset(hidden),
                      _seasons(doc.get("seasons", [])))


def _where_words(where: str) -> str:
    """``matches[2].hands[4]`` → ``match 3, hand 5`` for people."""
    words = []
    for kind, index in re.findall(r"(matches|hands|rulings)\[(\d+)\]", where):
        words.append(f"{kind[:-2] if kind == 'matches' else kind[:-1]} {int(index) + 1}")
    return ", ".join(words)


def validate(doc: Any, limits: Limits = Limits(), *, lean: bool = True
             ) -> tuple[list[Plan], GroupNotes]:
    """Check a whole document; raise :class:`TransferError` listing every bad match.

    ``lean=False`` reads every sheet, name and card text afresh: slower, and what the
    tests hold the remembering reader equal to.
    """
    return _validate(doc, limits, _Reader(lean))


def _validate(doc: Any, limits: Limits, read: _Reader) -> tuple[list[Plan], GroupNotes]:
    try:
        matches = _envelope(doc, limits)
        notes = _group_notes(doc, limits)
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
    return _fingerprinted(plans, matches), notes


def _fingerprinted(plans: list[Plan], matches: list[Any]) -> list[Plan]:
    """Each match without a ``uid`` given one made from its own text in the file (and
    which copy of that text it is), so a file sent again — a client resending after a
    dropped connection, when the first try had committed — finds its matches already
    there instead of doubling them. The same file gives the same ids every time."""
    copies: dict[str, int] = {}
    marked = []
    for plan, data in zip(plans, matches, strict=True):
        if plan.uid is None:
            text = json.dumps(data, sort_keys=True, ensure_ascii=False).encode()
            digest = hashlib.sha256(text).hexdigest()[:26]
            copies[digest] = copy = copies.get(digest, 0) + 1
            plan = replace(plan, uid=f"f{digest}-{copy}")
        marked.append(plan)
    return marked


def _twice(plans: list[Plan]) -> list[Problem]:
    """A match may appear only once in a file (by its stable id)."""
    seen: dict[str, int] = {}
    problems = []
    for i, plan in enumerate(plans):
        if plan.uid is not None and plan.uid in seen:
            problems.append(Problem(f"matches[{i}].uid", f"match {i + 1}: the same match as "
                                    f"match {seen[plan.uid] + 1} of this file"))
        seen.setdefault(plan.uid or "", i)
    return problems


