"""A group's derived states recomputed from its stored hands: what :mod:`.projection`
rebuilds and verifies the derived rows from.

Only the facts are read (sheets, seats, hands and the cards each seat held, the
players and the named seasons), in plain queries on the caller's connection, so in
its transaction: one consistent snapshot of the group. Points, dealers, standings and
figures all come from the core's replay, as they did when the hands were written.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from scorekeeper.core.cards import parse_cards
from scorekeeper.core.scoring import HandResult, standings
from scorekeeper.store.models import Hand, HandEntry, Match, Player, Season, Seat
from scorekeeper.store.projection.states import (
    GroupState,
    MatchState,
    replay_of,
    state_of,
    stored_sheet,
)

__all__ = ["group_state", "match_state", "running_text"]

M, S, P, H, E = (Match.__table__, Seat.__table__, Player.__table__, Hand.__table__,
                 HandEntry.__table__)


def _read(connection: Connection, group_id: int) -> tuple[Any, ...]:
    """The group's matches, seats, hands, entries, players and named seasons, each in
    one query."""
    matches = connection.execute(
        select(M.c.id, M.c.game, M.c.sheet_json, M.c.first_dealer, M.c.finished_at,
               M.c.created_at).where(M.c.group_id == group_id)
        .order_by(M.c.created_at, M.c.id)).all()
    seats = connection.execute(
        select(S.c.match_id, S.c.position, S.c.player_id, P.c.name)
        .join(P, P.c.id == S.c.player_id).join(M, M.c.id == S.c.match_id)
        .where(M.c.group_id == group_id).order_by(S.c.match_id, S.c.position)).all()
    hands = connection.execute(
        select(H.c.id, H.c.match_id, H.c.out_seat, H.c.hand_size)
        .join(M, M.c.id == H.c.match_id).where(M.c.group_id == group_id)
        .order_by(H.c.match_id, H.c.number)).all()
    entries = connection.execute(
        select(E.c.hand_id, E.c.seat, E.c.cards).join(H, H.c.id == E.c.hand_id)
        .join(M, M.c.id == H.c.match_id).where(M.c.group_id == group_id)).all()
    players = connection.scalars(select(P.c.id).where(P.c.group_id == group_id)
                                 .order_by(P.c.id)).all()
    seasons = connection.execute(select(Season.id, Season.first_day, Season.last_day)
                                 .where(Season.group_id == group_id).order_by(Season.id)).all()
    return matches, seats, hands, entries, players, seasons


def match_state(match: Any, seats: Sequence[Any], hands: Sequence[Any],
                cards: dict[int, dict[int, str]]) -> MatchState:
    """One match's state from its row, its seats (in order), its hands (in order) and
    each hand's cards by seat."""
    sheet, names = stored_sheet(match.sheet_json), [seat.name for seat in seats]
    texts = [tuple(cards[hand.id].get(seat, "") for seat in range(len(seats)))
             for hand in hands]
    results = [HandResult.of(hand.out_seat, [parse_cards(text) for text in held],
                             hand.hand_size) for hand, held in zip(hands, texts, strict=True)]
    table = standings(sheet, names, match.first_dealer, results)
    done = replay_of(match.game, match.sheet_json, table)
    return state_of(match.id, match.game, [seat.player_id for seat in seats], done,
                    match.finished_at, match.created_at)


def group_state(connection: Connection, group_id: int) -> GroupState:
    """Every match of the group as its stored hands determine it, oldest first."""
    matches, seats, hands, entries, players, seasons = _read(connection, group_id)
    seats_of, hands_of = defaultdict(list), defaultdict(list)
    for seat in seats:
        seats_of[seat.match_id].append(seat)
    for hand in hands:
        hands_of[hand.match_id].append(hand)
    cards: dict[int, dict[int, str]] = defaultdict(dict)
    for entry in entries:
        cards[entry.hand_id][entry.seat] = entry.cards
    return GroupState(group_id, tuple(
        match_state(match, seats_of[match.id], hands_of[match.id], cards)
        for match in matches), tuple(players), tuple(tuple(season) for season in seasons))


def running_text(connection: Connection, match_id: int) -> str:
    """The running state a match's stored hands give, as ``running_json`` holds it: for
    a row stored before the state was kept (the writer stores it with the next save)."""
    match = connection.execute(
        select(M.c.id, M.c.game, M.c.sheet_json, M.c.first_dealer, M.c.finished_at,
               M.c.created_at).where(M.c.id == match_id)).one()
    seats = connection.execute(
        select(S.c.match_id, S.c.position, S.c.player_id, P.c.name)
        .join(P, P.c.id == S.c.player_id).where(S.c.match_id == match_id)
        .order_by(S.c.position)).all()
    hands = connection.execute(
        select(H.c.id, H.c.match_id, H.c.out_seat, H.c.hand_size)
        .where(H.c.match_id == match_id).order_by(H.c.number)).all()
    cards: dict[int, dict[int, str]] = defaultdict(dict)
    for entry in connection.execute(select(E.c.hand_id, E.c.seat, E.c.cards)
                                    .join(H, H.c.id == E.c.hand_id)
                                    .where(H.c.match_id == match_id)):
        cards[entry.hand_id][entry.seat] = entry.cards
    return match_state(match, seats, hands, cards).running_json
