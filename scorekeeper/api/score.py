"""``POST /api/v1/score``: score one hand from the cards left in players' hands."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify

from scorekeeper.api.common import (
    MAX_SEATS,
    MIN_SEATS,
    error_response,
    json_body,
    json_object,
    ok_response,
    out_or_blocked,
    out_or_blocked_schema,
    seat_cards,
)
from scorekeeper.api.sheet_openapi import SHEET_SCHEMA
from scorekeeper.core.errors import InputError
from scorekeeper.core.scoring import HandResult, ScoringError, check_hand, score_hand
from scorekeeper.core.sheets import Sheet, read_sheet

bp = Blueprint("api_score", __name__)

MAX_NAME = 40


def parse_seats(data: Any, sheet: Sheet) -> list[str]:
    """Distinct, non-empty seat names within the game's table size, or 400."""
    info = sheet.game_info
    if not isinstance(data, list) or not all(isinstance(n, str) for n in data):
        raise InputError("seats must be a list of player names", "seats")
    names = [n.strip() for n in data]
    problem = info.players_problem(len(names))
    if problem:
        raise InputError(problem, "seats")
    if any(not n or len(n) > MAX_NAME for n in names):
        raise InputError(f"every seat needs a name of 1 to {MAX_NAME} characters", "seats")
    if len(set(names)) != len(names):
        raise InputError("seat names must be different", "seats")
    return names


def _parse_out(data: dict[str, Any], names: list[str]) -> int | None:
    out = out_or_blocked(data)
    if out is None:
        return None
    if not isinstance(out, str) or out.strip() not in names:
        raise InputError(f"out must be one of the seats, not {out!r}", "out")
    return names.index(out.strip())


def _parse_remaining(data: Any, names: list[str], out: int | None) -> list[list]:
    if not isinstance(data, dict):
        raise InputError("remaining must map each seat name to the cards they hold", "remaining")
    for name in data:
        if name.strip() not in names:
            raise InputError(f"{name!r} is not one of the seats", f"remaining.{name}")
    by_name = {name.strip(): text for name, text in data.items()}
    held = []
    for seat, name in enumerate(names):
        text = by_name.get(name, "" if seat == out else None)
        held.append(seat_cards(text, name, f"remaining.{name}"))
    return held


@bp.post("/score")
def score():
    """Score one hand under a sheet; 400 names the field at fault."""
    data = json_object()
    sheet = read_sheet(data.get("sheet"))
    names = parse_seats(data.get("seats"), sheet)
    out = _parse_out(data, names)
    held = _parse_remaining(data.get("remaining"), names, out)
    result = HandResult.of(out, held)
    try:
        check_hand(sheet, names, result)
    except ScoringError as exc:  # a seat's cards are keyed by its name here
        field = "out" if exc.field == "out" else "remaining"
        if exc.seat is not None:
            field = f"remaining.{names[exc.seat]}"
        raise InputError(str(exc), field) from None
    scored = score_hand(sheet, result.held, out)
    return jsonify(
        points={n: scored.points[s] for s, n in enumerate(names)},
        card_points={n: sum(p for _, p in scored.breakdown[s]) for s, n in enumerate(names)},
        breakdown={
            n: [{"card": str(c), "points": p} for c, p in scored.breakdown[s]]
            for s, n in enumerate(names)
        },
        notes={n: scored.notes[s] for s, n in enumerate(names) if scored.notes[s]},
    )


SCHEMAS = {
    "Sheet": SHEET_SCHEMA,
    "ScoreRequest": {
        "type": "object",
        "required": ["sheet", "seats", "remaining"],
        "properties": {
            "sheet": {"$ref": "#/components/schemas/Sheet"},
            "seats": {"type": "array", "items": {"type": "string", "minLength": 1,
                                                  "maxLength": MAX_NAME},
                      "minItems": MIN_SEATS, "maxItems": MAX_SEATS, "uniqueItems": True,
                      "description": "Clockwise order; each name once (compared after "
                                     "trimming)."},
            "out": {"type": ["string", "null"], "description": "Who went out; null if blocked."},
            "blocked": {"type": "boolean", "default": False},
            "remaining": {"type": "object", "additionalProperties": {"type": "string"},
                          "description": "Cards each seat holds, e.g. \"8s kh 7d\"."},
        },
        "anyOf": out_or_blocked_schema({"type": "string"}),
    },
    "ScoreResponse": {
        "type": "object",
        "required": ["points", "card_points", "breakdown", "notes"],
        "properties": {
            "points": {"type": "object", "additionalProperties": {"type": "integer"}},
            "card_points": {"type": "object", "additionalProperties": {"type": "integer"},
                            "description": "What each seat's cards count (its breakdown "
                                           "summed), before a rule such as the lone card "
                                           "or going out decides its points."},
            "breakdown": {
                "type": "object",
                "additionalProperties": {
                    "type": "array",
                    "items": {"type": "object", "required": ["card", "points"],
                              "properties": {"card": {"type": "string"},
                                             "points": {"type": "integer"}}},
                },
            },
            "notes": {"type": "object", "additionalProperties": {"type": "string"}},
        },
    },
}

PATHS = {
    "/api/v1/score": {
        "post": {
            "summary": "Score one hand from the cards left in players' hands",
            "operationId": "scoreHand",
            "requestBody": json_body("ScoreRequest"),
            "responses": {
                "200": ok_response("ScoreResponse", "Points per seat and per card"),
                "400": error_response("Bad input; error.field names what is wrong"),
            },
        }
    }
}
