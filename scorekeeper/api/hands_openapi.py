"""The OpenAPI fragments of ``/api/v1/matches/{id}/hands``: bodies, conflicts, paths."""

from __future__ import annotations

from scorekeeper.api.auth import AUTH_RESPONSES, MAX_ID, SECURITY, id_param
from scorekeeper.api.common import (
    MAX_SEATS,
    SEAT_SCHEMA,
    error_response,
    json_body,
    ok_response,
    out_or_blocked_schema,
)
from scorekeeper.core.sheets import OPTIONS

_CARDS = {"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}],
          "description": "Cards like \"8s kh 7d\", or one card per item."}
_HAND_FIELDS = {
    "out": {**SEAT_SCHEMA, "type": ["integer", "null"],
            "description": "Seat index of who went out; null when blocked/jammed."},
    "blocked": {"type": "boolean", "default": False},
    "held": {"oneOf": [{"type": "object", "additionalProperties": _CARDS,
                        "propertyNames": {"pattern": f"^0?[0-{MAX_SEATS - 1}]$"}},
                       {"type": "array", "items": _CARDS, "maxItems": MAX_SEATS}],
             "description": "Cards each seat holds, by seat index (object keys are the "
                            "index as text) or a list with one entry per seat. Needed "
                            "except in Countdown, whose hands carry no cards: there it "
                            "may be left out or empty."},
    "hand_size": {"type": ["integer", "null"], "minimum": OPTIONS["hand_size"].minimum,
                  "maximum": OPTIONS["hand_size"].maximum,
                  "description": "Last One: this hand's own deal size. It must leave an "
                                 "upcard (not 6 players × 9); 9 needs agree_nine."},
    "agree_nine": {"type": "boolean", "default": False,
                   "description": "Last One: everyone agreed to nine cards each this hand "
                                  "(not needed when the sheet itself deals nine)."},
}

_ENDED = out_or_blocked_schema({"type": "integer"})

_VERSION = {"type": "integer", "minimum": 1, "maximum": MAX_ID,
            "description": "Optional: the match's version as you loaded it; if another "
                           "phone changed the match since, the answer is 409 and nothing "
                           "is stored."}

SCHEMAS = {
    "RecordedHand": {
        "type": "object",
        "required": ["id", "status", "version", "hand", "standings"],
        "description": "The answer to a recorded hand: that hand and the standings after "
                       "it, the same size however long the match (GET the match for "
                       "every hand).",
        "properties": {
            "id": {"type": "integer", "description": "The match's id."},
            "status": {"type": "string", "enum": ["active", "finished"]},
            "version": {"type": "integer", "description": "The match's version now."},
            "hand": {"$ref": "#/components/schemas/Hand"},
            "standings": {"$ref": "#/components/schemas/Standings"},
        },
    },
    "HandEntry": {"type": "object",
                  "properties": {**_HAND_FIELDS, "version": _VERSION}, "anyOf": _ENDED},
    "NewHand": {
        "type": "object",
        "required": ["number"],
        "anyOf": _ENDED,
        "properties": {
            "number": {"type": "integer", "minimum": 1, "maximum": MAX_ID,
                       "description": "The hand being recorded: the match's next_hand."},
            **_HAND_FIELDS,
            "same_as_confirmed": {
                "type": "boolean", "default": False,
                "description": "The answer to a 409 same_as_hand: record this hand even "
                               "though the same player went out and every seat holds "
                               "the same cards as a hand already recorded (it really is "
                               "another hand). Without it such a hand is refused."},
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
                "code": {"type": "string", "enum": ["same_as_hand"],
                         "description": "same_as_hand: the new hand looks like hand "
                                        "`hand` already recorded (the same player went "
                                        "out, or both were blocked, and every seat holds "
                                        "the same cards), compared with the hand that "
                                        "took the requested number and with the last "
                                        "hand. Nothing was stored; send it again with "
                                        "same_as_confirmed: true if it is another hand."},
                "hand": {"type": "integer",
                         "description": "With code same_as_hand: the hand it looks like."},
                "same_hand": {"oneOf": [{"$ref": "#/components/schemas/Hand"},
                                        {"type": "null"}],
                              "description": "With code same_as_hand: that hand as "
                                             "stored, to show beside the new one."},
            },
        }},
    },
}

_MATCH = id_param("match_id", "The match's id")
_NUMBER = id_param("number", "The hand's number, from 1")
_KEY = {"name": "Idempotency-Key", "in": "header", "required": False,
        "description": "A key the client makes for this hand (a UUID). Sending the same "
                       "key and body again returns the first answer instead of storing "
                       "the hand twice; the same key with another body is a 422.",
        "schema": {"type": "string", "minLength": 1, "maxLength": 80,
                   "pattern": "^[!-~]+$"}}
_BAD_HAND = error_response("Bad cards, seats or hand size; error.field names the input "
                           "(held.<seat>, out, blocked, hand_size, agree_nine, number)")

PATHS = {
    "/api/v1/matches/{match_id}/hands": {
        "post": {
            "summary": "Record the match's next hand",
            "operationId": "recordHand",
            "security": SECURITY,
            "parameters": [_MATCH, _KEY],
            "requestBody": json_body("NewHand"),
            "responses": {
                "201": ok_response("RecordedHand", "Recorded (or recorded before under "
                                   "the same Idempotency-Key: the first answer again); the "
                                   "new hand and the standings after it"),
                "400": _BAD_HAND,
                **AUTH_RESPONSES,
                "409": ok_response("Conflict", "That number is not the next hand (stale "
                                   "or just recorded from another phone), or (code "
                                   "same_as_hand) the hand looks like hand `hand` already "
                                   "recorded and same_as_confirmed was not sent; nothing "
                                   "stored"),
                "422": error_response("The Idempotency-Key was already used with a "
                                      "different body; nothing stored"),
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
            "parameters": [_MATCH, _NUMBER, {"name": "version", "in": "query",
                                             "required": False, "schema": _VERSION,
                                             "description": _VERSION["description"]}],
            "responses": {
                "200": ok_response("Match", "Deleted; the match with re-derived standings"),
                "400": error_response("The hand cannot be deleted"),
                **AUTH_RESPONSES,
                "409": ok_response("Conflict", "Not the last hand, or it changed meanwhile"),
            },
        },
    },
}
