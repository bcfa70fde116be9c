"""``/api/v1/leaderboard``: a game's leaderboard in a season, from the stored ratings;
and the ratings a finished match gave its seats (part of ``GET /matches/{id}``)."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, jsonify, request

from scorekeeper.api.auth import AUTH_RESPONSES, SECURITY, bearer_group
from scorekeeper.api.common import error_response, ok_response
from scorekeeper.core.errors import InputError, NotFoundError
from scorekeeper.core.ratings import Period
from scorekeeper.core.sheets import GAMES
from scorekeeper.store.leaderboard import RECORD_KINDS, Leaderboard, game_leaderboard, match_ratings
from scorekeeper.store.seasons import pick_period

__all__ = ["PATHS", "SCHEMAS", "bp", "seat_ratings"]

bp = Blueprint("api_leaderboard", __name__)


def _period_json(period: Period) -> dict[str, Any]:
    return {"value": period.value, "label": period.label, "scope": period.scope,
            "first_day": period.first and period.first.isoformat(),
            "last_day": period.last and period.last.isoformat()}


def _board_json(game: str, period: Period, found: Leaderboard) -> dict[str, Any]:
    return {
        "game": game, "season": _period_json(period),
        "players": [{"place": r.place, "player_id": r.player_id, "name": r.name,
                     "rating": r.rating, "change": r.change, "matches": r.matches,
                     "wins": r.wins, "provisional": r.provisional} for r in found.rows],
        "records": [{"kind": r.kind, "title": r.title, "player_id": r.player_id,
                     "name": r.name, "value": r.value, "match_id": r.match_id}
                    for r in found.records],
        "no_records": [{"kind": r.kind, "title": r.title, "reason": r.reason}
                       for r in found.no_records],
    }


# What a season is called in a link: the document's pattern and the check below.
SEASON = re.compile(r"(all|year|month|[1-9][0-9]{0,9})")


@bp.get("/leaderboard")
def show():
    """A game's leaderboard and records in a season (all time unless asked)."""
    group = bearer_group()
    game = request.args.get("game")
    if game not in GAMES:
        raise InputError(f"game must be one of {', '.join(GAMES)}, not {game!r}", "game")
    value = request.args.get("season", "all")
    if not SEASON.fullmatch(value):
        raise InputError(f"season must be all, year, month or a season's id, not {value!r}",
                         "season")
    period, _ = pick_period(group, value, datetime.now(UTC).date())
    if period is None:
        raise NotFoundError(f"no season {value!r} in this group", "season")
    return jsonify(_board_json(game, period, game_leaderboard(group, game, period.scope)))


def seat_ratings(match_id: int) -> list[dict[str, int]] | None:
    """A finished match's seats' all-time ratings after it, with their change and
    place (None while it is being played)."""
    found = match_ratings(match_id)
    if not found:
        return None
    return [{"seat": seat, "rating": rating, "change": change, "place": place}
            for seat, (rating, change, place) in sorted(found.items())]


_INT = {"type": "integer"}
_NULLABLE_DAY = {"type": ["string", "null"], "format": "date"}
_RECORD_KIND = {"type": "string", "enum": list(RECORD_KINDS),
                "description": "best-hand and worst-hand: each game's own definition, "
                               "given in the title."}

SCHEMAS = {
    "Leaderboard": {
        "type": "object",
        "required": ["game", "season", "players", "records", "no_records"],
        "properties": {
            "game": {"type": "string", "enum": list(GAMES)},
            "season": {"type": "object", "required": ["value", "label", "scope", "first_day",
                                                      "last_day"],
                       "properties": {"value": {"type": "string"}, "label": {"type": "string"},
                                      "scope": {"type": "string"}, "first_day": _NULLABLE_DAY,
                                      "last_day": _NULLABLE_DAY}},
            "players": {"type": "array", "items": {
                "type": "object",
                "required": ["place", "player_id", "name", "rating", "change", "matches",
                             "wins", "provisional"],
                "properties": {
                    "place": _INT, "player_id": _INT, "name": {"type": "string"},
                    "rating": {**_INT, "minimum": 0,
                               "description": "Shown rating: 1,000 for a new player, never "
                                              "below 0 (from μ − 3σ)."},
                    "change": {**_INT, "description": "Change in the player's last match."},
                    "matches": _INT, "wins": _INT,
                    "provisional": {"type": "boolean",
                                    "description": "Fewer than 5 rated matches."}}}},
            "records": {"type": "array", "items": {
                "type": "object", "required": ["kind", "title", "player_id", "name", "value",
                                               "match_id"],
                "properties": {"kind": _RECORD_KIND,
                               "title": {"type": "string",
                                         "description": "The record and how it is counted, "
                                                        "as the leaderboard page says it."},
                               "player_id": _INT, "name": {"type": "string"}, "value": _INT,
                               "match_id": {"type": ["integer", "null"],
                                            "description": "The match that holds it."}}}},
            "no_records": {"type": "array", "description": "Records this game cannot have.",
                           "items": {"type": "object", "required": ["kind", "title", "reason"],
                                     "properties": {"kind": _RECORD_KIND,
                                                    "title": {"type": "string"},
                                                    "reason": {"type": "string"}}}},
        },
    },
    "SeatRating": {
        "type": "object",
        "required": ["seat", "rating", "change", "place"],
        "properties": {"seat": _INT, "rating": {**_INT, "minimum": 0}, "change": _INT,
                       "place": {**_INT, "minimum": 1}},
    },
}

PATHS = {
    "/api/v1/leaderboard": {
        "get": {
            "summary": "A game's leaderboard and records in a season",
            "operationId": "getLeaderboard",
            "security": SECURITY,
            "parameters": [
                {"name": "game", "in": "query", "required": True,
                 "schema": {"type": "string", "enum": list(GAMES)}},
                {"name": "season", "in": "query", "required": False,
                 "description": "all (the default), year, month, or a named season's id",
                 "schema": {"type": "string",
                            "pattern": f"^{SEASON.pattern}$"}},
            ],
            "responses": {
                "200": ok_response("Leaderboard", "The leaderboard"),
                "400": error_response("No game, or not one of the games; or a season that is "
                                      "not all, year, month or an id"),
                **AUTH_RESPONSES,
            },
        }
    },
}
