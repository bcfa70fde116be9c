"""``/api/v1/matches/{id}/hands``: record, edit and delete a match's hands.

Bodies name seats by index (0 is the first seat, clockwise). ``held`` gives the cards
each seat still holds, as an object keyed by seat index or a list with one entry per
seat; the seat that went out and seats already out of the match may be left out.
A hand number that is not the next one (stale, or just recorded from another phone)
is a 409 whose body carries the number to use.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, jsonify
from sqlalchemy.orm.exc import StaleDataError

from ..cards import Card, CardError, parse_cards
from ..errors import api_error
from ..extensions import db
from ..models import Match
from ..records import (
    ConflictError,
    RecordError,
    delete_last_hand,
    edit_hand,
    match_names,
    match_standings,
    record_hand,
)
from .auth import AUTH_RESPONSES, MAX_ID, SECURITY, bearer_group, id_in_range, id_param
from .common import ApiError, error_response, json_body, json_object, ok_response
from .matches import group_match, match_json

bp = Blueprint("api_hands", __name__)

Held = list[list[Card]]


def _parse_out(data: dict[str, Any], seats: int) -> int | None:
    out, blocked = data.get("out"), data.get("blocked", False)
    if not isinstance(blocked, bool):
        raise ApiError("blocked must be true or false", "blocked")
    if out is None:
        if not blocked:
            raise ApiError("say which seat went out, or set blocked to true", "out")
        return None
    if blocked:
        raise ApiError("a blocked hand has nobody who went out", "blocked")
    if not isinstance(out, int) or isinstance(out, bool) or not 0 <= out < seats:
        raise ApiError(f"out must be a seat index from 0 to {seats - 1}, not {out!r}", "out")
    return out


def _entries(data: Any, seats: int) -> dict[int, Any]:
    """``held`` as ``{seat index: raw entry}``; unknown seats are refused."""
    if isinstance(data, list):
        if len(data) != seats:
            raise ApiError(f"held must list the cards of all {seats} seats", "held")
        return dict(enumerate(data))
    if not isinstance(data, dict):
        raise ApiError("held must map each seat index to the cards it holds", "held")
    entries = {}
    for key, value in data.items():
        if not (key.isascii() and key.isdigit() and len(key) <= 2 and int(key) < seats):
            raise ApiError(f"{key!r} is not a seat index of this match", f"held.{key}")
        entries[int(key)] = value
    return entries


def _parse_held(data: Any, match: Match, out: int | None, number: int) -> Held:
    """Each seat's cards; a seat out of the match (before this hand) may be omitted."""
    names = match_names(match)
    fallen = match_standings(match).eliminated
    entries = _entries(data, len(names))
    held = []
    for seat, name in enumerate(names):
        optional = seat == out or fallen.get(seat, number) < number
        text = entries.get(seat, "" if optional else None)
        if text is None:
            raise ApiError(f"the cards {name} holds are missing", f"held.{seat}")
        if not isinstance(text, str) and not (
                isinstance(text, list) and all(isinstance(t, str) for t in text)):
            raise ApiError("cards must be text like '8s kh 7d'", f"held.{seat}")
        try:
            held.append(parse_cards(text))
        except CardError as exc:
            raise ApiError(f"{name}: {exc}", f"held.{seat}") from None
    return held


def _hand_size(data: dict[str, Any]) -> int | None:
    size = data.get("hand_size")
    if size is not None and (not isinstance(size, int) or isinstance(size, bool)):
        raise ApiError("hand_size must be a whole number of cards", "hand_size")
    return size


def _conflict(match: Match, message: str):
    next_hand = None if match.status == "finished" else len(match.hands) + 1
    return api_error(409, message, "number", next_hand=next_hand)


def _write(match: Match, action: Callable[[], object], status: int = 200):
    """Run a records write; answer with the match, or the error by cause."""
    try:
        action()
    except ConflictError as exc:
        db.session.rollback()
        return _conflict(match, str(exc))
    except StaleDataError:  # the hand was changed or deleted from another phone meanwhile
        db.session.rollback()
        return _conflict(match, "the match changed on another phone; reload and try again")
    except RecordError as exc:
        db.session.rollback()
        field = {"cards": "held"}.get(exc.field, exc.field.replace("seat-", "held."))
        raise ApiError(str(exc), field) from None
    return jsonify(match_json(match)), status


def _hand_body(match: Match, number: int) -> tuple[int | None, Held, int | None]:
    data = json_object()
    out = _parse_out(data, len(match.seats))
    return out, _parse_held(data.get("held"), match, out, number), _hand_size(data)


@bp.post("/matches/<int:match_id>/hands")
def record(match_id: int):
    """Record the next hand; 201 with the match, 409 if ``number`` is not the next."""
    match = group_match(bearer_group(), match_id)
    number = id_in_range(json_object().get("number"), "number")
    out, held, size = _hand_body(match, number)
    return _write(match, lambda: record_hand(match, number, out, held, size), 201)


def _existing(match_id: int, number: int) -> Match:
    match = group_match(bearer_group(), match_id)
    id_in_range(number, "hand", 404)
    if number > len(match.hands):
        raise ApiError(f"there is no hand {number} in this match", "number", 404)
    return match


@bp.put("/matches/<int:match_id>/hands/<int:number>")
def edit(match_id: int, number: int):
    """Replace a recorded hand; every later hand's points and dealer are re-derived."""
    match = _existing(match_id, number)
    out, held, size = _hand_body(match, number)
    return _write(match, lambda: edit_hand(match, number, out, held, size))


@bp.delete("/matches/<int:match_id>/hands/<int:number>")
def delete(match_id: int, number: int):
    """Delete the last hand; any earlier number is a 409."""
    match = _existing(match_id, number)
    if number != len(match.hands):
        return _conflict(match, f"only the last hand ({len(match.hands)}) can be deleted")
    return _write(match, lambda: delete_last_hand(match))


_CARDS = {"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}],
          "description": "Cards like \"8s kh 7d\", or one card per item."}
_HAND_FIELDS = {
    "out": {"type": ["integer", "null"], "minimum": 0,
            "description": "Seat index of who went out; null when blocked/jammed."},
    "blocked": {"type": "boolean", "default": False},
    "held": {"oneOf": [{"type": "object", "additionalProperties": _CARDS},
                       {"type": "array", "items": _CARDS}],
             "description": "Cards each seat holds, by seat index (object keys are the "
                            "index as text) or a list with one entry per seat."},
    "hand_size": {"type": ["integer", "null"], "minimum": 4, "maximum": 9,
                  "description": "Last One: this hand's own deal size."},
}

SCHEMAS = {
    "HandEntry": {"type": "object", "required": ["held"], "properties": _HAND_FIELDS},
    "NewHand": {
        "type": "object",
        "required": ["number", "held"],
        "properties": {
            "number": {"type": "integer", "minimum": 1, "maximum": MAX_ID,
                       "description": "The hand being recorded: the match's next_hand."},
            **_HAND_FIELDS,
        },
    },
    "Conflict": {
        "type": "object",
        "required": ["error"],
        "properties": {"error": {
            "type": "object",
            "required": ["status", "message", "next_hand"],
            "properties": {
                "status": {"type": "integer"},
                "message": {"type": "string"},
                "field": {"type": "string"},
                "next_hand": {"type": ["integer", "null"],
                              "description": "The number the next hand must use; "
                                             "null when the match is over."},
            },
        }},
    },
}

_MATCH = id_param("match_id", "The match's id")
_NUMBER = id_param("number", "The hand's number, from 1")
_BAD_HAND = error_response("Bad cards, seats or hand size; error.field names the input "
                           "(held.<seat>, out, blocked, hand_size, number)")

PATHS = {
    "/api/v1/matches/{match_id}/hands": {
        "post": {
            "summary": "Record the match's next hand",
            "operationId": "recordHand",
            "security": SECURITY,
            "parameters": [_MATCH],
            "requestBody": json_body("NewHand"),
            "responses": {
                "201": ok_response("Match", "Recorded; the match with new standings"),
                "400": _BAD_HAND,
                **AUTH_RESPONSES,
                "409": ok_response("Conflict", "That number is not the next hand (stale "
                                   "or just recorded from another phone); nothing stored"),
            },
        }
    },
    "/api/v1/matches/{match_id}/hands/{number}": {
        "put": {
            "summary": "Replace a recorded hand",
            "operationId": "editHand",
            "security": SECURITY,
            "parameters": [_MATCH, _NUMBER],
            "requestBody": json_body("HandEntry"),
            "responses": {
                "200": ok_response("Match", "Edited; the match with re-derived standings"),
                "400": _BAD_HAND,
                **AUTH_RESPONSES,
                "409": ok_response("Conflict", "The hand changed on another phone meanwhile"),
            },
        },
        "delete": {
            "summary": "Delete the match's last hand",
            "operationId": "deleteHand",
            "security": SECURITY,
            "parameters": [_MATCH, _NUMBER],
            "responses": {
                "200": ok_response("Match", "Deleted; the match with re-derived standings"),
                "400": error_response("The hand cannot be deleted"),
                **AUTH_RESPONSES,
                "409": ok_response("Conflict", "Not the last hand, or it changed meanwhile"),
            },
        },
    },
}
