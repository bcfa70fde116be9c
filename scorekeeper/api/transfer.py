"""``/api/v1/export``, ``/api/v1/matches/{id}/export`` and ``/api/v1/import``.

The same documents as the pages' downloads (see :mod:`scorekeeper.transfer`), for the
group whose invite token is sent as ``Authorization: Bearer …``. An import is all or
nothing; a refused one answers 400 with every problem found, each naming where.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from scorekeeper.api.auth import AUTH_RESPONSES, SECURITY, bearer_group, id_in_range, id_param
from scorekeeper.api.common import api_error, error_response, json_body, ok_response
from scorekeeper.core.errors import InputError, NotFoundError
from scorekeeper.store.boards import MatchRecord
from scorekeeper.store.models import Group
from scorekeeper.store.transfer import (
    FORMAT,
    VERSION,
    Limits,
    TransferError,
    export_document,
    import_document,
    load_matches,
    parse_json,
    to_csv,
)

bp = Blueprint("api_transfer", __name__)


def _format() -> str:
    unknown = sorted(set(request.args) - {"format"})
    if unknown:
        raise InputError(f"unknown query parameter {unknown[0]!r}", unknown[0])
    fmt = request.args.get("format", "json")
    if fmt not in ("json", "csv"):
        raise InputError("format must be json or csv", "format")
    return fmt


def _answer(group: Group, matches: list[MatchRecord]) -> Response:
    if _format() == "csv":
        return Response(to_csv(matches), content_type="text/csv; charset=utf-8")
    return jsonify(export_document(group, matches))


@bp.get("/export")
def export_group():
    """Every match of the token's group."""
    group = bearer_group()
    return _answer(group, load_matches(group))


@bp.get("/matches/<int:match_id>/export")
def export_match(match_id: int):
    """One match of the token's group."""
    group = bearer_group()
    id_in_range(match_id, "match", 404)
    matches = load_matches(group, match_id)
    if not matches:
        raise NotFoundError("no such match in this group", "match")
    return _answer(group, matches)


@bp.post("/import")
def import_matches():
    """Import an export document into the token's group: all of it or nothing."""
    group = bearer_group()
    limits = Limits(max_bytes=current_app.config.get("IMPORT_MAX_BYTES", Limits().max_bytes))
    request.max_content_length = limits.max_bytes
    try:
        report = import_document(group, parse_json(request.get_data(), limits), limits)
    except TransferError as exc:
        first = exc.problems[0]
        return api_error(400, str(first), first.where or "body",
                         problems=[{"where": p.where, "message": p.message}
                                   for p in exc.problems])
    return jsonify(matches=report.matches, hands=report.hands,
                   players_created=list(report.players_created),
                   already_imported=report.already_imported), 201


FORMAT_PARAM = {"name": "format", "in": "query", "required": False,
                "schema": {"type": "string", "enum": ["json", "csv"], "default": "json"},
                "description": "json (complete, re-importable) or csv (one row per player "
                               "per hand)"}
EXPORTED = {
    "description": "The export",
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Export"}},
                "text/csv": {"schema": {"type": "string"}}},
}
HAND = {
    "type": "object", "required": ["held"],
    "properties": {
        "number": {"type": "integer"}, "dealer": {"type": "integer"},
        "out": {"type": ["integer", "null"], "description": "Seat that went out; null if blocked"},
        "hand_size": {"type": ["integer", "null"]},
        "held": {"type": "array", "items": {"type": "string"},
                 "description": "Cards each seat held, in seat order, e.g. \"8S KH\""},
        "points": {"type": "array", "items": {"type": "integer"},
                   "description": "Checked on import when present"},
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
            "players": {"type": "array", "items": {"type": "object", "properties": {
                "name": {"type": "string"}, "colour": {"type": "string"}}}},
            "matches": {"type": "array", "description": "An import needs at least one",
                        "items": {
                "type": "object", "required": ["sheet", "seats", "hands"],
                "properties": {
                    "uid": {"type": "string", "description": "The match's stable id: "
                            "a match the group already holds is not imported again"},
                    "sheet": {"$ref": "#/components/schemas/Sheet"},
                    "seats": {"type": "array", "items": {"type": "string"},
                              "minItems": 2, "maxItems": 7},
                    "first_dealer": {"type": "integer"},
                    "created_at": {"type": ["string", "null"]},
                    "finished_at": {"type": ["string", "null"], "description":
                                    "When a finished match ended; optional (files from "
                                    "before it was exported import with the import time)"},
                    "hands": {"type": "array", "items": HAND},
                    "rulings": {"type": "array", "items": {"type": "object"}},
                    "result": {"type": "object"},
                }}},
        },
    },
    "Import": {
        "description": "An export file, with at least one match.",
        "allOf": [{"$ref": "#/components/schemas/Export"},
                  {"type": "object", "properties": {"matches": {"minItems": 1}}}],
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
