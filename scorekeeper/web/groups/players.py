"""Players of a group: add, rename, recolour, hide; delete only those without history."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for

from scorekeeper.core.errors import ConflictError, InputError
from scorekeeper.store import groups
from scorekeeper.store.groups import GroupPlayer, GroupView
from scorekeeper.web import access
from scorekeeper.web.fields import attach
from scorekeeper.web.groups.forms import EditPlayerForm, PlayerForm

bp = Blueprint("players", __name__, url_prefix="/groups/<int:group_id>/players")


def _player(group: GroupView, player_id: int) -> GroupPlayer:
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
            player = groups.save_player(group, form.name.data, form.colour.data)
            flash(f"Added {player.name}.")
            return redirect(url_for("players.index", group_id=group.id))
        except InputError as exc:  # the name is taken: a ConflictError on "name"
            attach(form, exc, "name")
    if not form.colour.data:
        form.colour.data = groups.fresh_colour(group)
    return render_template("players/index.html", group=group, form=form,
                           players=groups.group_players(group)), (
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
            saved = groups.edit_player(group, player, form.name.data, form.colour.data)
            flash(f"Saved {saved.name}.")
            return redirect(url_for("players.index", group_id=group.id))
        except InputError as exc:  # the name is taken: a ConflictError on "name"
            attach(form, exc, "name")
    return render_template("players/edit.html", group=group, player=player, form=form,
                           history=groups.has_history(player)), (400 if form.errors else 200)


@bp.post("/<int:player_id>/hide")
def hide(group_id: int, player_id: int):
    """Hide a player from new matches, or show them again."""
    group = access.current_group(group_id)
    player = _player(group, player_id)
    player = groups.toggle_hidden(player)
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
