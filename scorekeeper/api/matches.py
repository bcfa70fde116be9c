"""``/api/v1/matches``: start a match in the bearer token's group and read it back.

A match is shown with its seats, frozen sheet, every hand (each seat's cards in
canonical text and points) and the standings derived from those hands.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, url_for
from werkzeug.routing import BuildError

from ..deal import DealError, plan_for_sheet
from ..extensions import db
from ..forms import FieldError, clean_name
from ..models import Group, Match, Player
from ..records import RecordError, create_match, match_sheet, match_standings
from ..scoring import Standings
from ..sheets import LO, Sheet
from .auth import AUTH_RESPONSES, MAX_ID, SECURITY, bearer_group, id_in_range, id_param
from .common import ApiError, error_response, json_body, json_object, ok_response
from .score import parse_sheet

bp = Blueprint("api_matches", __name__)


def group_match(group: Group, match_id: int) -> Match:
    """A match of the group by a client's id, else 404 (another group's match too)."""
    id_in_range(match_id, "match", 404)
    match = db.session.scalar(db.select(Match).where(Match.id == match_id,
                                                     Match.group_id == group.id))
    if match is None:
        raise ApiError("no such match in this group", "match", 404)
    return match


def _players(group: Group, data: Any) -> list[Player]:
    """Seats in clockwise order from player ids or names of the group."""
    if not isinstance(data, list) or not data:
        raise ApiError("players must be a list of player ids or names, clockwise", "players")
    by_id = {p.id: p for p in group.players}
    by_name = {p.name.lower(): p for p in group.players}
    seats = []
    for item in data:
        if isinstance(item, str):
            try:
                player = by_name.get(clean_name(item, "players").lower())
            except FieldError as exc:
                raise ApiError(exc.message, exc.field) from None
        else:
            player = by_id.get(id_in_range(item, "players"))
        if player is None:
            raise ApiError(f"{item!r} is not a player of this group", "players")
        seats.append(player)
    return seats


def _check_deal(data: dict[str, Any], sheet: Sheet, players: int) -> None:
    """The pages' setup checks: nine cards needs everyone's word; the deal must fit."""
    agreed = data.get("agree_nine", False)
    if not isinstance(agreed, bool):
        raise ApiError("agree_nine must be true or false", "agree_nine")
    if sheet.game == LO and sheet["hand_size"] == 9 and not agreed:
        raise ApiError("nine cards each only when everybody agrees: send agree_nine: true",
                       "agree_nine")
    try:
        plan_for_sheet(sheet, players)
    except DealError as exc:
        field = "sheet.options.hand_size" if exc.field == "hand_size" else "players"
        raise ApiError(exc.message, field) from None


@bp.post("/matches")
def create():
    """Start a match; 201 with the match."""
    group = bearer_group()
    data = json_object()
    sheet = parse_sheet(data.get("sheet"))
    players = _players(group, data.get("players"))
    dealer = data.get("first_dealer", 0)
    if not isinstance(dealer, int) or isinstance(dealer, bool):
        raise ApiError("first_dealer must be a seat index (0 is the first seat)", "first_dealer")
    _check_deal(data, sheet, len(players))
    try:
        match = create_match(group, sheet, players, dealer)
    except RecordError as exc:
        db.session.rollback()
        raise ApiError(str(exc), exc.field) from None
    response = jsonify(match_json(match))
    response.headers["Location"] = f"/api/v1/matches/{match.id}"
    return response, 201


@bp.get("/matches/<int:match_id>")
def show(match_id: int):
    """A match with its hands and standings."""
    return jsonify(match_json(group_match(bearer_group(), match_id)))


def _view_path(match: Match) -> str | None:
    """The spectators' page, once the pages publish it."""
    try:
        return url_for("matches.view", token=match.view_token)
    except BuildError:
        return None


def standings_json(table: Standings) -> dict[str, Any]:
    """Standings as plain JSON (object keys are seat indexes as text)."""
    return {
        "totals": list(table.totals),
        "eliminated": {str(s): h for s, h in table.eliminated.items()},
        "winners": list(table.winners),
        "over": table.over,
        "reason": table.reason,
        "next_dealer": table.next_dealer,
        "next_first": table.next_first,
        "next_deal": {str(s): n for s, n in table.next_deal.items()},
        "next_hand": None if table.over else len(table.hands) + 1,
        "goal": table.goal,
        "goal_kind": table.goal_kind,
    }


def match_json(match: Match) -> dict[str, Any]:
    """A match as the API shows it."""
    seats = len(match.seats)
    hands = []
    for hand in match.hands:
        cards, points = [""] * seats, [0] * seats
        for entry in hand.entries:
            cards[entry.seat], points[entry.seat] = entry.cards, entry.points
        hands.append({"number": hand.number, "dealer": hand.dealer, "out": hand.out_seat,
                      "blocked": hand.out_seat is None, "hand_size": hand.hand_size,
                      "cards": cards, "points": points})
    return {
        "id": match.id,
        "game": match.game,
        "sheet": match_sheet(match).to_dict(),
        "status": match.status,
        "first_dealer": match.first_dealer,
        "seats": [{"seat": s.position, "player_id": s.player_id, "name": s.player.name,
                   "colour": s.player.colour} for s in match.seats],
        "hands": hands,
        "standings": standings_json(match_standings(match)),
        "view_path": _view_path(match),
    }



_INT = {"type": "integer"}
_SEAT_MAP = {"type": "object", "additionalProperties": _INT,
             "description": "Keyed by seat index as text."}

SCHEMAS = {
    "NewMatch": {
        "type": "object",
        "required": ["sheet", "players"],
        "properties": {
            "sheet": {"$ref": "#/components/schemas/Sheet"},
            "players": {
                "type": "array", "minItems": 2, "maxItems": 7,
                "items": {"oneOf": [{"type": "integer", "minimum": 1, "maximum": MAX_ID},
                                    {"type": "string", "minLength": 1}]},
                "description": "Player ids or names of the group, in clockwise seat order.",
            },
            "first_dealer": {"type": "integer", "minimum": 0, "default": 0,
                             "description": "Seat index of the first dealer."},
            "agree_nine": {"type": "boolean", "default": False,
                           "description": "Last One: everyone agreed to nine cards each."},
        },
    },
    "Standings": {
        "type": "object",
        "required": ["totals", "eliminated", "winners", "over", "reason", "next_dealer",
                     "next_first", "next_deal", "next_hand", "goal", "goal_kind"],
        "properties": {
            "totals": {"type": "array", "items": _INT,
                       "description": "Per seat: points, or Countdown counts."},
            "eliminated": {**_SEAT_MAP, "description": "Seat index → the hand it fell in."},
            "winners": {"type": "array", "items": _INT},
            "over": {"type": "boolean"},
            "reason": {"type": "string"},
            "next_dealer": {"type": ["integer", "null"]},
            "next_first": {"type": ["integer", "null"]},
            "next_deal": {**_SEAT_MAP, "description": "Seat index → cards dealt next hand."},
            "next_hand": {"type": ["integer", "null"],
                          "description": "The number the next hand must be recorded as."},
            "goal": {"type": ["integer", "null"]},
            "goal_kind": {"type": "string"},
        },
    },
    "Hand": {
        "type": "object",
        "required": ["number", "dealer", "out", "blocked", "hand_size", "cards", "points"],
        "properties": {
            "number": _INT,
            "dealer": _INT,
            "out": {"type": ["integer", "null"], "description": "Seat that went out."},
            "blocked": {"type": "boolean"},
            "hand_size": {"type": ["integer", "null"]},
            "cards": {"type": "array", "items": {"type": "string"},
                      "description": "Per seat, canonical text like \"8S KH 7D\"."},
            "points": {"type": "array", "items": _INT, "description": "Per seat."},
        },
    },
    "Match": {
        "type": "object",
        "required": ["id", "game", "sheet", "status", "first_dealer", "seats", "hands",
                     "standings", "view_path"],
        "properties": {
            "id": _INT,
            "game": {"type": "string"},
            "sheet": {"$ref": "#/components/schemas/Sheet"},
            "status": {"type": "string", "enum": ["active", "finished"]},
            "first_dealer": _INT,
            "seats": {"type": "array", "items": {
                "type": "object", "required": ["seat", "player_id", "name", "colour"],
                "properties": {"seat": _INT, "player_id": _INT, "name": {"type": "string"},
                               "colour": {"type": "string"}}}},
            "hands": {"type": "array", "items": {"$ref": "#/components/schemas/Hand"}},
            "standings": {"$ref": "#/components/schemas/Standings"},
            "view_path": {"type": ["string", "null"],
                          "description": "The read-only page for spectators."},
        },
    },
}

PATHS = {
    "/api/v1/matches": {
        "post": {
            "summary": "Start a match in the group",
            "operationId": "createMatch",
            "security": SECURITY,
            "requestBody": json_body("NewMatch"),
            "responses": {
                "201": ok_response("Match", "The new match"),
                "400": error_response("Bad sheet, players or first dealer; error.field says"),
                **AUTH_RESPONSES,
            },
        }
    },
    "/api/v1/matches/{match_id}": {
        "get": {
            "summary": "A match with its hands and standings",
            "operationId": "getMatch",
            "security": SECURITY,
            "parameters": [id_param("match_id", "The match's id")],
            "responses": {"200": ok_response("Match", "The match"), **AUTH_RESPONSES},
        }
    },
}
