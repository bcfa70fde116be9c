"""``POST /api/v1/replay``: replay what the table saw and judge every event.

The request format and its one reader live in :mod:`scorekeeper.core.engine.replay`:
the body is read into the engine's :class:`~scorekeeper.core.engine.question.Question`
(the play checker page builds the same object from its form), judged, and the
:class:`~scorekeeper.core.engine.question.Answer` sent back as its JSON, all by
:func:`~scorekeeper.core.engine.replay.run`. This module is the route and its part of
the OpenAPI document.
"""

from __future__ import annotations

from flask import Blueprint, jsonify

from scorekeeper.api.common import (
    COUNT_SCHEMA,
    MAX_SEATS,
    MIN_SEATS,
    SEAT_SCHEMA,
    error_response,
    json_body,
    json_object,
    ok_response,
)
from scorekeeper.core.engine.replay import ACTIONS, MAX_EVENTS, MAX_NAME, MAX_OWED, run

bp = Blueprint("api_replay", __name__)


@bp.post("/replay")
def replay_view():
    """Replay a hand's events and judge each; 400 names the field at fault. The body
    may be up to ``REPLAY_MAX_BYTES`` (see ``scorekeeper/web/security.py``)."""
    return jsonify(run(json_object()))


# ----------------------------------------------------------------- OpenAPI

_CARD = {"type": "string", "description": "A card in any accepted spelling: 8S, 10h, ♥Q, JK."}
_SEAT = {**SEAT_SCHEMA, "description": "Seat number, from 0 clockwise."}
_SUIT = {"type": "string", "description": "A suit: C, D, H, S (or ♣ ♦ ♥ ♠, clubs...)."}
_NULL_INT = {"type": ["integer", "null"]}

EVENT_SCHEMA = {
    "type": "object",
    "required": ["player"],
    "additionalProperties": False,
    "description": (
        "Exactly one action: {\"player\": 1, \"play\": \"4S\"} (with \"suit\" for an 8 or "
        "wild, \"as\" for a joker's named card); {\"player\": 2, \"draw\": \"6D\"} or "
        "\"draw\": null when nobody saw the card; several cards in one event: "
        "\"draw\": [\"7C\", \"KD\"] or \"draw\": 3 (three unseen cards), for owed "
        "cards or a run of draws; "
        "{\"pass\": true}; {\"call\": true} (last one / last card); {\"name\": true, "
        "\"suit\": \"D\"} or {\"name\": true, \"as\": \"5H\"}: the dealer names a starting "
        "8's suit or a starting joker's card (Last One with starter effects)."),
    "properties": {
        "player": _SEAT,
        "play": _CARD,
        "draw": {"oneOf": [
            {"type": ["string", "null"]},
            {"type": "array", "minItems": 1, "maxItems": MAX_OWED, "items": {"type": "string"}},
            {"type": "integer", "minimum": 1, "maximum": MAX_OWED}]},
        "pass": {"const": True},
        "call": {"const": True},
        "name": {"const": True},
        "suit": {"type": ["string", "null"]},
        "as": {"type": ["string", "null"]},
    },
    # exactly one action (each branch forbids the others, so anyOf says oneOf at less
    # cost to a generator); only a play or a naming says a suit or a card
    "anyOf": [{"required": [action], "properties": {
        **{other: False for other in ACTIONS if other != action},
        **({} if action in ("play", "name") else {"suit": False, "as": False})}}
        for action in ACTIONS],
}

SITUATION_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "description": "Start mid-hand from this situation; every field optional.",
    "properties": {
        "turn": _SEAT,
        "direction": {"enum": [1, -1]},
        "active_suit": {"type": ["string", "null"],
                        "description": "Suit to follow; another than the upcard's means it "
                        "was named with an 8 or wild; null lets any card follow."},
        "upcard_as": {"type": ["string", "null"], "description": "What a joker upcard stands for."},
        "pending_draw": {"type": "integer", "minimum": 0, "maximum": MAX_OWED,
                         "description": "Cards owed by the seat on turn (in a melee: the "
                         "defender)."},
        "melee": {"type": ["object", "null"], "required": ["aggressor", "defender"],
                  "additionalProperties": False,
                  "properties": {"aggressor": _SEAT, "defender": _SEAT}},
        "free_play": {"type": "boolean", "description": "The seat on turn may add a card to a 3."},
        "uncalled": {**_SEAT, "type": ["integer", "null"],
                     "description": "A seat holding one card that has not called yet."},
        "drawn": {"type": "integer", "minimum": 0, "maximum": MAX_OWED,
                  "description": "Cards the seat on turn has drawn this turn (already in "
                  "its hand): it may then play, draw again or pass as the sheet allows."},
    },
}

LEGAL_MOVES_SCHEMA = {
    "type": "object",
    "description": "Per seat that may act (key: seat number): cards it may play (an 8 or "
    "joker listed once), and whether it may draw, pass, call or name the starter.",
    "additionalProperties": {
        "type": "object",
        "required": ["play", "draw", "pass", "call"],
        "properties": {"play": {"type": "array", "items": {"type": "string"}},
                       "draw": {"type": "boolean"}, "pass": {"type": "boolean"},
                       "call": {"type": "boolean"}, "name": {"type": "boolean"}},
    },
}

SCHEMAS = {
    "ReplayEvent": EVENT_SCHEMA,
    "ReplaySituation": SITUATION_SCHEMA,
    "LegalMoves": LEGAL_MOVES_SCHEMA,
    "ReplayRequest": {
        "type": "object",
        "required": ["sheet", "players", "hands", "upcard"],
        "additionalProperties": False,
        "properties": {
            "sheet": {"$ref": "#/components/schemas/Sheet"},
            "players": {"type": "integer", "minimum": MIN_SEATS, "maximum": MAX_SEATS},
            "dealer": {**_SEAT, "default": 0},
            "hands": {"type": "array", "minItems": MIN_SEATS, "maxItems": MAX_SEATS,
                      "description": "Per seat: its cards (a list or text), a count of cards "
                      "nobody saw, or {\"cards\": [...], \"unknown\": n}.",
                      "items": {"type": ["array", "string", "integer", "object"]}},
            "upcard": _CARD,
            "stock": {"type": ["integer", "string", "array", "null"],
                      "description": "A count, or the cards top first; default: the rest."},
            "pile": {"type": ["integer", "string", "array", "null"],
                     "description": "What lies under the upcard: a count, or the cards "
                     "nearest the upcard first (0: the pile is just the upcard). Default: "
                     "every card not in a hand or the stock. Hands, stock, pile and upcard "
                     "must add up to the deck."},
            "counts": {"type": ["array", "null"], "minItems": MIN_SEATS, "maxItems": MAX_SEATS,
                       "items": COUNT_SCHEMA,
                       "description": "Countdown only: each seat's count."},
            "names": {"type": ["array", "null"], "minItems": MIN_SEATS, "maxItems": MAX_SEATS,
                      "items": {"type": "string", "minLength": 1, "maxLength": MAX_NAME},
                      "description": "Each seat's name, used in the reasons (\"it is Ann's "
                      "turn\"); without them reasons say \"seat 0\", \"seat 1\"..."},
            "situation": {"oneOf": [{"$ref": "#/components/schemas/ReplaySituation"},
                                    {"type": "null"}]},
            "events": {"type": "array", "maxItems": MAX_EVENTS,
                       "items": {"$ref": "#/components/schemas/ReplayEvent"}},
            "include_legal_moves": {"type": "boolean", "default": False},
        },
    },
    "ReplayStep": {
        "type": "object",
        "required": ["legal", "reason", "rule", "rule_url", "cause", "needs_suit", "assumed",
                     "draws"],
        "properties": {
            "legal": {"type": ["boolean", "null"]},
            "reason": {"type": "string", "description": "Why, in words for people; "
                       "what a program needs is in the other fields."},
            "rule": {"type": "string", "description": "Anchor in /rules/<game>."},
            "rule_url": {"type": "string"},
            "cause": {"enum": ["turn", "play", "over"]},
            "needs_suit": {"type": "boolean", "description": "True when the event is "
                           "refused only for want of a named suit: the same play (an 8, "
                           "a Countdown wild, a joker as one) or naming with a `suit` is "
                           "legal."},
            "assumed": {"type": "array", "items": {"type": "integer"},
                        "description": "When `legal` is null: the seats (from 0) assumed "
                        "to hold no playable card, their cards unseen; the event is legal "
                        "if they could not play."},
            "draws": {"type": "integer", "minimum": 0, "description": "What a draw "
                      "costs in all: the cards the seat owes or must draw (1 for a plain "
                      "draw); 0 for any other event."},
            "implied": {"type": "array", "items": {"type": "string"},
                        "description": "Passes the table left unsaid, taken as said "
                        "before this event, in words: [\"pass by seat 1\"]."},
            "implied_seats": {"type": "array", "items": {"type": "integer"},
                              "description": "The seats (from 0) of the passes in "
                              "`implied`, in the same order; present with it."},
            "moved_on": {"type": "array", "items": {"type": "string"},
                         "description": "Passes the engine took after this event because "
                         "they were all those seats had left (the turn moved on), in "
                         "words; the pass written out next is still accepted."},
            "moved_on_seats": {"type": "array", "items": {"type": "integer"},
                               "description": "The seats (from 0) of the passes in "
                               "`moved_on`, in the same order; present with it."},
            "legal_moves": {"$ref": "#/components/schemas/LegalMoves"},
        },
    },
    "ReplayState": {
        "type": "object",
        "required": ["current_player", "upcard", "active_suit", "direction", "hand_sizes",
                     "pending_draw", "melee", "over", "outcome"],
        "properties": {
            "current_player": _NULL_INT,
            "actors": {"type": "array", "items": {"type": "integer"}},
            "upcard": {"type": "string"},
            "upcard_as": {"type": "string"},
            "active_suit": {"enum": ["C", "D", "H", "S", None]},
            "direction": {"enum": [1, -1]},
            "hand_sizes": {"type": "array", "items": {"type": "integer"}},
            "stock": {"type": "integer"},
            "pending_draw": {"type": "integer"},
            "melee": {"type": ["object", "null"]},
            "over": {"type": "boolean"},
            "outcome": {"type": ["object", "null"],
                        "description": "When the hand is over: result (out, blocked, "
                        "jammed), winner, hands, unknown, counts, and points: what each "
                        "seat scores (as /api/v1/score would), or null while some held "
                        "cards are unseen."},
            "legal_moves": {"$ref": "#/components/schemas/LegalMoves"},
        },
    },
    "ReplayResponse": {
        "type": "object",
        "required": ["ok", "first_illegal", "uncertain", "steps", "state"],
        "properties": {
            "ok": {"type": "boolean"},
            "first_illegal": _NULL_INT,
            "uncertain": {"type": "array", "items": {"type": "integer"}},
            "steps": {"type": "array", "items": {"$ref": "#/components/schemas/ReplayStep"}},
            "state": {"$ref": "#/components/schemas/ReplayState"},
        },
    },
}

PATHS = {
    "/api/v1/replay": {
        "post": {
            "summary": "Replay a hand's events and judge each one",
            "operationId": "replayHand",
            "description": (
                "Seats are numbered from 0 clockwise. Without `situation` the hand starts "
                "fresh: the seat after the dealer plays first and the upcard acts per "
                "`starter_effects`. Each step's `legal` is true, false, or null when it "
                "cannot be told from what the table saw (it depends on unseen cards). "
                "A null step is replayed as if allowed, because the table saw it happen; "
                "its index is listed in `uncertain`. `ok` is false only when some step is "
                "illegal; the replay stops there and `first_illegal` is its index. "
                "`steps[i].legal_moves` (with `include_legal_moves`) is what each seat "
                "could do just before event i; `state.legal_moves` what it can do after "
                "the replay. When the seat on turn has nothing left but the pass, the turn moves "
                "on by itself, in the starting position too (that step's `moved_on` lists "
                "the pass; written out next, it is still accepted). A pass the table left "
                "unsaid is judged as the written one when the next seat acts; that step's "
                "`implied` lists it (`implied_seats` and `moved_on_seats` give those passes' "
                "seats). What a program needs of a step is a field "
                "(`needs_suit`, `assumed`, `draws`, the seats), never its `reason`. A malformed "
                "request is a 400 whose "
                "`error.field` names the field at fault (`events[3].play`, `hands[1]`, "
                "`pile`, `sheet.options.twos_stack`); a body over 512 KiB is a 413."),
            "requestBody": json_body("ReplayRequest"),
            "responses": {
                "200": ok_response("ReplayResponse", "A verdict per event replayed"),
                "400": error_response("Malformed request; error.field names what is wrong"),
                "413": error_response("The request body is too large"),
            },
        }
    }
}
