"""What every JSON endpoint shares: errors, body parsing, OpenAPI fragments.

Endpoints raise the core's :class:`~scorekeeper.core.errors.InputError` family; the
app's error handler answers each with its status, message and field.
"""

from __future__ import annotations

from typing import Any

from flask import current_app, jsonify, request

from scorekeeper.core.cards import Card, CardError, parse_cards
from scorekeeper.core.errors import InputError
from scorekeeper.core.sheets import GAMES, OPTIONS
from scorekeeper.core.text import DuplicateKeyError, read_json

# Table sizes over every game: a seat index in any body is below MAX_SEATS.
MIN_SEATS = min(g.min_players for g in GAMES.values())
MAX_SEATS = max(g.max_players for g in GAMES.values())
# A seat index in any body (from 0, clockwise), and a Countdown count, as the schemas
# state them: the table's own size and the game are read against other fields.
SEAT_SCHEMA: dict[str, Any] = {"type": "integer", "minimum": 0, "maximum": MAX_SEATS - 1}
COUNT_SCHEMA: dict[str, Any] = {"type": "integer", "minimum": OPTIONS["start_count"].minimum,
                                "maximum": OPTIONS["start_count"].maximum}


def api_error(status: int, message: str, field: str | None = None, **extra: object):
    """A JSON error body: ``{"error": {"status", "message", "field"}}``."""
    body: dict[str, object] = {"status": status, "message": message}
    if field is not None:
        body["field"] = field
    body.update(extra)
    return jsonify(error=body), status


def json_depth(raw: bytes) -> int:
    """How deeply arrays and objects nest in a JSON text (brackets inside strings are
    not counted); read before parsing, so a hostile body never reaches the recursive
    parser.

    >>> json_depth(b'{"a": [1, {"b": "[[["}]}')
    3
    """
    depth = deepest = 0
    in_string = escaped = False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # closing quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            deepest = max(deepest, depth)
        elif byte in (0x5D, 0x7D):  # ] }
            depth -= 1
    return deepest


def json_object() -> dict[str, Any]:
    """The request body as a JSON object, or :class:`InputError` 400.

    The body's size was checked before it was read (see ``scorekeeper/web/security.py``);
    its nesting is checked here before it is parsed (``JSON_MAX_DEPTH``).
    """
    limit = current_app.config.get("JSON_MAX_DEPTH", 32)
    if json_depth(request.get_data(cache=True)) > limit:
        raise InputError(f"the request body nests arrays and objects more than {limit} deep",
                         "body")
    try:  # a whole number written 867.0 is the integer 867, as the document reads it
        data = read_json(request.get_data(cache=True)) if request.is_json else None
    except DuplicateKeyError as exc:
        raise InputError(f"the request body names the key {exc.key!r} twice in one "
                         "object; send each key once", "body") from None
    except (ValueError, RecursionError):  # not JSON, or (never with a sane limit) too deep
        data = None
    if not isinstance(data, dict):
        raise InputError("the request body must be a JSON object", "body")
    return data


def seat_cards(text: object, name: str, field: str, *, lists: bool = False) -> list[Card]:
    """One seat's cards from a body: text like ``8s kh 7d`` (or, with ``lists``, a list
    of card texts); missing (``None``), another type or a bad card is an
    :class:`InputError` naming ``field``."""
    if text is None:
        raise InputError(f"the cards {name} holds are missing", field)
    if not isinstance(text, str) and not (
            lists and isinstance(text, list) and all(isinstance(t, str) for t in text)):
        raise InputError("cards must be text like '8s kh 7d'", field)
    try:
        return parse_cards(text)
    except CardError as exc:
        raise InputError(f"{name}: {exc}", field) from None


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


def out_or_blocked_schema(out: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``anyOf`` that says :func:`out_or_blocked` in a body's schema: somebody went
    out (``out``, with ``blocked`` absent or false), or the hand was blocked (``blocked``
    true, with ``out`` absent or null). The two exclude each other, so it reads as a
    ``oneOf``; ``anyOf`` spares a generator checking that no other branch fits."""
    return [{"required": ["out"], "properties": {"out": out, "blocked": {"const": False}}},
            {"required": ["blocked"],
             "properties": {"blocked": {"const": True}, "out": {"type": "null"}}}]


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


# A name as the server takes it (``core/text.py``): no control character but the white
# space it folds into one space (tab, line breaks, U+001C–U+001F, U+0085). What no
# schema can say is in the description: the length counts after trimming and NFC, and
# invisible formatting characters, lone surrogates and unassigned code points are
# refused too.
NAME_PATTERN = r"^[^\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f]*$"


def name_schema(limit: int, description: str) -> dict[str, Any]:
    """The OpenAPI schema of a person's name of 1 to ``limit`` characters."""
    return {"type": "string", "minLength": 1, "maxLength": limit, "pattern": NAME_PATTERN,
            "description": f"{description} 1 to {limit} characters once trimmed and "
                           "NFC-normalised; no control or invisible formatting characters."}


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
