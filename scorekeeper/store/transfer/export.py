"""Export: a match or a whole group as JSON (complete) or CSV (for spreadsheets).

The JSON document (format ``scorekeeper-export``, version 1) holds each match's rule
sheet, seats by player name, first dealer, start and finish times, every hand with the
cards each seat held, and the saved rulings; points and results are included too
(checked again on import). Each match carries its stable ``uid``, so a file imported
again is recognised. A new field is one more entry in :func:`_export_match`; a new CSV
column one more pair in :data:`CSV_COLUMNS`.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from scorekeeper.core.places import places
from scorekeeper.core.scoring import Standings
from scorekeeper.store.groups import group_players
from scorekeeper.store.match_views import (
    EntryView,
    GroupView,
    HandView,
    MatchRecord,
    MatchView,
    match_records,
)
from scorekeeper.store.models import utcnow
from scorekeeper.store.reading import match_sheet, match_standings
from scorekeeper.store.seasons import group_seasons
from scorekeeper.store.transfer.validation import FORMAT, VERSION

__all__ = ["CSV_COLUMNS", "export_document", "load_matches", "to_csv"]

def load_matches(group: GroupView, match_id: int | None = None) -> list[MatchRecord]:
    """The group's matches (or one), oldest first, with everything export needs: their
    views, hands and rulings (four statements)."""
    return match_records(group.id, match_id)


def _iso(moment: datetime | None) -> str | None:
    if moment is None:
        return None
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).isoformat()


def _export_match(record: MatchRecord) -> dict[str, Any]:
    match = record.match
    table = match_standings(match, record.hands)
    names = [seat.player.name for seat in match.seats]
    hands = [{
        "number": hand.number, "dealer": hand.dealer, "out": hand.out_seat,
        "hand_size": hand.hand_size,
        "held": [entry.cards for entry in hand.entries],
        "points": list(score.points),
    } for hand, score in zip(record.hands, table.hands, strict=True)]
    return {
        "id": match.id, "uid": match.uid, "sheet": json.loads(match.sheet_json),
        "seats": names,
        "first_dealer": match.first_dealer, "created_at": _iso(match.created_at),
        "finished_at": _iso(match.finished_at), "hands": hands,
        "rulings": [{"hand_number": r.hand_number, "question": r.question, "legal": r.legal,
                     "reason": r.reason, "rule": r.rule, "request": json.loads(r.request_json)}
                    for r in record.rulings],
        "result": {"status": "finished" if table.over else "active",
                   "totals": list(table.totals),
                   "winners": [names[s] for s in table.winners],
                   "places": _places(match, table)},
    }


def _places(match: MatchView, table: Standings) -> list[int] | None:
    """Each seat's place in a finished match (the rules reference "Places"), else None;
    derived from the hands like the totals, so an import reads it but never trusts it."""
    ranked = places(match_sheet(match), table)
    return None if ranked is None else list(ranked)


def _players(group: GroupView, matches: list[MatchRecord], whole: bool) -> list[dict[str, Any]]:
    """The players a file lists: the whole group's (seated or not, hidden or not), or
    those seated in the matches of a one-match file."""
    if whole:
        listed = [(p.name, p.colour, p.hidden) for p in group_players(group)]
    else:
        seated = {seat.player.id: seat.player for m in matches for seat in m.match.seats}
        listed = [(p.name, p.colour, False) for p in seated.values()]
    return [{"name": name, "colour": colour, **({"hidden": True} if hidden else {})}
            for name, colour, hidden in sorted(listed, key=lambda p: p[0].lower())]


def export_document(group: GroupView, matches: Iterable[MatchRecord], *, whole: bool = True
                    ) -> dict[str, Any]:
    """The JSON export of the given matches of a group (as :func:`load_matches` reads
    them). ``whole``: the group's backup, so every player and its seasons go with them
    (a one-match file carries its seated players only)."""
    matches = list(matches)
    seasons = [{"name": s.name, "first_day": s.first_day.isoformat(),
                "last_day": s.last_day.isoformat()}
               for s in reversed(group_seasons(group))] if whole else []
    return {
        "format": FORMAT, "version": VERSION, "exported_at": _iso(utcnow()),
        "group": {"name": group.name},
        "players": _players(group, matches, whole),
        **({"seasons": seasons} if whole else {}),
        "matches": [_export_match(m) for m in matches],
    }


def _cell(text: str) -> str:
    """Keep a spreadsheet from reading a name as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


@dataclass(frozen=True)
class CsvRow:
    """What one CSV row is about: a seat in a hand of a match, with the seats' names
    (made safe for spreadsheets) and every seat's total after the hand."""

    match: MatchView
    hand: HandView
    entry: EntryView
    names: list[str]
    totals: tuple[int, ...]
    places: list[int] | None  # every seat's place once the match is finished


# The CSV's columns in order, each with how its cell is read from a :class:`CsvRow`.
CSV_COLUMNS: tuple[tuple[str, Callable[[CsvRow], Any]], ...] = (
    ("match", lambda line: line.match.id),
    ("game", lambda line: line.match.game),
    ("started", lambda line: _iso(line.match.created_at)),
    ("hand", lambda line: line.hand.number),
    ("dealer", lambda line: line.names[line.hand.dealer]),
    ("seat", lambda line: line.entry.seat),
    ("player", lambda line: line.names[line.entry.seat]),
    ("went_out", lambda line: "yes" if line.hand.out_seat == line.entry.seat else ""),
    ("cards", lambda line: line.entry.cards),
    ("points", lambda line: line.entry.points),
    ("total", lambda line: line.totals[line.entry.seat]),
    ("place", lambda line: "" if line.places is None else line.places[line.entry.seat]),
)


def to_csv(matches: Iterable[MatchRecord]) -> str:
    """One row per player per hand: cards held, points scored, total after the hand, and
    the player's place in the match once it is finished (empty before)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([name for name, _ in CSV_COLUMNS])
    for record in matches:
        match = record.match
        table = match_standings(match, record.hands)
        names = [_cell(seat.player.name) for seat in match.seats]
        ranked = _places(match, table)
        for hand, totals in zip(record.hands, table.progress, strict=True):
            for entry in hand.entries:
                line = CsvRow(match, hand, entry, names, tuple(totals), ranked)
                writer.writerow([cell(line) for _, cell in CSV_COLUMNS])
    return out.getvalue()
