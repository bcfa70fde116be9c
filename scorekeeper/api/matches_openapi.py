"""The OpenAPI fragments of ``/api/v1/matches``: request and response schemas, paths."""

from __future__ import annotations

from scorekeeper.api.auth import AUTH_RESPONSES, MAX_ID, SECURITY, id_param
from scorekeeper.api.common import (
    MAX_SEATS,
    MIN_SEATS,
    SEAT_SCHEMA,
    error_response,
    json_body,
    name_schema,
    ok_response,
)

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
                "type": "array", "minItems": MIN_SEATS, "maxItems": MAX_SEATS, "uniqueItems": True,
                "items": {"oneOf": [{"type": "integer", "minimum": 1, "maximum": MAX_ID},
                                    name_schema(40, "A player's name;")]},
                "description": "Player ids or names of the group, in clockwise seat order; "
                               "each player once (a name and its id, or two spellings of "
                               "one name, are the same player).",
            },
            "first_dealer": {**SEAT_SCHEMA, "default": 0,
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
    "BgStatsPlay": {
        "type": "object",
        "description": "The play in the JSON that BG Stats takes from other apps (its "
                       "page \"Push plays to BG Stats from other apps or websites\").",
        "required": ["sourceName", "sourcePlayId", "game", "playDate", "board", "players"],
        "additionalProperties": False,
        "properties": {
            "sourceName": {"type": "string", "description": "This app, as BG Stats shows it."},
            "sourcePlayId": {"type": "string", "description": "The match's stable uid."},
            "game": {
                "type": "object", "additionalProperties": False,
                "required": ["name", "sourceGameId", "highestWins", "noPoints"],
                "properties": {
                    "name": {"type": "string"},
                    "sourceGameId": {"type": "string", "description": "The game's key."},
                    "highestWins": {"type": "boolean"},
                    "noPoints": {"type": "boolean",
                                 "description": "Countdown: counts, no points, no score."},
                }},
            "playDate": {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$",
                         "description": "The match's start, UTC."},
            "durationMin": {**_INT, "minimum": 0, "description": "Start to finish."},
            "board": {"type": "string",
                      "description": "The rule sheet in a few words: \"standard rules\" "
                                     "or the house rules that differ."},
            "players": {"type": "array", "items": {
                "type": "object", "additionalProperties": False,
                "required": ["name", "sourcePlayerId", "rank", "winner", "startPlayer"],
                "properties": {
                    "name": {"type": "string"},
                    "sourcePlayerId": {"type": "string",
                                       "description": "The player's stable public id."},
                    "rank": {**_INT, "minimum": 1, "description": "The place; ties share."},
                    "score": {**_INT, "description": "The total (not for Countdown)."},
                    "winner": {"type": "boolean"},
                    "startPlayer": {"type": "boolean",
                                    "description": "Played first in the first hand."},
                }}, "description": "In seat order."},
        },
    },
    "BgStats": {
        "type": "object", "required": ["play", "link"], "additionalProperties": False,
        "properties": {
            "play": {"$ref": "#/components/schemas/BgStatsPlay"},
            "link": {"type": "string", "format": "uri",
                     "description": "Opens BG Stats' import of the play: "
                                    "https://app.bgstatsapp.com/createPlay.html?data= and "
                                    "the play's JSON, url-encoded. No token of the group."},
        },
    },
    "Match": {
        "type": "object",
        "required": ["id", "game", "sheet", "status", "version", "first_dealer", "seats",
                     "hands", "standings", "view_path", "ratings", "bg_stats"],
        "properties": {
            "id": _INT,
            "game": {"type": "string"},
            "sheet": {"$ref": "#/components/schemas/Sheet"},
            "status": {"type": "string", "enum": ["active", "finished"]},
            "version": {**_INT, "description": "Moves on with every change to the hands; "
                        "send it back when editing or deleting to refuse a stale change."},
            "first_dealer": _INT,
            "seats": {"type": "array", "items": {
                "type": "object", "required": ["seat", "player_id", "name", "colour"],
                "properties": {"seat": _INT, "player_id": _INT, "name": {"type": "string"},
                               "colour": {"type": "string"}}}},
            "hands": {"type": "array", "items": {"$ref": "#/components/schemas/Hand"}},
            "standings": {"$ref": "#/components/schemas/Standings"},
            "view_path": {"type": ["string", "null"],
                          "description": "The read-only page for spectators."},
            "ratings": {"oneOf": [{"type": "null"}, {
                "type": "array", "items": {"$ref": "#/components/schemas/SeatRating"}}],
                "description": "A finished match: each seat's all-time rating in the game "
                               "after it, its change and the seat's place; else null."},
            "bg_stats": {"oneOf": [{"type": "null"}, {"$ref": "#/components/schemas/BgStats"}],
                         "description": "A finished match: the play for BG Stats and the "
                                        "link that logs it there; else null."},
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
