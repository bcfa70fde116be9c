"""Hands: record the next one, fix any past one, delete the last one (Post/Redirect/Get)."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for

from scorekeeper.core.errors import ConflictError, InputError, SameHandError
from scorekeeper.core.text import sentence
from scorekeeper.store.idempotency import KeyReuseError
from scorekeeper.store.match_views import GroupView, HandView, MatchView, match_hand, reread
from scorekeeper.store.reading import current_standings, match_names, match_sheet
from scorekeeper.store.records import delete_last_hand, edit_hand, record_hand
from scorekeeper.web import access
from scorekeeper.web.confirm import asks_first
from scorekeeper.web.hands.clash import (
    RACED_DELETE,
    changed_since,
    delete_clash,
    delete_stale,
    edit_clash,
    entered,
    recorded_clash,
    side_by_side,
)
from scorekeeper.web.hands.forms import HandForm, edit_data, form_values, hand_form
from scorekeeper.web.hands.once import KEY_FIELD, already_recorded, form_key, new_key
from scorekeeper.web.scoreboard import board, hand_news

bp = Blueprint("hands", __name__, url_prefix="/groups/<int:group_id>/matches/<int:match_id>/hands")


def _load(group_id: int, match_id: int) -> tuple[GroupView, MatchView]:
    return access.member_board(group_id, match_id)


def _form(match: MatchView, in_play: tuple[bool, ...], formdata=None, data=None) -> HandForm:
    return hand_form(match_sheet(match), match_names(match), in_play, formdata, data)


def _render(group: GroupView, match: MatchView, number: int, form: HandForm, editing: bool,
            status: int = 200, key: str | None = None):
    """The hand form; a new hand's form keeps the idempotency key it was sent with (a
    re-shown form is the same hand), or gets a fresh one."""
    context = board(match)
    sheet = context["sheet"]
    return render_template("hands/form.html", group=group, number=number, form=form,
                           editing=editing, in_play=form.in_play,
                           deck=sheet.game_info.deck(sum(form.in_play)),
                           idempotency_key=key or request.form.get(KEY_FIELD) or new_key(),
                           **context), status


@bp.route("/new", methods=["GET", "POST"])
def new(group_id: int, match_id: int):
    """Record the next hand; a stale or clashing form is told what happened instead."""
    group, match = _load(group_id, match_id)
    number = match.hand_count + 1
    if request.method == "POST":
        sent_before = _sent_before(group, match)
        if sent_before is not None:
            return sent_before
    if match.status == "finished":
        flash("The match is over: start a rematch to play on.", "error")
        return redirect(url_for("matches.show", group_id=group.id, match_id=match.id))
    in_play = current_standings(match).in_play
    if request.method == "GET":
        return _render(group, match, number, _form(match, in_play, data={"number": number}),
                       False)
    form = _form(match, in_play, request.form)
    if form.validate():
        key, digest = form_key(request.form)
        try:
            saved = record_hand(match, form.number.data, form.out_seat, form.held(),
                                form.hand_size.size, key=key, digest=digest,
                                same_as_confirmed=form.same_as_confirmed.data)
        except SameHandError as exc:
            return _same_hand(group, reread(match), form, exc.hand)
        except ConflictError:
            return _conflict(group, match, form)
        except InputError as exc:
            form.refuse(exc.field, sentence(exc))
        else:
            flash(hand_news(saved.match, form.number.data))
            return redirect(url_for("matches.show", group_id=group.id, match_id=match.id))
    return _render(group, match, number, form, False, 400)


BAD_KEY = ("This form's hidden idempotency_key is damaged (at most 80 characters, no "
           "spaces); nothing was saved. Reload the page and enter the hand again.")


def _sent_before(group: GroupView, match: MatchView):
    """The answer for a form whose key is spent: the same result as its first send, or
    (its key used for another hand: an old form reused) the clash, nothing saved."""
    try:
        done = already_recorded(match, request.form)
    except KeyReuseError:
        return _clash(group, match, "Not saved: this form was already used to record a "
                      "hand, so it is out of date. Here is the current score. What you "
                      f"entered: {entered(match, request.form)}.")
    except InputError:
        form = _form(match, current_standings(match).in_play, request.form)
        form.validate()
        form.refuse("number", BAD_KEY)
        return _render(group, match, match.hand_count + 1, form, False, 400, key=new_key())
    if done is None:
        return None
    flash(hand_news(match, done.number))
    return redirect(url_for("matches.show", group_id=group.id, match_id=match.id))


def _conflict(group: GroupView, match: MatchView, form: HandForm):
    """Another phone recorded this hand's number first: show the current state."""
    return _clash(group, match, recorded_clash(match, form.number.data, request.form))


# Fields the same-hand page does not carry over into its "record it anyway" form.
_NOT_CARRIED = {"csrf_token", "number", "same_as_confirmed"}


def _same_hand(group: GroupView, match: MatchView, form: HandForm, twin: int):
    """The writer's question as a page (409, nothing stored): the hand recorded as
    ``twin`` beside this one, "It's the same hand — discard mine" first, and a second,
    deliberate button that records it anyway as the next hand. ``match`` is as
    stored now (the hand asked about may be newer than the form's request)."""
    stored = match_hand(match, twin)
    if stored is None:  # deleted since the writer looked: nothing left to ask about
        return _conflict(group, match, form)
    carried = [(name, value) for name, value in request.form.items(multi=True)
               if name not in _NOT_CARRIED]
    next_hand = None if match.status == "finished" else match.hand_count + 1
    return render_template("hands/same.html", group=group, match=match, twin=twin,
                           number=form.number.data, next_hand=next_hand, carried=carried,
                           pairs=side_by_side(match, stored, form.out_seat, form.held()),
                           action=url_for("hands.new", group_id=group.id, match_id=match.id),
                           scoreboard=url_for("matches.show", group_id=group.id,
                                              match_id=match.id)), 409


def _clash(group: GroupView, match: MatchView, message: str):
    """Nothing was saved: back to the scoreboard, as it stands now, with the reason."""
    flash(message, "error")
    return redirect(url_for("matches.show", group_id=group.id, match_id=match.id))


@bp.route("/<int:number>", methods=["GET", "POST"])
def edit(group_id: int, match_id: int, number: int):
    """See a past hand's cards and fix them; standings are recomputed from all hands.

    The form carries the match's version: if another phone changed the match since it
    was shown, nothing is saved and the person is shown the current state."""
    group, match = _load(group_id, match_id)
    if request.method == "GET":
        form = _form(match, _in_play_at(match, number), data=form_values(_stored(match, number)))
        return _render(group, match, number, form, True)
    if _moved_on(match, number):
        return _clash(group, match, edit_clash(match, number, request.form))
    form = _form(match, _in_play_at(match, number), edit_data(request.form, number))
    if form.validate():
        try:
            edited = edit_hand(match, number, form.out_seat, form.held(), form.hand_size.size)
        except ConflictError:
            return _clash(group, match, edit_clash(reread(match), number, request.form))
        except InputError as exc:
            form.refuse(exc.field, sentence(exc))
        else:
            flash(_edit_news(number, match, edited.match))
            return redirect(url_for("matches.show", group_id=group.id, match_id=match.id))
    return _render(group, match, number, form, True, 400)


def _stored(match: MatchView, number: int) -> HandView:
    """Hand ``number`` as stored, else 404."""
    stored = match_hand(match, number) if 1 <= number <= match.hand_count else None
    if stored is None:  # never recorded, or deleted since the view was read
        abort(404, f"There is no hand {number} in this match.")
    return stored


def _moved_on(match: MatchView, number: int) -> bool:
    """Whether a sent edit form is stale: its hand is gone or the match changed since
    it was shown. A hand that never was, sent without a version, is a 404."""
    exists = 1 <= number <= match.hand_count
    if not exists and "version" not in request.form:
        abort(404, f"There is no hand {number} in this match.")
    return not exists or changed_since(match, request.form)


def _edit_news(number: int, before: MatchView, after: MatchView) -> str:
    """What the scoreboard says after an edit: the hand, and a finished match opened."""
    message = f"Hand {number} updated; totals recomputed."
    if before.status == "finished" and after.status != "finished":
        message += " The match is open again."
    return message


def _in_play_at(match: MatchView, number: int) -> tuple[bool, ...]:
    """Seats that were still in the match when hand ``number`` was dealt."""
    st = current_standings(match)
    return tuple(s not in st.eliminated or st.eliminated[s] >= number
                 for s in range(len(match.seats)))


@bp.post("/last/delete")
def delete_last(group_id: int, match_id: int):
    """Delete the newest hand (the way to undo a hand recorded by mistake); the button
    names the hand it deletes, so a hand recorded meanwhile on another phone is safe."""
    group, match = _load(group_id, match_id)
    shown = request.args.get("number", "")
    board_url = url_for("matches.show", group_id=group.id, match_id=match.id)
    question = asks_first(f"Delete hand {shown or match.hand_count}? Its cards and points "
                          "are removed and the totals recomputed.",
                          f"Delete hand {shown or match.hand_count}", board_url)
    if question:
        return question
    if delete_stale(match, shown):
        return _clash(group, match, delete_clash(match, shown))
    try:
        delete_last_hand(match)  # the newest: hand match.hand_count, as the view read it
    except ConflictError:
        return _clash(group, match, RACED_DELETE)
    except InputError as exc:
        flash(sentence(exc), "error")
    else:
        flash(f"Hand {match.hand_count} deleted; totals recomputed.")
    return redirect(board_url)
