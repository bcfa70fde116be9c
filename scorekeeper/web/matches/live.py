"""Cheap live updates for the scoreboard: a tiny endpoint keyed on the match version.

The page script asks every few seconds with ``If-None-Match`` (the match found as the
scoreboard finds it, one plain query); while nothing changed
the answer is a bodiless 304 (the match row's version is the ETag), otherwise a few
hundred bytes saying what changed and, to a client that said which older version it
holds, the board as it is now: rendered by the same partials as the page
(``matches/_board.html``; on a member's phone with the parts that name a hand,
``matches/live_board.html``), for the page to swap in. Never the whole page, and never
a second request: the page's first poll carries the ETag of the board it shows
(``data-live-etag``), so an unchanged board is a 304 from the start.

After a hand every spectator of the match asks at once for the same board; a view
link's board is rendered once per process for what it is rendered from (see
:class:`Boards`) and sent as it is to the others.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from datetime import UTC, datetime

from flask import Blueprint, Response, current_app, jsonify, render_template, request

from scorekeeper.store.boards import MatchView
from scorekeeper.web import access
from scorekeeper.web.scoreboard import board

bp = Blueprint("live", __name__)


@bp.app_context_processor
def _live_hooks() -> dict[str, object]:
    """When the page was made, so a copy shown offline can say how old it is; and the
    ETag of a match as the page shows it, so the page's first poll is already a 304."""
    return {"rendered_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "live_etag": live_etag}


def live_etag(match: MatchView) -> str:
    """The live poll's ETag for the match as it is now (unquoted)."""
    return f"m{match.id}v{match.version}"


def _answer(match: MatchView, board_html: Callable[[], str]) -> Response:
    """304 when the client holds the current version, else the match's live summary;
    with the board (``board_html()``) when the client said which older version it has."""
    etag = live_etag(match)
    if request.if_none_match.contains(etag):
        response = Response(status=304)
    else:
        summary: dict[str, object] = {
            "version": match.version, "hands": match.hand_count,
            "next_hand": None if match.status == "finished" else match.hand_count + 1,
            "status": match.status}
        if request.if_none_match:
            summary["board"] = board_html()
        response = jsonify(summary)
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache, private"
    return response


@bp.get("/groups/<int:group_id>/matches/<int:match_id>/live")
def member(group_id: int, match_id: int) -> Response:
    """The match's version for a member's scoreboard and hand form; the board comes
    with the parts that name a hand (``matches/live_board.html``)."""
    group, match = access.member_board(group_id, match_id)
    return _answer(match, lambda: render_template(
        "matches/live_board.html", group=group, readonly=False, **board(match)))


@bp.get("/view/<token>/live")
def spectator(token: str) -> Response:
    """The match's version for the spectators' view link; the board from
    :class:`Boards`."""
    match = access.watched_board(token)
    boards: Boards = current_app.extensions.setdefault("scorekeeper.spectator_boards", Boards())
    key = (request.script_root, match.id, match.view_token, match.version, match.status,
           tuple((seat.position, seat.winner, seat.player.id, seat.player.name,
                  seat.player.colour) for seat in match.seats))
    return _answer(match, lambda: boards.get(key, lambda: render_template(
        "matches/_board.html", group=match.group, readonly=True, **board(match))))


class Boards:
    """Spectators' boards as rendered, by everything they are rendered from: the match
    (its version moves on with every hand, edit and finish), its view token and its
    seats' players as read with it. The least recently asked go past :attr:`SIZE`."""

    SIZE = 256

    def __init__(self) -> None:
        self._kept: OrderedDict[Hashable, str] = OrderedDict()
        self._lock = threading.Lock()  # a threaded server asks from several threads

    def get(self, key: Hashable, render: Callable[[], str]) -> str:
        with self._lock:
            if key in self._kept:
                self._kept.move_to_end(key)
                return self._kept[key]
        html = render()  # outside the lock: two threads may both render it, once each
        with self._lock:
            self._kept[key] = html
            while len(self._kept) > self.SIZE:
                self._kept.popitem(last=False)
        return html
