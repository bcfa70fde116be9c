"""Cheap live updates for the scoreboard: a tiny endpoint keyed on the match version.

The page script asks every few seconds with ``If-None-Match`` (the match found as the
scoreboard finds it, one plain query); while nothing changed
the answer is a bodiless 304 (the match row's version is the ETag), otherwise a few
hundred bytes saying what changed, and only then does the page fetch the new board.
"""

from __future__ import annotations

from datetime import UTC, datetime

from flask import Blueprint, Response, jsonify, request

from scorekeeper.store.boards import MatchView
from scorekeeper.web import access

bp = Blueprint("live", __name__)


@bp.app_context_processor
def _rendered_at() -> dict[str, str]:
    """When the page was made, so a copy shown offline can say how old it is."""
    return {"rendered_at": datetime.now(UTC).isoformat(timespec="seconds")}


def _answer(match: MatchView) -> Response:
    """304 when the client holds the current version, else the match's live summary."""
    etag = f"m{match.id}v{match.version}"
    if request.if_none_match.contains(etag):
        response = Response(status=304)
    else:
        response = jsonify(version=match.version, hands=match.hand_count,
                           next_hand=None if match.status == "finished" else match.hand_count + 1,
                           status=match.status)
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache, private"
    return response


@bp.get("/groups/<int:group_id>/matches/<int:match_id>/live")
def member(group_id: int, match_id: int) -> Response:
    """The match's version for a member's scoreboard."""
    return _answer(access.member_board(group_id, match_id)[1])


@bp.get("/view/<token>/live")
def spectator(token: str) -> Response:
    """The match's version for the spectators' view link."""
    return _answer(access.watched_board(token))
