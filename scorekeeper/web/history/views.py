"""Looking back: the match history, a match's full record with its score chart, player
statistics, and export/import of matches (JSON and CSV downloads, an upload form).

Every page is scoped to a group this phone joined (:mod:`access`). The history list
is keyset-paginated on ``(created_at, id)`` with the derived columns of ``Match``, so
a page costs the same few queries at ten matches or ten thousand.
"""

from __future__ import annotations

import json

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)

from scorekeeper.core.chart import Series, score_chart
from scorekeeper.core.places import places
from scorekeeper.core.sheets import GAMES
from scorekeeper.store.bg_stats import bg_stats_play
from scorekeeper.store.groups import group_player, group_players
from scorekeeper.store.history import HistoryFilter, history_page, record_match
from scorekeeper.store.match_views import GroupView, MatchRecord
from scorekeeper.store.reading import match_sheet, match_standings
from scorekeeper.store.statistics import player_figures
from scorekeeper.store.transfer import (
    Limits,
    TransferError,
    export_document,
    import_document,
    load_matches,
    to_csv,
)
from scorekeeper.web import access
from scorekeeper.web.history.forms import ImportForm
from scorekeeper.web.rating_charts import player_ratings

bp = Blueprint("history", __name__, url_prefix="/groups/<int:group_id>")


@bp.get("/history")
def index(group_id: int):
    """The group's matches, newest first, filtered by game, player and status."""
    group = access.current_group(group_id)
    players = group_players(group)
    wanted = HistoryFilter.from_args(request.args, {p.id for p in players})
    page = history_page(group, wanted)
    return render_template("history/index.html", group=group, page=page, wanted=wanted,
                           players=players, games=GAMES)


@bp.get("/matches/<int:match_id>/record")
def record(group_id: int, match_id: int):
    """Every hand with the cards held and what each scored, the chart and the rulings;
    once finished, the link that logs it in BG Stats."""
    group = access.current_group(group_id)
    record = record_match(group, match_id)
    match = record.match
    table = match_standings(match, record.hands)
    sheet = match_sheet(match)
    start = (sheet.game_info.start_total(sheet.options),) * len(match.seats)
    chart = score_chart([Series(seat.player.name, seat.player.colour,
                                (start[i], *(row[i] for row in table.progress)))
                         for i, seat in enumerate(match.seats)], table.goal,
                        goal_word="target" if table.goal_kind == "target" else "out at")
    ranks = places(sheet, table)
    seats = list(match.seats) if ranks is None else sorted(
        match.seats, key=lambda seat: (ranks[seat.position], seat.position))
    return render_template("history/record.html", group=group, match=match,
                           hands=record.hands, rulings=record.rulings, table=table,
                           chart=chart, games=GAMES, places=ranks, ranked_seats=seats,
                           bg_stats=bg_stats_play(match, table, ranks))


@bp.get("/players/<int:player_id>/stats")
def player(group_id: int, player_id: int):
    """One player's figures over the group's matches, and their head-to-head table, in
    the season picked (``?season=``; all time by default)."""
    group = access.current_group(group_id)
    person = group_player(group, player_id)
    if person is None:
        abort(404)
    # One season picker: the period it picked scopes the ratings and the figures alike.
    ratings = player_ratings(group, person, request.args.get("season"))
    stats, rivals = player_figures(group, person, ratings["rating_period"])
    names = {p.id: p for p in group_players(group)}
    return render_template("history/player.html", group=group, player=person,
                           stats=stats, games=GAMES, rivals=rivals, names=names, **ratings)


def _download(group: GroupView, matches: list[MatchRecord], fmt: str, stem: str) -> Response:
    if fmt == "csv":
        body, kind = to_csv(matches), "text/csv; charset=utf-8"
    else:
        whole = stem.startswith("scorekeeper-group")  # a group's backup, not one match
        body = json.dumps(export_document(group, matches, whole=whole), ensure_ascii=False,
                          indent=1)
        kind = "application/json"
    return Response(body, content_type=kind, headers={
        "Content-Disposition": f'attachment; filename="{stem}.{fmt}"'})


@bp.get("/export.<any(json, csv):fmt>")
def export_group(group_id: int, fmt: str):
    """Download every match of the group."""
    group = access.current_group(group_id)
    return _download(group, load_matches(group), fmt, f"scorekeeper-group-{group.id}")


@bp.get("/matches/<int:match_id>/export.<any(json, csv):fmt>")
def export_match(group_id: int, match_id: int, fmt: str):
    """Download one match."""
    match = access.member_board(group_id, match_id)[1]
    group = access.current_group(group_id)
    return _download(group, load_matches(group, match.id), fmt, f"scorekeeper-match-{match.id}")


def limits() -> Limits:
    """Import limits, from ``IMPORT_MAX_BYTES`` / ``IMPORT_MAX_MATCHES`` when configured."""
    base = Limits()
    return Limits(max_bytes=current_app.config.get("IMPORT_MAX_BYTES", base.max_bytes),
                  max_matches=current_app.config.get("IMPORT_MAX_MATCHES", base.max_matches))


@bp.route("/import", methods=["GET", "POST"])
def upload(group_id: int):
    """Upload a JSON export: all of it is imported, or nothing and a list of problems."""
    group = access.current_group(group_id)
    if request.method == "GET":
        return render_template("history/import.html", group=group,
                               form=ImportForm(limits(), formdata=None))
    request.max_content_length = limits().max_bytes + 64 * 1024  # the form around the file
    form = ImportForm(limits())
    if not form.validate():
        return render_template("history/import.html", group=group, form=form), 400
    try:
        report = import_document(group, form.document, limits())
    except TransferError as exc:
        form.problems = list(exc.problems)
        return render_template("history/import.html", group=group, form=form), 400
    flash(f"Imported {report.matches} match(es) with {report.hands} hand(s)"
          + (f"; new players: {', '.join(report.players_created)}"
             if report.players_created else "")
          + (f"; {report.already_imported} match(es) were already here and were skipped."
             if report.already_imported else "."))
    return redirect(url_for("history.index", group_id=group.id))
