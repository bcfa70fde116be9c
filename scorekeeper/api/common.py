"""What every JSON endpoint shares: errors, body parsing, OpenAPI fragments."""

from __future__ import annotations

from typing import Any

from flask import request


class ApiError(Exception):
    """Raised by an endpoint to answer with a JSON error naming the field at fault."""

    def __init__(self, message: str, field: str | None = None, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.status = status


def json_object() -> dict[str, Any]:
    """The request body as a JSON object, or :class:`ApiError` 400."""
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise ApiError("the request body must be a JSON object", "body")
    return data


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
