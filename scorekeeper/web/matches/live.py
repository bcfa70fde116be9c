"""Cheap live updates for the scoreboard: a tiny endpoint keyed on the match version.

The page script asks every few seconds with ``If-None-Match``. Almost every answer is
a bodiless 304, so that answer reads only what decides it: the match's version and that
the link (or the member's cookie) still opens it, one small query
(:mod:`scorekeeper.store.versions`); it is given in front of Flask
(:class:`UnchangedPolls`), without a request's hooks (no limit applies here, no body
is read, nothing is compressed), and without a document's headers
(``web/security.py``). The ETag is weak (``W/"m1v3"``): it names the version whatever
encoding the answer travels in, so the compressor leaves it as it is and the
browser's next poll matches it.

When the version moved on, the answer is a few hundred bytes saying what changed and, to
a client that said which older version it holds, the board as it is now: rendered by
the same partials as the page (``matches/_board.html``; on a member's phone with the
parts that name a hand, ``matches/live_board.html``), for the page to swap in. Never
the whole page, and never a second request: the page's first poll carries the ETag of
the board it shows (``data-live-etag``), so an unchanged board is a 304 from the start.

After a hand every spectator of the match asks at once for the same board; a view
link's answer is rendered and compressed once per process for what it is made from
(see :class:`Answers`) and sent as it is to the others.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from flask import Blueprint, Flask, Response, current_app, jsonify, render_template, request
from werkzeug.datastructures import ETags
from werkzeug.exceptions import HTTPException
from werkzeug.http import parse_cookie, parse_etags
from werkzeug.routing import Map, Rule
from werkzeug.wsgi import get_host

from scorekeeper.extensions import limiter
from scorekeeper.store import versions
from scorekeeper.store.match_views import MatchView
from scorekeeper.store.versions import Version
from scorekeeper.web import access, security
from scorekeeper.web.scoreboard import board

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

bp = Blueprint("live", __name__)
MEMBER_URL = "/groups/<int:group_id>/matches/<int:match_id>/live"
SPECTATOR_URL = "/view/<token>/live"


@bp.app_context_processor
def _live_hooks() -> dict[str, object]:
    """When the page was made, so a copy shown offline can say how old it is; and the
    ETag of a match as the page shows it, so the page's first poll is already a 304."""
    return {"rendered_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "live_etag": live_etag}


_POLLS = frozenset({"live.member", "live.spectator"})


@limiter.request_filter
def _is_poll() -> bool:
    """No rate limit applies to a live poll: Flask-Limiter skips its bookkeeping. (Its
    ``exempt`` mark would still resolve the route's limits on every request; a request
    filter is asked before that.)"""
    return request.endpoint in _POLLS


def live_etag(match: MatchView | Version) -> str:
    """The live poll's ETag for the match as it is now (unquoted, the weak form's
    inside)."""
    match_id = match.match_id if isinstance(match, Version) else match.id
    return f"m{match_id}v{match.version}"


def _unchanged(known: Version) -> Response | None:
    """The 304 when the client holds ``known``'s version, else None."""
    return _not_modified(known, request.if_none_match)


def _not_modified(known: Version | None, held: ETags) -> Response | None:
    """The 304 for a client holding the ETags ``held`` when the match is ``known``, else
    None: the one answer to an unchanged poll, from Flask's routes and
    :class:`UnchangedPolls` alike."""
    if known is None:
        return None
    etag = live_etag(known)
    if not held.contains_weak(etag):
        return None
    return _tagged(Response(status=304), etag)


def _tagged(response: Response, etag: str) -> Response:
    """The answer with its weak ETag, to be asked again every time (never cached). Its
    body is compressed as the client accepts, and a 304 names that as its 200 would."""
    response.set_etag(etag, weak=True)
    response.headers["Cache-Control"] = "no-cache, private"
    response.vary.add("Accept-Encoding")
    return response


def _summary(match: MatchView, board_html: Callable[[], str]) -> Response:
    """The match's live summary; with the board (``board_html()``) when the client said
    which older version it has."""
    summary: dict[str, object] = {
        "version": match.version, "hands": match.hand_count,
        "next_hand": None if match.status == "finished" else match.hand_count + 1,
        "status": match.status}
    if request.if_none_match:
        summary["board"] = board_html()
    return _tagged(jsonify(summary), live_etag(match))


@bp.get(MEMBER_URL)
def member(group_id: int, match_id: int) -> Response:
    """The match's version for a member's scoreboard and hand form; the board comes
    with the parts that name a hand (``matches/live_board.html``)."""
    unchanged = _unchanged(access.member_version(group_id, match_id))
    if unchanged is not None:
        return unchanged
    group, match = access.member_board(group_id, match_id)
    return _summary(match, lambda: render_template(
        "matches/live_board.html", group=group, readonly=False, **board(match)))


@bp.get(SPECTATOR_URL)
def spectator(token: str) -> Response:
    """The match's version for the spectators' view link; a changed one from
    :class:`Answers`."""
    unchanged = _unchanged(access.watched_version(token))
    if unchanged is not None:
        return unchanged
    match = access.watched_board(token)
    answers: Answers = current_app.extensions.setdefault("scorekeeper.live_answers", Answers())
    key = (request.script_root, match.id, match.view_token, match.version, match.status,
           tuple((seat.position, seat.winner, seat.player.id, seat.player.name,
                  seat.player.colour) for seat in match.seats),
           bool(request.if_none_match), request.headers.get("Accept-Encoding", ""))
    body, encoding = answers.get(key, lambda: _encoded(_summary(match, lambda: render_template(
        "matches/_board.html", group=match.group, readonly=True, **board(match)))))
    response = _tagged(Response(body, mimetype="application/json"), live_etag(match))
    if encoding:
        response.headers["Content-Encoding"] = encoding
    return response


def _encoded(response: Response) -> tuple[bytes, str | None]:
    """The answer's body as it goes on the wire, compressed for this request's
    ``Accept-Encoding`` by the app's own compressor (``web/assets.py``), and its
    encoding."""
    current_app.extensions["compress"].after_request(response)
    return response.get_data(), response.headers.get("Content-Encoding")


class Answers:
    """Spectators' changed answers as sent, by everything they are made from: the match
    (its version moves on with every hand, edit and finish), its view token, its seats'
    players as read with it, whether the board comes along, and the ``Accept-Encoding``
    they are compressed for. The least recently asked go past :attr:`SIZE`.

    What it buys: after a hand, every spectator of the match asks for the same answer
    within a poll's interval, and each after the first gets it without a render or a
    compression. A changed poll with Chromium's ``Accept-Encoding`` (zstd chosen) took
    780-930 µs of CPU with the answer kept and 1,630-2,050 µs made each time (one
    process, 1,500 polls each way, 2026-12-06).
    """

    SIZE = 256

    def __init__(self) -> None:
        self._kept: OrderedDict[Hashable, tuple[bytes, str | None]] = OrderedDict()
        self._lock = threading.Lock()  # a threaded server asks from several threads

    def get(self, key: Hashable, make: Callable[[], tuple[bytes, str | None]]
            ) -> tuple[bytes, str | None]:
        with self._lock:
            if key in self._kept:
                self._kept.move_to_end(key)
                return self._kept[key]
        answer = make()  # outside the lock: two threads may both make it, once each
        with self._lock:
            self._kept[key] = answer
            while len(self._kept) > self.SIZE:
                self._kept.popitem(last=False)
        return answer


class UnchangedPolls:
    """WSGI middleware in front of Flask that answers the unchanged live poll itself.

    Almost every poll is a 304, and Flask's request around it (its context, the session,
    every extension's hooks before and after: the body limit, the rate limiter's
    bookkeeping, CSRF, compression) cost more than the one read that decides it. A GET
    or HEAD without a body for one of the two live URLs, with ``If-None-Match``, from a
    trusted host, is looked up here as the route looks it up (the match's version, and
    for a member's poll the membership cookie against the group's invite token); when the
    client holds that version, :func:`_not_modified`'s 304 goes out with the headers
    every answer gets (``web/security.py``). Anything else (a new version, a wrong link,
    a stranger, the database out of reach) goes to Flask untouched, whose routes answer
    exactly as they would have. It sits inside ``ProxyFix``, so it sees the client's
    scheme and host as the routes do.
    """

    def __init__(self, app: Flask, wsgi_app: WSGIApplication) -> None:
        self.app, self.wsgi_app = app, wsgi_app
        self.urls = Map([Rule(MEMBER_URL, endpoint="member"),
                         Rule(SPECTATOR_URL, endpoint="spectator")])

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse
                 ) -> Iterable[bytes]:
        answer = self._unchanged(environ) if "HTTP_IF_NONE_MATCH" in environ else None
        if answer is None:
            return self.wsgi_app(environ, start_response)
        return answer(environ, start_response)

    def _unchanged(self, environ: WSGIEnvironment) -> Response | None:
        if (environ.get("REQUEST_METHOD") not in ("GET", "HEAD")
                or environ.get("CONTENT_LENGTH") not in (None, "", "0")
                or "HTTP_TRANSFER_ENCODING" in environ):
            return None
        try:
            get_host(environ, self.app.config["TRUSTED_HOSTS"])
            endpoint, values = self.urls.bind_to_environ(environ).match()
        except HTTPException:  # an untrusted host, another URL: Flask answers it
            return None
        with self.app.app_context():
            try:
                known = self._version(environ, endpoint, values)
            except Exception:  # e.g. the database out of reach: Flask's 503, logged
                return None
            answer = _not_modified(known, parse_etags(environ["HTTP_IF_NONE_MATCH"]))
            if answer is None:
                return None
            return security.secured(answer, environ["wsgi.url_scheme"] == "https")

    def _version(self, environ: WSGIEnvironment, endpoint: str,
                 values: Mapping[str, Any]) -> Version | None:
        if endpoint == "spectator":
            return versions.watched_version(values["token"])
        group_id = values["group_id"]
        known = versions.member_version(group_id, values["match_id"])
        if known is None:
            return None
        config = self.app.config
        cookie = parse_cookie(environ).get(config["MEMBERSHIP_COOKIE"], "")
        groups = access.cookie_memberships(config["SECRET_KEY"], cookie)
        return known if access.joined(groups, group_id, known.invite_token) else None


def answer_unchanged_polls(app: Flask) -> None:
    """Put :class:`UnchangedPolls` in front of the app's WSGI callable (before
    ``ProxyFix`` and the rest wrap it)."""
    app.wsgi_app = UnchangedPolls(app, app.wsgi_app)  # type: ignore[method-assign]
