"""``/api/v1/matches``: start a match in the bearer token's group and read it back.

A match is shown with its seats, frozen sheet, every hand (each seat's cards in
canonical text and points) and the standings derived from those hands
(:mod:`.match_data`); the OpenAPI fragments are in :mod:`.matches_openapi`.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify

from scorekeeper.api.auth import bearer_group, bearer_token, id_in_range, token_group
from scorekeeper.api.common import json_object
from scorekeeper.api.match_data import match_json
from scorekeeper.api.matches_openapi import PATHS, SCHEMAS
from scorekeeper.core.deal import DealError, nine_problem, plan_for_sheet
from scorekeeper.core.errors import InputError, NotFoundError
from scorekeeper.core.sheets import Sheet, read_sheet
from scorekeeper.core.text import clean_name, name_key
from scorekeeper.store import match_views
from scorekeeper.store.groups import GroupPlayer, group_players, start_match
from scorekeeper.store.match_views import GroupView, MatchView

__all__ = ["PATHS", "SCHEMAS", "bearer_board", "bp", "group_match", "match_json"]

bp = Blueprint("api_matches", __name__)


def group_match(group: GroupView, match_id: int) -> MatchView:
    """A match of the group by a client's id, else 404 (another group's match too)."""
    match = match_views.member_match(group.id, id_in_range(match_id, "match", 404))
    if match is None:
        raise NotFoundError("no such match in this group", "match")
    return match


def bearer_board(match_id: int) -> MatchView:
    """The match a request names in the group its bearer token opens, as its one read
    model (the frozen view the records write from): one plain query when both are
    right (every hand's save asks), else the answer of :func:`bearer_group` or
    :func:`group_match`, whichever is at fault."""
    token = bearer_token()
    view = match_views.invited_match(token, match_id)
    return view if view is not None else group_match(token_group(token), match_id)


def _players(group: GroupView, data: Any) -> list[GroupPlayer]:
    """Seats in clockwise order from player ids or names of the group."""
    if not isinstance(data, list) or not data:
        raise InputError("players must be a list of player ids or names, clockwise", "players")
    players = group_players(group)
    by_id = {p.id: p for p in players}
    by_name = {name_key(p.name): p for p in players}
    seats = []
    for item in data:
        if isinstance(item, str):
            player = by_name.get(name_key(clean_name(item, "players")))
        else:
            player = by_id.get(id_in_range(item, "players"))
        if player is None:
            raise InputError(f"{item!r} is not a player of this group", "players")
        seats.append(player)
    return seats


def _check_deal(data: dict[str, Any], sheet: Sheet, players: int) -> None:
    """The pages' setup checks: nine cards needs everyone's word; the deal must fit."""
    agreed = data.get("agree_nine", False)
    if not isinstance(agreed, bool):
        raise InputError("agree_nine must be true or false", "agree_nine")
    problem = nine_problem(sheet, agreed, "send agree_nine: true")
    if problem:
        raise InputError(problem, "agree_nine")
    try:
        plan_for_sheet(sheet, players)
    except DealError as exc:
        field = "sheet.options.hand_size" if exc.field == "hand_size" else "players"
        raise InputError(exc.message, field) from None


@bp.post("/matches")
def create():
    """Start a match; 201 with the match."""
    group = bearer_group()
    data = json_object()
    sheet = read_sheet(data.get("sheet"))
    players = _players(group, data.get("players"))
    dealer = data.get("first_dealer", 0)
    if not isinstance(dealer, int) or isinstance(dealer, bool):
        raise InputError("first_dealer must be a seat index (0 is the first seat)", "first_dealer")
    _check_deal(data, sheet, len(players))
    match = start_match(group, sheet, players, dealer)  # refusals: 400 naming the field
    response = jsonify(match_json(match))
    response.headers["Location"] = f"/api/v1/matches/{match.id}"
    return response, 201


@bp.get("/matches/<int:match_id>")
def show(match_id: int):
    """A match with its hands and standings, its row and hands read in one snapshot
    (what a client reads after a 409, while other phones keep recording)."""
    match = bearer_board(match_id)
    found = match_views.match_records(match.group_id, match.id)
    if not found:  # deleted since the line above
        raise NotFoundError("no such match in this group", "match")
    return jsonify(match_json(found[0].match, found[0].hands))
