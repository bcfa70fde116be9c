"""What pages and the API ask of a match, read from its view and its stored rows.

The writer (:mod:`.records`) only writes; everything that shows a match reads it here,
and so does the writer before it writes: its sheet and names, its standings (after the
last hand from the stored running state, or with every hand's history by replaying
them), its hands as scoring input. Each answer is remembered by the stored
text it came from, never on the objects, so a page, the API's check and the write of
one request share the work.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import cast

from sqlalchemy import Select, Table, bindparam, select

from scorekeeper.core.cards import Card, parse_cards
from scorekeeper.core.scoring import HandResult, Standings, standings, standings_at
from scorekeeper.core.sheets import Sheet
from scorekeeper.store.extensions import db
from scorekeeper.store.match_views import HandView, MatchView
from scorekeeper.store.models import Hand, HandEntry
from scorekeeper.store.projection import running_state
from scorekeeper.store.projection.states import stored_sheet

__all__ = ["current_standings", "hand_results", "match_names", "match_sheet",
           "match_standings", "running_state_of", "stored_results"]


def match_sheet(match: MatchView) -> Sheet:
    """The frozen rule sheet a match is played under."""
    return stored_sheet(match.sheet_json)


def match_names(match: MatchView) -> list[str]:
    """Player names in seat order."""
    return [seat.player.name for seat in match.seats]


def _facts(match: MatchView, hands: Sequence[HandView]) -> tuple:
    """Everything a full replay depends on, as plain values (the replay's cache key)."""
    return (match.sheet_json, match.first_dealer, tuple(match_names(match)), len(match.seats),
            tuple((h.out_seat, h.hand_size, tuple((e.seat, e.cards) for e in h.entries))
                  for h in hands))


@lru_cache(maxsize=64)
def _replay(facts: tuple) -> tuple[tuple[HandResult, ...], Standings]:
    """The hands as scoring input and their standings, once per set of facts."""
    sheet_json, first_dealer, names, seats, hands = facts
    results = []
    for out, size, entries in hands:
        held: list[list[Card]] = [[] for _ in range(seats)]
        for seat, cards in entries:
            held[seat] = parse_cards(cards)
        results.append(HandResult.of(out, held, size))
    return tuple(results), standings(stored_sheet(sheet_json), names, first_dealer, results)


def hand_results(match: MatchView, hands: Sequence[HandView]) -> list[HandResult]:
    """The match's stored ``hands`` (all of them, in order) as scoring input."""
    return list(_replay(_facts(match, hands))[0])


@lru_cache(maxsize=1)
def _held_statement() -> Select:
    """The hands of given numbers of a match with their seats' cards, built once (building
    it per save cost about as much as running it: 0.25 ms of the save's 2 ms)."""
    h, e = cast(Table, Hand.__table__), cast(Table, HandEntry.__table__)
    return (select(h.c.number, h.c.out_seat, e.c.seat, e.c.cards)
            .outerjoin(e, e.c.hand_id == h.c.id)
            .where(h.c.match_id == bindparam("match"),
                   h.c.number.in_(bindparam("numbers", expanding=True))))


def stored_results(match: MatchView, numbers: Sequence[int]) -> list[tuple[int, HandResult]]:
    """The match's hands of these numbers as stored now, as scoring input (who went out
    and the cards held), each with its number, in the order asked; a number twice is
    answered once, one not stored not at all. One statement, none when no number is
    asked: what the writer compares a new hand with (:mod:`scorekeeper.core.same_hand`)."""
    wanted = [n for n in dict.fromkeys(numbers) if n >= 1]
    if not wanted:
        return []
    held: dict[int, list[list[Card]]] = {}
    outs: dict[int, int | None] = {}
    rows = db.session.connection().execute(_held_statement(),
                                           {"match": match.id, "numbers": wanted})
    for number, out, seat, cards in rows:
        outs[number] = out
        seats = held.setdefault(number, [[] for _ in match.seats])
        if seat is not None:
            seats[seat] = parse_cards(cards)
    return [(n, HandResult.of(outs[n], held[n])) for n in wanted if n in outs]


def match_standings(match: MatchView, hands: Sequence[HandView]) -> Standings:
    """Standings derived from the match's stored ``hands`` (every hand replayed)."""
    return _replay(_facts(match, hands))[1]


@lru_cache(maxsize=256)
def _parsed(text: str) -> running_state.Running:
    return running_state.from_text(text)


def running_state_of(match: MatchView) -> running_state.Running:
    """The match's stored running state (a view of a row from before the state was
    kept has it worked out from the hands: see :mod:`.match_views`)."""
    return _parsed(match.running_json)


@lru_cache(maxsize=256)
def _standings_at(sheet_json: str, names: tuple[str, ...], text: str) -> Standings:
    return standings_at(stored_sheet(sheet_json), names, _parsed(text).position)


def current_standings(match: MatchView) -> Standings:
    """The standings after the last hand, from the stored running state: no hand is
    read. They carry no per-hand history (``progress``, ``hands`` and ``dealers`` are
    empty); :func:`match_standings` replays every hand for pages that show them."""
    return _standings_at(match.sheet_json, tuple(match_names(match)), match.running_json)
