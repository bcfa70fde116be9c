"""The player page's figures, counted in the database: six statements, however many
matches the group has played, each reaching the player's rows through ``Seat.player_id``.

1. per game, matches finished, won and still being played;
2. per game, hands, points, times went out and times caught holding an 8 or a joker
   (``LIKE`` on the canonical card text, ``"8S KH JK"``; who won is ``Seat.winner``);
3. per Last One match, the player's total and the last hand in which they scored:
   points only grow in Last One and a player out of the match scores nothing, so a
   player whose total reached the threshold (and who is not a winner) fell in exactly
   that hand and played no hand after it;
4. and 5. the matches the player won, then every seat's points hand by hand in them —
   only match, hand, who went out and points — replayed by :func:`stats.comeback`;
6. head to head, grouped by opponent.

The figures are the ones :func:`stats.player_stats` and :func:`stats.head_to_head`
compute from full :class:`stats.MatchRow` data (tests hold the two equal).
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from sqlalchemy import and_, case, func, or_
from sqlalchemy.orm import aliased

from scorekeeper.core.sheets import LO
from scorekeeper.core.stats import GameStats, HandRow, HeadToHead, MatchRow, PlayerStats, comeback
from scorekeeper.store.extensions import db
from scorekeeper.store.models import Group, Hand, HandEntry, Match, Player, Seat

__all__ = ["player_figures"]

ME = aliased(Seat, name="me")
THEM = aliased(Seat, name="them")
FINISHED = Match.status == "finished"


def _in_winners(seat: Any) -> Any:
    """SQL: the seat won its match (``Seat.winner``)."""
    return seat.winner.is_(True)


def _count(condition: Any) -> Any:
    return func.sum(case((condition, 1), else_=0))


def _holds(rank: str) -> Any:
    """SQL: the entry's cards include one starting with ``rank`` (``8``, ``JK``)."""
    return or_(HandEntry.cards.like(f"{rank}%"), HandEntry.cards.like(f"% {rank}%"))


def _mine(query: Any, group: Group, player: Player) -> Any:
    """Restrict a query over ``ME`` joined to ``Match`` to the player in the group."""
    return query.where(ME.player_id == player.id, Match.group_id == group.id)


def _rows(statement: Any) -> Any:
    """Plain rows straight from the connection: no ORM processing per row."""
    return db.session.connection().execute(statement).all()


@lru_cache(maxsize=256)
def _options(sheet_json: str) -> dict[str, Any]:
    return json.loads(sheet_json).get("options", {})


def _match_counts(group: Group, player: Player, games: dict[str, GameStats]) -> int:
    """Statement 1; returns the number of unfinished matches."""
    won = and_(FINISHED, _in_winners(ME))
    rows = _rows(_mine(
        db.select(Match.game, _count(FINISHED), _count(won), _count(~FINISHED))
        .select_from(ME).join(Match, Match.id == ME.match_id), group, player)
        .group_by(Match.game))
    unfinished = 0
    for game, played, wins, active in rows:
        games[game] = GameStats(game, played=played or 0, won=wins or 0)
        unfinished += active or 0
    return unfinished


def _hand_counts(group: Group, player: Player, games: dict[str, GameStats]) -> None:
    """Statement 2: every entry of the player's seat, counted per game."""
    went_out = Hand.out_seat == HandEntry.seat
    caught = or_(Hand.out_seat.is_(None), Hand.out_seat != HandEntry.seat)
    rows = _rows(_mine(
        db.select(Match.game, func.count(), func.sum(HandEntry.points), _count(went_out),
                  _count(and_(caught, _holds("8"))), _count(and_(caught, _holds("JK"))))
        .select_from(ME).join(Match, Match.id == ME.match_id)
        .join(Hand, Hand.match_id == ME.match_id)
        .join(HandEntry, and_(HandEntry.hand_id == Hand.id, HandEntry.seat == ME.position)),
        group, player).group_by(Match.game))
    for game, hands, points, out, eights, jokers in rows:
        stats = games[game]
        stats.hands, stats.points, stats.went_out = hands, points or 0, out or 0
        stats.caught_eight, stats.caught_joker = eights or 0, jokers or 0


def _falls(group: Group, player: Player, stats: GameStats) -> None:
    """Statement 3: Last One eliminations; hands after a fall were not played."""
    rows = _rows(_mine(
        db.select(Match.sheet_json, ME.winner, func.count(),
                  func.sum(HandEntry.points),
                  func.max(case((HandEntry.points > 0, Hand.number))))
        .select_from(ME).join(Match, Match.id == ME.match_id)
        .join(Hand, Hand.match_id == ME.match_id)
        .join(HandEntry, and_(HandEntry.hand_id == Hand.id, HandEntry.seat == ME.position)),
        group, player).where(Match.game == LO)
        .group_by(Match.id, ME.id).order_by(Match.id))
    for sheet_json, won, hands, total, last_scored in rows:
        threshold = _options(sheet_json).get("threshold")
        if threshold is None or total < threshold or won:
            continue
        stats.falls.append(last_scored)
        stats.hands -= hands - last_scored


def _won_matches(group: Group, player: Player) -> list[tuple[MatchRow, int]]:
    """Statements 4 and 5: the matches the player won (with the player's seat), then
    each seat's points per hand in them, in match, hand and seat order."""
    won = _mine(db.select(Match.id, Match.game, Match.sheet_json, ME.position)
                .select_from(ME).join(Match, Match.id == ME.match_id), group, player
                ).where(FINISHED, _in_winners(ME))
    heads = {row.id: row for row in _rows(won)}
    hands: dict[int, dict[int, tuple[int | None, list[int]]]] = {m: {} for m in heads}
    winners: dict[int, set[int]] = {m: set() for m in heads}
    for match_id, number, out, seat, points, winner in _rows(
            db.select(Hand.match_id, Hand.number, Hand.out_seat, HandEntry.seat,
                      HandEntry.points, Seat.winner)
            .join(HandEntry, HandEntry.hand_id == Hand.id)
            .join(Seat, and_(Seat.match_id == Hand.match_id, Seat.position == HandEntry.seat))
            .where(Hand.match_id.in_(won.with_only_columns(Match.id)))
            .order_by(Hand.match_id, Hand.number, HandEntry.seat)):
        hands[match_id].setdefault(number, (out, []))[1].append(points)
        if winner:
            winners[match_id].add(seat)
    return [(_won_row(heads[m], hands[m], tuple(sorted(winners[m]))), heads[m].position)
            for m in sorted(heads)]


def _won_row(head: Any, hands: dict[int, tuple[int | None, list[int]]],
             winners: tuple[int, ...]) -> MatchRow:
    options = _options(head.sheet_json)
    rows = tuple(HandRow(out, (), tuple(points)) for out, points in hands.values())
    seats = len(rows[0].points) if rows else 0
    return MatchRow(head.id, head.game, tuple(range(seats)), winners, True,
                    rows, start=options.get("start_count", 0),
                    threshold=options.get("threshold"))


def _comebacks(group: Group, player: Player, games: dict[str, GameStats],
               overall: GameStats) -> None:
    """The best comeback per game and overall: the largest deficit, the earliest match
    and hand on a tie (as :func:`stats.player_stats` finds it)."""
    for match, seat in _won_matches(group, player):
        best = comeback(match, seat)
        for stats in (games[match.game], overall):
            if stats.best_comeback is None or best.deficit > stats.best_comeback.deficit:
                stats.best_comeback = best


def _rivals(group: Group, player: Player) -> list[HeadToHead]:
    """Statement 6: finished matches together and wins, per opponent."""
    rows = _rows(_mine(
        db.select(THEM.player_id, func.count(), _count(_in_winners(ME)),
                  _count(_in_winners(THEM)))
        .select_from(ME).join(Match, Match.id == ME.match_id)
        .join(THEM, and_(THEM.match_id == ME.match_id, THEM.player_id != player.id)),
        group, player).where(FINISHED).group_by(THEM.player_id)
        .order_by(func.count().desc(), THEM.player_id))
    return [HeadToHead(other, together, wins or 0, theirs or 0)
            for other, together, wins, theirs in rows]


def _total(game: str, parts: list[GameStats]) -> GameStats:
    overall = GameStats(game)
    for part in parts:
        for name in ("played", "won", "hands", "went_out", "points", "caught_eight",
                     "caught_joker"):
            setattr(overall, name, getattr(overall, name) + getattr(part, name))
        overall.falls.extend(part.falls)
    return overall


def player_figures(group: Group, player: Player) -> tuple[PlayerStats, list[HeadToHead]]:
    """The player's figures over the group's matches, and the head-to-head table."""
    games: dict[str, GameStats] = {}
    result = PlayerStats(player.id, unfinished=_match_counts(group, player, games))
    _hand_counts(group, player, games)
    if LO in games:
        _falls(group, player, games[LO])
    overall = _total("all", list(games.values()))
    _comebacks(group, player, games, overall)
    result.played, result.won = overall.played, overall.won
    result.games = {**dict(sorted(games.items())), "all": overall}
    return result, _rivals(group, player)
