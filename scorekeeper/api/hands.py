"""``/api/v1/matches/{id}/hands``: record, edit and delete a match's hands.

Request bodies are read by :mod:`.hand_body`; the OpenAPI fragments are in
:mod:`.hands_openapi`. A hand number that is not the next one (stale, or just recorded
from another phone) is a 409 whose body carries the number to use. A new hand sent
with an ``Idempotency-Key`` header is stored once: the same key and body again get the
first answer (status and body), the same key with another body a 422.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from scorekeeper.api.auth import id_in_range
from scorekeeper.api.common import api_error, json_object
from scorekeeper.api.hand_body import hand_body
from scorekeeper.api.hands_openapi import PATHS, SCHEMAS
from scorekeeper.api.match_data import recorded_json, stored_hand_json
from scorekeeper.api.matches import bearer_board, match_json
from scorekeeper.core.errors import ConflictError, InputError, NotFoundError, SameHandError
from scorekeeper.store import match_views
from scorekeeper.store.idempotency import Answered, clean_key, earlier_answer, request_digest
from scorekeeper.store.match_views import HandView, MatchView, match_hand
from scorekeeper.store.records import Written, delete_last_hand, edit_hand, record_hand
from scorekeeper.store.transaction import discard

__all__ = ["PATHS", "SCHEMAS", "bp"]

bp = Blueprint("api_hands", __name__)


def _next_hand(match: MatchView) -> int | None:
    return None if match.status == "finished" else match.hand_count + 1


def _conflict(match: MatchView, message: str):
    return api_error(409, message, "number", next_hand=_next_hand(match))


def _same_as(match: MatchView, exc: SameHandError):
    """The writer's question: this looks like hand ``exc.hand`` (shown whole, so a
    client can put the two side by side); nothing was stored. ``match`` is as stored
    now: the hand asked about may have been recorded by another phone during this
    request, and the next number offered must be free."""
    stored = match_hand(match, exc.hand)
    return api_error(409, exc.message, exc.field, code=exc.code, hand=exc.hand,
                     next_hand=_next_hand(match),
                     same_hand=None if stored is None else stored_hand_json(match, stored))


CONFIRMED = "same_as_confirmed"


def _confirmed(data: dict) -> bool:
    """The body's answer to the same-hand question: recorded even if it looks like a
    hand already in the match."""
    value = data.get(CONFIRMED, False)
    if not isinstance(value, bool):
        raise InputError(f"{CONFIRMED} must be true or false", CONFIRMED)
    return value


def _replay(hand: Answered) -> Response:
    """The answer stored with a hand recorded under an idempotency key."""
    response = Response(hand.reply_json, 201, mimetype="application/json")
    response.headers["Location"] = f"/api/v1/matches/{hand.match_id}/hands/{hand.number}"
    return response


def _reply(match: MatchView, hand: HandView) -> str:
    """The body of a 201 for a new hand, as kept for a resent request."""
    return current_app.json.dumps(recorded_json(match, hand)) + "\n"


def _recorded(written: Written):
    """The answer to a new hand: the one kept with its key, else the hand and the
    standings after it."""
    match, (hand,) = written.match, written.hands
    if written.reply_json is not None:
        return _replay(Answered(match.id, hand.number, written.reply_json))
    return jsonify(recorded_json(match, hand)), 201


def _rewritten(written: Written):
    """The answer to an edit or a delete: the whole match with its hands as now stored."""
    return jsonify(match_json(written.match, written.hands)), 200


def _write(match: MatchView, action: Callable[[], Written],
           answer: Callable[[Written], Any] = _rewritten,
           key: tuple[str | None, str | None] = (None, None)):
    """Run a records write and give its ``answer``, or the error by cause.

    ``key`` is a new hand's idempotency key and request digest: when the write loses
    a race to the same request sent twice at once, the winner's answer is given."""
    try:
        written = action()
    except SameHandError as exc:  # or this very request, stored meanwhile by a resend
        discard()
        done = earlier_answer(match, *key)
        return _replay(done) if done else _same_as(match_views.reread(match), exc)
    except ConflictError as exc:
        discard()
        done = earlier_answer(match, *key)
        return _replay(done) if done else _conflict(match_views.reread(match), str(exc))
    except InputError as exc:  # its field is the request's path already (``held.2``)
        discard()
        if exc.field is None:
            raise InputError(exc.message, "held") from None
        raise
    return answer(written)


@bp.post("/matches/<int:match_id>/hands")
def record(match_id: int):
    """Record the next hand; 201 with that hand and the standings, 409 if ``number`` is
    not the next or the hand looks like one recorded (unless the body confirms it).

    With an ``Idempotency-Key``, a request already answered gets that answer again."""
    match = bearer_board(match_id)
    data = json_object()
    key = clean_key(request.headers.get("Idempotency-Key"), "Idempotency-Key")
    digest = request_digest(data) if key else None
    done = earlier_answer(match, key, digest)
    if done is not None:
        return _replay(done)
    number = id_in_range(data.get("number"), "number")
    out, held, size = hand_body(match, number)
    confirmed = _confirmed(data)
    reply = _reply if key else None
    return _write(match, lambda: record_hand(match, number, out, held, size, key=key,
                                             digest=digest, reply=reply,
                                             same_as_confirmed=confirmed),
                  _recorded, (key, digest))


def _existing(match_id: int, number: int) -> MatchView:
    match = bearer_board(match_id)
    id_in_range(number, "hand", 404)
    if number > match.hand_count:
        raise NotFoundError(f"there is no hand {number} in this match", "number")
    return match


def _changed_since(match: MatchView, version: object) -> bool:
    """Whether the client loaded an older version of the match than the stored one.

    ``version`` is optional (absent: no check); given, it must be a positive whole number.
    """
    if version is None:
        return False
    if isinstance(version, str) and version.isdigit():  # from the query string
        version = int(version)
    return id_in_range(version, "version") != match.version


_CHANGED = "the match changed on another phone since you loaded it; nothing was stored"


@bp.put("/matches/<int:match_id>/hands/<int:number>")
def edit(match_id: int, number: int):
    """Replace a recorded hand; every later hand's points and dealer are re-derived."""
    match = _existing(match_id, number)
    out, held, size = hand_body(match, number)
    if _changed_since(match, json_object().get("version")):
        return _conflict(match, _CHANGED)
    return _write(match, lambda: edit_hand(match, number, out, held, size))


@bp.delete("/matches/<int:match_id>/hands/<int:number>")
def delete(match_id: int, number: int):
    """Delete the last hand; any earlier number is a 409."""
    match = _existing(match_id, number)
    if _changed_since(match, request.args.get("version")):
        return _conflict(match, _CHANGED)
    if number != match.hand_count:
        return _conflict(match, f"only the last hand ({match.hand_count}) can be deleted")
    return _write(match, lambda: delete_last_hand(match))
