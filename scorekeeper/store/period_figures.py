"""The player page's figures over one season: statements giving the rows that
:mod:`.statistics` reads from the stored totals, counted instead from the
``seat_figures`` rows of the matches that finished within the season's days (a match
counts on the UTC day it finished, as in the ratings' scopes,
:func:`scorekeeper.core.ratings.scopes_of`).

Three GROUP BY statements whatever the number of matches, as many as the stored totals
take: the sums and the best comeback per game, the falls per game and hand, and the
head-to-head per opponent. The sums are :data:`.player_totals.ADDED`'s and the best
comeback :func:`.player_totals.ranked_comebacks`'s, so a season's figures are the
all-time figures of a group that played only its matches.
"""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from typing import Any

from sqlalchemy import Integer, and_, cast, func, select
from sqlalchemy.orm import aliased

from scorekeeper.core.ratings import Period
from scorekeeper.store.models import Match, SeatFigureRow
from scorekeeper.store.projection.player_totals import ranked_comebacks, summed_in_sql

__all__ = ["falls", "per_game", "rivals"]

F = SeatFigureRow


def _finished_in(period: Period) -> tuple[Any, ...]:
    """The conditions on ``F`` joined with its match: finished within the period's
    days, both days included (compared as UTC instants, which both databases order
    alike: SQLite keeps the UTC digits, PostgreSQL the instant)."""
    assert period.first is not None and period.last is not None, "a bounded period"
    start = datetime.combine(period.first, time(), UTC)
    end = datetime.combine(period.last + timedelta(days=1), time(), UTC)
    return (F.finished, Match.finished_at >= start, Match.finished_at < end)


def _seats(player_id: int, period: Period) -> Any:
    """The player's seat rows in the period's finished matches (a select to add to)."""
    return (select().select_from(F).join(Match, Match.id == F.match_id)
            .where(F.player_id == player_id, *_finished_in(period)))


def per_game(player_id: int, period: Period, counted: tuple[str, ...],
             summed: tuple[str, ...]) -> Any:
    """The statement of (game, the totals ``counted``…, the best comeback's deficit, match and
    hand (None without a win), the totals ``summed``…), a row per game played in the
    period."""
    names = (*counted, *summed)
    sums = (_seats(player_id, period)
            .add_columns(F.game, *(value.label(name)
                                   for name, value in zip(names, summed_in_sql(names),
                                                          strict=True)))
            .group_by(F.game).subquery())
    best = ranked_comebacks(_seats(player_id, period))  # rank 1: the game's best
    return (select(sums.c.game, *(sums.c[name] for name in counted),
                        best.c.deficit, best.c.match_id, best.c.deficit_hand,
                        *(sums.c[name] for name in summed))
                 .outerjoin(best, and_(best.c.game == sums.c.game, best.c.rank == 1))
                 .order_by(sums.c.game))


def falls(player_id: int, period: Period) -> Any:
    """The statement of (game, hand, times) the player fell in that hand in the period."""
    return (_seats(player_id, period).where(F.fell.is_not(None))
                 .add_columns(F.game, F.fell, func.count())
                 .group_by(F.game, F.fell).order_by(F.game, F.fell))


def rivals(player_id: int, period: Period) -> Any:
    """The statement of (opponent, together, wins, their wins) over the period's matches, the
    most matches together first (as the stored head-to-head is read)."""
    them = aliased(SeatFigureRow)
    together = func.count()
    return (_seats(player_id, period)
                 .join(them, and_(them.match_id == F.match_id, them.seat != F.seat))
                 .add_columns(them.player_id, together,
                              func.sum(cast(F.won, Integer)), func.sum(cast(them.won, Integer)))
                 .group_by(them.player_id).order_by(together.desc(), them.player_id))
