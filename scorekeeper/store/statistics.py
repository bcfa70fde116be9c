"""The player page's figures, read from the players' running totals
(:mod:`scorekeeper.store.projection.player_totals`): three statements of a few rows
each, whatever the number of matches the group played.

1. per game (a row each), matches finished, won and still being played; hands, points,
   times out, times caught holding an 8 or a joker; the best comeback (the largest
   deficit in a match the player won, the earliest match on a tie);
2. per game and hand, how often the player fell in that hand (Last One);
3. head to head: a row per opponent.

The totals are kept by the projection (:mod:`scorekeeper.store.projection`) with every
change to a match's seat figures; tests hold the figures equal to the reference
definitions replayed over every stored hand. A season other than all time has no
stored totals: the same rows are counted from its matches' seat figures
(:mod:`scorekeeper.store.period_figures`), and assembled here the same way.
"""

from __future__ import annotations

from typing import Any

from scorekeeper.core.ratings import Period
from scorekeeper.core.stats import Comeback, GameStats, HeadToHead, PlayerStats, best_comeback
from scorekeeper.store import period_figures
from scorekeeper.store.extensions import db
from scorekeeper.store.match_views import GroupView, PlayerView
from scorekeeper.store.models import PlayerFalls, PlayerRivals, PlayerTotals

__all__ = ["player_figures"]

T = PlayerTotals
COUNTED = ("played", "won", "unfinished")
SUMMED = ("hands", "points", "went_out", "caught_eight", "caught_joker")


def _rows(statement: Any) -> Any:
    """Plain rows straight from the connection: no ORM processing per row."""
    return db.session.connection().execute(statement).all()


def _per_game(player: PlayerView) -> Any:
    """Statement 1: the figures per game, the unfinished matches and the best comebacks."""
    return _rows(db.select(T.game, *(getattr(T, n) for n in COUNTED), T.best_deficit,
                           T.best_match_id, T.best_hand, *(getattr(T, n) for n in SUMMED))
                 .where(T.player_id == player.id, T.played + T.unfinished > 0)
                 .order_by(T.game))


def _games(rows: Any) -> tuple[dict[str, GameStats], int, list[Comeback]]:
    """The figures per game, the unfinished matches and the best comebacks, from rows
    of (game, played, won, unfinished, best deficit, its match and hand, sums…)."""
    games: dict[str, GameStats] = {}
    unfinished, best = 0, []
    for game, played, won, active, deficit, match_id, hand, *sums in rows:
        stats = GameStats(game, played=played, won=won)
        for name, value in zip(SUMMED, sums, strict=True):
            setattr(stats, name, value)
        if deficit is not None:
            stats.best_comeback = Comeback(deficit, match_id, hand)
            best.append(stats.best_comeback)
        games[game] = stats
        unfinished += active
    return games, unfinished, best


def _falls(player: PlayerView) -> Any:
    """Statement 2: the hands the player fell in, counted per game and hand."""
    F = PlayerFalls
    return _rows(db.select(F.game, F.hand, F.times)
                 .where(F.player_id == player.id, F.times > 0).order_by(F.game, F.hand))


def _add_falls(games: dict[str, GameStats], rows: Any) -> None:
    for game, hand, times in rows:
        games[game].falls.extend([hand] * times)


def _rivals(player: PlayerView) -> Any:
    """Statement 3: finished matches together and wins, per opponent."""
    R = PlayerRivals
    return _rows(db.select(R.opponent_id, R.together, R.wins, R.their_wins)
                 .where(R.player_id == player.id, R.together > 0)
                 .order_by(R.together.desc(), R.opponent_id))


def _total(games: list[GameStats], comebacks: list[Comeback]) -> GameStats:
    overall = GameStats("all")
    for part in games:
        for name in ("played", "won", *SUMMED):
            setattr(overall, name, getattr(overall, name) + getattr(part, name))
        overall.falls.extend(part.falls)
    overall.falls.sort()
    overall.best_comeback = best_comeback(comebacks)
    return overall


def player_figures(group: GroupView, player: PlayerView, period: Period | None = None
                   ) -> tuple[PlayerStats, list[HeadToHead]]:
    """The player's figures over the group's matches, and the head-to-head table: all
    time (None, or a period without bounds) from the stored totals, else over the
    matches that finished within the period's days.

    A player belongs to one group (the caller found them in it), so the player's
    rows are the group's."""
    if period is None or period.first is None:
        rows, fell, rivals = _per_game(player), _falls(player), _rivals(player)
    else:
        rows = _rows(period_figures.per_game(player.id, period, COUNTED, SUMMED))
        fell = _rows(period_figures.falls(player.id, period))
        rivals = _rows(period_figures.rivals(player.id, period))
    games, unfinished, comebacks = _games(rows)
    _add_falls(games, fell)
    overall = _total(list(games.values()), comebacks)
    result = PlayerStats(player.id, overall.played, overall.won, unfinished,
                         {**dict(sorted(games.items())), "all": overall})
    return result, [HeadToHead(*row) for row in rivals]
