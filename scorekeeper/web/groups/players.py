"""Players of a group: add, rename, recolour, hide; delete only those without history."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from sqlalchemy.exc import IntegrityError

from scorekeeper.core.errors import ConflictError, InputError
from scorekeeper.core.text import next_colour
from scorekeeper.store import groups
from scorekeeper.store.extensions import db
from scorekeeper.store.models import Group, Player
from scorekeeper.web import access
from scorekeeper.web.fields import attach
from scorekeeper.web.groups.forms import EditPlayerForm, PlayerForm

bp = Blueprint("players", __name__, url_prefix="/groups/<int:group_id>/players")


def _player(group: Group, player_id: int) -> Player:
    player = groups.group_player(group, player_id)
    if player is None:
        abort(404)
    return player


@bp.route("", methods=["GET", "POST"])
def index(group_id: int):
    """List the group's players; POST adds one."""
    group = access.current_group(group_id)
    form = PlayerForm(formdata=None if request.method == "GET" else request.form)
    if form.is_submitted() and form.validate():
        try:
            player = groups.add_player(group, form.name.data, form.colour.data)
            db.session.commit()
            flash(f"Added {player.name}.")
            return redirect(url_for("players.index", group_id=group.id))
        except InputError as exc:  # the name is taken: a ConflictError on "name"
            db.session.rollback()
            attach(form, exc, "name")
    if not form.colour.data:
        form.colour.data = next_colour([p.colour for p in group.players])
    return render_template("players/index.html", group=group, form=form), (
        400 if form.errors else 200)


@bp.route("/<int:player_id>", methods=["GET", "POST"])
def edit(group_id: int, player_id: int):
    """Rename or recolour a player."""
    group = access.current_group(group_id)
    player = _player(group, player_id)
    form = EditPlayerForm(formdata=None if request.method == "GET" else request.form,
                          obj=player)
    if form.is_submitted() and form.validate():
        try:
            groups.check_unique_name(group, form.name.data, "name", player)
            player.name, player.colour = form.name.data, form.colour.data
            db.session.commit()
            flash(f"Saved {player.name}.")
            return redirect(url_for("players.index", group_id=group.id))
        except InputError as exc:  # the name is taken: a ConflictError on "name"
            db.session.rollback()
            attach(form, exc, "name")
        except IntegrityError:
            db.session.rollback()
            attach(form, InputError("That name was just taken by another player; pick "
                                    "another.", "name"), "name")
    return render_template("players/edit.html", group=group, player=player, form=form,
                           history=groups.has_history(player)), (400 if form.errors else 200)


@bp.post("/<int:player_id>/hide")
def hide(group_id: int, player_id: int):
    """Hide a player from new matches, or show them again."""
    group = access.current_group(group_id)
    player = _player(group, player_id)
    player.hidden = not player.hidden
    db.session.commit()
    flash(f"{player.name} is {'hidden' if player.hidden else 'shown again'}.")
    return redirect(url_for("players.index", group_id=group.id))


@bp.post("/<int:player_id>/delete")
def delete(group_id: int, player_id: int):
    """Delete a player who never played; one with history can only be hidden."""
    group = access.current_group(group_id)
    player = _player(group, player_id)
    name = player.name
    try:
        groups.delete_player(player)
    except ConflictError as exc:
        flash(exc.message, "error")
        return redirect(url_for("players.edit", group_id=group.id, player_id=player_id))
    flash(f"Deleted {name}.")
    return redirect(url_for("players.index", group_id=group.id))
