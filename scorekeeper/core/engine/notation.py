"""A one-line position notation for tests and bug reports.

Fields are separated by ``|``; the first is the game (``lo``, ``c8``, ``cd``), the
rest are ``key value`` pairs in any order::

    lo | up 4H | turn 1 | hands 8S,KH/5/4S | melee 0>1

=========  ===============================================================
``up``     the upcard; a joker with what it stands for: ``JK=5H``
``hands``  seats split by ``/``; cards split by ``,``; a number counts unseen
           cards (``8S,KH,2`` = two seen cards and two unseen)
``turn``   seat on turn (default: left of the dealer)
``dealer`` the dealer's seat (default 0)
``dir``    ``1`` clockwise or ``-1``
``suit``   the active suit when one was named (``*``: any card may follow)
``stock``  a count, or cards top first (``stock 9C,2D``); default: the rest
``owe``    cards the seat on turn owes (``pending_draw``)
``melee``  ``aggressor>defender``
``free``   the seat on turn has a free play (after a 3)
``drawn``  cards the seat on turn has drawn this turn (already in its hand)
``pile``   what lies under the upcard: a count, or cards nearest first
``uncalled`` a seat holding one card that has not called
``counts`` Countdown counts per seat: ``counts 8,7``
``opt``    sheet options: ``opt twos_stack=true,draw_limit=null``
``fresh``  start the hand fresh (starter effects apply) instead of mid-hand
=========  ===============================================================

>>> g = parse_position("lo | up 4H | turn 1 | hands 8S,KH/5/4S | melee 0>1")
>>> g.melee, g.hand_sizes(), g.current_player
(Melee(aggressor=0, defender=1), [2, 5, 1], 1)
"""

from __future__ import annotations

import json
from typing import Any

from scorekeeper.core.engine.moves import SetupError
from scorekeeper.core.engine.replay import read_game
from scorekeeper.core.engine.state import HandInPlay
from scorekeeper.core.games import GAMES
from scorekeeper.core.sheets import Sheet

__all__ = ["game_codes", "parse_position", "position_request"]


def game_codes() -> dict[str, str]:
    """A position's short game code (each game's :attr:`Game.code`) → its key."""
    return {g.code: key for key, g in GAMES.items()}


def _hand(text: str) -> Any:
    cards: list[str] = []
    unknown = 0
    for token in filter(None, (t.strip() for t in text.split(","))):
        if token.isdigit():
            unknown += int(token)
        else:
            cards.append(token)
    return {"cards": cards, "unknown": unknown} if unknown and cards else (unknown or cards)


def _options(text: str) -> dict[str, Any]:
    out = {}
    for pair in filter(None, (p.strip() for p in text.split(","))):
        key, _, raw = pair.partition("=")
        try:
            out[key.strip()] = json.loads(raw)
        except json.JSONDecodeError:
            out[key.strip()] = raw.strip()
    return out


def _stock(text: str) -> Any:
    return int(text) if text.isdigit() else [t for t in text.split(",") if t]


def position_request(text: str) -> dict[str, Any]:
    """The notation as a replay request object (see the package docstring).

    >>> position_request("c8 | up 4H | hands 8S/3")["hands"]
    [['8S'], 3]
    """
    game, *fields = [f.strip() for f in text.split("|")]
    codes = game_codes()
    if game not in codes:
        *most, last = codes
        raise SetupError(f"position must start with {', '.join(most)} or {last}, "
                         f"not {game!r}", "sheet")
    req: dict[str, Any] = {"options": {}, "situation": {}, "dealer": 0}
    fresh = False
    for field in fields:
        key, _, value = field.partition(" ")
        value = value.strip()
        if key == "fresh":
            fresh = True
        elif key in _READERS:
            name, read = _READERS[key]
            target = req["situation"] if name in _SITUATION else req
            target[name] = read(value)
        else:
            raise SetupError(f"unknown position field {key!r}", key)
    if "hands" not in req or "upcard" not in req:
        raise SetupError("a position needs 'up' and 'hands'",
                         "hands" if "hands" not in req else "upcard")
    req["upcard"], named = req["upcard"]
    if named is not None:
        req["situation"]["upcard_as"] = named
    if fresh and req["situation"]:
        raise SetupError("'fresh' cannot be combined with turn, suit, owe, melee or a "
                         "named joker: the dealer names a fresh joker", "situation")
    sheet = Sheet.make(codes[game], req.pop("options"))
    req["sheet"] = sheet.to_dict()
    req["players"] = len(req["hands"])
    situation = req.pop("situation")
    req["situation"] = None if fresh else situation
    return req


def _up(value: str) -> tuple[str, str | None]:
    card, _, named = value.partition("=")
    return card, named or None


def _melee(value: str) -> dict[str, int]:
    a, _, d = value.partition(">")
    return {"aggressor": int(a), "defender": int(d)}


_SITUATION = {"turn", "direction", "active_suit", "pending_draw", "melee", "free_play",
              "uncalled", "drawn"}
_READERS: dict[str, tuple[str, Any]] = {
    "up": ("upcard", _up),
    "hands": ("hands", lambda v: [_hand(h) for h in v.split("/")]),
    "turn": ("turn", int),
    "dealer": ("dealer", int),
    "dir": ("direction", int),
    "suit": ("active_suit", lambda v: None if v == "*" else v),
    "stock": ("stock", _stock),
    "pile": ("pile", _stock),
    "drawn": ("drawn", int),
    "owe": ("pending_draw", int),
    "melee": ("melee", _melee),
    "free": ("free_play", lambda v: True),
    "uncalled": ("uncalled", int),
    "counts": ("counts", lambda v: [int(c) for c in v.split(",")]),
    "opt": ("options", _options),
}


def parse_position(text: str) -> HandInPlay:
    """Build the :class:`HandInPlay` a one-line position describes."""
    return read_game(position_request(text))
