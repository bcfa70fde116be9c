"""A player's ratings on their page: per game in the season asked for, the season's
counts (from the stored rating row) and the rating over time, drawn by the score
chart's geometry (:func:`scorekeeper.core.chart.score_chart`) with a table of the same
points as its text alternative.

The table's rows are written out here, each cell's text ready: the page holds up to
:data:`~scorekeeper.store.leaderboard.CHART_POINTS` rows per game, and a template
pays several times more than Python for each call it makes in a row (a link, a date,
a rating, its change), which made a long-played player's page twice a new one's."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, NamedTuple

from markupsafe import Markup

from scorekeeper.core.chart import Chart, Series, score_chart
from scorekeeper.core.ratings import START, Period, State, is_provisional
from scorekeeper.core.sheets import GAMES
from scorekeeper.store.leaderboard import (
    BEST_HAND,
    HAND_TITLES,
    WORST_HAND,
    History,
    RatingPoint,
    rating_history,
)
from scorekeeper.store.match_views import GroupView, PlayerView
from scorekeeper.store.seasons import pick_period
from scorekeeper.web.links import url_pattern
from scorekeeper.web.rating_marks import rating, rating_change


class PointRow(NamedTuple):
    """One row of a chart's table: the match record's link, the day it finished, the
    place taken, the rating after it and its change, as the cells show them."""

    href: str
    finished: str
    place: int
    rating: str
    change: Markup


@dataclass(frozen=True)
class RatingChart:
    """A game's chart, its points and the words that sum it up."""

    game: str
    chart: Chart
    rows: tuple[PointRow, ...]
    summary: str
    counts: str


def _summary(found: History) -> str:
    points, count = found.points, found.standing.matches
    last, best = points[-1], max(point.rating for point in points)
    words = (f"{rating(last.rating)} after {count} rated match{'' if count == 1 else 'es'} "
             f"(from {rating(START)}); highest {rating(best)}")
    if found.earlier:
        words += f" in the last {len(points)}"
    return words + (", provisional" if is_provisional(count) else "")


def _counts(game: str, figures: State) -> str:
    """The season's counts in words: wins, the longest streak, the best comeback and
    the best and worst hand where the game has them (the figures the leaderboard's
    records read, and define in :data:`~scorekeeper.store.leaderboard.HAND_TITLES`)."""
    words = [f"{figures.wins} won", f"longest winning streak {figures.best_streak}"]
    if figures.best_deficit:
        words.append(f"best comeback {figures.best_deficit}")
    hands = HAND_TITLES[GAMES[game].scoring]
    if figures.best_hand and BEST_HAND in hands:
        words.append(f"best hand {figures.best_hand}")
    if figures.worst_hand and WORST_HAND in hands:
        words.append(f"worst hand {figures.worst_hand}")
    return " · ".join(words)


def _chart(player: PlayerView, found: History) -> Chart:
    """The rating after each charted match, from the starting rating when the chart
    reaches back to the player's first match."""
    ratings = tuple(point.rating for point in found.points)
    start = () if found.earlier else (START,)
    return score_chart([Series(player.name, player.colour, (*start, *ratings))],
                       from_zero=False)


def _rows(group: GroupView, points: tuple[RatingPoint, ...]) -> tuple[PointRow, ...]:
    """The chart's points as its table's rows, each linking to its match's record."""
    link = url_pattern("history.record", "group_id", "match_id")
    return tuple(PointRow(link.format(group_id=group.id, match_id=point.match_id),
                          point.finished_at.strftime("%d %b %Y"), point.place,
                          rating(point.rating), rating_change(point.change))
                 for point in points)


def player_ratings(group: GroupView, player: PlayerView, season: str | None) -> dict[str, Any]:
    """What the player page shows of the player's ratings: the season picked (all time
    by default), the picker's choices and a chart per game they were rated in."""
    period, periods = pick_period(group, season, datetime.now(UTC).date())
    chosen: Period = period or periods[0]
    charts = [RatingChart(game, _chart(player, found), _rows(group, found.points), _summary(found),
                          _counts(game, found.standing))
              for game, found in sorted(rating_history(player, chosen.scope).items())]
    return {"rating_period": chosen, "rating_periods": periods, "rating_charts": charts}
