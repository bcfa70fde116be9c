"""The JSON API under ``/api/v1``: one blueprint per module, one OpenAPI document.

Each endpoint module exposes ``bp`` (its routes), ``PATHS`` and ``SCHEMAS`` (its part
of the OpenAPI document). Add a module to ``MODULES`` to publish it. API routes take
JSON, not forms, so they are exempt from CSRF (group access uses a header token).
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from flask import Blueprint, Flask, jsonify, request

from scorekeeper.api import (
    auth,
    deal,
    group,
    hands,
    leaderboard,
    matches,
    replay,
    score,
    transfer,
)
from scorekeeper.api.common import ERROR_SCHEMA, error_response
from scorekeeper.core.errors import InputError
from scorekeeper.extensions import csrf

MODULES = (score, group, matches, hands, deal, transfer, replay, leaderboard)
PREFIX = "/api/v1"
# Every path under /api/ answers errors in JSON, an unknown version's included.
ERROR_PREFIX = "/api/"

# The resources a bearer token opens share one count of wrong tokens per address.
for _guarded in (group, matches, hands, transfer):
    auth.guard_tokens(_guarded.bp)

bp = Blueprint("api", __name__, url_prefix=PREFIX)


@bp.get("/openapi.json")
def openapi_json():
    """The OpenAPI 3.1 document describing every endpoint, request and error."""
    return jsonify(document())


def register(app: Flask) -> None:
    """Register the document and every module's blueprint on the app."""
    for blueprint in (bp, *(m.bp for m in MODULES)):
        csrf.exempt(blueprint)
        app.register_blueprint(blueprint, url_prefix=PREFIX)
    app.before_request(_refuse_unknown_query)


_CONVERTER = re.compile(r"<(?:[^:<>]+:)?([^<>]+)>")


@cache
def _query_names(path: str, method: str) -> frozenset[str]:
    """The query parameters the document lists for an operation."""
    operation = document()["paths"].get(path, {}).get(method.lower(), {})
    return frozenset(p["name"] for p in operation.get("parameters", ()) if p.get("in") == "query")


def _refuse_unknown_query() -> None:
    """A query parameter the document does not list is a mistake (a typo such as
    ``hand-size``): refuse it with a 400 naming it instead of silently ignoring it."""
    if (not request.args or request.url_rule is None or not request.path.startswith(PREFIX)
            or request.endpoint == "api.openapi_json"):
        return
    path = _CONVERTER.sub(r"{\1}", request.url_rule.rule)
    known = _query_names(path, request.method)
    for name in request.args:
        if name not in known:
            accepted = f": use {', '.join(sorted(known))}" if known else ""
            raise InputError(f"unknown parameter {name!r}{accepted}", name)


def document() -> dict[str, Any]:
    """Assemble the OpenAPI document from the modules' fragments."""
    paths: dict[str, Any] = {}
    schemas: dict[str, Any] = {"Error": ERROR_SCHEMA}
    for module in MODULES:
        paths.update(module.PATHS)
        schemas.update(module.SCHEMAS)
    _hardened(paths)
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Scorekeeper API",
            "version": "1",
            "description": "Score hands of Last One, Crazy Eights and Countdown from the "
            "cards left in players' hands, judge plays, and keep match records.",
        },
        "paths": paths,
        "components": {"schemas": schemas, "securitySchemes": auth.SECURITY_SCHEMES},
    }


def _hardened(paths: dict[str, Any]) -> None:
    """Every operation may answer 503 (the database out of reach, or a host whose secret
    key is not the shared one); every one taking a JSON body 413 (larger than the limit,
    refused before it is read) and 400 (nested too deeply, or not JSON)."""
    for item in paths.values():
        for operation in item.values():
            if isinstance(operation, dict):
                operation["responses"].setdefault("503", error_response(
                    "Not available just now (the database does not answer); nothing was "
                    "saved: send the same request again after Retry-After seconds"))
            if isinstance(operation, dict) and "requestBody" in operation:
                responses = operation["responses"]
                responses.setdefault("400", error_response(
                    "Not a JSON object, nested too deeply, or invalid"))
                responses.setdefault("413", error_response(
                    "The body is larger than the limit (refused before it is read)"))
