"""Hands: record the next one, fix any past one, delete the last one (Post/Redirect/Get)."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for

from scorekeeper.core.errors import InputError
from scorekeeper.core.text import sentence
from scorekeeper.store.idempotency import KeyReuseError
from scorekeeper.store.models import Group, Match
from scorekeeper.store.records import (
    ConflictError,
    RecordError,
    delete_last_hand,
    edit_hand,
    match_sheet,
    match_standings,
    record_hand,
)
from scorekeeper.web import access
from scorekeeper.web.hands.clash import (
    RACED_DELETE,
    changed_since,
    delete_clash,
    delete_stale,
    edit_clash,
    entered,
    recorded_clash,
)
from scorekeeper.web.hands.form import (
    HandInput,
    form_values,
    parse_hand,
    picker_data,
    same_as_stored,
)
from scorekeeper.web.hands.once import KEY_FIELD, already_recorded, form_key, new_key
from scorekeeper.web.matches.scoreboard import board, hand_news

bp = Blueprint("hands", __name__, url_prefix="/groups/<int:group_id>/matches/<int:match_id>/hands")


def _load(group_id: int, match_id: int) -> tuple[Group, Match]:
    group = access.current_group(group_id)
    return group, access.group_match(group, match_id)


def _render(group: Group, match: Match, number: int, form, errors: dict[str, str],
            editing: bool, status: int = 200):
    context = board(match)
    in_play = _in_play_at(match, number) if editing else context["standings"].in_play
    return render_template("hands/form.html", group=group, number=number, form=form,
                           errors=errors, editing=editing, in_play=in_play,
                           points_json=picker_data(context["sheet"]),
                           idempotency_key=form.get(KEY_FIELD) or new_key(), **context), status


@bp.route("/new", methods=["GET", "POST"])
def new(group_id: int, match_id: int):
    """Record the next hand; a stale or clashing form is told what happened instead."""
    group, match = _load(group_id, match_id)
    number = len(match.hands) + 1
    if request.method == "POST":
        sent_before = _sent_before(group, match)
        if sent_before is not None:
            return sent_before
    if match.status == "finished":
        flash("The match is over: start a rematch to play on.", "error")
        return redirect(url_for("matches.show", group_id=group.id, match_id=match.id))
    if request.method == "GET":
        return _render(group, match, number, {"number": str(number)}, {}, False)
    entry = parse_hand(request.form, match_sheet(match), match_standings(match).in_play)
    if not entry.errors:
        key, digest = form_key(request.form)
        try:
            record_hand(match, entry.number, entry.out, entry.held, entry.hand_size,
                        key=key, digest=digest)
        except ConflictError:
            return _conflict(group, match, entry)
        except RecordError as exc:
            entry.errors[exc.field or "cards"] = sentence(exc)
        else:
            flash(hand_news(match, entry.number))
            return redirect(url_for("matches.show", group_id=group.id, match_id=match.id))
    return _render(group, match, number, request.form, entry.errors, False, 400)


BAD_KEY = ("This form's hidden idempotency_key is damaged (at most 80 characters, no "
           "spaces); nothing was saved. Reload the page and enter the hand again.")


def _sent_before(group: Group, match: Match):
    """The answer for a form whose key is spent: the same result as its first send, or
    (its key used for another hand: an old form reused) the clash, nothing saved."""
    try:
        done = already_recorded(match, request.form)
    except KeyReuseError:
        return _clash(group, match, "Not saved: this form was already used to record a "
                      "hand, so it is out of date. Here is the current score. What you "
                      f"entered: {entered(match, request.form)}.")
    except InputError:
        fresh = {k: v for k, v in request.form.items() if k != KEY_FIELD}
        return _render(group, match, len(match.hands) + 1, fresh, {"number": BAD_KEY},
                       False, 400)
    if done is None:
        return None
    flash(hand_news(match, done.number))
    return redirect(url_for("matches.show", group_id=group.id, match_id=match.id))


def _conflict(group: Group, match: Match, entry: HandInput):
    """Another phone (or a double tap) recorded this hand first: show the current state."""
    stored = match.hands[entry.number - 1] if 0 < entry.number <= len(match.hands) else None
    if stored is not None and same_as_stored(stored, entry):
        flash(hand_news(match, entry.number))
        return redirect(url_for("matches.show", group_id=group.id, match_id=match.id))
    return _clash(group, match, recorded_clash(match, entry.number, request.form))


def _clash(group: Group, match: Match, message: str):
    """Nothing was saved: back to the scoreboard, as it stands now, with the reason."""
    flash(message, "error")
    return redirect(url_for("matches.show", group_id=group.id, match_id=match.id))


@bp.route("/<int:number>", methods=["GET", "POST"])
def edit(group_id: int, match_id: int, number: int):
    """See a past hand's cards and fix them; standings are recomputed from all hands.

    The form carries the match's version: if another phone changed the match since it
    was shown, nothing is saved and the person is shown the current state."""
    group, match = _load(group_id, match_id)
    exists = 1 <= number <= len(match.hands)
    if not exists and (request.method == "GET" or "version" not in request.form):
        abort(404, f"There is no hand {number} in this match.")
    if request.method == "GET":
        return _render(group, match, number, form_values(match.hands[number - 1]), {}, True)
    if not exists or changed_since(match, request.form):
        return _clash(group, match, edit_clash(match, number, request.form))
    was_over = match.status == "finished"
    entry = parse_hand(request.form, match_sheet(match), _in_play_at(match, number))
    entry.number = number
    if not entry.errors:
        try:
            edit_hand(match, number, entry.out, entry.held, entry.hand_size)
        except ConflictError:
            return _clash(group, match, edit_clash(match, number, request.form))
        except RecordError as exc:
            entry.errors[exc.field or "cards"] = sentence(exc)
        else:
            message = f"Hand {number} updated; totals recomputed."
            if was_over and match.status != "finished":
                message += " The match is open again."
            flash(message)
            return redirect(url_for("matches.show", group_id=group.id, match_id=match.id))
    return _render(group, match, number, request.form, entry.errors, True, 400)


def _in_play_at(match: Match, number: int) -> tuple[bool, ...]:
    """Seats that were still in the match when hand ``number`` was dealt."""
    st = match_standings(match)
    return tuple(s not in st.eliminated or st.eliminated[s] >= number
                 for s in range(len(match.seats)))


@bp.post("/last/delete")
def delete_last(group_id: int, match_id: int):
    """Delete the newest hand (the way to undo a hand recorded by mistake); the button
    names the hand it deletes, so a hand recorded meanwhile on another phone is safe."""
    group, match = _load(group_id, match_id)
    shown = request.args.get("number", "")
    if delete_stale(match, shown):
        return _clash(group, match, delete_clash(match, shown))
    try:
        number = delete_last_hand(match)
    except ConflictError:
        return _clash(group, match, RACED_DELETE)
    except RecordError as exc:
        flash(sentence(exc), "error")
    else:
        flash(f"Hand {number} deleted; totals recomputed.")
    return redirect(url_for("matches.show", group_id=group.id, match_id=match.id))
