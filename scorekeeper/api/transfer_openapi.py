"""The OpenAPI fragments of export and import: the file's schema, the paths.

The ``Export`` schema is what an export answers and an import reads; what its reader
(:mod:`scorekeeper.store.transfer.validation`) refuses beyond it needs the whole file:
hands numbered in order, each listing every seat, claimed points and results that the
hands give, names unique once case is folded.
"""

from __future__ import annotations

from typing import Any

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
from scorekeeper.core.sheets import OPTIONS
from scorekeeper.core.text import COLOUR
from scorekeeper.store.transfer import FORMAT, VERSION
from scorekeeper.store.transfer.validation import MAX_CARDS_TEXT, MAX_NAME, MAX_RULE, MAX_TEXT, UID

FORMAT_PARAM = {"name": "format", "in": "query", "required": False,
                "schema": {"type": "string", "enum": ["json", "csv"], "default": "json"},
                "description": "json (complete, re-importable) or csv (one row per player "
                               "per hand)"}
EXPORTED = {
    "description": "The export",
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Export"}},
                "text/csv": {"schema": {"type": "string"}}},
}
_NAME = name_schema(MAX_NAME, "A player's name;")
_TEXT = {"type": "string", "maxLength": MAX_TEXT}
_MOMENT = {"type": ["string", "null"], "maxLength": 40,
           "description": "An ISO 8601 date and time, e.g. 2024-05-01T19:30:00+00:00 "
                          "(UTC when it names no zone)."}
_DAY = {"type": "string", "format": "date", "maxLength": 10,
        "description": "A day, e.g. 2026-12-31"}
HAND = {
    "type": "object", "required": ["held"],
    "properties": {
        "number": {"type": "integer", "description": "Its place in the match, from 1"},
        "dealer": {"type": "integer", "description": "Not read: the hands decide it"},
        "out": {**SEAT_SCHEMA, "type": ["integer", "null"],
                "description": "Seat that went out; null if blocked"},
        "hand_size": {"type": ["integer", "null"], "minimum": OPTIONS["hand_size"].minimum,
                      "maximum": OPTIONS["hand_size"].maximum,
                      "description": "Last One only: this hand's own deal size"},
        "held": {"type": "array", "items": {"type": "string", "maxLength": MAX_CARDS_TEXT},
                 "minItems": MIN_SEATS, "maxItems": MAX_SEATS,
                 "description": "Cards each seat held, in seat order, e.g. \"8S KH\""},
        "points": {"type": "array", "items": {"type": "integer"},
                   "description": "Checked on import when present"},
    },
}
RULING = {
    "type": "object", "required": ["question", "reason"],
    "properties": {
        "hand_number": {"type": ["integer", "null"], "minimum": 1, "maximum": MAX_ID,
                        "description": "The hand it was asked in: the hand in progress "
                                       "is one past the last recorded"},
        "question": {**_TEXT, "minLength": 1},
        "legal": {"type": ["boolean", "null"]},
        "reason": _TEXT,
        "rule": {"type": "string", "maxLength": MAX_RULE, "default": ""},
        "request": {"type": "object", "description": "The play checker's request, at most "
                    f"{MAX_TEXT} characters as JSON"},
    },
}
SCHEMAS: dict[str, Any] = {
    "Export": {
        "type": "object", "required": ["format", "version", "matches"],
        "properties": {
            "format": {"type": "string", "const": FORMAT},
            "version": {"type": "integer", "const": VERSION},
            "exported_at": {"type": "string"},
            "group": {"type": "object"},
            "players": {"type": "array", "description": "A group's export lists every "
                        "player, seated or not; one match's, its seats", "items": {
                "type": "object", "required": ["name"], "properties": {
                    "name": _NAME,
                    "colour": {"type": ["string", "null"], "pattern": COLOUR.pattern},
                    "hidden": {"type": "boolean", "default": False}}}},
            "seasons": {"type": "array", "description": "The group's named seasons (a "
                        "group's export); one of the same name already there is skipped",
                        "items": {
                "type": "object", "required": ["name", "first_day", "last_day"],
                "properties": {"name": _NAME, "first_day": _DAY, "last_day": _DAY}}},
            "matches": {"type": "array", "items": {
                "type": "object", "required": ["sheet", "seats", "hands"],
                "properties": {
                    "uid": {"type": "string", "pattern": UID.pattern,
                            "description": "The match's stable id: a match the group "
                                           "already holds is not imported again"},
                    "sheet": {"$ref": "#/components/schemas/Sheet"},
                    "seats": {"type": "array", "items": _NAME, "uniqueItems": True,
                              "minItems": MIN_SEATS, "maxItems": MAX_SEATS},
                    "first_dealer": {**SEAT_SCHEMA, "default": 0},
                    "created_at": _MOMENT,
                    "finished_at": {**_MOMENT, "description":
                                    "When a finished match ended; optional (files from "
                                    "before it was exported import with the import time)"},
                    "hands": {"type": "array", "items": HAND},
                    "rulings": {"type": "array", "items": RULING},
                    "result": {"type": "object", "description": "Its totals and winners, "
                               "when given, are checked against the hands"},
                }}},
        },
    },
    "Import": {
        "description": "An export file (a group's backup, or one match).",
        "allOf": [{"$ref": "#/components/schemas/Export"}],
    },
    "ImportReport": {
        "type": "object", "required": ["matches", "hands", "players_created"],
        "properties": {"matches": {"type": "integer"}, "hands": {"type": "integer"},
                       "players_created": {"type": "array", "items": {"type": "string"}},
                       "already_imported": {"type": "integer", "description":
                                            "Matches of the file the group already held "
                                            "(the same uid): left alone, not duplicated"}},
    },
}
PATHS: dict[str, Any] = {
    "/api/v1/export": {"get": {
        "summary": "Export every match of the group", "operationId": "exportGroup",
        "security": SECURITY, "parameters": [FORMAT_PARAM],
        "responses": {"200": EXPORTED, "400": error_response("Unknown format or query parameter"),
                      **AUTH_RESPONSES},
    }},
    "/api/v1/matches/{match_id}/export": {"get": {
        "summary": "Export one match", "operationId": "exportMatch", "security": SECURITY,
        "parameters": [id_param("match_id", "The match's id"), FORMAT_PARAM],
        "responses": {"200": EXPORTED, "400": error_response("Unknown format or query parameter"),
                      **AUTH_RESPONSES},
    }},
    "/api/v1/import": {"post": {
        "summary": "Import an export into the group: every match, or none",
        "operationId": "importMatches", "security": SECURITY,
        "requestBody": json_body("Import"),
        "responses": {
            "201": ok_response("ImportReport", "Everything was imported"),
            "400": error_response("Nothing was imported; error.problems lists each problem "
                                  "with where it is (error.field is the first)"),
            "413": error_response("The body is larger than the import limit"),
            **AUTH_RESPONSES,
        },
    }},
}
