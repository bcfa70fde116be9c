"""How a rating is shown and which chains of ratings a finished match counts in.

Pure: the model itself (openskill's Plackett–Luce) runs in
:mod:`scorekeeper.store.projection.rating_model`; this module holds the words and numbers around it.

A rating is shown as a friendly whole number from its conservative estimate
(μ − 3σ): a new player (μ 25, σ 25/3, estimate 0) is shown :data:`START`, each point
of the estimate is worth :data:`SCALE`, and nobody is shown below zero. A player is
*provisional* until :data:`PROVISIONAL` rated matches.

Ratings run in *scopes*, each its own chain starting fresh: all time, each calendar
year, each calendar month and each named season of the group. A match counts in every
scope its finishing day falls in.

>>> shown(25.0, 25 / 3), shown(30.0, 3.0), shown(-40.0, 8.0)
(1000, 1840, 0)
>>> scopes_of(date(2026, 12, 1), [(7, date(2026, 11, 1), date(2027, 1, 31))])
('all', 'y2026', 'm2026-12', 's7')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date

__all__ = ["ALL", "PROVISIONAL", "SCALE", "START", "Period", "arrow", "is_provisional",
           "month_scope", "periods", "scopes_of", "season_scope", "shown", "year_scope"]

START = 1000  # what a new player is shown
SCALE = 40  # shown points per point of μ − 3σ
PROVISIONAL = 5  # rated matches before a rating is no longer provisional
ALL = "all"


def shown(mu: float, sigma: float) -> int:
    """The rating as shown: ``START + SCALE × (μ − 3σ)``, rounded, never below zero."""
    return max(0, round(START + SCALE * (mu - 3 * sigma)))


def is_provisional(matches: int) -> bool:
    """Whether a rating from that many rated matches is still provisional."""
    return matches < PROVISIONAL


def arrow(change: int) -> str:
    """A change as the leaderboard shows it: ``▲ 12``, ``▼ 3`` or ``–`` (none).

    >>> arrow(12), arrow(-3), arrow(0)
    ('▲ 12', '▼ 3', '–')
    """
    if change > 0:
        return f"▲ {change:,}"
    if change < 0:
        return f"▼ {-change:,}"
    return "–"


def year_scope(day: date) -> str:
    """The scope of the calendar year of ``day``."""
    return f"y{day.year}"


def month_scope(day: date) -> str:
    """The scope of the calendar month of ``day``."""
    return f"m{day.year}-{day.month:02d}"


def season_scope(season_id: int) -> str:
    """The scope of a named season."""
    return f"s{season_id}"


def scopes_of(day: date, seasons: Iterable[tuple[int, date, date]]) -> tuple[str, ...]:
    """Every scope a match finished on ``day`` counts in; ``seasons`` are the group's
    named seasons as (id, first day, last day), both days included."""
    named = sorted(season_id for season_id, first, last in seasons if first <= day <= last)
    return (ALL, year_scope(day), month_scope(day), *map(season_scope, named))


@dataclass(frozen=True)
class Period:
    """A choice of the season picker: its value in a link, its label and its scope;
    ``first`` and ``last`` bound the days it covers (None: unbounded)."""

    value: str
    label: str
    scope: str
    first: date | None = None
    last: date | None = None


def periods(today: date, seasons: Sequence[tuple[int, str, date, date]]) -> tuple[Period, ...]:
    """The picker's choices: all time, this year, this month, then the named seasons
    (id, name, first day, last day), the latest first."""
    year_start = date(today.year, 1, 1)
    month_start = date(today.year, today.month, 1)
    month_end = (date(today.year + 1, 1, 1) if today.month == 12
                 else date(today.year, today.month + 1, 1))
    fixed = (Period(ALL, "All time", ALL),
             Period("year", f"This year ({today.year})", year_scope(today), year_start,
                    date(today.year, 12, 31)),
             Period("month", f"This month ({today:%B %Y})", month_scope(today), month_start,
                    date.fromordinal(month_end.toordinal() - 1)))
    named = sorted(seasons, key=lambda s: (s[2], s[0]), reverse=True)
    return fixed + tuple(Period(str(season_id), name, season_scope(season_id), first, last)
                         for season_id, name, first, last in named)
