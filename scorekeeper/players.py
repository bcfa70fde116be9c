"""Players of a group: add, rename, recolour, hide; delete only those without history."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from sqlalchemy import func
from sqlalchemy.exc import IntegrityError

from . import access
from .extensions import db
from .forms import FieldError, clean_colour, clean_name, next_colour
from .models import Group, Player, Seat

bp = Blueprint("players", __name__, url_prefix="/groups/<int:group_id>/players")


def _check_unique(group: Group, name: str, field: str, player: Player | None = None) -> None:
    """Refuse a name already used in the group (ignoring case)."""
    query = db.select(Player.id).where(Player.group_id == group.id,
                                       func.lower(Player.name) == name.lower())
    if player is not None:
        query = query.where(Player.id != player.id)
    if db.session.scalar(query) is not None:
        raise FieldError(f"{name!r} is already a player in this group; pick another name.",
                         field)


def add_player(group: Group, name_text: str | None, colour: str | None = None,
               field: str = "name") -> Player:
    """Add (and flush) a player; :class:`FieldError` for a bad or duplicate name.

    The database's unique constraint settles a race between two phones adding the
    same name (the session is then rolled back); the caller commits.
    """
    name = clean_name(name_text, field)
    _check_unique(group, name, field)
    used = [p.colour for p in group.players]
    player = Player(group=group, name=name, colour=clean_colour(colour) if colour else
                    next_colour(used))
    db.session.add(player)
    try:
        db.session.flush()
    except IntegrityError:
        db.session.rollback()
        raise FieldError(f"{name!r} is already a player in this group.", field) from None
    return player


def _player(group: Group, player_id: int) -> Player:
    if player_id > access.MAX_ID:
        abort(404)
    return db.first_or_404(db.select(Player).where(Player.id == player_id,
                                                   Player.group_id == group.id))


def has_history(player: Player) -> bool:
    """Whether the player sat at any match."""
    return db.session.scalar(db.select(Seat.id).where(Seat.player_id == player.id)
                             .limit(1)) is not None


@bp.route("", methods=["GET", "POST"])
def index(group_id: int):
    """List the group's players; POST adds one."""
    group = access.current_group(group_id)
    errors: dict[str, str] = {}
    if request.method == "POST":
        try:
            player = add_player(group, request.form.get("name"), request.form.get("colour"))
            db.session.commit()
            flash(f"Added {player.name}.")
            return redirect(url_for("players.index", group_id=group.id))
        except FieldError as exc:
            db.session.rollback()
            errors[exc.field] = exc.message
    status = 400 if errors else 200
    return render_template("players/index.html", group=group, errors=errors,
                           colour=next_colour([p.colour for p in group.players]),
                           form=request.form), status


@bp.route("/<int:player_id>", methods=["GET", "POST"])
def edit(group_id: int, player_id: int):
    """Rename or recolour a player."""
    group = access.current_group(group_id)
    player = _player(group, player_id)
    errors: dict[str, str] = {}
    if request.method == "POST":
        try:
            name = clean_name(request.form.get("name"))
            _check_unique(group, name, "name", player)
            player.name, player.colour = name, clean_colour(request.form.get("colour"))
            db.session.commit()
            flash(f"Saved {player.name}.")
            return redirect(url_for("players.index", group_id=group.id))
        except FieldError as exc:
            db.session.rollback()
            errors[exc.field] = exc.message
        except IntegrityError:
            db.session.rollback()
            errors["name"] = "That name was just taken by another player; pick another."
    return render_template("players/edit.html", group=group, player=player, errors=errors,
                           form=request.form, history=has_history(player)), 400 if errors else 200


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
    if has_history(player):
        flash(f"{player.name} has played matches, so they can only be hidden.", "error")
        return redirect(url_for("players.edit", group_id=group.id, player_id=player.id))
    db.session.delete(player)
    db.session.commit()
    flash(f"Deleted {player.name}.")
    return redirect(url_for("players.index", group_id=group.id))
