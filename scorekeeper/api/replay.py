"""``POST /api/v1/replay``: replay what the table saw and judge every event.

Stateless: the request describes a hand (sheet, seats, hands, upcard, optionally a
mid-hand situation) and a list of events; the answer is a verdict per event, the
first illegal one, and the position after the last event replayed. The JSON event
format below is this endpoint's contract; :func:`read_events` maps it onto engine
:class:`~scorekeeper.engine.Move` objects. The play checker page builds the same
request and calls :func:`run`, so page and API always agree.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, jsonify

from ..cards import CardError, DeckError, Suit, deck_for, parse_card
from ..engine import Game, IllegalMoveError, Move, SetupError
from ..engine import setup as engine_setup
from ..sheets import GAMES, Sheet
from .common import ApiError, error_response, json_body, json_object, ok_response
from .score import parse_sheet

bp = Blueprint("api_replay", __name__)

MAX_EVENTS = 500
MAX_TEXT = 200  # characters of one card or hand text
MAX_OWED = 108  # pending_draw: more cards than two decks hold is nonsense
REQUEST_KEYS = ("sheet", "players", "dealer", "hands", "upcard", "stock", "situation",
                "counts", "names", "events", "include_legal_moves")
MAX_NAME = 60
ACTIONS = ("play", "draw", "pass", "call", "name")
SITUATION_KEYS = engine_setup.SITUATION_KEYS


def _int(value: Any, field: str, low: int, high: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ApiError(f"{field} must be {what} from {low} to {high}, not {value!r}", field)
    return value


def _text(value: Any, field: str, limit: int = MAX_TEXT) -> str:
    if not isinstance(value, str) or len(value) > limit:
        raise ApiError(f"{field} must be card text (at most {limit} characters)", field)
    return value


def _card(value: Any, field: str):
    try:
        return parse_card(_text(value, field))
    except CardError as exc:
        raise ApiError(str(exc), field) from None


def _suit(value: Any, field: str) -> Suit:
    try:
        return Suit.parse(_text(value, field))
    except CardError as exc:
        raise ApiError(str(exc), field) from None


# ----------------------------------------------------------------- the table

def _hands(data: Any, players: int) -> list[Any]:
    if not isinstance(data, list) or len(data) != players:
        raise ApiError(f"hands must list one entry per seat ({players})", "hands")
    for seat, entry in enumerate(data):
        field = f"hands[{seat}]"
        if isinstance(entry, str):
            _text(entry, field, 4 * MAX_TEXT)
        elif isinstance(entry, list):
            if len(entry) > 108:
                raise ApiError(f"{field} holds more cards than any deck", field)
            for c in entry:
                _text(c, field)
        elif isinstance(entry, int) and not isinstance(entry, bool) and entry > 108:
            raise ApiError(f"{field} holds more cards than any deck", field)
        try:
            known, unknown = engine_setup.read_hand(entry, seat)
        except (SetupError, CardError) as exc:
            raise ApiError(str(exc), field) from None
        if not known and not unknown:
            raise ApiError(f"{field} is empty: somebody who went out has ended the hand", field)
    return data


def _check_deck(sheet: Sheet, players: int, hands: list[Any], upcard: str) -> None:
    """Hands and upcard against the deck, before the stock is considered."""
    seen, held = [], 0
    for seat, entry in enumerate(hands):
        known, unknown = engine_setup.read_hand(entry, seat)
        seen += known
        held += len(known) + unknown
    try:
        engine_setup.check_deck(deck_for(sheet.game, players), [*seen, parse_card(upcard)],
                                held + 1)
    except DeckError as exc:
        raise ApiError(str(exc), "hands") from None


def _situation(data: Any) -> dict[str, Any] | None:
    """Type checks the engine leaves loose (it reads them again, with the seats)."""
    if data is None:
        return None
    if not isinstance(data, dict):
        raise ApiError("situation must be an object", "situation")
    for key in data:
        if key not in SITUATION_KEYS:
            raise ApiError(f"unknown situation field {key!r}: use {', '.join(SITUATION_KEYS)}",
                           f"situation.{key}")
    if data.get("active_suit") is not None:
        _suit(data["active_suit"], "situation.active_suit")
    if data.get("upcard_as") is not None:
        _card(data["upcard_as"], "situation.upcard_as")
    if "direction" in data and (type(data["direction"]) is not int
                                or data["direction"] not in (1, -1)):
        raise ApiError("situation.direction must be 1 or -1", "situation.direction")
    if "pending_draw" in data:
        _int(data["pending_draw"], "situation.pending_draw", 0, MAX_OWED, "a number of cards")
    if "free_play" in data and not isinstance(data["free_play"], bool):
        raise ApiError("situation.free_play must be true or false", "situation.free_play")
    return data


def _names(data: Any, players: int) -> list[str] | None:
    """Optional seat names: verdict reasons then say "Ann" instead of "seat 0"."""
    if data is None:
        return None
    if not isinstance(data, list) or len(data) != players or not all(
            isinstance(n, str) and 0 < len(n.strip()) <= MAX_NAME for n in data):
        raise ApiError(f"names must give each of the {players} seats a name "
                       f"(at most {MAX_NAME} characters)", "names")
    return data


def read_game(data: Mapping[str, Any]) -> Game:
    """The game a replay request describes, or :class:`ApiError` naming the field."""
    for key in data:
        if key not in REQUEST_KEYS:
            raise ApiError(f"unknown field {key!r}", str(key)[:60])
    sheet = parse_sheet(data.get("sheet"))
    info = GAMES[sheet.game]
    players = _int(data.get("players"), "players", info.min_players, info.max_players,
                   f"the number of {info.name} players")
    dealer = _int(data.get("dealer", 0), "dealer", 0, players - 1, "a seat")
    hands = _hands(data.get("hands"), players)
    upcard = str(_card(data.get("upcard"), "upcard"))
    _check_deck(sheet, players, hands, upcard)
    stock = data.get("stock")
    if isinstance(stock, list):
        for c in stock:
            _text(c, "stock")
    elif (stock is not None and not isinstance(stock, (int, str))) or isinstance(stock, bool):
        raise ApiError("stock must be a number of cards or the cards, top first", "stock")
    counts = data.get("counts")
    if counts is not None and not isinstance(counts, list):
        raise ApiError("counts must list each seat's count", "counts")
    situation = _situation(data.get("situation"))
    names = _names(data.get("names"), players)
    try:
        return Game.start(sheet, players, dealer, hands, upcard, stock, situation, counts,
                          names=names)
    except DeckError as exc:
        raise ApiError(str(exc), "stock") from None
    except CardError as exc:
        raise ApiError(str(exc), "stock" if stock is not None else "situation") from None
    except SetupError as exc:
        raise ApiError(str(exc), exc.field) from None


# ----------------------------------------------------------------- events

def read_event(event: Any, i: int, players: int) -> Move:
    """One JSON event as an engine move (see the OpenAPI description for the format)."""
    at = f"events[{i}]"
    if not isinstance(event, dict):
        raise ApiError("an event must be an object like {\"player\": 1, \"play\": \"4S\"}", at)
    for key in event:
        if key not in (*ACTIONS, "player", "suit", "as"):
            raise ApiError(f"unknown event field {key!r}", f"{at}.{str(key)[:40]}")
    kinds = [k for k in ACTIONS if k in event]
    if len(kinds) != 1:
        raise ApiError("an event does exactly one of play, draw, pass, call, name", at)
    kind = kinds[0]
    player = _int(event.get("player"), f"{at}.player", 0, players - 1, "a seat")
    value = event[kind]
    if kind in ("pass", "call", "name") and value is not True:
        raise ApiError(f"{kind} must be true", f"{at}.{kind}")
    if kind not in ("play", "name") and ("suit" in event or "as" in event):
        extra = "suit" if "suit" in event else "as"
        raise ApiError(f"a {kind} names no suit or card", f"{at}.{extra}")
    suit = None if event.get("suit") is None else _suit(event["suit"], f"{at}.suit")
    as_card = None if event.get("as") is None else _card(event["as"], f"{at}.as")
    if kind == "play":
        return Move.play(player, _card(value, f"{at}.play"), suit, as_card)
    if kind == "draw":
        return Move.draw(player, None if value is None else _card(value, f"{at}.draw"))
    if kind == "name":
        return Move.name(player, suit, as_card)
    return Move.pass_(player) if kind == "pass" else Move.call(player)


def read_events(data: Any, players: int) -> list[Move]:
    """The request's ``events`` (default none) as moves."""
    if data is None:
        return []
    if not isinstance(data, list):
        raise ApiError("events must be a list", "events")
    if len(data) > MAX_EVENTS:
        raise ApiError(f"at most {MAX_EVENTS} events", "events")
    return [read_event(e, i, players) for i, e in enumerate(data)]


# ----------------------------------------------------------------- replay

def legal_moves_json(game: Game) -> dict[str, Any]:
    """Legal moves per seat that may act, keyed by seat number as text."""
    return {str(seat): moves for seat, moves in sorted(game.legal_moves_by_player().items())}


def rule_url(game_key: str, rule: str) -> str:
    """The rules-reference address of a verdict's rule."""
    return f"/rules/{game_key}#{rule}"


def state_json(game: Game) -> dict[str, Any]:
    """The position after the replay, as documented in ``ReplayState``."""
    s = game.summary()
    keys = ("current_player", "actors", "upcard", "upcard_as", "active_suit", "direction",
            "hand_sizes", "stock", "pending_draw", "melee", "over", "outcome")
    return {k: s[k] for k in keys}


def replay(game: Game, moves: list[Move], want_moves: bool = False) -> dict[str, Any]:
    """Apply the moves in order, judging each; stop at the first illegal one.

    A move the engine cannot rule on (``legal`` None: it depends on cards nobody saw)
    is applied as if allowed, since the table saw it happen.
    """
    steps: list[dict[str, Any]] = []
    first_illegal = None
    for i, move in enumerate(moves):
        before = legal_moves_json(game) if want_moves else None
        try:
            verdict = game.apply(move)
        except IllegalMoveError as err:
            verdict, first_illegal = err.verdict, i
        step = {"legal": verdict.legal, "reason": verdict.reason, "rule": verdict.rule,
                "rule_url": rule_url(game.variant.game, verdict.rule), "cause": verdict.cause}
        if before is not None:
            step["legal_moves"] = before
        steps.append(step)
        if first_illegal is not None:
            break
    state = state_json(game)
    if want_moves:
        state["legal_moves"] = legal_moves_json(game)
    return {"ok": first_illegal is None, "first_illegal": first_illegal,
            "uncertain": [i for i, s in enumerate(steps) if s["legal"] is None],
            "steps": steps, "state": state}


def run(data: Mapping[str, Any]) -> dict[str, Any]:
    """Read a whole replay request and answer it (raises :class:`ApiError`)."""
    game = read_game(data)
    moves = read_events(data.get("events"), game.players)
    want = data.get("include_legal_moves", False)
    if not isinstance(want, bool):
        raise ApiError("include_legal_moves must be true or false", "include_legal_moves")
    return replay(game, moves, want)


@bp.post("/replay")
def replay_view():
    """Replay a hand's events and judge each; 400 names the field at fault."""
    return jsonify(run(json_object()))


# ----------------------------------------------------------------- OpenAPI

_CARD = {"type": "string", "description": "A card in any accepted spelling: 8S, 10h, ♥Q, JK."}
_SEAT = {"type": "integer", "minimum": 0, "description": "Seat number, from 0 clockwise."}
_SUIT = {"type": "string", "description": "A suit: C, D, H, S (or ♣ ♦ ♥ ♠, clubs...)."}
_NULL_INT = {"type": ["integer", "null"]}

EVENT_SCHEMA = {
    "type": "object",
    "required": ["player"],
    "additionalProperties": False,
    "description": (
        "Exactly one action: {\"player\": 1, \"play\": \"4S\"} (with \"suit\" for an 8 or "
        "wild, \"as\" for a joker's named card); {\"player\": 2, \"draw\": \"6D\"} or "
        "\"draw\": null when nobody saw the card (one event per card, owed cards too); "
        "{\"pass\": true}; {\"call\": true} (last one / last card); {\"name\": true, "
        "\"suit\": \"D\"} or {\"name\": true, \"as\": \"5H\"}: the dealer names a starting "
        "8's suit or a starting joker's card (Last One with starter effects)."),
    "properties": {
        "player": _SEAT,
        "play": _CARD,
        "draw": {"type": ["string", "null"]},
        "pass": {"const": True},
        "call": {"const": True},
        "name": {"const": True},
        "suit": {"type": ["string", "null"]},
        "as": {"type": ["string", "null"]},
    },
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
        "uncalled": {"type": ["integer", "null"],
                     "description": "A seat holding one card that has not called yet."},
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
            "players": {"type": "integer", "minimum": 2, "maximum": 7},
            "dealer": {"type": "integer", "minimum": 0, "default": 0},
            "hands": {"type": "array", "minItems": 2, "maxItems": 7,
                      "description": "Per seat: its cards (a list or text), a count of cards "
                      "nobody saw, or {\"cards\": [...], \"unknown\": n}.",
                      "items": {"type": ["array", "string", "integer", "object"]}},
            "upcard": _CARD,
            "stock": {"type": ["integer", "string", "array", "null"],
                      "description": "A count, or the cards top first; default: the rest."},
            "counts": {"type": ["array", "null"], "items": {"type": "integer"},
                       "description": "Countdown only: each seat's count."},
            "names": {"type": ["array", "null"],
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
        "required": ["legal", "reason", "rule", "rule_url", "cause"],
        "properties": {
            "legal": {"type": ["boolean", "null"]},
            "reason": {"type": "string"},
            "rule": {"type": "string", "description": "Anchor in /rules/<game>."},
            "rule_url": {"type": "string"},
            "cause": {"enum": ["turn", "play", "over"]},
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
            "outcome": {"type": ["object", "null"]},
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
                "the replay. A malformed request is a 400 whose `error.field` names the "
                "field at fault (`events[3].play`, `hands[1]`, `sheet.options.twos_stack`)."),
            "requestBody": json_body("ReplayRequest"),
            "responses": {
                "200": ok_response("ReplayResponse", "A verdict per event replayed"),
                "400": error_response("Malformed request; error.field names what is wrong"),
            },
        }
    }
}
