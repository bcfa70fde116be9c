"""``/api/v1/export``, ``/api/v1/matches/{id}/export`` and ``/api/v1/import``.

The same documents as the pages' downloads (see :mod:`scorekeeper.transfer`), for the
group whose invite token is sent as ``Authorization: Bearer …``. An import is all or
nothing; a refused one answers 400 with every problem found, each naming where.
"""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify, request

from scorekeeper.api.auth import bearer_group, id_in_range
from scorekeeper.api.common import api_error
from scorekeeper.api.transfer_openapi import PATHS, SCHEMAS
from scorekeeper.core.errors import InputError, NotFoundError
from scorekeeper.store.match_views import GroupView, MatchRecord
from scorekeeper.store.transfer import (
    Limits,
    TransferError,
    export_document,
    import_document,
    load_matches,
    parse_json,
    to_csv,
)

__all__ = ["PATHS", "SCHEMAS", "bp"]

bp = Blueprint("api_transfer", __name__)


def _format() -> str:
    unknown = sorted(set(request.args) - {"format"})
    if unknown:
        raise InputError(f"unknown query parameter {unknown[0]!r}", unknown[0])
    fmt = request.args.get("format", "json")
    if fmt not in ("json", "csv"):
        raise InputError("format must be json or csv", "format")
    return fmt


def _answer(group: GroupView, matches: list[MatchRecord], *, whole: bool) -> Response:
    if _format() == "csv":
        return Response(to_csv(matches), content_type="text/csv; charset=utf-8")
    return jsonify(export_document(group, matches, whole=whole))


@bp.get("/export")
def export_group():
    """Every match of the token's group."""
    group = bearer_group()
    return _answer(group, load_matches(group), whole=True)


@bp.get("/matches/<int:match_id>/export")
def export_match(match_id: int):
    """One match of the token's group."""
    group = bearer_group()
    id_in_range(match_id, "match", 404)
    matches = load_matches(group, match_id)
    if not matches:
        raise NotFoundError("no such match in this group", "match")
    return _answer(group, matches, whole=False)


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
