"""Who may see and change a group: invite-link membership and view links.

A phone that starts a group or opens its invite link gets a long-lived signed cookie
listing ``{group id: invite token it joined with}``. Membership holds only while that
token is still the group's invite token, so rotating the invite locks out every phone
that has not re-joined. Anything not allowed is a 404: a stranger cannot even tell that a
group exists.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from functools import lru_cache

from flask import abort, after_this_request, current_app, g, request
from flask.wrappers import Response
from itsdangerous import BadSignature, URLSafeSerializer

from scorekeeper.store import groups, match_views, versions
from scorekeeper.store.match_views import GroupView, MatchView
from scorekeeper.store.versions import Version

_SALT = "scorekeeper.membership"
_WRONG_VIEW_LINK = "This view link is wrong or no longer works."
_NO_MATCH = "No such match in this group."


def _serializer(secret: str | None = None) -> URLSafeSerializer:
    return URLSafeSerializer(secret or current_app.config["SECRET_KEY"], salt=_SALT)


def memberships() -> dict[int, str]:
    """The groups this phone joined, ``{group id: invite token}``, from the cookie."""
    if "memberships" not in g:
        raw = request.cookies.get(current_app.config["MEMBERSHIP_COOKIE"], "")
        g.memberships = cookie_memberships(current_app.config["SECRET_KEY"], raw)
    return g.memberships


@lru_cache(maxsize=256)
def _read_cookie(secret: str, raw: str) -> tuple[tuple[int, str], ...]:
    """A membership cookie's groups, if its signature holds (else none). Every page a
    phone opens sends the same cookie: its signature is checked once per process, not
    on every request (the answer follows from the secret and the text alone)."""
    try:
        data = _serializer(secret).loads(raw)
    except BadSignature:
        return ()
    if not isinstance(data, dict):
        return ()
    return tuple((int(k), str(v)) for k, v in data.items() if str(k).isdigit())


def _same(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode(), b.encode())


def is_member(group: GroupView) -> bool:
    """Whether this phone joined the group with its current invite token."""
    return _joined(group.id, group.invite_token)


def _joined(group_id: int, invite_token: str) -> bool:
    return joined(memberships(), group_id, invite_token)


def joined(groups: Mapping[int, str], group_id: int, invite_token: str) -> bool:
    """Whether ``groups`` (a phone's memberships) holds the group's current invite
    token."""
    token = groups.get(group_id)
    return token is not None and _same(token, invite_token)


def member_groups() -> list[GroupView]:
    """The groups this phone may edit, by name (stale memberships are left out)."""
    ids = list(memberships())
    if not ids:
        return []
    return sorted((gr for gr in groups.groups_by_ids(ids) if is_member(gr)),
                  key=lambda gr: gr.name.lower())


def _save_cookie() -> None:
    """Write the membership cookie on the current response (once per request)."""
    if g.get("membership_pending"):
        return
    g.membership_pending = True

    @after_this_request
    def _write(response: Response) -> Response:
        data = {str(k): v for k, v in memberships().items()}
        response.set_cookie(
            current_app.config["MEMBERSHIP_COOKIE"], _serializer().dumps(data),
            max_age=current_app.config["MEMBERSHIP_MAX_AGE"], httponly=True,
            samesite="Lax", secure=request.is_secure,
        )
        return response


def join(group: GroupView) -> None:
    """Remember on this phone that it may edit ``group`` (with its current invite)."""
    memberships()[group.id] = group.invite_token
    _save_cookie()


def leave(group_id: int) -> None:
    """Forget a group on this phone."""
    memberships().pop(group_id, None)
    _save_cookie()


def current_group(group_id: int) -> GroupView:
    """The group if this phone is a member of it, else 404."""
    group = groups.group_by_id(group_id)
    if group is None or not is_member(group):
        abort(404, "No such group here. Ask someone at the table for the invite link.")
    return group


require_member = current_group


def member_board(group_id: int, match_id: int) -> tuple[GroupView, MatchView]:
    """A match of a group this phone is a member of as every page that shows or
    changes it reads it (the scoreboard, the hand pages): its read-only view, in one
    plain query; else the 404 of :func:`current_group`, or that of a match not in the
    group, whichever is at fault."""
    view = match_views.member_match(group_id, match_id)
    if view is None or not is_member(view.group):
        current_group(group_id)  # a group this phone is not in: that 404
        abort(404, _NO_MATCH)
    return view.group, view


def watched_board(token: str) -> MatchView:
    """What a spectator's view link shows: the match's read-only view, else 404."""
    view = match_views.watched_match(token)
    if view is None:
        abort(404, _WRONG_VIEW_LINK)
    return view


def member_version(group_id: int, match_id: int) -> Version:
    """A live poll's look-up on a member's phone: only the match's version, with the
    404s of :func:`member_board`. A poll answered 304 needs nothing more."""
    found = versions.member_version(group_id, match_id)
    if found is None or not _joined(group_id, found.invite_token):
        current_group(group_id)  # a group this phone is not in: that 404
        abort(404, _NO_MATCH)
    return found


def cookie_memberships(secret: str, raw: str) -> dict[int, str]:
    """The groups a membership cookie's text names, if its signature holds: for a live
    poll answered before Flask's request is made (``web/matches/live.py``)."""
    return dict(_read_cookie(secret, raw)) if raw else {}


def watched_version(token: str) -> Version:
    """A live poll's look-up through a view link: only the match's version, else the
    404 of :func:`watched_board`."""
    found = versions.watched_version(token)
    if found is None:
        abort(404, _WRONG_VIEW_LINK)
    return found
