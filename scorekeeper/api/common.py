"""What every JSON endpoint shares: errors, body parsing, OpenAPI fragments.

Endpoints raise the core's :class:`~scorekeeper.core.errors.InputError` family; the
app's error handler answers each with its status, message and field.
"""

from __future__ import annotations

from typing import Any

from flask import jsonify, request

from scorekeeper.core.errors import InputError


def api_error(status: int, message: str, field: str | None = None, **extra: object):
    """A JSON error body: ``{"error": {"status", "message", "field"}}``."""
    body: dict[str, object] = {"status": status, "message": message}
    if field is not None:
        body["field"] = field
    body.update(extra)
    return jsonify(error=body), status


def json_object() -> dict[str, Any]:
    """The request body as a JSON object, or :class:`InputError` 400."""
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise InputError("the request body must be a JSON object", "body")
    return data


def out_or_blocked(data: dict[str, Any]) -> Any:
    """The raw ``out`` of a hand body, or None for a blocked hand.

    ``out`` and ``blocked`` must agree: exactly one of them says how the hand ended.
    The caller turns the raw value into a seat (a name, or a seat index).
    """
    out, blocked = data.get("out"), data.get("blocked", False)
    if not isinstance(blocked, bool):
        raise InputError("blocked must be true or false", "blocked")
    if out is None and not blocked:
        raise InputError("say who went out, or set blocked to true", "out")
    if out is not None and blocked:
        raise InputError("a blocked hand has nobody who went out", "blocked")
    return out


ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["status", "message"],
            "properties": {
                "status": {"type": "integer"},
                "message": {"type": "string"},
                "field": {"type": "string"},
            },
        }
    },
}


def error_response(description: str) -> dict[str, Any]:
    """An OpenAPI response object for an error status."""
    return {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    }


def json_body(schema_ref: str) -> dict[str, Any]:
    """An OpenAPI requestBody referencing a component schema."""
    return {
        "required": True,
        "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema_ref}"}}},
    }


def ok_response(schema_ref: str, description: str = "OK") -> dict[str, Any]:
    """An OpenAPI 200 response referencing a component schema."""
    return {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema_ref}"}}},
    }
