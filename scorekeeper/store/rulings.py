"""Rulings: play-checker verdicts a member saved against a match (its record lists
them). Saved here, committed, for the page that judged them."""

from __future__ import annotations

from scorekeeper.store.extensions import db
from scorekeeper.store.match_views import MatchView
from scorekeeper.store.models import Ruling

__all__ = ["is_saved", "save_ruling"]


def is_saved(match: MatchView, request_json: str) -> bool:
    """Whether this very ruling (its question as ``request_json``) is already in the
    match's record for the coming hand."""
    return db.session.scalar(
        db.select(Ruling.id).where(Ruling.match_id == match.id,
                                   Ruling.hand_number == match.hand_count + 1,
                                   Ruling.request_json == request_json).limit(1)) is not None


def save_ruling(match: MatchView, question: str, legal: bool | None, reason: str, rule: str,
                request_json: str) -> None:
    """Save a verdict against the match's coming hand (committed)."""
    db.session.add(Ruling(match_id=match.id, hand_number=match.hand_count + 1,
                          question=question, legal=legal, reason=reason, rule=rule,
                          request_json=request_json))
    db.session.commit()
