"""Export and import: a match or a whole group as JSON (complete) or CSV (for spreadsheets).

The JSON document (format ``scorekeeper-export``, version 1) holds each match's rule
sheet, seats by player name, first dealer, start and finish times, every hand with the
cards each seat held, and the saved rulings; points and results are included too, and
checked on import. ``finished_at`` is optional (older files lack it: an imported
finished match then finishes at the time of the import). Importing validates
*everything* first — the sheet, the seats, every hand replayed through
:func:`scoring.standings` — and then writes all of a file or nothing, in one
transaction, turning hands into rows with :func:`records.build_match`. Players are
matched by name (ignoring case) within the target group and created when missing.
Problems are reported with where they are (``matches[2].hands[4].held[1]``) and in
words (match 3, hand 5, Bob).
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload

from scorekeeper.core.cards import CardError, parse_cards
from scorekeeper.core.errors import InputError
from scorekeeper.core.scoring import HandResult, ScoringError, Standings, standings
from scorekeeper.core.sheets import LO, Sheet, SheetError
from scorekeeper.store.extensions import db
from scorekeeper.store.models import Group, Hand, Match, Player, Ruling, Seat, utcnow
from scorekeeper.store.records import build_match, match_standings

__all__ = [
    "FORMAT",
    "VERSION",
    "Limits",
    "Problem",
    "TransferError",
    "export_document",
    "import_document",
    "load_matches",
    "parse_json",
    "to_csv",
    "validate",
]

FORMAT, VERSION = "scorekeeper-export", 1
MAX_NAME, MAX_CARDS_TEXT, MAX_TEXT, MAX_RULE = 40, 400, 4000, 40
COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
CSV_COLUMNS = ("match", "game", "started", "hand", "dealer", "seat", "player", "went_out",
               "cards", "points", "total")


@dataclass(frozen=True)
class Limits:
    """What one import may hold, so a hostile file cannot exhaust the server."""

    max_bytes: int = 8 * 1024 * 1024
    max_matches: int = 5000
    max_hands: int = 500  # per match
    max_total_hands: int = 50000
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


@dataclass(frozen=True)
class ImportReport:
    """What an import wrote."""

    matches: int
    hands: int
    players_created: tuple[str, ...]


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
        "id": match.id, "sheet": json.loads(match.sheet_json), "seats": names,
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
    if len(value) > limit or (not empty and not value.strip()):
        raise _Bad(where, f"must be 1 to {limit} characters" if not empty else
                   f"must be at most {limit} characters")
    return value


def _name(value: Any, where: str) -> str:
    return " ".join(_text(value, where, MAX_NAME).split())


def _seats(data: Any, where: str, sheet: Sheet) -> list[str]:
    if not isinstance(data, list):
        raise _Bad(where, "must be a list of player names in clockwise order")
    info = sheet.game_info
    problem = info.players_problem(len(data))
    if problem:
        raise _Bad(where, problem)
    names = [_name(n, f"{where}[{i}]") for i, n in enumerate(data)]
    if len({n.lower() for n in names}) != len(names):
        raise _Bad(where, "a player can take only one seat")
    return names


def _hand(data: Any, where: str, number: int, names: list[str], sheet: Sheet) -> HandResult:
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
    cards = []
    for seat, text in enumerate(held):
        spot = f"{where}.held[{seat}]"
        try:
            cards.append(parse_cards(_text(text, spot, MAX_CARDS_TEXT, empty=True)))
        except CardError as exc:
            raise _Bad(spot, f"{names[seat]}: {exc}") from None
    return HandResult.of(out, cards, size)


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


def _match(data: Any, where: str, limits: Limits) -> _Plan:
    if not isinstance(data, dict):
        raise _Bad(where, "must be an object with sheet, seats and hands")
    try:
        sheet = Sheet.from_dict(data.get("sheet"))
    except SheetError as exc:
        raise _Bad(f"{where}.sheet" + ("" if exc.field == "sheet" else
                                       f".{exc.field.removeprefix('sheet.')}"), str(exc)) from None
    names = _seats(data.get("seats"), f"{where}.seats", sheet)
    dealer = data.get("first_dealer", 0)
    if not (_is_int(dealer) and 0 <= dealer < len(names)):
        raise _Bad(f"{where}.first_dealer", f"must be a seat from 0 to {len(names) - 1}")
    hands, rulings = data.get("hands"), data.get("rulings", [])
    if not isinstance(hands, list) or len(hands) > limits.max_hands:
        raise _Bad(f"{where}.hands", f"must be a list of at most {limits.max_hands} hands")
    if not isinstance(rulings, list) or len(rulings) > limits.max_rulings:
        raise _Bad(f"{where}.rulings", f"must be a list of at most {limits.max_rulings}")
    results = [_hand(h, f"{where}.hands[{i}]", i + 1, names, sheet) for i, h in enumerate(hands)]
    _check_claims(data, _replay(sheet, names, dealer, results, where), names, where)
    return _Plan(sheet, names, dealer, results,
                 _moment(data.get("created_at"), f"{where}.created_at"),
                 _moment(data.get("finished_at"), f"{where}.finished_at"),
                 [_ruling(r, f"{where}.rulings[{i}]", len(hands)) for i, r in enumerate(rulings)])


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
            colours[name.lower()] = colour.lower()
    return colours


def _where_words(where: str) -> str:
    """``matches[2].hands[4]`` → ``match 3, hand 5`` for people."""
    words = []
    for kind, index in re.findall(r"(matches|hands|rulings)\[(\d+)\]", where):
        words.append(f"{kind[:-2] if kind == 'matches' else kind[:-1]} {int(index) + 1}")
    return ", ".join(words)


def validate(doc: Any, limits: Limits = Limits()) -> tuple[list[_Plan], dict[str, str]]:
    """Check a whole document; raise :class:`TransferError` listing every bad match."""
    try:
        matches = _envelope(doc, limits)
        colours = _colours(doc, limits)
    except _Bad as bad:
        raise TransferError([Problem(bad.where, bad.message)]) from None
    plans, problems = [], []
    for i, data in enumerate(matches):
        try:
            plans.append(_match(data, f"matches[{i}]", limits))
        except _Bad as bad:
            words = _where_words(bad.where)
            problems.append(Problem(bad.where, f"{words}: {bad.message}" if words
                                    else bad.message))
        if len(problems) >= 20:
            problems.append(Problem("", "…and possibly more; fix these first"))
            break
    if problems:
        raise TransferError(problems)
    return plans, colours


# ---- import: writing ----------------------------------------------------------------

def _players(group: Group, plans: list[_Plan], colours: dict[str, str]
             ) -> tuple[dict[str, Player], list[str]]:
    """Existing players by lower-case name, plus the ones to create (flushed)."""
    found = {p.name.lower(): p for p in db.session.scalars(
        db.select(Player).where(Player.group_id == group.id))}
    created = []
    for name in (n for plan in plans for n in plan.names):
        if name.lower() not in found:
            player = Player(group_id=group.id, name=name,
                            colour=colours.get(name.lower(), "#1f77b4"))
            db.session.add(player)
            found[name.lower()] = player
            created.append(name)
    return found, created


def _build(group: Group, plan: _Plan, players: dict[str, Player]) -> Match:
    match = build_match(group, plan.sheet, [players[n.lower()] for n in plan.names],
                        plan.first_dealer, plan.results, created_at=plan.created_at,
                        finished_at=plan.finished_at)
    match.rulings = [Ruling(**ruling) for ruling in plan.rulings]
    return match


def import_document(group: Group, doc: Any, limits: Limits = Limits()) -> ImportReport:
    """Validate and write a whole document in one transaction, or nothing at all."""
    plans, colours = validate(doc, limits)
    try:
        players, created = _players(group, plans, colours)
        for plan in plans:
            _build(group, plan, players)
        db.session.commit()
    except InputError as exc:  # validated above, so only if records and validate disagree
        db.session.rollback()
        raise TransferError([Problem("", str(exc))]) from None
    except IntegrityError:
        db.session.rollback()
        raise TransferError([Problem("", "a player with one of these names was added at the "
                                     "same moment; nothing was imported, try again")]) from None
    except BaseException:
        db.session.rollback()
        raise
    return ImportReport(len(plans), sum(len(p.results) for p in plans), tuple(created))
