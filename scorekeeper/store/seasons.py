"""A group's named seasons, and which stretch of days a leaderboard is asked for.

Adding, changing or deleting a season commits it together with its ratings, which
start fresh on its first day: the projection works them out
(:func:`scorekeeper.store.projection.reseason`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from sqlalchemy import delete
from sqlalchemy.exc import IntegrityError

from scorekeeper.core.errors import ConflictError, InputError
from scorekeeper.core.ratings import ALL, Period, periods
from scorekeeper.core.text import clean_name, name_key
from scorekeeper.store import projection
from scorekeeper.store.extensions import db
from scorekeeper.store.match_views import GroupView
from scorekeeper.store.models import MAX_ID, Season

__all__ = ["SeasonView", "add_season", "delete_season", "group_season", "group_seasons",
           "pick_period"]

LONGEST = 3660  # days: a season of ten years is a mistake, not a season


@dataclass(frozen=True)
class SeasonView:
    """A named season as its pages show it: its id, name and days."""

    id: int
    name: str
    first_day: date
    last_day: date


_COLUMNS = (Season.id, Season.name, Season.first_day, Season.last_day)


def group_seasons(group: GroupView) -> list[SeasonView]:
    """The group's named seasons, the latest first."""
    return [SeasonView(*row) for row in db.session.execute(
        db.select(*_COLUMNS).where(Season.group_id == group.id)
        .order_by(Season.first_day.desc(), Season.id.desc()))]


def group_season(group: GroupView, season_id: int) -> SeasonView | None:
    """A named season of the group, or None."""
    if not 0 < season_id <= MAX_ID:
        return None
    row = db.session.execute(db.select(*_COLUMNS).where(
        Season.id == season_id, Season.group_id == group.id)).first()
    return None if row is None else SeasonView(*row)


def _checked(group: GroupView, name: str, first: date, last: date) -> str:
    """The season's cleaned name, or :class:`InputError` naming the field at fault."""
    name = clean_name(name, "name")
    if last < first:
        raise InputError("The last day must be on or after the first day.", "last_day")
    if (last - first).days > LONGEST:
        raise InputError("Keep a season to ten years or less.", "last_day")
    taken = {name_key(s.name) for s in group_seasons(group)}
    if name_key(name) in taken:
        raise InputError(f"There is already a season called {name!r}.", "name")
    return name


def add_season(group: GroupView, name: str, first: date, last: date) -> SeasonView:
    """Define a season and rate its matches from its first day (committed); a refusal
    (:class:`InputError` naming the field) keeps nothing."""
    try:
        season = Season(group_id=group.id, name=_checked(group, name, first, last),
                        first_day=first, last_day=last)
        db.session.add(season)
        db.session.flush()
        projection.reseason(db.session.connection(), group.id)
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise ConflictError(f"A season called {name!r} was just added.", "name") from None
    except InputError:
        db.session.rollback()
        raise
    return SeasonView(season.id, season.name, season.first_day, season.last_day)


def delete_season(group: GroupView, season: SeasonView) -> None:
    """Delete a season and its ratings (committed); the matches stay."""
    db.session.execute(delete(Season).where(Season.id == season.id,
                                            Season.group_id == group.id))
    db.session.flush()
    projection.reseason(db.session.connection(), group.id)
    db.session.commit()


def pick_period(group: GroupView, value: str | None, today: date
                ) -> tuple[Period | None, tuple[Period, ...]]:
    """The period asked for by its value (``all``, ``year``, ``month`` or a named
    season's id; None or empty: all time), None when the group has no such period, and
    every choice a season picker offers."""
    choices = periods(today, [(s.id, s.name, s.first_day, s.last_day)
                              for s in group_seasons(group)])
    wanted = value or ALL
    return next((c for c in choices if c.value == wanted), None), choices
