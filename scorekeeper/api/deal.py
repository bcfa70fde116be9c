"""``GET /api/v1/deal``: how many cards each, how many decks, what stays in the stock."""

from __future__ import annotations

from flask import Blueprint, jsonify, request

from scorekeeper.api.common import (
    COUNT_SCHEMA,
    MAX_SEATS,
    MIN_SEATS,
    SEAT_SCHEMA,
    error_response,
    ok_response,
)
from scorekeeper.core.deal import plan_deal
from scorekeeper.core.errors import InputError
from scorekeeper.core.sheets import GAMES, OPTIONS

bp = Blueprint("api_deal", __name__)

MAX_DIGITS = 3
PARAMETERS = ("game", "players", "hand_size", "counts", "dealer")


def _whole(field: str, required: bool = False) -> int | None:
    """A query parameter as a small whole number (or None when absent), else 400."""
    raw = request.args.get(field)
    if raw is None:
        if required:
            raise InputError(f"{field} is required", field)
        return None
    text = raw.strip()
    if not text.isascii() or not text.isdigit() or len(text) > MAX_DIGITS:
        raise InputError(f"{field} must be a whole number from 0 to 999, not {raw!r}", field)
    return int(text)


def _counts() -> list[int] | None:
    raw = request.args.get("counts")
    if raw is None:
        return None
    parts = [p.strip() for p in raw.split(",")]
    if not all(p.isascii() and p.isdigit() and len(p) <= MAX_DIGITS for p in parts):
        raise InputError(f"counts must be whole numbers separated by commas, e.g. 8,7,5, "
                       f"not {raw!r}", "counts")
    return [int(p) for p in parts]


@bp.get("/deal")
def deal():
    """Plan a deal; 400 names the query parameter at fault."""
    game = request.args.get("game")
    if not game:
        raise InputError("game is required: " + ", ".join(GAMES), "game")
    players = _whole("players", required=True)
    plan = plan_deal(game, players, hand_size=_whole("hand_size"), counts=_counts(),
                     dealer=_whole("dealer"))
    return jsonify(plan.to_dict())


_INT = {"type": "integer"}
_SEAT = {"type": ["integer", "null"], "minimum": 0}

SCHEMAS = {
    "DealPlan": {
        "type": "object",
        "required": ["game", "players", "cards_each", "decks", "jokers", "deck_size",
                     "cards_dealt", "stock_after_upcard", "dealer", "first_player",
                     "warnings"],
        "properties": {
            "game": {"type": "string", "enum": list(GAMES)},
            "players": _INT,
            "cards_each": {"type": "array", "items": _INT,
                           "description": "Cards dealt to each seat, in seat order."},
            "decks": {**_INT, "description": "52-card decks shuffled together."},
            "jokers": _INT,
            "deck_size": _INT,
            "cards_dealt": _INT,
            "stock_after_upcard": {**_INT, "description": "Face-down cards left to draw."},
            "dealer": {**_SEAT, "description": "The dealing seat, as given."},
            "first_player": {**_SEAT, "description": "The seat on the dealer's left."},
            "warnings": {"type": "array", "items": {"type": "string"},
                         "description": "Deals that work but barely (a tiny stock, 9 each)."},
        },
    },
}


def _param(name: str, schema: dict, description: str, required: bool = False) -> dict:
    return {"name": name, "in": "query", "required": required, "schema": schema,
            "description": description}


PATHS = {
    "/api/v1/deal": {
        "get": {
            "summary": "How many cards each, how many decks, and who plays first",
            "operationId": "planDeal",
            "parameters": [
                _param("game", {"type": "string", "enum": list(GAMES)}, "The game.", True),
                _param("players", {"type": "integer", "minimum": MIN_SEATS,
                                   "maximum": MAX_SEATS},
                       "Players in the hand (Last One seats 2–6, the others 2–7).", True),
                _param("hand_size", {"type": "integer", "minimum": OPTIONS["hand_size"].minimum,
                                     "maximum": OPTIONS["hand_size"].maximum},
                       "Last One only: cards each (default 7)."),
                {**_param("counts", {"type": "array", "items": COUNT_SCHEMA},
                          "Countdown only: each player's count in seat order, e.g. 8,7,5 "
                          "(default 8 each)."),
                 "style": "form", "explode": False},
                _param("dealer", SEAT_SCHEMA,
                       "The dealing seat, 0-based; the answer then names the first player."),
            ],
            "responses": {
                "200": ok_response("DealPlan", "The deal"),
                "400": error_response("A deal that cannot work or a bad parameter; "
                                      "error.field names the query parameter"),
            },
        }
    }
}
