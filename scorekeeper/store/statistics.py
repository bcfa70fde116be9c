"""The player page's figures, read from the players' running totals
(:mod:`scorekeeper.store.totals`): three statements of a few rows each, whatever the
number of matches the group played.

1. per game (a row each), matches finished, won and still being played; hands, points,
   times out, times caught holding an 8 or a joker; the best comeback (the largest
   deficit in a match the player won, the earliest match on a tie);
2. per game and hand, how often the player fell in that hand (Last One);
3. head to head: a row per opponent.

The totals are kept by the projection (:mod:`scorekeeper.store.projection`) with every
change to a match's seat figures; tests hold the figures equal to the reference
definitions replayed over every stored hand.
"""

from __future__ import annotations

from typing import Any

from scorekeeper.core.stats import Comeback, GameStats, HeadToHead, PlayerStats
from scorekeeper.store.extensions import db
from scorekeeper.store.models import Group, Player, PlayerFalls, PlayerRivals, PlayerTotals

__all__ = ["player_figures"]

T = PlayerTotals
SUMMED = ("hands", "points", "went_out", "caught_eight", "caught_joker")


def _rows(statement: Any) -> Any:
    """Plain rows straight from the connection: no ORM processing per row."""
    return db.session.connection().execute(statement).all()


def _per_game(player: Player) -> tuple[dict[str, GameStats], int, list[Comeback]]:
    """Statement 1: the figures per game, the unfinished matches and the best comebacks."""
    rows = _rows(db.select(T.game, T.played, T.won, T.unfinished, T.best_deficit,
                           T.best_match_id, T.best_hand, *(getattr(T, n) for n in SUMMED))
                 .where(T.player_id == player.id, T.played + T.unfinished > 0)
                 .order_by(T.game))
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


def _falls(player: Player, games: dict[str, GameStats]) -> None:
    """Statement 2: the hands the player fell in, counted per game and hand."""
    F = PlayerFalls
    rows = _rows(db.select(F.game, F.hand, F.times)
                 .where(F.player_id == player.id, F.times > 0).order_by(F.game, F.hand))
    for game, hand, times in rows:
        games[game].falls.extend([hand] * times)


def _rivals(player: Player) -> list[HeadToHead]:
    """Statement 3: finished matches together and wins, per opponent."""
    R = PlayerRivals
    rows = _rows(db.select(R.opponent_id, R.together, R.wins, R.their_wins)
                 .where(R.player_id == player.id, R.together > 0)
                 .order_by(R.together.desc(), R.opponent_id))
    return [HeadToHead(*row) for row in rows]


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
    games, unfinished, comebacks = _per_game(player)
    _falls(player, games)
    overall = _total(list(games.values()), comebacks)
    result = PlayerStats(player.id, overall.played, overall.won, unfinished,
                         {**dict(sorted(games.items())), "all": overall})
    return result, _rivals(player)
