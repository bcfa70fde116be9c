"""Matches: set one up, the scoreboard, rematch, and the spectators' view link."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for

from scorekeeper.core.errors import InputError
from scorekeeper.core.games import DEFAULT_GAME
from scorekeeper.core.sheets import GAMES, options_for, rules_summary
from scorekeeper.core.text import name_key, sentence
from scorekeeper.store.groups import (
    GroupView,
    NewPlayer,
    group_players,
    last_seating,
    rotate_view_token,
    start_match,
)
from scorekeeper.store.reading import current_standings, match_sheet
from scorekeeper.web import access
from scorekeeper.web.confirm import asks_first
from scorekeeper.web.links import public_url
from scorekeeper.web.matches.forms import NEW_SLOTS, SetupForm, setup_form
from scorekeeper.web.scoreboard import board, rematch_question
from scorekeeper.web.share import qr_response

bp = Blueprint("matches", __name__)
PREFIX = "/groups/<int:group_id>/matches"


def _render_new(group: GroupView, game: str, form: SetupForm, status: int = 200):
    """The new-match page; the group's players listed with the last match's table first,
    in its seat order, so the same table sits down again in the fewest taps."""
    last = last_seating(group)
    candidates = sorted((p for p in form.candidates if not p.hidden),
                        key=lambda p: last.index(p.id) if p.id in last else len(last))
    info = GAMES[game]
    slots = min(max(len(candidates) + NEW_SLOTS, info.min_players), info.max_players)
    return render_template("matches/new.html", group=group, game=info, games=GAMES,
                           options=options_for(game), form=form, candidates=candidates,
                           slots=slots, new_slots=NEW_SLOTS,
                           rules_line=rules_summary(form.rules_differ()),
                           rules_open=any(f.errors for f in form.fields_named("opt-"))
                           or bool(form.agree_nine.errors)), status


@bp.get(PREFIX + "/new")
def new(group_id: int):
    """The new-match form for the game in ``?game=`` (Last One by default)."""
    group = access.current_group(group_id)
    game = request.args.get("game", DEFAULT_GAME)
    game = game if game in GAMES else DEFAULT_GAME
    return _render_new(group, game, setup_form(game, group_players(group)))


@bp.post(PREFIX + "/new")
def create(group_id: int):
    """Start the match described by the form, adding any new players; else show errors."""
    group = access.current_group(group_id)
    game = request.form.get("game", "")
    form = setup_form(game, group_players(group), request.form)  # hidden ones may be sent
    if form.validate() and form.sheet is not None:
        seats = [NewPlayer(who, _new_field(request.form, who)) if isinstance(who, str) else who
                 for who in form.seats]
        try:
            match = start_match(group, form.sheet, seats, form.dealer)
        except InputError as exc:  # nothing was kept, not even a new player
            form.refuse(getattr(exc, "field", "") or "players", sentence(exc))
        else:
            flash(f"{form.sheet.game_info.name} started. Good luck!")
            return redirect(url_for("matches.show", group_id=group.id, match_id=match.id))
    return _render_new(group, game if game in GAMES else DEFAULT_GAME, form, 400)


def _new_field(form, name: str) -> str:
    """Which new-player input held ``name``, so an error lands on it."""
    for i in range(NEW_SLOTS):
        if name_key(" ".join(form.get(f"new-{i}", "").split())) == name_key(name):
            return f"new-{i}"
    return "players"


@bp.get(PREFIX + "/<int:match_id>")
def show(group_id: int, match_id: int):
    """The scoreboard, with the actions of a member's phone."""
    group, match = access.member_board(group_id, match_id)
    return render_template("matches/show.html", group=group, readonly=False, **board(match))


@bp.get(PREFIX + "/<int:match_id>/view-link.svg")
def view_qr(group_id: int, match_id: int):
    """The view link's QR code, for a member to show the spectators."""
    _, match = access.member_board(group_id, match_id)
    return qr_response(public_url("matches.view", token=match.view_token))


@bp.get("/view/<token>")
def view(token: str):
    """The same scoreboard for spectators: read-only, refreshed by the page script."""
    match = access.watched_board(token)
    return render_template("matches/show.html", group=match.group, readonly=True,
                           **board(match))


@bp.post(PREFIX + "/<int:match_id>/rematch")
def rematch(group_id: int, match_id: int):
    """A new match once this one is finished: same players, same sheet, the deal moved
    one seat on. It asks first (a match started by a stray tap cannot be taken back)."""
    old = access.member_board(group_id, match_id)[1]
    group = access.current_group(group_id)
    if not current_standings(old).over:
        flash("A rematch starts once this match is finished.", "error")
        return redirect(url_for("matches.show", group_id=group.id, match_id=old.id))
    players = [seat.player for seat in old.seats]  # they take the seats again
    question = asks_first(rematch_question(old),
                          "Start the rematch",
                          url_for("matches.show", group_id=group.id, match_id=old.id))
    if question:
        return question
    match = start_match(group, match_sheet(old), players, (old.first_dealer + 1) % len(players))
    flash(f"Rematch! {players[match.first_dealer].name} deals first.")
    return redirect(url_for("matches.show", group_id=group.id, match_id=match.id))


@bp.post(PREFIX + "/<int:match_id>/view-link")
def rotate_view(group_id: int, match_id: int):
    """Replace the view link: the old one stops working."""
    group, match = access.member_board(group_id, match_id)
    question = asks_first("Make a new view link? Anyone watching with the old one loses "
                          "the scoreboard.", "Make a new view link",
                          url_for("matches.show", group_id=group.id, match_id=match.id) + "#share")
    if question:
        return question
    rotate_view_token(match)
    flash("New view link made; the old one no longer works.")
    return redirect(url_for("matches.show", group_id=group.id, match_id=match.id) + "#share")
