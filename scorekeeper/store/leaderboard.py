"""What the leaderboard, the player page and a finished match's board read of the
stored ratings (:mod:`scorekeeper.store.projection.rating_chains` keeps them): one statement each,
whatever the number of matches the group played.

The records come from the same rows: the most wins, the longest winning streak, the
biggest comeback (the seat figures' ``deficit`` of a won match: the player page's
"best comeback"), and the best and the worst hand of each game as
:mod:`scorekeeper.core.hand_records` defines them (:data:`HAND_TITLES` says it in the
page's words). Countdown has no worst hand, and its board says why (:func:`no_records`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, fields
from datetime import datetime
from typing import NamedTuple

from sqlalchemy import and_, union_all

from scorekeeper.core.hand_records import BEST_HAND, HAND_RECORDS, NO_WORST, WORST_HAND
from scorekeeper.core.ratings import ALL, State, board_places, is_provisional
from scorekeeper.core.sheets import GAMES
from scorekeeper.core.stats import record_rank
from scorekeeper.store.extensions import db
from scorekeeper.store.match_views import GroupView, PlayerView
from scorekeeper.store.models import Match, Player, Rating, RatingStep

__all__ = [
    "BEST_HAND",
    "HAND_TITLES",
    "RECORD_KINDS",
    "UNITS",
    "WORST_HAND",
    "History",
    "Leaderboard",
    "LeaderboardRow",
    "NoRecord",
    "RatingPoint",
    "Record",
    "game_leaderboard",
    "last_game",
    "match_ratings",
    "no_records",
    "rating_history",
]


@dataclass(frozen=True)
class LeaderboardRow:
    """One player on the leaderboard."""

    place: int
    player_id: int
    name: str
    colour: str
    rating: int
    change: int
    matches: int
    wins: int

    @property
    def provisional(self) -> bool:
        """Fewer than the rated matches a settled rating needs."""
        return is_provisional(self.matches)


@dataclass(frozen=True)
class Record:
    """A record of the group: which one (``kind``) and its title in the page's words,
    who holds it, the figure and its match, and what the figure counts (one, many)."""

    kind: str
    title: str
    player_id: int
    name: str
    value: int
    match_id: int | None  # None: a record over many matches (the most wins)
    unit: tuple[str, str] = ("", "")

    @property
    def said(self) -> str:
        """The figure with its unit: "30 points behind", "1 win in a row"."""
        return f"{self.value:,} {self.unit[0] if self.value == 1 else self.unit[1]}".strip()


@dataclass(frozen=True)
class NoRecord:
    """A record a game cannot have, and why, in the page's words."""

    kind: str
    title: str
    reason: str


@dataclass(frozen=True)
class Leaderboard:
    """A game's leaderboard in one scope, its records, and the records its game cannot
    have (said, rather than left out)."""

    rows: tuple[LeaderboardRow, ...]
    records: tuple[Record, ...]
    no_records: tuple[NoRecord, ...] = ()


R = Rating
_ROW = (R.player_id, Player.name, Player.colour, R.shown, R.change, R.matches, R.wins,
        R.best_streak, R.best_streak_match_id, R.best_deficit, R.best_deficit_match_id,
        R.best_hand, R.best_hand_match_id, R.worst_hand, R.worst_hand_match_id)
# The hand records of each kind of scoring (a game's Game.scoring) by their titles
# (scorekeeper.core.hand_records defines them); a kind without one says why (NO_WORST).
HAND_TITLES: dict[str, dict[str, str]] = {
    scoring: {kind: found.title for kind, found in kept.items()}
    for scoring, kept in HAND_RECORDS.items()}
# What each record's figure counts, in the page's words (one, many): wins and streaks
# count matches; a comeback the deficit the stats define (scorekeeper.core.stats:
# points behind the leader, or in Countdown counts); the hands what
# scorekeeper.core.hand_records counts.
_PER_GAME = {"most-wins": ("win", "wins"), "longest-streak": ("win in a row", "wins in a row")}
_BEHIND = {"out": ("point behind", "points behind"), "own": ("point behind", "points behind"),
           "count": ("count behind", "counts behind")}
UNITS: dict[str, dict[str, tuple[str, str]]] = {
    scoring: {**_PER_GAME, "biggest-comeback": _BEHIND[scoring],
              **{kind: found.unit for kind, found in kept.items()}}
    for scoring, kept in HAND_RECORDS.items()}
# The records every game keeps: kind, title, and the row's figure and match columns.
_RECORDS = (("most-wins", "Most wins", 6, None),
            ("longest-streak", "Longest winning streak", 7, 8),
            ("biggest-comeback", "Biggest comeback", 9, 10),
            (BEST_HAND, "", 11, 12), (WORST_HAND, "", 13, 14))
RECORD_KINDS = tuple(kind for kind, *_ in _RECORDS)


def _best(rows: Sequence[tuple], value: int, match: int | None) -> tuple | None:
    """The row holding the record whose figure is at ``value`` and its match at
    ``match`` (None: a record over many matches), ranked by :func:`record_rank`."""
    held = [row for row in rows if row[value]]
    return min(held, key=lambda row: record_rank(row[value], 0 if match is None else row[match]),
               default=None)


def _records(game: str, rows: Sequence[tuple]) -> tuple[Record, ...]:
    found = []
    scoring = GAMES[game].scoring
    hands = HAND_TITLES[scoring]
    for kind, title, value, match in _RECORDS:
        title = title or hands.get(kind, "")
        if not title:
            continue  # a hand record this game cannot have: see no_records
        best = _best(rows, value, match)
        if best is not None:
            found.append(Record(kind, title, best[0], best[1], best[value],
                                None if match is None else best[match], UNITS[scoring][kind]))
    return tuple(found)


def no_records(game: str) -> tuple[NoRecord, ...]:
    """The hand records a game cannot have, each with the reason."""
    reason = NO_WORST.get(GAMES[game].scoring)
    return (NoRecord(WORST_HAND, "Worst hand", reason),) if reason else ()


def game_leaderboard(group: GroupView, game: str, scope: str = ALL) -> Leaderboard:
    """The game's leaderboard in a scope, sorted by the shown rating (one statement)."""
    rows = db.session.execute(
        db.select(*_ROW).join(Player, Player.id == R.player_id)
        .where(R.group_id == group.id, R.game == game, R.scope == scope)
        .order_by(R.shown.desc(), R.wins.desc(), Player.name)).all()
    places = board_places([row[3] for row in rows])
    return Leaderboard(tuple(LeaderboardRow(place, *row[:7])
                             for place, row in zip(places, rows, strict=True)),
                       _records(game, rows), no_records(game))


class RatingPoint(NamedTuple):
    """A player's shown rating after one of their finished matches (a named tuple: a
    player page builds ninety, at a fraction of a frozen dataclass's cost each)."""

    match_id: int
    finished_at: datetime
    rating: int
    change: int
    place: int


@dataclass(frozen=True)
class History:
    """A player's ratings in one game and scope: the rating after each of their last
    :data:`CHART_POINTS` matches, oldest first (``earlier`` says whether older ones
    exist), and their stored standing after the last (the counts behind the records)."""

    points: tuple[RatingPoint, ...]
    standing: State
    earlier: bool = False


# How many of a player's latest rated matches their page charts and lists: enough to
# show a form, and the page stays the same size however many matches they played. On a
# 320 px phone the plot is about 270 px wide, so 30 leave some 9 px between neighbours
# (each rise and fall can be told apart), and the page's tables hold 30 rows a game.
CHART_POINTS = 30


def rating_history(player: PlayerView, scope: str = ALL) -> dict[str, History]:
    """The player's stored rating rows in a scope, per game, with the ratings after
    their last :data:`CHART_POINTS` matches: one statement, each game's part read
    newest first along the player's index, so it costs the same however many matches
    they played. A rating row is joined to the player's newest point alone (its last
    match): joined to every point, its fifteen columns came back with each of them."""
    S, R = RatingStep, Rating
    parts = [db.select(S.game, S.match_id, S.finished_at, S.shown, S.change, S.place)
             .where(S.player_id == player.id, S.game == game, S.scope == scope)
             .order_by(S.finished_at.desc(), S.match_id.desc()).limit(CHART_POINTS)
             .subquery() for game in GAMES]
    latest = union_all(*(db.select(part) for part in parts)).subquery()
    rows = db.session.execute(
        db.select(latest, *_STANDING)
        .outerjoin(R, and_(R.player_id == player.id, R.game == latest.c.game,
                           R.scope == scope, R.last_match_id == latest.c.match_id))
        .order_by(latest.c.game, latest.c.finished_at, latest.c.match_id)).all()
    points: dict[str, list[RatingPoint]] = defaultdict(list)
    standings: dict[str, State] = {}
    for row in rows:
        points[row[0]].append(RatingPoint._make(row[1:6]))
        if row[6] is not None:  # the rating row's μ: on the newest point only
            standings[row[0]] = State(*row[6:])
    return {game: History(tuple(points[game]), state, state.matches > len(points[game]))
            for game, state in sorted(standings.items())}


# A stored rating row's columns in the order of the ratings' own :class:`State`.
_STANDING = tuple(getattr(Rating, f.name) for f in fields(State))


def last_game(group: GroupView) -> str | None:
    """The game of the group's most recently finished match (None before any): what
    the leaderboard shows when no game is asked for."""
    return db.session.scalar(db.select(Match.game).where(
        Match.group_id == group.id, Match.status == "finished")
        .order_by(Match.finished_at.desc(), Match.id.desc()).limit(1))


def match_ratings(match_id: int) -> dict[int, tuple[int, int, int]]:
    """A finished match's seats' all-time ratings after it: seat → (rating, change,
    place); empty for a match not (or no longer) finished."""
    S = RatingStep
    rows = db.session.execute(db.select(S.seat, S.shown, S.change, S.place)
                              .where(S.match_id == match_id, S.scope == ALL)).all()
    return {seat: (rating, change, place) for seat, rating, change, place in rows}
