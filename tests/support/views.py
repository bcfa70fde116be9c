"""A match's view when a test has only its id (the store's readers take a group too)."""

from __future__ import annotations

from scorekeeper.store.extensions import db
from scorekeeper.store.match_views import MatchView, written_match
from scorekeeper.store.models import Match


def match_view(match_id: int) -> MatchView:
    """The match's view as read in the session's transaction."""
    group_id = db.session.scalar(db.select(Match.group_id).where(Match.id == match_id))
    view = None if group_id is None else written_match(group_id, match_id)
    assert view is not None, f"no match {match_id}"
    return view
