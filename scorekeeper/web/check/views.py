"""The play checker (``/check``): is this play legal here, why, and which rule says so.

A GET form, so it works without JavaScript and every ruling is a shareable link. The
form (:mod:`.forms`) becomes the engine's question (:mod:`.build`), judged by the
core's :func:`~scorekeeper.core.engine.replay.answer` exactly as the replay API judges
its requests, so page and API agree. Inside a match (``/groups/<gid>/matches/<mid>/check``)
the match's sheet and seat names are used, and a member's phone can save the ruling to
the record (with its question in the request format). Reasons name the seats
themselves: the question carries the names.
"""

from __future__ import annotations

import json
from urllib.parse import urlencode

from flask import Blueprint, flash, redirect, render_template, request, url_for
from markupsafe import Markup, escape
from werkzeug.datastructures import MultiDict

from scorekeeper.core.sheets import GAMES, Sheet
from scorekeeper.store.match_views import MatchView
from scorekeeper.store.reading import match_names, match_sheet
from scorekeeper.store.rulings import is_saved, save_ruling
from scorekeeper.web import access
from scorekeeper.web.check.answer import answer, assumptions, branches, suit_keys, verdict_of
from scorekeeper.web.check.fields import field_text
from scorekeeper.web.check.forms import OWED_CHOICES, Asked

bp = Blueprint("check", __name__)
MATCH = "/groups/<int:group_id>/matches/<int:match_id>/check"
ADVANCED = ("events", "held", "upas", "players", "dealer")
SUITS = (("", "none"), ("C", "♣"), ("D", "♦"), ("H", "♥"), ("S", "♠"))


@bp.app_template_filter("red_suits")
def red_suits(text: str) -> Markup:
    """Text with ♥ and ♦ in red, as on the cards (reasons name cards like 5♥)."""
    marked = str(escape(text))
    for suit in "♥♦":
        marked = marked.replace(suit, f'<span class="suit-red">{suit}</span>')
    return Markup(marked)


def _render(args: MultiDict[str, str], sheet: Sheet | None, match: MatchView | None):
    names = match_names(match) if match is not None else None
    form, result = answer(args, sheet, names)
    sheet, asked, errors = form.sheet, form.asked, form.errors_by_name()
    verdict = (verdict_of(result, not asked.sequence)
               if asked and result and result.steps else None)
    # Outside a match every seat the game allows is on the page; those past the table
    # size stay hidden until the players choice grows (app.js).
    seats = names or [f"Seat {n}" for n in range(1, sheet.game_info.max_players + 1)]
    return render_template(
        "check/index.html", form=form, field_text=field_text, args=args, sheet=sheet, match=match,
        seats=seats,
        seat_count=len(names) if names else _players(args, sheet), suits=SUITS,
        owed_choices=[(str(n), str(n)) for n in OWED_CHOICES],
        game_choices=[(k, g.name) for k, g in GAMES.items()],
        rule_titles=dict(sheet.game_info.sections), asked=asked, result=result, errors=errors,
        verdict=verdict, suit_keys=suit_keys(form, verdict, args) if verdict else [],
        branches=branches(form, result, args) if result else [],
        notes=assumptions(result, asked.lines, asked.question.names or ())
        if asked and result and verdict else [],
        query=urlencode(list(args.items(multi=True))),
        saved=match is not None and asked is not None and _saved(match, asked),
        advanced_open=bool(args.get("events") or args.get("dealer")) or any(
            (v or "").strip() for k, v in args.items() if k.startswith("hold-")) or any(
            f in ADVANCED or f.startswith(("opt-", "hold-")) for f in errors),
    ), (400 if errors else 200)


def _saved(match: MatchView, asked: Asked) -> bool:
    """Whether this very ruling is already in the match record for the coming hand, so
    the page says so instead of offering to save it again."""
    return is_saved(match, json.dumps(asked.question.to_json()))


def _players(args: MultiDict[str, str], sheet: Sheet) -> int:
    info = sheet.game_info
    raw = args.get("players", "")
    n = int(raw) if raw.isdigit() and len(raw) < 3 else 4
    return min(max(n, info.min_players), info.max_players)


@bp.get("/check", strict_slashes=False)
def index():
    """The checker for any sheet (game and options in the query string)."""
    return _render(request.args, None, None)


@bp.get(MATCH)
def for_match(group_id: int, match_id: int):
    """The checker inside a match: its sheet and seat names; a member may save."""
    match = access.member_board(group_id, match_id)[1]
    return _render(request.args, match_sheet(match), match)


@bp.post(MATCH)
def save(group_id: int, match_id: int):
    """Save the ruling the form describes to the match record (judged again here)."""
    group, match = access.member_board(group_id, match_id)
    args = MultiDict([(k, v) for k, v in request.form.items(multi=True) if k != "csrf_token"])
    form, result = answer(args, match_sheet(match), match_names(match))
    asked = form.asked
    back = url_for("check.for_match", group_id=group.id, match_id=match.id)
    back += "?" + urlencode(list(args.items(multi=True))) + "#answer"
    if asked is None or result is None or not result.steps:
        flash("Nothing to save: check a play first.")
        return redirect(back)
    v = verdict_of(result).verdict
    save_ruling(match, asked.words, v.legal, v.reason, v.rule,
                json.dumps(asked.question.to_json()))
    flash("Ruling saved to the match record.")
    return redirect(back)
