"""The rules engine: a pure state machine for Last One, Crazy Eights and Countdown.

It imports only the standard library and ``scorekeeper.cards`` / ``scorekeeper.sheets``.

Quick tour::

    g = Game.start(sheet, players, dealer, hands, upcard, stock=None, situation=None,
                   counts=None, seed=None, names=None)  # or Game.deal(sheet, players, ...)
    g.current_player, g.actors(), g.legal_moves(), g.legal_moves_by_player()
    g.check(move) -> Verdict(legal True/False/None, reason, rule id, cause)
    g.apply(move)  # raises NotYourTurnError / IllegalPlayError / GameOverError
    g.undo(); g.is_over; g.outcome(); g.summary()

>>> g = parse_position("c8 | up 4H | turn 1 | hands 8S,KH/4S,5C")
>>> g.check(Move.parse("1:4S")).legal, g.check(Move.parse("1:5C")).rule
(True, 'c8-turn')

Replay API (what a JSON endpoint sends) maps one to one onto :meth:`Game.start`::

    {"sheet": {"game": "last-one", "options": {...}},   # Sheet.to_dict() data
     "players": 3, "dealer": 0,
     "hands": [["8S","KH","7D","AC","2C"], 5, ["4S"]],  # per seat: cards, an unseen
                                                        # count, or {"cards", "unknown"}
     "upcard": "4H",
     "stock": 30,                                       # optional: count or cards (top first)
     "counts": [8, 7, 8],                               # optional, Countdown only
     "names": ["Ann", "Bo", "Cy"],                      # optional: seat names for reasons
     "situation": {"turn": 2, "direction": -1, "active_suit": "D", "upcard_as": "4H",
                   "pending_draw": 2, "melee": {"aggressor": 0, "defender": 1},
                   "free_play": false, "uncalled": null},  # optional, every field optional
     "events": ["1:8S/D", "2:draw", {"kind": "play", "player": 0, "card": "JK", "as": "5H"}]}

Use :func:`game_from_request` to build the game and :func:`moves_from_events` for the
events (each a compact move text, see :class:`Move`, or an object with ``kind``,
``player`` and optionally ``card``, ``suit``, ``as``); then ``g.replay(moves)``
returns how many were applied and the error of the first refused one (its
``verdict`` says why and cites the rule). ``g.summary()`` is JSON-ready. A request
that cannot be a position raises :class:`SetupError`, whose ``field`` names the
request field at fault (``hands[1]``, ``situation.melee``, ``stock``...). Reasons
name seats "seat 0", "seat 1"... unless ``names`` are given.

Move kinds: ``play`` (``1:8S/D``: an 8 naming diamonds; ``0:JK=5H``: a joker as 5♥),
``draw`` (``2:draw``, or ``2:draw:7C`` when the card is known; one card per event,
owed cards too), ``pass``, ``call`` ("last one"/"last card", by the seat holding one
card, any time before another seat plays or draws) and ``name``: in a fresh Last One
hand whose upcard is an 8 or a joker (with ``starter_effects``), the dealer first
names its suit (``0:name/D``) or card (``0:name=5H``, ``0:name=8H/C``); in Crazy
Eights the first player may name the suit of a starting 8 (``1:name/D``) before
playing, and must before drawing.

``situation`` fields: ``turn`` (default: left of the dealer), ``direction`` (1
clockwise, -1), ``upcard_as`` (what a joker upcard stands for), ``active_suit``
(default the upcard's suit; another suit means it was named with an 8/wild, so rank
no longer matches; null lets any card follow), ``pending_draw`` (cards owed by the
seat on turn: from 2s, or by the defender when a melee is given), ``melee``
(aggressor and defender; the turn goes to the defender), ``free_play`` (the seat on
turn may put a free card on a 3), ``uncalled`` (a seat holding one card that has not
called yet).
"""

from __future__ import annotations

from scorekeeper.cards import parse_card
from scorekeeper.sheets import Sheet

from .moves import (
    GameOverError,
    IllegalMoveError,
    IllegalPlayError,
    Move,
    NotYourTurnError,
    SetupError,
    Verdict,
)
from .notation import parse_position
from .replay import game_from_request, move_from_event, moves_from_events
from .state import Game, Outcome

__all__ = [
    "Game",
    "GameOverError",
    "IllegalMoveError",
    "IllegalPlayError",
    "Move",
    "NotYourTurnError",
    "Outcome",
    "SetupError",
    "Sheet",
    "Verdict",
    "game_from_request",
    "move_from_event",
    "moves_from_events",
    "parse_card",
    "parse_position",
]
