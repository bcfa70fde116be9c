"""Queries behind the history pages, each a fixed number of SQL statements, answering
the store's frozen views (:mod:`.match_views`).

- :func:`history_page`: one page of the list, keyset-paginated on ``(created_at, id)``
  (index ``ix_match_group_created``), each match with its seats and players: one
  statement (two after the first page) whatever the number of matches.
- :func:`record_match`: one match with seats, players, hands, entries and rulings.

The player page's figures are counted in SQL by :mod:`stats_data`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from flask import abort
from sqlalchemy import and_, or_

from scorekeeper.core.sheets import GAMES
from scorekeeper.store.extensions import db
from scorekeeper.store.groups import in_range
from scorekeeper.store.match_views import (
    GroupView,
    MatchRecord,
    MatchView,
    listed_matches,
    match_records,
)
from scorekeeper.store.models import Match, Seat

PAGE_SIZE = 25
STATUSES = ("active", "finished")


def _id(text: str | None) -> int | None:
    if text is None or not text.isdigit() or len(text) > 10:
        return None
    value = int(text)
    return value if in_range(value) else None


@dataclass(frozen=True)
class HistoryFilter:
    """What the list shows: game, player, status, and the keyset cursor ``before`` (the
    id of the last match on the previous page). Unknown values mean "any"."""

    game: str | None = None
    player: int | None = None
    status: str | None = None
    before: int | None = None

    @classmethod
    def from_args(cls, args: Mapping[str, str], player_ids: set[int]) -> HistoryFilter:
        """Read the query string, dropping anything that is not a valid choice."""
        game, status = args.get("game"), args.get("status")
        player = _id(args.get("player"))
        return cls(game if game in GAMES else None,
                   player if player in player_ids else None,
                   status if status in STATUSES else None, _id(args.get("before")))

    def args(self, **change: Any) -> dict[str, Any]:
        """Query-string arguments for a link, with some values changed."""
        values = replace(self, **change).__dict__
        return {k: v for k, v in values.items() if v is not None}


@dataclass(frozen=True)
class HistoryPage:
    """A page of matches and the cursor for the next (None on the last page)."""

    matches: tuple[MatchView, ...]
    next_before: int | None


def history_page(group: GroupView, wanted: HistoryFilter, size: int = PAGE_SIZE) -> HistoryPage:
    """One page of the group's matches, newest first."""
    where = [Match.group_id == group.id]
    if wanted.game:
        where.append(Match.game == wanted.game)
    if wanted.status:
        where.append(Match.status == wanted.status)
    if wanted.player:
        where.append(Match.id.in_(db.select(Seat.match_id)
                                  .where(Seat.player_id == wanted.player)))
    if wanted.before:
        cursor = db.session.execute(db.select(Match.created_at, Match.id).where(
            Match.id == wanted.before, Match.group_id == group.id)).first()
        if cursor is not None:
            # The first condition alone is what lets the index seek past earlier pages.
            where += [Match.created_at <= cursor.created_at,
                      or_(Match.created_at < cursor.created_at,
                          and_(Match.created_at == cursor.created_at, Match.id < cursor.id))]
    matches = listed_matches(and_(*where), newest_first=True, limit=size + 1)
    more = len(matches) > size
    return HistoryPage(tuple(matches[:size]), matches[size - 1].id if more else None)


def record_match(group: GroupView, match_id: int) -> MatchRecord:
    """A match of the group with everything its record shows, else 404."""
    found = match_records(group.id, match_id) if in_range(match_id) else []
    if not found:
        abort(404, "No such match in this group.")
    return found[0]
