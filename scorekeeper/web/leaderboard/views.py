"""The leaderboard of a group's game in a season, and the group's named seasons.

The board reads the stored ratings (:mod:`scorekeeper.store.leaderboard`): the group,
its seasons and one statement of rating rows, whatever the number of matches.
"""

from __future__ import annotations

from datetime import UTC, datetime

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for

from scorekeeper.core.errors import InputError
from scorekeeper.core.ratings import PROVISIONAL, START
from scorekeeper.core.sheets import GAMES
from scorekeeper.store.leaderboard import game_leaderboard, last_game, match_ratings
from scorekeeper.store.match_views import MatchView
from scorekeeper.store.seasons import (
    add_season,
    delete_season,
    group_season,
    group_seasons,
    pick_period,
)
from scorekeeper.web import access
from scorekeeper.web.fields import attach
from scorekeeper.web.leaderboard.forms import SeasonForm

bp = Blueprint("leaderboard", __name__, url_prefix="/groups/<int:group_id>")


def today() -> datetime:
    """Now, in UTC: the days of "this year" and "this month" (finish times are UTC)."""
    return datetime.now(UTC)


@bp.app_template_global("ratings_after")
def ratings_after(match: MatchView) -> dict[int, tuple[int, int, int]]:
    """A finished match's seats' ratings after it, for its board (one query; none while
    it is played): the scoreboard's template asks, so its views need not know."""
    return match_ratings(match.id) if match.status == "finished" else {}


@bp.get("/leaderboard")
def index(group_id: int):
    """A game's leaderboard and records in the season asked for (all time by default)."""
    group = access.current_group(group_id)
    game = request.args.get("game", "")
    if game not in GAMES:
        game = last_game(group) or next(iter(GAMES))
    period, periods = pick_period(group, request.args.get("season"), today().date())
    period = period or periods[0]  # a link to a deleted season shows all time
    return render_template("leaderboard/index.html", group=group, game=game, games=GAMES,
                           period=period, periods=periods,
                           board=game_leaderboard(group, game, period.scope),
                           provisional=PROVISIONAL, start=START)


@bp.route("/seasons", methods=["GET", "POST"])
def seasons(group_id: int):
    """The group's named seasons; POST defines one."""
    group = access.current_group(group_id)
    form = SeasonForm(formdata=None if request.method == "GET" else request.form)
    if form.is_submitted() and form.validate():
        try:
            season = add_season(group, form.name.data, form.first_day.data, form.last_day.data)
            flash(f"Added the season {season.name}.")
            return redirect(url_for("leaderboard.index", group_id=group.id, season=season.id))
        except InputError as exc:
            attach(form, exc, "name")
    return render_template("leaderboard/seasons.html", group=group, form=form,
                           seasons=group_seasons(group)), (400 if form.errors else 200)


@bp.post("/seasons/<int:season_id>/delete")
def remove_season(group_id: int, season_id: int):
    """Delete a named season (its matches stay, and count in every other season)."""
    group = access.current_group(group_id)
    season = group_season(group, season_id)
    if season is None:
        abort(404, "No such season in this group.")
    name = season.name
    delete_season(group, season)
    flash(f"Deleted the season {name}.")
    return redirect(url_for("leaderboard.seasons", group_id=group.id))
