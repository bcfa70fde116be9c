"""The OpenAPI schema of a rule sheet, generated from the options' one definition.

A sheet is one of the games (``oneOf``, told apart by ``game``), each with exactly its
own options: their types, bounds, choices and defaults come from
:mod:`scorekeeper.core.sheets`, so a new option or game is in the document as soon as
it is in the core, and the document refuses what :meth:`~scorekeeper.core.sheets.Sheet.from_dict`
refuses (an option of another game, a value out of range, a key a sheet lacks).
"""

from __future__ import annotations

from typing import Any

from scorekeeper.core.sheets import GAMES, READABLE_VERSIONS, SHEET_VERSION, Option, options_for

__all__ = ["SHEET_SCHEMA", "game_sheet_schema", "option_schema"]

_KINDS: dict[str, dict[str, Any]] = {
    "bool": {"type": "boolean"},
    "int": {"type": "integer"},
    "int_or_none": {"type": ["integer", "null"], "description": "null: no limit."},
    "choice": {"type": "string"},
}


def option_schema(option: Option, game_key: str) -> dict[str, Any]:
    """The values one option takes in one game, with that game's default.

    >>> hand_size = option_schema(options_for("last-one")[0], "last-one")
    >>> hand_size["type"], hand_size["minimum"], hand_size["maximum"], hand_size["default"]
    ('integer', 4, 9, 7)
    """
    schema = {**_KINDS[option.kind], "title": option.label,
              "default": option.defaults[game_key]}
    schema["description"] = " ".join(filter(None, (option.help, schema.get("description"))))
    if option.choices:
        schema["enum"] = list(option.choices)
    if option.minimum is not None:
        schema["minimum"] = option.minimum
    if option.maximum is not None:
        schema["maximum"] = option.maximum
    return schema


def game_sheet_schema(game_key: str) -> dict[str, Any]:
    """A sheet of one game: that ``game``, and only that game's options."""
    name = GAMES[game_key].name
    return {
        "title": f"{name} sheet",
        "type": "object",
        "required": ["game"],
        "additionalProperties": False,
        "properties": {
            "game": {"const": game_key},
            "options": {
                "type": ["object", "null"],
                "additionalProperties": False,
                "properties": {o.key: option_schema(o, game_key) for o in options_for(game_key)},
                "description": f"{name}'s options (see /rules/{game_key}); an option left "
                               "out, or every one when null, takes the game's default.",
            },
            "version": {"enum": list(READABLE_VERSIONS), "default": SHEET_VERSION,
                        "description": "The sheet's version as a match's answer gives it; "
                                       "an older one reads as the current one."},
        },
    }


SHEET_SCHEMA: dict[str, Any] = {
    "description": "A rule sheet: the game and its house-rule options.",
    "oneOf": [game_sheet_schema(key) for key in GAMES],
}
