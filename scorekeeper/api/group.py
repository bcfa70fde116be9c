"""``/api/v1/group`` and ``/api/v1/players``: the group a bearer token opens, its players."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify

from scorekeeper.api.auth import AUTH_RESPONSES, SECURITY, bearer_group
from scorekeeper.api.common import error_response, json_body, json_object, name_schema, ok_response
from scorekeeper.core.errors import InputError
from scorekeeper.core.text import clean_colour
from scorekeeper.store.groups import GroupPlayer, group_players, save_player

bp = Blueprint("api_group", __name__)


def player_json(player: GroupPlayer) -> dict[str, Any]:
    """A player as the API shows it."""
    return {"id": player.id, "name": player.name, "colour": player.colour,
            "hidden": player.hidden}


@bp.get("/group")
def show():
    """The group's name and players."""
    group = bearer_group()
    return jsonify(id=group.id, name=group.name,
                   players=[player_json(p) for p in group_players(group)])


@bp.post("/players")
def create_player():
    """Add a player; 409 when the name is taken in the group (ignoring case)."""
    group = bearer_group()
    data = json_object()
    name, colour = data.get("name"), data.get("colour")
    if not isinstance(name, str):
        raise InputError("name must be text", "name")
    if colour is not None and not isinstance(colour, str):
        raise InputError("colour must be text like '#1f77b4'", "colour")
    if colour is not None:
        clean_colour(colour)  # the API refuses an empty colour; a page's empty one means "pick"
    # Bad text is an InputError (400); a name already taken its ConflictError (409).
    player = save_player(group, name, colour)
    return jsonify(player_json(player)), 201


PLAYER_SCHEMA = {
    "type": "object",
    "required": ["id", "name", "colour", "hidden"],
    "properties": {
        "id": {"type": "integer"},
        "name": {"type": "string"},
        "colour": {"type": "string", "pattern": "^#[0-9a-f]{6}$"},
        "hidden": {"type": "boolean"},
    },
}

SCHEMAS = {
    "Player": PLAYER_SCHEMA,
    "NewPlayer": {
        "type": "object",
        "required": ["name"],
        "properties": {
            "name": name_schema(40, "Unique in the group, ignoring case;"),
            "colour": {"type": ["string", "null"], "pattern": "^#[0-9a-fA-F]{6}$",
                       "description": "Omitted or null: the next unused palette colour."},
        },
    },
    "Group": {
        "type": "object",
        "required": ["id", "name", "players"],
        "properties": {
            "id": {"type": "integer"},
            "name": {"type": "string"},
            "players": {"type": "array", "items": {"$ref": "#/components/schemas/Player"}},
        },
    },
}

PATHS = {
    "/api/v1/group": {
        "get": {
            "summary": "The group the bearer token opens, with its players",
            "operationId": "getGroup",
            "security": SECURITY,
            "responses": {"200": ok_response("Group", "The group"), **AUTH_RESPONSES},
        }
    },
    "/api/v1/players": {
        "post": {
            "summary": "Add a player to the group",
            "operationId": "createPlayer",
            "security": SECURITY,
            "requestBody": json_body("NewPlayer"),
            "responses": {
                "201": ok_response("Player", "The new player"),
                "400": error_response("Bad name or colour; error.field names it"),
                **AUTH_RESPONSES,
                "409": error_response("A player of that name is already in the group"),
            },
        }
    },
}
