"""The player page's figures, added up in the database from ``seat_figures``: four
statements, each reading one row per match the player sat at, never a hand.

1. per game, matches finished, won and still being played; hands, points, times out,
   times caught holding an 8 or a joker;
2. per game, how often the player fell in each hand (Last One);
3. per game, the best comeback: the largest deficit in a match the player won, the
   earliest match on a tie (its row holds the first hand at that deficit);
4. head to head: the player's rows joined to the other seats of the same matches.

The rows are kept by the records with every change to a match's hands
(:mod:`scorekeeper.store.figures`); tests hold the figures equal to the reference
definitions replayed over every stored hand.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import and_, case, func
from sqlalchemy.orm import aliased

from scorekeeper.core.stats import Comeback, GameStats, HeadToHead, PlayerStats
from scorekeeper.store.extensions import db
from scorekeeper.store.models import Group, Player, SeatFigures

__all__ = ["player_figures"]

F = SeatFigures
ME = aliased(SeatFigures, name="me")
THEM = aliased(SeatFigures, name="them")
SUMMED = ("hands", "points", "went_out", "caught_eight", "caught_joker")


def _count(condition: Any) -> Any:
    return func.sum(case((condition, 1), else_=0))


def _rows(statement: Any) -> Any:
    """Plain rows straight from the connection: no ORM processing per row."""
    return db.session.connection().execute(statement).all()


def _per_game(player: Player) -> tuple[dict[str, GameStats], int]:
    """Statement 1: the summed figures per game, and the number of unfinished matches."""
    rows = _rows(db.select(F.game, _count(F.finished), _count(F.won), _count(~F.finished),
                           *(func.sum(getattr(F, name)) for name in SUMMED))
                 .where(F.player_id == player.id).group_by(F.game))
    games: dict[str, GameStats] = {}
    unfinished = 0
    for game, played, won, active, *sums in rows:
        stats = GameStats(game, played=played or 0, won=won or 0)
        for name, value in zip(SUMMED, sums, strict=True):
            setattr(stats, name, value or 0)
        games[game] = stats
        unfinished += active or 0
    return games, unfinished


def _falls(player: Player, games: dict[str, GameStats]) -> None:
    """Statement 2: the hands the player fell in, counted per game and hand."""
    rows = _rows(db.select(F.game, F.fell, func.count())
                 .where(F.player_id == player.id, F.fell.is_not(None))
                 .group_by(F.game, F.fell).order_by(F.game, F.fell))
    for game, hand, times in rows:
        games[game].falls.extend([hand] * times)


def _comebacks(player: Player, games: dict[str, GameStats]) -> list[Comeback]:
    """Statement 3: per game, the won match with the largest deficit (earliest on a tie)."""
    ranked = (db.select(F.game, F.match_id, F.deficit, F.deficit_hand,
                        func.row_number().over(partition_by=F.game,
                                               order_by=(F.deficit.desc(), F.match_id))
                        .label("rank"))
              .where(F.player_id == player.id, F.won).subquery())
    best = []
    for game, match_id, deficit, hand in _rows(
            db.select(ranked.c.game, ranked.c.match_id, ranked.c.deficit,
                      ranked.c.deficit_hand).where(ranked.c.rank == 1)):
        comeback = Comeback(deficit, match_id, hand)
        games[game].best_comeback = comeback
        best.append(comeback)
    return best


def _rivals(player: Player) -> list[HeadToHead]:
    """Statement 4: finished matches together and wins, per opponent."""
    rows = _rows(
        db.select(THEM.player_id, func.count(), _count(ME.won), _count(THEM.won))
        .select_from(ME)
        .join(THEM, and_(THEM.match_id == ME.match_id, THEM.player_id != player.id))
        .where(ME.player_id == player.id, ME.finished).group_by(THEM.player_id)
        .order_by(func.count().desc(), THEM.player_id))
    return [HeadToHead(other, together, wins or 0, theirs or 0)
            for other, together, wins, theirs in rows]


def _total(games: list[GameStats], comebacks: list[Comeback]) -> GameStats:
    overall = GameStats("all")
    for part in games:
        for name in ("played", "won", *SUMMED):
            setattr(overall, name, getattr(overall, name) + getattr(part, name))
        overall.falls.extend(part.falls)
    overall.falls.sort()
    if comebacks:
        overall.best_comeback = min(comebacks, key=lambda c: (-c.deficit, c.match_id))
    return overall


def player_figures(group: Group, player: Player) -> tuple[PlayerStats, list[HeadToHead]]:
    """The player's figures over the group's matches, and the head-to-head table.

    A player belongs to one group (the caller found them in it), so the player's
    rows are the group's."""
    games, unfinished = _per_game(player)
    _falls(player, games)
    overall = _total(list(games.values()), _comebacks(player, games))
    result = PlayerStats(player.id, overall.played, overall.won, unfinished,
                         {**dict(sorted(games.items())), "all": overall})
    return result, _rivals(player)
