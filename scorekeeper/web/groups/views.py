"""Groups: start one, join one by its invite link, switch between them, rotate the invite."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, flash, redirect, render_template, url_for

from scorekeeper.core.sheets import GAMES
from scorekeeper.extensions import limiter, limits_off
from scorekeeper.store import groups
from scorekeeper.web import access
from scorekeeper.web.confirm import asks_first
from scorekeeper.web.groups.forms import GroupForm
from scorekeeper.web.links import public_url
from scorekeeper.web.share import qr_response

bp = Blueprint("groups", __name__)


@bp.get("/")
def index():
    """The phone's groups to switch between, and the form to start a new one."""
    return render_template("groups/index.html", groups=access.member_groups(),
                           form=GroupForm(formdata=None))


def _setting(name: str):
    """A rate limit read from the app's configuration when a request is checked."""
    return lambda: current_app.config[name]


# Per client address; past the limit a 429 with Retry-After (see scorekeeper/web/security.py).
@bp.post("/groups")
@limiter.limit(_setting("RATELIMIT_GROUPS"), exempt_when=limits_off,
               error_message="Too many new groups from here; try again later.")
def create():
    """Start a group; this phone becomes a member."""
    form = GroupForm()
    if not form.validate():
        return render_template("groups/index.html", groups=access.member_groups(),
                               form=form), 400
    name = form.name.data
    group = groups.create_group(name)
    access.join(group)
    flash(f"Started {name}. Add the players, then start a match.")
    return redirect(url_for("players.index", group_id=group.id))


@bp.get("/groups/<int:group_id>", strict_slashes=False)
def show(group_id: int):
    """A group's home: its matches, players and invite link."""
    group = access.current_group(group_id)
    matches = groups.recent_matches(group)
    invite = public_url("groups.join", token=group.invite_token)
    return render_template("groups/show.html", group=group, matches=matches, invite=invite,
                           games=GAMES)


@bp.get("/groups/<int:group_id>/invite.svg")
def invite_qr(group_id: int):
    """The invite link's QR code (for members: it is the link itself)."""
    group = access.current_group(group_id)
    return qr_response(public_url("groups.join", token=group.invite_token))


@bp.get("/join/<token>")
@limiter.limit(_setting("RATELIMIT_JOINS"), exempt_when=limits_off,
               error_message="Too many invite links opened from here; try again later.")
def join(token: str):
    """Open an invite link: this phone may now edit the group."""
    group = groups.group_by_invite(token)
    if group is None:
        abort(404, "This invite link is wrong or has been replaced by a new one.")
    access.join(group)
    flash(f"You joined {group.name}.")
    return redirect(url_for("groups.show", group_id=group.id))


@bp.post("/groups/<int:group_id>/invite")
def rotate_invite(group_id: int):
    """Replace the invite link: phones that joined with the old one lose access."""
    group = access.current_group(group_id)
    question = asks_first("Make a new invite link? Phones that joined with the old one "
                          "will need the new link to keep score.", "Make a new invite link",
                          url_for("groups.show", group_id=group.id))
    if question:
        return question
    access.join(groups.rotate_invite(group))
    flash("New invite link made. Other phones must open the new link to keep editing.")
    return redirect(url_for("groups.show", group_id=group.id))


@bp.post("/groups/<int:group_id>/leave")
def leave(group_id: int):
    """Forget the group on this phone (the group itself stays)."""
    group = access.current_group(group_id)
    question = asks_first(f"Leave {group.name} on this phone? It can no longer keep score "
                          "here until the invite link is opened again.", "Leave on this phone",
                          url_for("groups.show", group_id=group.id))
    if question:
        return question
    access.leave(group.id)
    flash(f"This phone left {group.name}. The invite link brings it back.")
    return redirect(url_for("groups.index"))
